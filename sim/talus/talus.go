package talus

import (
	"fmt"
	"math"

	"orogen/sim/noise"
	"orogen/sim/parallel"
)

// Mode selects how the talus angle is chosen.
type Mode string

// The modes. The empty Mode means ModeOff.
const (
	ModeOff      Mode = "off"      // no slope limit
	ModeConstant Mode = "constant" // one angle everywhere (Cordonnier et al. 2016, §5: 30°)
	ModeHeight   Mode = "height"   // low angle below a height, high above (Cordonnier et al. 2016, Fig. 18)
	ModeNoise    Mode = "noise"    // angle modulated by seeded fBm (Cordonnier et al. 2016, Fig. 17)
)

// DefaultAngleDeg is the constant mode's angle when AngleDeg is 0: the usual
// talus angle of Cordonnier et al. 2016, §5 and §6.4.
const DefaultAngleDeg = 30

// Noise-mode fBm shape: Cordonnier et al. 2016, §6.4 asks for noise "with a
// high persistence"; these are fixed so that a Model stays small.
const (
	noisePersistence = 0.6
	noiseLacunarity  = 2
	maxOctaves       = 16
)

// Model describes the talus angle. The zero Model is off.
type Model struct {
	Mode Mode

	// AngleDeg is the constant mode's angle in degrees; 0 means
	// DefaultAngleDeg.
	AngleDeg float64

	// Height mode (Cordonnier et al. 2016, Fig. 18): LowDeg below HeightM
	// metres, HighDeg above, the tangent blended by a smoothstep over the
	// BlendM metres centred on HeightM (0 switches sharply at HeightM).
	LowDeg, HighDeg, HeightM, BlendM float64

	// Noise mode (Cordonnier et al. 2016, Fig. 17, 6° to 54° there): the
	// angle varies between MinDeg and MaxDeg following fBm of the given
	// wavelength in metres and number of octaves, seeded by Seed.
	MinDeg, MaxDeg, WavelengthM float64
	Octaves                     int
	Seed                        uint64
}

// Validate reports the first problem with the fields the mode uses, naming
// the field and the allowed range.
func (m Model) Validate() error {
	switch m.Mode {
	case "", ModeOff:
		return nil
	case ModeConstant:
		if m.AngleDeg == 0 {
			return nil
		}
		return checkAngle("constant angle_deg", m.AngleDeg)
	case ModeHeight:
		return first(
			checkAngle("height low_deg", m.LowDeg),
			checkAngle("height high_deg", m.HighDeg),
			checkFinite("height height_m", m.HeightM),
			checkNonNegative("height blend_m", m.BlendM),
		)
	case ModeNoise:
		if err := first(checkAngle("noise min_deg", m.MinDeg), checkAngle("noise max_deg", m.MaxDeg)); err != nil {
			return err
		}
		if m.MinDeg > m.MaxDeg {
			return fmt.Errorf("talus: noise min_deg %g > max_deg %g; swap them", m.MinDeg, m.MaxDeg)
		}
		if err := checkFinite("noise wavelength_m", m.WavelengthM); err != nil {
			return err
		}
		if !(m.WavelengthM >= 1e-3) {
			return fmt.Errorf("talus: noise wavelength_m %g must be ≥ 0.001 (a few kilometres suits a 50 km map)", m.WavelengthM)
		}
		if m.Octaves < 1 || m.Octaves > maxOctaves {
			return fmt.Errorf("talus: noise octaves %d outside [1, %d] (4 is typical)", m.Octaves, maxOctaves)
		}
		return nil
	}
	return fmt.Errorf("talus: unknown mode %q; want %q, %q, %q or %q", m.Mode, ModeOff, ModeConstant, ModeHeight, ModeNoise)
}

// first returns the first non-nil error.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func checkAngle(name string, deg float64) error {
	if math.IsNaN(deg) {
		return fmt.Errorf("talus: %s is NaN; want an angle in degrees in (0, 90)", name)
	}
	if !(deg > 0 && deg < 90) {
		return fmt.Errorf("talus: %s %g outside (0, 90) degrees", name, deg)
	}
	return nil
}

func checkFinite(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("talus: %s is %g; want a finite number", name, v)
	}
	return nil
}

