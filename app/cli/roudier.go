package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"orogen/sim/roudier"
)

// roudierFlags registers the flags of Roudier's engine's coefficients on
// cmd and returns a function that, once the flags are parsed, returns the
// override they make: only the flags given change the scene's values (or
// roudier.DefaultParams); nil when none is given.
func roudierFlags(cmd *cobra.Command) func() func(*roudier.Params) {
	f := cmd.Flags()
	d := roudier.DefaultParams()
	type pf struct {
		name  string
		field func(p *roudier.Params) *float64
		usage string
		v     float64
	}
	flags := []*pf{
		{name: "roudier-rain", field: func(p *roudier.Params) *float64 { return &p.Rain }, usage: fmt.Sprintf("Roudier's engine: rain W every cell receives a step, m of water (%g)", d.Rain)},
		{name: "roudier-alpha", field: func(p *roudier.Params) *float64 { return &p.Alpha }, usage: fmt.Sprintf("Roudier's engine: detritus removal α, lowering α·Kd·tanθ·Q (%g)", d.Alpha)},
		{name: "roudier-creep", field: func(p *roudier.Params) *float64 { return &p.Creep }, usage: fmt.Sprintf("Roudier's engine: gravity creep length, z_g = creep·Kd·tanθ, m (%g)", d.Creep)},
		{name: "roudier-gamma", field: func(p *roudier.Params) *float64 { return &p.Gamma }, usage: fmt.Sprintf("Roudier's engine: chemical dissolution γ, z_c = γ·Ke·Kf·q (%g)", d.Gamma)},
		{name: "roudier-transport", field: func(p *roudier.Params) *float64 { return &p.Transport }, usage: fmt.Sprintf("Roudier's engine: transport capacity r, at most r·Q/cos φ of detritus (%g)", d.Transport)},
		{name: "roudier-veg", field: func(p *roudier.Params) *float64 { return &p.Veg }, usage: fmt.Sprintf("Roudier's engine: vegetation Kv on slopes up to 30°, 0 from 60° (%g)", d.Veg)},
		{name: "roudier-snow-line", field: func(p *roudier.Params) *float64 { return &p.SnowLine }, usage: fmt.Sprintf("Roudier's engine: height from which nothing grows, m (%g)", d.SnowLine)},
		{name: "roudier-river-cells", field: func(p *roudier.Params) *float64 { return &p.RiverCells }, usage: fmt.Sprintf("Roudier's engine: river beds (no vegetation) from the rain of this many cells upstream (%g)", d.RiverCells)},
	}
	for _, p := range flags {
		f.Float64Var(&p.v, p.name, 0, p.usage)
	}
	return func() func(*roudier.Params) {
		var given []*pf
		for _, p := range flags {
			if f.Changed(p.name) {
				given = append(given, p)
			}
		}
		if given == nil {
			return nil
		}
		return func(q *roudier.Params) {
			for _, p := range given {
				*p.field(q) = p.v
			}
		}
	}
}
