// Package constrain makes a terrain pass through given heights at steady
// state by adjusting its uplift, not by clamping heights (Schott et al.
// 2022, §1: point and curve elevation constraints).
//
// Constraints. A point constraint is one (x, y, h); a curve constraint is a
// polyline with a height per vertex (a ridge crest, a river bed), heights
// interpolated linearly along it. x and y are metres in map coordinates
// (origin at the north-west corner, x east, y south, cell (i, j) centred
// at ((i+½)·cell, (j+½)·cell)); h is metres. Rasterize turns them into
// target cells: the cell under a point, every cell a curve crosses
// (sampled at a quarter cell), with the curve's height nearest the cell's
// centre.
//
// Scheme. At steady state with no hillslope or talus term a cell's slope
// is s = (u/k)^(1/n) A^(-m/n), so along a fixed drainage network heights
// are proportional to u^(1/n): scaling the uplift of a region by F scales
// the heights it builds by F^(1/n). Adjust compares each target cell's
// height h with its target T (both above base level, plus Eps = 50 m so
// cells near base level ask for no absurd factor), takes the log-ratio
// ln((T+ε)/(h+ε))·n·Damping (Damping ½: half the way per adjustment),
// clamped to the log of [½, 2], and spreads it over a disc of Radius cells
// (10 by default) with Schott et al. 2022's falloff (1 - d²/r²)³: where
// the discs of several target cells overlap (a curve) the factor is their
// weighted mean, where one disc reaches alone it fades out. The uplift is
// the base uplift times the accumulated factors, bounded to [0.01, 20].
// The network moves as the uplift does, so Adjust is iterated with the
// simulation (Drive): run, adjust, run again. Nothing clamps a height.
//
// An earlier scheme scaled the uplift along each target's flow path (the
// cells its height actually depends on); with targets draining into one
// another along a crest it swung receivers back and forth and never
// settled, so the smooth disc won.
//
// Limits (measured on the default preset at 128², 390 m cells): a point
// constraint converges to within a metre. A curve converges in the mean
// but not cell by cell: a polyline drawn along a crest crosses cells beside
// the crest, which stand a talus step (226 m at 30°) below it, and a disc
// of uplift cannot put both at one height; the error along such a curve
// stays near a talus step. Where the talus limit holds a slope, more uplift
// does not raise a cell. A target at or below base level cannot be met
// (counted in Unreachable). Lowering or raising a region moves divides, so
// neighbouring basins can capture or lose cells: terrain outside the
// constraints' discs is not guaranteed unchanged (measured: up to 3.6 % of
// the relief in basins the adjusted uplift does not touch). Constraints are met at
// steady state only.
package constrain

import (
	"fmt"
	"math"
	"slices"
)

// Point is a position in map coordinates and a height, metres.
type Point struct{ X, Y, H float64 }

// Constraint is one point (len(Points) == 1) or a curve (2 or more).
type Constraint struct {
	Points []Point
}

// Target is a rasterized constraint cell.
type Target struct {
	Cell int32   // y*W + x
	H    float64 // target height, metres
	C    int     // index of the constraint
}

// MaxPoints bounds the vertices of one curve.
const MaxPoints = 10000

// Rasterize returns the target cells of cs on a w×h grid of cell metres.
// A cell two constraints reach keeps the first one's. A point
// outside the map, a curve of no vertices or with a non-finite value are
// errors naming the constraint and vertex.
func Rasterize(cs []Constraint, w, h int, cell float64) ([]Target, error) {
	W, H := float64(w)*cell, float64(h)*cell
	type hit struct {
		k int     // index in out
		d float64 // squared distance of the sample to the cell centre
	}
	seen := map[int32]hit{}
	var out []Target
	// A cell takes the height of the sample nearest its centre, from the
	// first constraint that reaches it.
	add := func(x, y, ht float64, c int) {
		cx := min(w-1, max(0, int(math.Floor(x/cell))))
		cy := min(h-1, max(0, int(math.Floor(y/cell))))
		i := int32(cy*w + cx)
		dx, dy := x-(float64(cx)+0.5)*cell, y-(float64(cy)+0.5)*cell
		d := dx*dx + dy*dy
		if old, ok := seen[i]; !ok {
			seen[i] = hit{len(out), d}
			out = append(out, Target{Cell: i, H: ht, C: c})
		} else if out[old.k].C == c && d < old.d {
			seen[i] = hit{old.k, d}
			out[old.k].H = ht
		}
	}
	for ci, c := range cs {
		if len(c.Points) == 0 || len(c.Points) > MaxPoints {
			return nil, fmt.Errorf("constraint %d: %d points: give 1 (a point) to %d (a curve)", ci, len(c.Points), MaxPoints)
		}
		for pi, p := range c.Points {
			for _, v := range []float64{p.X, p.Y, p.H} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("constraint %d, point %d: (%g, %g, %g) is not finite", ci, pi, p.X, p.Y, p.H)
				}
			}
			if p.X < 0 || p.Y < 0 || p.X > W || p.Y > H {
				return nil, fmt.Errorf("constraint %d, point %d: (%g, %g) m is outside the map [0, %g] × [0, %g] m", ci, pi, p.X, p.Y, W, H)
			}
			if math.Abs(p.H) > 1e5 {
				return nil, fmt.Errorf("constraint %d, point %d: height %g m is absurd (|h| must be <= 1e5 m)", ci, pi, p.H)
			}
		}
		add(c.Points[0].X, c.Points[0].Y, c.Points[0].H, ci)
		for k := 1; k < len(c.Points); k++ {
			a, b := c.Points[k-1], c.Points[k]
			n := max(1, int(math.Ceil(math.Hypot(b.X-a.X, b.Y-a.Y)/(cell/4))))
			for s := 1; s <= n; s++ {
				t := float64(s) / float64(n)
				add(a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y), a.H+t*(b.H-a.H), ci)
			}
		}
	}
	return out, nil
}

