package geology

import (
	"fmt"
	"math"
	"sort"
)

// DeformKind names a deformation's profile.
type DeformKind string

// The deformation kinds of Roudier et al. 1993 §3.1.
const (
	Fold    DeformKind = "fold"    // sine: Amplitude·sin(2π s/Wavelength + Phase)
	Fault   DeformKind = "fault"   // staircase: Steps steps of Throw/Steps
	Tilt    DeformKind = "tilt"    // oblique line: tan(Dip)·s
	Profile DeformKind = "profile" // free curve through Points
)

// Kinds lists the deformation kinds in the order the app offers them.
func Kinds() []DeformKind { return []DeformKind{Fold, Fault, Tilt, Profile} }

// Deformation is one elementary deformation: a profile f(s) along the axis
// of the given azimuth, applied along a slip direction leaning Lean degrees
// from vertical towards +s. Only the fields of its Kind matter.
type Deformation struct {
	Kind    DeformKind `json:"kind"`
	Azimuth float64    `json:"azimuth"`          // degrees, 0 = +x, 90 = +y
	Offset  float64    `json:"offset,omitempty"` // m: s = x·cos a + y·sin a − Offset
	Lean    float64    `json:"lean,omitempty"`   // degrees from vertical, |Lean| ≤ MaxLean

	Wavelength float64 `json:"wavelength,omitempty"` // fold, m
	Amplitude  float64 `json:"amplitude,omitempty"`  // fold, m
	Phase      float64 `json:"phase,omitempty"`      // fold, degrees

	Throw   float64 `json:"throw,omitempty"`   // fault: total vertical offset, m (+ raises the +s side)
	Steps   int     `json:"steps,omitempty"`   // fault: number of steps, ≥ 1
	Spacing float64 `json:"spacing,omitempty"` // fault: distance between steps, m
	Width   float64 `json:"width,omitempty"`   // fault: width of each step's ramp, m (0: vertical)

	Dip float64 `json:"dip,omitempty"` // tilt: degrees, (−90, 90)

	Points [][2]float64 `json:"points,omitempty"` // profile: (s m, f m), s strictly increasing
}

// MaxLean bounds a deformation's lean, degrees.
const MaxLean = 60

// MinFoldSlope is the least 1 + sin(lean)·f'(s) Compile accepts: below,
// the slip folds a layer (nearly) over itself and the undoing is not
// unique (or not well conditioned).
const MinFoldSlope = 0.05

// maxSteps bounds a fault's steps, so a typo cannot make a step cost
// millions of evaluations per cell.
const maxSteps = 1000

// deform is a validated Deformation, ready to evaluate.
type deform struct {
	kind       DeformKind
	ux, uy     float64 // axis
	off        float64
	sl, cl     float64 // sin and cos of the lean
	k, ph      float64 // fold: 2π/L and phase in radians
	amp        float64
	step       float64 // fault: throw per step
	steps      int
	spacing    float64
	width      float64
	tan        float64 // tilt
	ps, pf     []float64
	fmin, fmax float64 // bounds of f (tilt: unbounded)
}

