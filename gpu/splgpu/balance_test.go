package splgpu

import (
	"math"
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
	"orogen/sim/flow"
	"orogen/sim/grid"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// TestRebalancedBudget: rebalanced steps 16 times the usual dt on both
// engines, outlets on every side, with creep, deposition and k noise,
// and with linear diffusion (diffscan's sweeps) and k noise: each step's
// rock account closes on the heights read back (compareSteps; the
// corrections move material between the parts of a step, they make
// none), the last step's sediment account to 1e-6, and after 20 steps
// from the noisy start the heights' mean and max are the CPU's within
// 0.1 % (on llvmpipe the same to the sixth digit). With closed and
// natural sides the engines' first steps already differ where the
// lakes' passes tie (up to 360 m in a few cells near a closed side at
// 16·dt, Lie-split too), and the corrections, fed by each step's
// increments, carry that further: 2 % in mean height after 20 steps
// against 1.3 % Lie-split.
func TestRebalancedBudget(t *testing.T) {
	for _, tc := range []struct {
		name            string
		g, sc           float64
		meanTol, maxTol float64
	}{{"creep+deposition+knoise", 1, 0.5, 1e-3, 1e-3}, {"linear diffusion", 0, 0, 1e-3, 1e-3}} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(48, flow.Edges{})
			c.Params.G, c.Params.Kappa, c.Params.CreepSc = tc.g, 1, tc.sc
			c.Params.KNoise, c.Params.Seed = 0.5, 3
			c.Params.Dt *= 16
			ce, ge := pair(t, c)
			ce.SetRebalanced(true)
			ge.SetRebalanced(true)
			compareSteps(t, ce, ge, 20, tc.meanTol, tc.maxTol)
			if m := ge.Stats().Mass; tc.g > 0 && math.Abs(m.SedimentResidual()) > 1e-6*(math.Abs(m.Eroded)+math.Abs(m.Talus)+math.Abs(m.Deposited))+1 {
				t.Errorf("the sediment account is off by %g m³ (%+v)", m.SedimentResidual(), m)
			}
		})
	}
}

// TestRebalancedRestState: as sim/grid's TestRebalancedRestStateKeepsDt
// on the GPU engine. From a terrain settled at the user's dt with creep
// (κ 0.5 m²/yr, S_c 0.6) and a talus limit of 30°, steps 16 times as
// long settle again: rebalanced, the heights move by less than a tenth
// of what they move Lie-split, and the rest state at 16·dt is the CPU
// engine's (max and mean height within 1 %).
func TestRebalancedRestState(t *testing.T) {
	simtest.SkipUnderRace(t, "compares settled heights, about 600 steps")
	const n = 40
	p := engine.DefaultParams()
	p.Kappa, p.CreepSc = 0.5, 0.6
	p.Talus = talus.Model{Mode: talus.ModeConstant, AngleDeg: 30}
	p.Edges = flow.Edges{North: flow.Outlet, South: flow.Outlet, East: flow.Outlet, West: flow.Outlet}
	c := grid.Config{W: n, H: n, Cell: 400, Up: simtest.Scale(simtest.Cone(n, n, 1, 1, 1.0/float64(n)), 5e-4), InitNoise: 1, Seed: 5, Params: p}
	type settler interface {
		engine.Engine
		SetRebalanced(bool)
	}
	// rest settles e at dt, then at 16·dt, and returns the mean |Δh|
	// between the two rest states and the second.
	rest := func(e settler, on bool) (float64, []float32) {
		e.SetRebalanced(on)
		shift, steps, long := enginetest.RestShift(t, e, 16)
		t.Logf("rebalanced %v: settled in %d steps, at 16·dt in %d more; mean |Δh| %.3f m", on, steps, long, shift)
		return shift, slices.Clone(e.Heights())
	}
	shift := map[bool]float64{}
	var gh []float32
	for _, on := range []bool{false, true} {
		e, err := New(device(t), c)
		if err != nil {
			t.Fatal(err)
		}
		shift[on], gh = rest(e, on)
		e.Close()
	}
	if !(shift[true] < shift[false]/10) {
		t.Errorf("mean height change at 16·dt: %.3f m rebalanced, %.3f m Lie-split; want at most a tenth", shift[true], shift[false])
	}
	ce, err := grid.New(c)
	if err != nil {
		t.Fatal(err)
	}
	_, ch := rest(ce, true)
	_, chi, cmean := engine.HeightFigures(ch)
	_, ghi, gmean := engine.HeightFigures(gh)
	t.Logf("rest at 16·dt: max %.2f/%.2f m, mean %.3f/%.3f m (GPU/CPU)", ghi, chi, gmean, cmean)
	if math.Abs(ghi-chi) > 0.01*chi || math.Abs(gmean-cmean) > 0.01*cmean {
		t.Errorf("rest state at 16·dt: max %.2f m, mean %.3f m; the CPU's %.2f m, %.3f m; want within 1 %%", ghi, gmean, chi, cmean)
	}
}
