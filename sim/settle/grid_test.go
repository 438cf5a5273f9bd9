package settle

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/grid"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// TestSettleMatchesFixedWithCreep: with nonlinear creep (κ 0.5 m²/yr,
// S_c 0.6), k noise and a talus limit of 25–40° by noise on the grid
// engine, the scheme takes rebalanced long steps (engine.Rebalanced) and
// settles in fewer steps than a fixed-dt run on a terrain of the same
// highest and mean height within 3 % (TestSettleMatchesReference's
// tolerances, app/run). Random hillslope routing is left out: with creep
// the terrains it settles differ by about 10 % in mean height at 128²
// (docs/REALISM.md).
func TestSettleMatchesFixedWithCreep(t *testing.T) {
	if testing.Short() {
		t.Skip("hundreds of steps: long under -race; make unit runs it")
	}
	const n = 48
	p := engine.DefaultParams()
	p.Kappa, p.CreepSc = 0.5, 0.6
	p.KNoise, p.KNoiseWavelength, p.Seed = 0.5, 5000, 3
	p.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 25, MaxDeg: 40, WavelengthM: 5000, Octaves: 4, Seed: 7}
	p.Edges = flow.Edges{North: flow.Outlet, South: flow.Outlet, East: flow.Outlet, West: flow.Outlet}
	up := simtest.Scale(simtest.Cone(n, n, 1, 1, 1.0/float64(n)), 5e-4)
	var steps [2]int
	var hi, mean [2]float64
	for k, fixed := range []bool{true, false} {
		e, err := grid.New(grid.Config{W: n, H: n, Cell: 400, Up: up, InitNoise: 1, Seed: 5, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(e, Options{Fixed: fixed})
		if err != nil {
			t.Fatal(err)
		}
		for s.Steps() < 5000 && !s.Settled() {
			s.Step()
			if err := e.Err(); err != nil {
				t.Fatal(err)
			}
		}
		if !s.Settled() {
			t.Fatalf("fixed %v: not settled after %d steps", fixed, s.Steps())
		}
		steps[k] = s.Steps()
		_, hi[k], mean[k] = engine.HeightFigures(e.Heights())
	}
	t.Logf("steps %d fixed, %d adaptive; max height %.1f / %.1f m, mean %.2f / %.2f m", steps[0], steps[1], hi[0], hi[1], mean[0], mean[1])
	if steps[1] >= steps[0] {
		t.Errorf("adaptive: %d steps; want fewer than the fixed run's %d", steps[1], steps[0])
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"max height", hi[1], hi[0]}, {"mean height", mean[1], mean[0]}} {
		if math.Abs(c.got-c.want) > 0.03*c.want {
			t.Errorf("%s %.2f; want %.2f ± 3 %%", c.what, c.got, c.want)
		}
	}
}
