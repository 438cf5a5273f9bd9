package amplify

import (
	"context"
	"fmt"

	"orogen/sim"
	"orogen/sim/hydro"
	"orogen/sim/talus"
)

// maxHydroCells bounds the fine cells of a hydraulic pass: sim/hydro keeps
// some twenty fields per cell, about 1.7 GB at 4096².
const maxHydroCells = 4096 * 4096

// MaxHydroPassCells bounds the fine cells of a pass run by
// Options.HydroPass (8192²).
const MaxHydroPassCells = 8192 * 8192

// MaxHydroSteps bounds Options.HydroSteps.
const MaxHydroSteps = 10000

// hydroPass runs o.HydroSteps steps of sim/hydro (Jákó and Tóth 2011: rain,
// virtual-pipe water, dissolving and deposition, thermal erosion; its
// default parameters for the fine cell, the talus angle the snapshot's
// when it is constant, open edges, uniform hardness) on the RW×RH fine
// heights hgt, in place. Lake cells (wat > 0) keep their floor and water.
// Each step moves water about a third of a fine cell, so the pass reaches
// HydroSteps/3 fine cells: within a window's margin when that is under
// 16 coarse cells.
func (p *prep) hydroPass(ctx context.Context, hgt, wat []float32, RW, RH int) error {
	if p.o.HydroPass != nil && RW*RH > maxHydroCells && RW*RH <= MaxHydroPassCells {
		// The pass runs elsewhere (the GPU): it keeps nothing here.
	} else if RW*RH > maxHydroCells {
		return fmt.Errorf("amplify: HydroSteps on %d×%d fine cells: the hydraulic pass keeps about 100 bytes a cell and takes at most 4096² cells; amplify less or without it", RW, RH)
	}
	hp := hydro.DefaultParams(p.fcell)
	if m := p.s.Param.Talus; m.Mode == talus.ModeConstant {
		hp.TalusDeg = m.AngleDeg
		if hp.TalusDeg == 0 {
			hp.TalusDeg = talus.DefaultAngleDeg
		}
	}
	cfg := hydro.Config{Terrain: &sim.Field{W: RW, H: RH, Cell: p.fcell, Data: hgt}, Params: hp}
	var out []float32
	if p.o.HydroPass != nil {
		var err error
		if out, err = p.o.HydroPass.RunHydro(ctx, cfg, p.o.HydroSteps); err != nil {
			return fmt.Errorf("amplify: the hydraulic pass: %w", err)
		}
		if len(out) != RW*RH {
			return fmt.Errorf("amplify: the hydraulic pass gave %d heights for %d×%d fine cells", len(out), RW, RH)
		}
	} else {
		e, err := hydro.New(cfg)
		if err != nil {
			return fmt.Errorf("amplify: the hydraulic pass: %w", err)
		}
		for range p.o.HydroSteps {
			if err := ctx.Err(); err != nil {
				return err
			}
			e.Step()
		}
		out = e.Terrain()
	}
	if i := sim.FirstNonFinite(out); i >= 0 {
		return fmt.Errorf("amplify: the hydraulic pass left fine cell (%d, %d) without a height (%s)", i%RW, i/RW, hp.Warning(p.fcell))
	}
	for i, v := range out {
		if wat[i] == 0 {
			hgt[i] = v
		}
	}
	return nil
}
