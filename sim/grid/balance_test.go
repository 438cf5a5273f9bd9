package grid

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
	"orogen/sim/flow"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// TestRebalancedRestStateKeepsDt: the rest state of Lie-split creep moves
// with dt (the creep acts on heights the stream power has not seen), that
// of the rebalanced splitting does not (balance.go). From a terrain
// settled at the user's dt with creep (κ 0.5 m²/yr, S_c 0.6), D8 and a
// talus limit of 30°, steps 16 times as long settle again: rebalanced,
// the heights move by a small fraction of what they move Lie-split, and
// back at the user's dt the terrain is settled again in a few steps.
func TestRebalancedRestStateKeepsDt(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of steps: long under -race; make unit runs it")
	}
	const n = 40
	p := engine.DefaultParams()
	p.Kappa, p.CreepSc = 0.5, 0.6
	p.Talus = talus.Model{Mode: talus.ModeConstant, AngleDeg: 30}
	p.Edges = flow.Edges{North: flow.Outlet, South: flow.Outlet, East: flow.Outlet, West: flow.Outlet}
	up := simtest.Scale(simtest.Cone(n, n, 1, 1, 1.0/float64(n)), 5e-4)
	shift := map[bool]float64{}
	for _, on := range []bool{false, true} {
		e := mustNew(t, Config{W: n, H: n, Cell: 400, Up: up, InitNoise: 1, Seed: 5, Params: p})
		e.SetRebalanced(on)
		var steps, long int
		shift[on], steps, long = enginetest.RestShift(t, e, 16)
		if err := e.SetParams(p); err != nil {
			t.Fatal(err)
		}
		back := enginetest.SettleAt(t, e, 500)
		t.Logf("rebalanced %v: settled in %d steps, at 16·dt in %d more; mean |Δh| %.3f m; back at dt settled in %d", on, steps, long, shift[on], back)
	}
	if !(shift[true] < shift[false]/10) {
		t.Errorf("mean height change at 16·dt: %.3f m rebalanced, %.3f m Lie-split; want at most a tenth", shift[true], shift[false])
	}
}

// TestRebalancedBudgetAndWorkers: with every process of issue 34 on and
// rebalanced steps 16 times the usual dt, the sediment account closes
// each step and the rock account over the run to 1e-6 (the corrections
// move material between the parts of a step, they make none), and the
// heights and statistics are bit-identical for 1 and 2 workers.
func TestRebalancedBudgetAndWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const w, h = 48, 40
	p := physics(flow.Edges{North: flow.Natural, South: flow.Outlet, East: flow.Closed, West: flow.Outlet})
	p.Dt *= 16
	up := simtest.Scale(simtest.Cone(w, h, 1, 1, 1.0/float64(w)), 5e-4)
	var ref []float32
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		e := mustNew(t, Config{W: w, H: h, Cell: 250, Up: up, InitNoise: 1, Seed: 42, Params: p})
		e.SetRebalanced(true)
		var total engine.Mass
		for k := range 40 {
			m := e.Step().Mass
			if err := e.Err(); err != nil {
				t.Fatal(err)
			}
			total = total.Add(m)
			if r := math.Abs(m.SedimentResidual()); r > 1e-6*(m.Eroded+m.Talus)+1 {
				t.Fatalf("step %d: %+v: sediment residual %g m³; want <= 1e-6 of %g", k+1, m, r, m.Eroded+m.Talus)
			}
		}
		if r := math.Abs(total.Residual()); r > 1e-6*(total.Uplift+total.Out()) {
			t.Errorf("rock residual %g m³; want <= 1e-6 of %g (%+v)", r, total.Uplift+total.Out(), total)
		}
		if ref == nil {
			ref = slices.Clone(e.Heights())
			continue
		}
		if !slices.Equal(e.Heights(), ref) {
			t.Fatalf("GOMAXPROCS %d: heights differ from GOMAXPROCS 1 after 40 rebalanced steps", procs)
		}
	}
}
