package splgpu

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/grid"
)

// compareSteps steps the CPU and GPU engines of c together and checks,
// after steps, their mean and max heights within the relative tolerances
// given, and each step that the GPU's rock account (its volumes summed
// on the device) closes on the heights read back: Stored is their change
// of volume, and Uplift − Out − Stored is zero, to 1e-6 of the volume
// moved.
func compareSteps(t *testing.T, ce *grid.Engine, ge *Engine, steps int, meanTol, maxTol float64) {
	t.Helper()
	ca := ge.cell * ge.cell
	v0 := volume(ge.Heights(), ge.cell)
	for s := 0; s < steps; s++ {
		ce.Step()
		st := ge.Step()
		if err := ge.Err(); err != nil {
			t.Fatal(err)
		}
		v1 := volume(ge.Heights(), ge.cell)
		m := st.Mass
		moved := math.Abs(m.Uplift) + math.Abs(m.Diffused) + math.Abs(m.Eroded) + math.Abs(m.Talus) + math.Abs(m.Deposited) + ca
		if d := m.Stored - (v1 - v0); math.Abs(d) > 1e-6*moved {
			t.Errorf("step %d: Stored %g m³; the heights changed by %g m³", s+1, m.Stored, v1-v0)
		}
		if r := m.Residual(); math.Abs(r) > 1e-6*moved {
			t.Errorf("step %d: the rock account is off by %g m³ (%+v)", s+1, r, m)
		}
		v0 = v1
	}
	_, chi, cmean := engine.HeightFigures(ce.Heights())
	_, ghi, gmean := engine.HeightFigures(ge.Heights())
	t.Logf("after %d more steps: max %.2f/%.2f m, mean %.3f/%.3f m (GPU/CPU)", steps, ghi, chi, gmean, cmean)
	if r := math.Abs(gmean-cmean) / cmean; r > meanTol {
		t.Errorf("mean height %.3f m; want %.3f m within %g %%", gmean, cmean, 100*meanTol)
	}
	if r := math.Abs(ghi-chi) / chi; r > maxTol {
		t.Errorf("max height %.2f m; want %.2f m within %g %%", ghi, chi, 100*maxTol)
	}
}

// TestRandomRoutingMatchesCPU: with random hillslope routing the
// receivers of the first two steps are sim/flow's Route and Randomize
// cell for cell (the same hash, the same float32 weights; the second
// step keeps each cell's last random receiver while it is downhill, and
// takes the channels from the first step's area), on the GPU's own
// heights and area, but on the paths the lakes reversed. After 20 steps
// the terrains agree with the CPU engine's as without it.
func TestRandomRoutingMatchesCPU(t *testing.T) {
	c := config(48, flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed})
	c.Params.Routing, c.Params.Seed = flow.RoutingRandom, 11
	c.Params.ChannelArea = 40 * c.Cell * c.Cell
	ce, ge := pair(t, c)
	g := flow.NewGraph(c.W, c.H, c.Cell, c.Params.Edges, 0)
	area := make([]float64, ge.n)
	for i := range area {
		area[i] = c.Cell * c.Cell // no routing yet: every cell its own
	}
	for s := 1; s <= 2; s++ {
		h := append([]float32(nil), ge.Heights()...)
		g.Route(h)
		g.Randomize(h, area, c.Params.ChannelArea, c.Params.Seed)
		want := append([]int32(nil), g.Rec...)
		g.Order()
		g.ConnectLakes(h)
		g.Assemble()
		ce.Step()
		ge.Step()
		if err := ge.Err(); err != nil {
			t.Fatal(err)
		}
		rec, ar := ge.Receivers()
		codes := ge.readWords(ge.db, ge.n)
		bad, random := 0, 0
		for i, r := range want {
			if codes[i]>>12&15 < 8 {
				random++
			}
			if rec[i] != r && codes[i]&16 == 0 {
				bad++
				if bad <= 5 {
					t.Errorf("step %d: cell %d drains to %d; want %d", s, i, rec[i], r)
				}
			}
		}
		t.Logf("step %d: %d random receivers, %d differ from sim/flow's", s, random, bad)
		if random < ge.n/4 {
			t.Errorf("step %d: %d random receivers of %d cells; want most hillslope cells", s, random, ge.n)
		}
		for i, a := range ar {
			area[i] = float64(a)
		}
	}
	compareSteps(t, ce, ge, 18, 0.02, 0.06)
}
