package roudier

import (
	"fmt"
	"math"

	"orogen/sim/geology"
)

// Strata is a lithology of horizontal layers repeating without end
// upwards and downwards: layer k spans [Base + (n·P + o_k), Base + (n·P +
// o_k + T_k)) for every whole n, P the sum of the thicknesses. It is the
// engine's lithology when the scene has no geology of its own
// (DefaultStrata), and the tests' one.
type Strata struct {
	Base   float64 // height of the bottom of the first layer, m
	Layers []Layer // bottom to top
	period float64
}

// Layer is one layer of Strata.
type Layer struct {
	Thickness float64 // m, > 0
	Rock      geology.Rock
}

// NewStrata checks the layers and returns the repeating stack.
func NewStrata(base float64, layers ...Layer) (*Strata, error) {
	if len(layers) == 0 {
		return nil, fmt.Errorf("roudier: strata with no layer")
	}
	if math.IsNaN(base) || math.IsInf(base, 0) {
		return nil, fmt.Errorf("roudier: strata base %g m: must be finite", base)
	}
	s := &Strata{Base: base, Layers: layers}
	for k, l := range layers {
		if !(l.Thickness > 0) || math.IsInf(l.Thickness, 0) {
			return nil, fmt.Errorf("roudier: layer %d (%s) thickness %g m: must be finite and > 0", k, l.Rock.Name, l.Thickness)
		}
		if err := CheckRock(l.Rock); err != nil {
			return nil, fmt.Errorf("roudier: layer %d: %w", k, err)
		}
		s.period += l.Thickness
	}
	return s, nil
}

// DefaultStrata is the lithology the engine uses without a geology of its
// own: 20 m of quartzite (hard) over 30 m of clay (soft), repeating, the
// contrast of Roudier et al. 1993's cliffs and valleys.
func DefaultStrata() *Strata {
	s, err := NewStrata(0, Layer{30, geology.Clay}, Layer{20, geology.Quartzite})
	if err != nil {
		panic(err)
	}
	return s
}

// RockAt returns the layer at height z; x and y are not looked at.
func (s *Strata) RockAt(_, _, z float64) geology.Rock { return *s.rockAt(z) }

// rockAt is RockAt without the copy.
func (s *Strata) rockAt(z float64) *geology.Rock { return &s.Layers[s.LayerAt(z)].Rock }

// LayerAt returns the index in Layers of the layer at height z.
func (s *Strata) LayerAt(z float64) int {
	d := z - s.Base
	d -= math.Floor(d/s.period) * s.period
	for k := range s.Layers {
		if d < s.Layers[k].Thickness {
			return k
		}
		d -= s.Layers[k].Thickness
	}
	return len(s.Layers) - 1
}

// Period returns the thickness of the repeating pattern, m: the sum of
// the layers'.
func (s *Strata) Period() float64 { return s.period }

// CheckRock returns an error if a coefficient of r is NaN or outside
// [0, 1] (Roudier et al. 1993 §3.2: "All these values range from 0 to 1").
func CheckRock(r geology.Rock) error {
	for _, c := range []struct {
		name string
		v    float64
	}{{"Kd", r.Kd}, {"Kf", r.Kf}, {"Ke", r.Ke}} {
		if !(c.v >= 0 && c.v <= 1) {
			return fmt.Errorf("rock %q: %s = %g: must be in [0, 1]", r.Name, c.name, c.v)
		}
	}
	return nil
}
