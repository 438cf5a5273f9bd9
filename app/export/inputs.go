package export

import (
	"math"

	"orogen/sim"
	"orogen/sim/engine"
)

// Inputs are the fields that masks, splat rules and flow maps are made
// from, at the simulation's size: one per name of InputNames. Sediment
// and Rock are nil when the simulation has none; every other is set.
type Inputs struct {
	W, H int
	Cell float64
	// Height in metres; HeightFrac is (h-min)/(max-min) in [0, 1].
	Height, HeightFrac []float32
	// Slope is the gradient's angle in degrees (central differences,
	// one-sided at the borders).
	Slope []float32
	// Curvature is the Laplacian of the height, 1/m (five-point stencil,
	// borders repeated): positive in hollows and valleys, negative on
	// ridges.
	Curvature []float32
	// Flow is how many cells drain through each, n, normalized to
	// [0, 1] as ln(n)/ln(W·H): 0 on divides, 1 where the whole grid
	// drains. n is the drainage area over a cell's area, or, with the
	// lakes' water budget on (rain), the discharge over the rain on one
	// cell (Q/(r·a)), so lakes that evaporate pass on less.
	Flow []float32
	// Water is the lake water depth, metres (0 where dry).
	Water []float32
	// Sediment is loose material, metres: the hydraulic pass's suspended
	// sediment, or the alluvium of sim/geology when it is on. nil when
	// neither is.
	Sediment []float32
	// Rock is the fraction of exposed bedrock in [0, 1] with a geology
	// (see InputsOf); nil while geology is off.
	Rock []float32
	// dx and dy are the unit flow direction (east, south), for FlowMap.
	dx, dy []float32
}

// InputNames are the inputs rules and masks may name.
var InputNames = []string{"height", "height_frac", "slope", "curvature", "flow", "water", "sediment", "rock"}

// RockFadeM is the alluvium thickness, m, that hides the bedrock in the
// rock input: bedrock under alluvium thinner than that shows through,
// fading linearly, so that splat maps blend at the edges of deposits.
const RockFadeM = 1.0

// InputsOf computes the inputs of s. Sediment comes from s.Sediment (the
// hydraulic engine's) when set, else from the alluvium of a geology
// (s.Alluvium); Rock, the exposed bedrock, is 1 − alluvium/RockFadeM
// clamped to [0, 1] with a geology, and nil without one.
func InputsOf(s *engine.Snapshot) *Inputs {
	w, h := s.W, s.H
	n := w * h
	in := &Inputs{W: w, H: h, Cell: s.Cell, Height: s.Height}
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for _, v := range s.Height {
		lo, hi = min(lo, v), max(hi, v)
	}
	in.HeightFrac = make([]float32, n)
	if hi > lo {
		for i, v := range s.Height {
			in.HeightFrac[i] = (v - lo) / (hi - lo)
		}
	}
	in.Slope = make([]float32, n)
	in.Curvature = make([]float32, n)
	at := func(x, y int) float64 {
		x = min(max(x, 0), w-1)
		y = min(max(y, 0), h-1)
		return float64(s.Height[y*w+x])
	}
	c := s.Cell
	parallelRows(h, func(a, b int) {
		for y := a; y < b; y++ {
			for x := range w {
				// Central differences; at a border the repeated cell makes
				// them one-sided over one cell.
				ddx := (at(x+1, y) - at(x-1, y)) / (float64(min(x+1, w-1)-max(x-1, 0)) * c)
				ddy := (at(x, y+1) - at(x, y-1)) / (float64(min(y+1, h-1)-max(y-1, 0)) * c)
				if w == 1 {
					ddx = 0
				}
				if h == 1 {
					ddy = 0
				}
				in.Slope[y*w+x] = float32(math.Atan(math.Hypot(ddx, ddy)) * 180 / math.Pi)
				lap := at(x-1, y) + at(x+1, y) + at(x, y-1) + at(x, y+1) - 4*at(x, y)
				in.Curvature[y*w+x] = float32(lap / (c * c))
			}
		}
	})
	in.Flow = make([]float32, n)
	src, unit := s.Area, c*c
	if s.Discharge != nil && s.Param.Rain > 0 {
		src, unit = s.Discharge, s.Param.Rain*c*c
	}
	if src != nil && n > 1 {
		den := math.Log(float64(n))
		for i, v := range src {
			in.Flow[i] = float32(min(max(math.Log(float64(v)/unit)/den, 0), 1))
		}
	}
	in.Water = s.Water
	if in.Water == nil {
		in.Water = make([]float32, n)
	}
	in.Sediment = s.Sediment
	if s.Alluvium != nil {
		if in.Sediment == nil {
			in.Sediment = s.Alluvium
		}
		in.Rock = make([]float32, n)
		for i, a := range s.Alluvium {
			in.Rock[i] = float32(min(max(1-float64(a)/RockFadeM, 0), 1))
		}
	}
	in.dx, in.dy = make([]float32, n), make([]float32, n)
	for i, r := range s.Receivers {
		j := int(r)
		if j == i || j < 0 || j >= n || (s.Water != nil && s.Water[i] > 0) {
			continue // outlets and lakes: no direction
		}
		ex, ey := float64(j%w-i%w), float64(j/w-i/w)
		l := math.Hypot(ex, ey)
		in.dx[i], in.dy[i] = float32(ex/l), float32(ey/l)
	}
	return in
}

// Field returns the named input (nil for sediment or rock when absent, or
// an unknown name).
func (in *Inputs) Field(name string) []float32 {
	switch name {
	case "height":
		return in.Height
	case "height_frac":
		return in.HeightFrac
	case "slope":
		return in.Slope
	case "curvature":
		return in.Curvature
	case "flow":
		return in.Flow
	case "water":
		return in.Water
	case "sediment":
		return in.Sediment
	case "rock":
		return in.Rock
	}
	return nil
}

// field wraps data as a field of the inputs' grid.
func (in *Inputs) field(data []float32) *sim.Field {
	return &sim.Field{W: in.W, H: in.H, Cell: in.Cell, Data: data}
}