func checkNonNegative(name string, v float64) error {
	if err := checkFinite(name, v); err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("talus: %s %g is negative; want ≥ 0", name, v)
	}
	return nil
}

// Limiter applies a Model's slope limit. It is immutable after construction
// and safe for concurrent use by Tan; Clamp writes only the heights passed.
type Limiter struct {
	kind kind
	n    int // cells, for the noise field

	tan float32 // constant

	tanLow, tanHigh float64 // height
	heightM         float64
	blendLo, blendM float64 // blend starts at blendLo and spans blendM
	invBlend        float64 // 1/blendM

	field []float32 // noise: tan of the angle per cell
}

// kind is Mode as a small integer, cheap to switch on per node.
type kind uint8

const (
	kindOff kind = iota
	kindConstant
	kindHeight
	kindNoise
)

// Limiter returns the limiter of m for a w×h grid of cell metres. The noise
// mode fills its per-cell tangent field here (in parallel, identically for
// any GOMAXPROCS); the other modes precompute their tangents. It panics if m
// is invalid (call Validate first) or the grid is empty.
func (m Model) Limiter(w, h int, cell float64) *Limiter {
	if err := m.Validate(); err != nil {
		panic("talus: invalid model: " + err.Error())
	}
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("talus: bad grid size %d×%d", w, h))
	}
	l := &Limiter{n: w * h}
	switch m.Mode {
	case ModeConstant:
		l.kind = kindConstant
		a := m.AngleDeg
		if a == 0 {
			a = DefaultAngleDeg
		}
		l.tan = float32(tanDeg(a))
	case ModeHeight:
		l.kind = kindHeight
		l.tanLow, l.tanHigh = tanDeg(m.LowDeg), tanDeg(m.HighDeg)
		l.heightM = m.HeightM
		l.blendLo, l.blendM = m.HeightM-m.BlendM/2, m.BlendM
		if m.BlendM > 0 {
			l.invBlend = 1 / m.BlendM
		}
	case ModeNoise:
		l.kind = kindNoise
		if !(cell > 0) || math.IsInf(cell, 0) {
			panic(fmt.Sprintf("talus: cell size %v m must be positive and finite", cell))
		}
		l.field = noiseField(m, w, h, cell)
	}
	return l
}

func tanDeg(deg float64) float64 { return math.Tan(deg * math.Pi / 180) }

// noiseField returns tan θ per cell, θ = MinDeg + (MaxDeg − MinDeg)·u with
// u = Φ(v/σ): v the fBm at (x·cell/λ, y·cell/λ), σ its standard deviation
// and Φ the normal CDF, so that the angles spread evenly over the range.
func noiseField(m Model, w, h int, cell float64) []float32 {
	f := noise.NewFractal(noise.FractalSpec{Seed: m.Seed, Frequency: cell / m.WavelengthM,
		Octaves: m.Octaves, Persistence: noisePersistence, Lacunarity: noiseLacunarity})
	sigma := noise.FBMStd(noise.Std2, m.Octaves, noisePersistence)
	lo, span := m.MinDeg, m.MaxDeg-m.MinDeg
	coord := func(n int) []float64 {
		c := make([]float64, n)
		for i := range c {
			c[i] = float64(i)
		}
		return c
	}
	var cols, rows noise.Axis
	f.SetX(&cols, coord(w))
	f.SetY(&rows, coord(h))
	field := make([]float32, w*h)
	parallel.Blocks(h, 16, func(_, y0, y1 int) {
		vs := make([]float64, w)
		for y := y0; y < y1; y++ {
			f.Grid(vs, &cols, 0, w, &rows, y, y+1)
			row := field[y*w : (y+1)*w]
			for x, v := range vs {
				u := 0.5 * (1 + math.Erf(v/(sigma*math.Sqrt2)))
				deg := min(m.MaxDeg, max(m.MinDeg, lo+span*u))
				row[x] = float32(tanDeg(deg))
			}
		}
	})
	return field
}

// Tan returns the tangent of the talus angle of cell i at the given height
// in metres: +Inf when off, the constant, the height blend, or the noise
// field's value at i (which then must lie in the grid).
func (l *Limiter) Tan(i int, height float32) float32 {
	switch l.kind {
	case kindConstant:
		return l.tan
	case kindHeight:
		return l.heightTan(height)
	case kindNoise:
		return l.field[i]
	}
	return float32(math.Inf(1))
}