func finite(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// compile checks d and returns its evaluator; i numbers it in errors.
func (d Deformation) compile(i int) (deform, error) {
	name := fmt.Sprintf("geology: deformation %d (%s)", i+1, d.Kind)
	if !finite(d.Azimuth, d.Offset, d.Lean, d.Wavelength, d.Amplitude, d.Phase, d.Throw, d.Spacing, d.Width, d.Dip) {
		return deform{}, fmt.Errorf("%s: a parameter is NaN or infinite", name)
	}
	if math.Abs(d.Lean) > MaxLean {
		return deform{}, fmt.Errorf("%s: lean %g° exceeds ±%d°", name, d.Lean, MaxLean)
	}
	a := d.Azimuth * math.Pi / 180
	l := d.Lean * math.Pi / 180
	c := deform{kind: d.Kind, ux: math.Cos(a), uy: math.Sin(a), off: d.Offset, sl: math.Sin(l), cl: math.Cos(l)}
	var dmin, dmax float64 // bounds of f'
	switch d.Kind {
	case Fold:
		if !(d.Wavelength > 0) {
			return deform{}, fmt.Errorf("%s: wavelength %g m must be > 0", name, d.Wavelength)
		}
		c.k, c.ph, c.amp = 2*math.Pi/d.Wavelength, d.Phase*math.Pi/180, d.Amplitude
		c.fmin, c.fmax = -math.Abs(d.Amplitude), math.Abs(d.Amplitude)
		dmax = math.Abs(d.Amplitude) * c.k
		dmin = -dmax
	case Fault:
		if d.Steps < 1 || d.Steps > maxSteps {
			return deform{}, fmt.Errorf("%s: %d steps: must be 1 to %d", name, d.Steps, maxSteps)
		}
		if d.Width < 0 {
			return deform{}, fmt.Errorf("%s: ramp width %g m must be >= 0", name, d.Width)
		}
		if d.Steps > 1 && !(d.Spacing > 0) {
			return deform{}, fmt.Errorf("%s: spacing %g m must be > 0 with %d steps", name, d.Spacing, d.Steps)
		}
		if d.Steps > 1 && d.Width > d.Spacing {
			return deform{}, fmt.Errorf("%s: ramp width %g m exceeds the spacing %g m: the steps would overlap", name, d.Width, d.Spacing)
		}
		c.step, c.steps, c.spacing, c.width = d.Throw/float64(d.Steps), d.Steps, d.Spacing, d.Width
		c.fmin, c.fmax = min(0, d.Throw), max(0, d.Throw)
		if d.Width > 0 {
			dmin, dmax = min(0, c.step/d.Width), max(0, c.step/d.Width)
		} else if d.Throw != 0 && d.Lean != 0 {
			return deform{}, fmt.Errorf("%s: a vertical step (width 0) with lean %g° tears or folds the layers over themselves: give the steps a ramp width", name, d.Lean)
		}
	case Tilt:
		if !(math.Abs(d.Dip) < 89) {
			return deform{}, fmt.Errorf("%s: dip %g° must be within ±89°", name, d.Dip)
		}
		c.tan = math.Tan(d.Dip * math.Pi / 180)
		dmin, dmax = c.tan, c.tan
		c.fmin, c.fmax = math.Inf(-1), math.Inf(1)
	case Profile:
		if len(d.Points) < 2 {
			return deform{}, fmt.Errorf("%s: needs at least 2 points, has %d", name, len(d.Points))
		}
		c.ps, c.pf = make([]float64, len(d.Points)), make([]float64, len(d.Points))
		c.fmin, c.fmax = math.Inf(1), math.Inf(-1)
		for j, p := range d.Points {
			if !finite(p[0], p[1]) {
				return deform{}, fmt.Errorf("%s: point %d is NaN or infinite", name, j+1)
			}
			if j > 0 && !(p[0] > d.Points[j-1][0]) {
				return deform{}, fmt.Errorf("%s: point %d: s = %g m must exceed the previous point's %g m", name, j+1, p[0], d.Points[j-1][0])
			}
			c.ps[j], c.pf[j] = p[0], p[1]
			c.fmin, c.fmax = min(c.fmin, p[1]), max(c.fmax, p[1])
			if j > 0 {
				sl := (p[1] - d.Points[j-1][1]) / (p[0] - d.Points[j-1][0])
				if !finite(sl) {
					return deform{}, fmt.Errorf("%s: point %d: the slope to it is infinite (points too close)", name, j+1)
				}
				dmin, dmax = min(dmin, sl), max(dmax, sl)
			}
		}
	default:
		return deform{}, fmt.Errorf("geology: deformation %d: unknown kind %q (want fold, fault, tilt or profile)", i+1, d.Kind)
	}
	if fs := 1 + min(c.sl*dmin, c.sl*dmax); fs < MinFoldSlope {
		return deform{}, fmt.Errorf("%s: with lean %g° the slip folds the layers over themselves (1 + sin(lean)·f' falls to %.3g; the inverse needs at least %g): lower the lean or the profile's steepness", name, d.Lean, fs, float64(MinFoldSlope))
	}
	return c, nil
}

// f returns the profile at s (already offset).
func (c *deform) f(s float64) float64 {
	switch c.kind {
	case Fold:
		return c.amp * math.Sin(c.k*s+c.ph)
	case Fault:
		v := 0.0
		for j := 0; j < c.steps; j++ {
			t := s - float64(j)*c.spacing
			if c.width > 0 {
				v += c.step * min(1, max(0, t/c.width))
			} else if t >= 0 {
				v += c.step
			}
		}
		return v
	case Tilt:
		return c.tan * s
	default:
		n := len(c.ps)
		if s <= c.ps[0] {
			return c.pf[0]
		}
		if s >= c.ps[n-1] {
			return c.pf[n-1]
		}
		j := sort.SearchFloat64s(c.ps, s) // c.ps[j-1] < s <= c.ps[j]
		t := (s - c.ps[j-1]) / (c.ps[j] - c.ps[j-1])
		return c.pf[j-1] + t*(c.pf[j]-c.pf[j-1])
	}
}

// df returns f'(s) (one-sided at kinks; 0 at a vertical step).
func (c *deform) df(s float64) float64 {
	switch c.kind {
	case Fold:
		return c.amp * c.k * math.Cos(c.k*s+c.ph)
	case Fault:
		if c.width == 0 {
			return 0
		}
		v := 0.0
		for j := 0; j < c.steps; j++ {
			t := s - float64(j)*c.spacing
			if t >= 0 && t < c.width {
				v += c.step / c.width
			}
		}
		return v
	case Tilt:
		return c.tan
	default:
		n := len(c.ps)
		if s < c.ps[0] || s >= c.ps[n-1] {
			return 0
		}
		j := sort.SearchFloat64s(c.ps, s)
		if j < n && c.ps[j] == s {
			j++
		}
		return (c.pf[j] - c.pf[j-1]) / (c.ps[j] - c.ps[j-1])
	}
}

// forward moves (x, y, z) by the deformation.
func (c *deform) forward(x, y, z float64) (float64, float64, float64) {
	d := c.f(x*c.ux + y*c.uy - c.off)
	return x + c.sl*d*c.ux, y + c.sl*d*c.uy, z + c.cl*d
}

// inverse undoes forward.
func (c *deform) inverse(x, y, z float64) (float64, float64, float64) {
	sp := x*c.ux + y*c.uy - c.off
	if c.sl == 0 {
		return x, y, z - c.f(sp)
	}
	s := c.solve(sp)
	d := c.f(s)
	return x - c.sl*d*c.ux, y - c.sl*d*c.uy, z - c.cl*d
}

// solve returns the s with s + sl·f(s) = sp; compile made the left side
// strictly increasing.
func (c *deform) solve(sp float64) float64 {
	if c.kind == Tilt {
		return sp / (1 + c.sl*c.tan)
	}
	lo, hi := sp-max(c.sl*c.fmin, c.sl*c.fmax), sp-min(c.sl*c.fmin, c.sl*c.fmax)
	s := sp
	tol := 1e-12 * (1 + math.Abs(sp) + math.Abs(hi-lo))
	for range 200 {
		g := s + c.sl*c.f(s) - sp
		if g == 0 {
			return s
		}
		if g > 0 {
			hi = s
		} else {
			lo = s
		}
		if hi-lo <= tol {
			break
		}
		n := s - g/(1+c.sl*c.df(s))
		if !(n > lo && n < hi) {
			n = 0.5 * (lo + hi)
		}
		s = n
	}
	return s
}
