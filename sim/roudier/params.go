package roudier

import (
	"fmt"
	"math"
)

// Params are the coefficients of Roudier et al. 1993 §3.3's laws, per
// step (an iteration of the paper: its laws have no time in them).
// Heights are metres; water is metres of water over a cell. They may
// change between steps (Engine.SetRoudier).
type Params struct {
	// Rain is W, the rain every cell receives in a step, m of water.
	Rain float64 `json:"rain_m"`
	// Alpha is α, the coefficient of detritus removal by running water:
	// a cell is lowered by α·K_d·tanθ·Q, Q the running water through it
	// (its own and all upstream), m.
	Alpha float64 `json:"alpha"`
	// Creep is the length that turns the paper's gravity creep K_d·tanθ
	// into metres: z_g = Creep·K_d·tanθ (the paper's is in the grid's
	// height unit; see the package doc).
	Creep float64 `json:"creep_m"`
	// Gamma is γ, the weight of chemical dissolution: z_c = γ·K_e·q'.
	Gamma float64 `json:"gamma"`
	// Transport is r, the transport coefficient: running water Q on a
	// slope whose normal leans φ from the vertical carries at most
	// r·Q/cos φ of detritus.
	Transport float64 `json:"transport"`
	// Veg is the constant K_v of vegetation on slopes of 30° and less
	// (§3.2); it falls linearly to 0 at 60°.
	Veg float64 `json:"veg"`
	// SnowLine is the height, m, at and above which nothing grows
	// (K_v = 0).
	SnowLine float64 `json:"snow_line_m"`
	// RiverCells sets the river beds, where nothing grows: cells whose
	// running water from upstream is at least the rain of RiverCells
	// cells (RiverCells·W). 0 makes every cell with upstream water a
	// river bed.
	RiverCells float64 `json:"river_cells"`
}

// DefaultParams returns coefficients that carve valleys into a few tens
// of metres of relief in a few hundred steps at cells of 10 to 100 m:
// W = 1 m, α = 0.01, creep 0.3 m, γ = 0.01, r = 0.01, K_v = 0.2 up to
// 30°, snow line 3000 m, river beds from 100 cells of rain.
func DefaultParams() Params {
	return Params{Rain: 1, Alpha: 0.01, Creep: 0.3, Gamma: 0.01, Transport: 0.01, Veg: 0.2, SnowLine: 3000, RiverCells: 100}
}

// limit is the allowed range of one parameter.
type limit struct {
	name   string
	v      float64
	lo, hi float64
	unit   string
}

func (p Params) limits() []limit {
	return []limit{
		{"rain W", p.Rain, 0, 1e3, "m"},
		{"alpha (detritus removal)", p.Alpha, 0, 1e3, ""},
		{"creep", p.Creep, 0, 1e4, "m"},
		{"gamma (dissolution)", p.Gamma, 0, 1e3, ""},
		{"transport r", p.Transport, 0, 1e3, ""},
		{"vegetation Kv", p.Veg, 0, 1, ""},
		{"snow line", p.SnowLine, -1e6, 1e6, "m"},
		{"river cells", p.RiverCells, 0, 1e12, "cells"},
	}
}

// Validate returns an error naming the first parameter that is NaN,
// infinite, negative (the snow line may be) or beyond any sensible value.
func (p Params) Validate() error {
	for _, l := range p.limits() {
		if l.v >= l.lo && l.v <= l.hi {
			continue
		}
		unit := ""
		if l.unit != "" {
			unit = " " + l.unit
		}
		return fmt.Errorf("roudier: %s = %g: must be finite, >= %g and <= %g%s", l.name, l.v, l.lo, l.hi, unit)
	}
	return nil
}

// tan30 and tan60 bound the slopes where vegetation thins out (§3.2).
var (
	tan30 = math.Tan(math.Pi / 6)
	tan60 = math.Tan(math.Pi / 3)
)

// vegetation returns K_v (§3.2) on a slope of tangent t, for a cell at
// height z out of a river bed (where K_v = 0, see the sweep).
func (p *Params) vegetation(t, z float64) float64 {
	if z >= p.SnowLine || t >= tan60 {
		return 0
	}
	if t <= tan30 {
		return p.Veg
	}
	return p.vegetationSteep(t)
}

// vegetationSteep is K_v between 30° and 60°: linear in the angle from
// K_v at 30° to 0 at 60°. Apart from vegetation, which stays small
// enough to inline.
//
//go:noinline
func (p *Params) vegetationSteep(t float64) float64 {
	return p.Veg * (math.Pi/3 - math.Atan(t)) / (math.Pi / 6)
}