// RoundDown returns the largest float32 not above x, for any x but NaN
// (the comparison h[i] > limit that guards every call is false for NaN);
// the limits of this package store it, and callers that apply the same
// limit in a fused loop (spl.ErodeClamp) must too.
func RoundDown(x float64) float32 { return roundDown(x) }

// roundDown returns the largest float32 not above x, for any x but NaN
// (the comparison h[i] > limit that guards every call is false for NaN).
// It steps the bits of the nearest float32 one ulp down when that rounded
// up, without a branch: where lowering happens is data dependent and a
// mispredicted branch would cost more than the rest of the node.
func roundDown(x float64) float32 {
	v := float32(x)
	var up uint32
	if float64(v) > x {
		up = 1
	}
	// One ulp towards −∞: minus one on the bits of a positive float32,
	// plus one on a negative one (−0 becomes the smallest negative
	// subnormal; +0 never rounds up from a smaller x).
	b := math.Float32bits(v)
	return math.Float32frombits(b + up*(b>>31)*2 - up)
}

// heightTan blends tanLow into tanHigh with a smoothstep of height over
// [blendLo, blendLo + blendM].
func (l *Limiter) heightTan(height float32) float32 {
	z := float64(height)
	if l.blendM == 0 {
		if z < l.heightM {
			return float32(l.tanLow)
		}
		return float32(l.tanHigh)
	}
	t := min(1, max(0, (z-l.blendLo)*l.invBlend))
	s := t * t * (3 - 2*t)
	return float32(l.tanLow + (l.tanHigh-l.tanLow)*s)
}

// Clamp lowers, in order, every node steeper than its talus angle:
// h[i] = min(h[i], h[r] + tanθ·dist[i]) with r = rec[i] and tanθ =
// l.Tan(i, h[r]), the angle taken at the receiver's (already final) height.
// order must list each node after its receiver; nodes with rec[i] == i are
// roots and left alone, as is every node not steeper than its limit (bit for
// bit). dist[i] is the horizontal distance to the receiver in metres. The
// new height is rounded toward −∞ to float32, so afterwards the float64
// slope (h[i] − h[r])/dist[i] never exceeds tanθ beyond the float64 rounding
// of h[r] + tanθ·dist[i]. Clamp returns the number of nodes it lowered.
//
// It panics if rec or dist differ in length from h, or, in noise mode, if
// h does not match the grid.
func (l *Limiter) Clamp(h []float32, rec []int32, dist []float32, order []int32) (clamped int) {
	if len(rec) != len(h) || len(dist) != len(h) {
		panic(fmt.Sprintf("talus: %d heights, %d receivers, %d distances", len(h), len(rec), len(dist)))
	}
	if l.kind == kindOff {
		return 0
	}
	if l.kind == kindNoise && len(h) != l.n {
		panic(fmt.Sprintf("talus: %d heights for a %d-cell noise field", len(h), l.n))
	}
	// One loop per mode, so that the tangent is a register, a load or a
	// few flops rather than a call per node.
	switch l.kind {
	case kindConstant:
		t := float64(l.tan)
		for _, n := range order {
			i := int(n)
			if r := int(rec[i]); r != i {
				if limit := float64(h[r]) + t*float64(dist[i]); float64(h[i]) > limit {
					h[i] = roundDown(limit)
					clamped++
				}
			}
		}
	case kindHeight:
		for _, n := range order {
			i := int(n)
			if r := int(rec[i]); r != i {
				hr := h[r]
				if limit := float64(hr) + float64(l.heightTan(hr))*float64(dist[i]); float64(h[i]) > limit {
					h[i] = roundDown(limit)
					clamped++
				}
			}
		}
	case kindNoise:
		field := l.field[:len(h)]
		for _, n := range order {
			i := int(n)
			if r := int(rec[i]); r != i {
				if limit := float64(h[r]) + float64(field[i])*float64(dist[i]); float64(h[i]) > limit {
					h[i] = roundDown(limit)
					clamped++
				}
			}
		}
	}
	return clamped
}
