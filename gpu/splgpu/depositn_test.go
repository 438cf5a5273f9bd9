package splgpu

import (
	"fmt"
	"math"
	"testing"

	"orogen/sim/flow"
)

// TestDepositionNonlinearMatchesCPU steps deposition (G = 1) with n =
// 1.5 and n = 0.7 beside sim/grid (48², mixed edges): Newton's steps
// with the source term and sim/spl's Hold (newtondep, maps with caps
// composed by affmin) against sim/spl's per-node solves. The sediment
// account closes every step, the deposited volume over 15 steps is the
// CPU's within 10 %, and after 5 steps more the alluvium within 10 % and
// the heights' mean and max within 2 % and 6 % (compareSteps). Measured
// on llvmpipe (GPU / CPU): n = 1.5 deposited 8.683e8 / 8.677e8 m³,
// alluvium 4.29e4 / 4.17e4 m·cells (2.9 %), max height equal, mean within
// 0.03 %, at most 4 Newton steps a step; n = 0.7 4.02e8 / 4.17e8 m³
// (3.6 %), alluvium 3.3 %, heights within 0.3 %, up to 12 Newton steps a
// step (the bound, on the first step from the noisy flat start; 7 to 11
// without deposition).
func TestDepositionNonlinearMatchesCPU(t *testing.T) {
	if testing.Short() {
		t.Skip("1 s here, 7 s under the race detector; it adds no goroutine: make unit runs it")
	}
	mixed := flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed}
	for _, n := range []float64{1.5, 0.7} {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			c := config(48, mixed)
			c.Params.G, c.Params.N = 1, n
			ce, ge := pair(t, c)
			var cdep, gdep float64
			newton := 0
			for s := 1; s <= 15; s++ {
				cs, gs := ce.Step(), ge.Step()
				if err := ge.Err(); err != nil {
					t.Fatal(err)
				}
				newton = max(newton, ge.NewtonSteps)
				cdep += cs.Mass.Deposited
				gdep += gs.Mass.Deposited
				m := gs.Mass
				if r := m.SedimentResidual(); math.Abs(r) > 1e-6*(math.Abs(m.Eroded)+math.Abs(m.Talus)+math.Abs(m.Deposited))+1 {
					t.Errorf("step %d: the sediment account is off by %g m³ (%+v)", s, r, m)
				}
			}
			t.Logf("deposited over 15 steps: %.4g/%.4g m³ (GPU/CPU); at most %d Newton steps a step", gdep, cdep, newton)
			if cdep == 0 || math.Abs(gdep-cdep) > 0.1*cdep {
				t.Errorf("deposited %.4g m³ over 15 steps; want %.4g (not 0) within 10 %%", gdep, cdep)
			}
			if newton == 0 {
				t.Error("no Newton step ran: the test needs n ≠ 1's solve")
			}
			compareSteps(t, ce, ge, 5, 0.02, 0.06)
			ca, ga := ce.Snapshot().Alluvium, ge.Snapshot().Alluvium
			var cs, gs float64
			for i := range ca {
				cs += float64(ca[i])
				gs += float64(ga[i])
			}
			t.Logf("alluvium %.4g/%.4g m·cells (GPU/CPU)", gs, cs)
			if math.Abs(gs-cs) > 0.1*cs {
				t.Errorf("alluvium %.4g m·cells; want %.4g within 10 %%", gs, cs)
			}
		})
	}
}
