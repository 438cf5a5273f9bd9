package engines

import (
	"fmt"

	"orogen/sim/engine"
	"orogen/sim/graph"
	"orogen/sim/grid"
	"orogen/sim/roudier"
)

// The engines Orogen ships, in the order the app lists them. A new engine
// is its package plus one Register call here.
func init() {
	Register(Entry{Kind: grid.Kind, Label: "grid",
		Help:   "stream power on the raster cells, D8 routing (Cordonnier et al. 2016; Braun and Willett 2013)",
		Groups: []string{StreamPower, Creep, Deposition, KNoise, Routing}, Constraints: true,
		BytesPerCell: func(s Spec) int { return GridBytesPerCell(s.Params) },
		New: func(s Spec) (engine.Engine, error) {
			if s.Samples != 0 {
				return nil, ErrSamplesGrid
			}
			return newGrid(s)
		}})
	Register(Entry{Kind: graph.Kind, Label: "stream graph",
		Help: "the same equations on Poisson-disc nodes joined by Delaunay triangles (Cordonnier et al. 2016): " +
			"rivers without the grid's 45° bias, cost per node; one node per 4 cells by default",
		// Creep, deposition and k noise act on the nodes (sim/graph's
		// soil.go), random hillslope routing on their neighbours
		// (routing.go).
		Nodes: true, Groups: []string{StreamPower, Creep, Deposition, KNoise, Routing},
		BytesPerCell: graphBytesPerCell,
		New: func(s Spec) (engine.Engine, error) {
			g, err := NewGraph(s)
			if err != nil {
				return nil, err
			}
			return &onGrid{g.Grid, g}, nil
		}})
	Register(Entry{Kind: roudier.Kind, Label: "Roudier's processes",
		Help: "rain, gravity creep, detritus removal, dissolution and alluvial deposition on the grid, driven by the exposed rock (Roudier et al. 1993); " +
			"its laws are per step, dt only scales the uplift, so use small dt (1e2-1e3 yr) and cells of metres to tens of metres; " +
			"without a geology it erodes repeating strata of 30 m clay and 20 m quartzite",
		Groups:              []string{Roudier},
		BytesPerCell:        func(Spec) int { return roudierBytes },
		Coefficients:        roudierCoefficients(),
		DefaultCoefficients: func() any { return roudier.DefaultParams() },
		Status: func(s *engine.Snapshot) []string {
			// Pits that took detritus, cells whose lowering was clamped,
			// and the step's account (sim/roudier).
			m := s.Stats.Mass
			return []string{
				fmt.Sprintf("pits filled %d   clamped %d   %d×%d cells", s.Stats.Lakes, s.Stats.Clamped, s.W, s.H),
				fmt.Sprintf("step: left the map %.3g m³   dissolved %.3g m³   alluvium %+.3g m³", m.Eroded+m.Diffused, m.Dissolved, m.Alluvium),
			}
		},
		New: func(s Spec) (engine.Engine, error) {
			if s.Samples != 0 {
				return nil, ErrSamplesGrid
			}
			rp := roudier.DefaultParams()
			if s.Coefficients != nil {
				p, ok := s.Coefficients.(roudier.Params)
				if !ok {
					return nil, fmt.Errorf("engines: coefficients of type %T for Roudier's engine; want roudier.Params", s.Coefficients)
				}
				rp = p
			}
			return roudier.New(roudier.Config{W: s.W, H: s.H, Cell: s.Cell, Up: s.Up, Init: s.Init, InitNoise: s.InitNoise,
				Seed: s.Seed, Params: s.Params, Roudier: rp, Geology: s.Geology})
		}})
}

// roudierCoefficients are the coefficients of Roudier's engine
// (roudier.Params): sliders, script names and --roudier-* flags.
func roudierCoefficients() []Coefficient {
	d := roudier.DefaultParams()
	c := func(name, flag, label, unit, help, usage string, lo, hi float64, log, slider bool, field func(p *roudier.Params) *float64) Coefficient {
		return Coefficient{Name: name, Flag: flag, Label: label, Unit: unit, Help: help,
			Usage: fmt.Sprintf("Roudier's engine: %s (%g)", usage, *field(&d)), Min: lo, Max: hi, Log: log, Slider: slider,
			Get: func(v any) float64 { p := v.(roudier.Params); return *field(&p) },
			Set: func(v any, x float64) any { p := v.(roudier.Params); *field(&p) = x; return p }}
	}
	return []Coefficient{
		c("roudier-rain", "roudier-rain", "rain W", "m", "Rain W every cell receives in a step (Roudier et al. 1993, §3.3), "+
			"split into running water q = [1 − (Kf + Kv)]·W and infiltrated water Kf·q. More rain, more erosion and dissolution.",
			"rain W every cell receives a step, m of water", 1e-3, 100, true, true, func(p *roudier.Params) *float64 { return &p.Rain }),
		c("alpha", "roudier-alpha", "α (detritus removal)", "", "Running water lowers a cell by α·Kd·tanθ·Q, Q the running water from it and upstream "+
			"(Roudier et al. 1993, §3.3): the river-cutting term. The left end is 0.",
			"detritus removal α, lowering α·Kd·tanθ·Q", 1e-5, 1, true, true, func(p *roudier.Params) *float64 { return &p.Alpha }),
		c("creep", "roudier-creep", "gravity creep", "m", "Gravity creep z_g = creep·Kd·tanθ moves down to the lowest neighbour each step "+
			"(Roudier et al. 1993, §3.3): it rounds slopes, soft rock (high Kd) fastest. The left end is 0.",
			"gravity creep length, z_g = creep·Kd·tanθ, m", 1e-4, 10, true, true, func(p *roudier.Params) *float64 { return &p.Creep }),
		c("gamma", "roudier-gamma", "γ (dissolution)", "", "Chemical dissolution z_c = γ·Ke·Kf·q: permeable, soluble rock (limestone) dissolves "+
			"and the matter leaves with the groundwater (Roudier et al. 1993, §3.3). The left end is 0.",
			"chemical dissolution γ, z_c = γ·Ke·Kf·q", 1e-5, 1, true, true, func(p *roudier.Params) *float64 { return &p.Gamma }),
		c("transport", "roudier-transport", "transport capacity r", "", "Running water carries at most r·Q/cos φ of detritus; the excess settles as alluvium "+
			"(Roudier et al. 1993, §3.3). Lower it for wider alluvial valleys. The left end is 0 (all detritus settles).",
			"transport capacity r, at most r·Q/cos φ of detritus", 1e-5, 10, true, true, func(p *roudier.Params) *float64 { return &p.Transport }),
		c("veg", "roudier-veg", "vegetation Kv", "", "Vegetation cover Kv on slopes up to 30°, falling to 0 at 60°, 0 above the snow line and in river beds "+
			"(Roudier et al. 1993, §3.2): it holds rain back from running water.",
			"vegetation Kv on slopes up to 30°, 0 from 60°", 0, 1, false, true, func(p *roudier.Params) *float64 { return &p.Veg }),
		c("snow-line", "roudier-snow-line", "snow line", "m", "Height from which no vegetation grows (Kv = 0; Roudier et al. 1993, §3.2).",
			"height from which nothing grows, m", -1000, 10000, false, true, func(p *roudier.Params) *float64 { return &p.SnowLine }),
		c("river-cells", "roudier-river-cells", "river cells", "cells", "River beds (no vegetation) from the rain of this many cells upstream (Roudier et al. 1993, §3.2).",
			"river beds (no vegetation) from the rain of this many cells upstream", 1, 1e6, true, false, func(p *roudier.Params) *float64 { return &p.RiverCells }),
	}
}