// Damping is the power on each factor: ½ takes half the (logarithmic) way
// at each adjustment, which keeps the drainage network from swinging.
var Damping = 0.5

// DefaultRadius is the default kernel radius, cells.
const DefaultRadius = 10

// Eps is added to target and current heights in their ratio, metres, so
// cells near base level do not ask for absurd factors.
const Eps = 50

// Bounds of the factors.
const (
	MinStep  = 0.5  // smallest factor of one adjustment
	MaxStep  = 2    // largest
	MinScale = 0.01 // smallest accumulated factor
	MaxScale = 20   // largest
)

// Solver keeps the per-cell factors on the base uplift.
type Solver struct {
	w, h    int
	targets []Target
	scale   []float32 // per cell, on the base uplift
	logSum  []float64
	wSum    []float64
	// Radius is the kernel radius, cells (0: DefaultRadius).
	Radius float64
	// Unreachable counts, after Adjust, the targets at or below base
	// level (0 m).
	Unreachable int
}

// New returns a solver for the targets on a w×h grid, every factor 1.
func New(targets []Target, w, h int) *Solver {
	s := &Solver{w: w, h: h, targets: slices.Clone(targets), scale: make([]float32, w*h)}
	for i := range s.scale {
		s.scale[i] = 1
	}
	for _, t := range s.targets {
		if int(t.Cell) >= w*h || t.Cell < 0 {
			panic(fmt.Sprintf("constrain: target cell %d outside the %d×%d grid", t.Cell, w, h))
		}
	}
	return s
}

// Targets returns the solver's targets.
func (s *Solver) Targets() []Target { return s.targets }

// Scale returns the per-cell factors (read only).
func (s *Solver) Scale() []float32 { return s.scale }

// Uplift sets dst (grown as needed) to base times the factors, bounded to
// ±umax, and returns it.
func (s *Solver) Uplift(dst, base []float32, umax float32) []float32 {
	if len(base) != len(s.scale) {
		panic(fmt.Sprintf("constrain: %d uplift values for a %d×%d grid", len(base), s.w, s.h))
	}
	dst = append(dst[:0], base...)
	for i, f := range s.scale {
		dst[i] = min(umax, max(-umax, dst[i]*f))
	}
	return dst
}

// Adjust updates the factors from the steady heights hs and the slope
// exponent n; see the package doc.
func (s *Solver) Adjust(hs []float32, n float64) {
	if len(hs) != len(s.scale) {
		panic(fmt.Sprintf("constrain: %d heights for a %d×%d grid", len(hs), s.w, s.h))
	}
	r := s.Radius
	if r <= 0 {
		r = DefaultRadius
	}
	if s.logSum == nil {
		s.logSum = make([]float64, len(s.scale))
		s.wSum = make([]float64, len(s.scale))
	}
	clear(s.logSum)
	clear(s.wSum)
	s.Unreachable = 0
	ri := int(math.Ceil(r))
	for _, t := range s.targets {
		h := float64(hs[t.Cell])
		if t.H <= 0 {
			s.Unreachable++ // at or below base level
		}
		ratio := min(MaxStep, max(MinStep, (max(t.H, 0)+Eps)/(max(h, 0)+Eps)))
		lr := math.Log(ratio) * n * Damping
		cx, cy := int(t.Cell)%s.w, int(t.Cell)/s.w
		for y := max(0, cy-ri); y <= min(s.h-1, cy+ri); y++ {
			for x := max(0, cx-ri); x <= min(s.w-1, cx+ri); x++ {
				d2 := float64((x-cx)*(x-cx)+(y-cy)*(y-cy)) / (r * r)
				if d2 >= 1 {
					continue
				}
				k := (1 - d2) * (1 - d2) * (1 - d2)
				i := y*s.w + x
				s.logSum[i] += k * lr
				s.wSum[i] += k
			}
		}
	}
	for i, w := range s.wSum {
		if w == 0 {
			continue
		}
		// The weighted mean where kernels overlap (a curve's cells), the
		// kernel's own falloff where one reaches alone.
		f := math.Exp(s.logSum[i] / max(1, w))
		s.scale[i] = float32(min(MaxScale, max(MinScale, float64(s.scale[i])*f)))
	}
}

// Error is, for each constraint, the largest |height - target| over its
// cells, metres.
func (s *Solver) Error(hs []float32, constraints int) []float64 {
	e := make([]float64, constraints)
	for _, t := range s.targets {
		e[t.C] = max(e[t.C], math.Abs(float64(hs[t.Cell])-t.H))
	}
	return e
}
