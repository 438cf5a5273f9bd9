package splgpu

import (
	"math"
	"testing"

	"orogen/gpu"
	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
	"orogen/sim/flow"
	"orogen/sim/grid"
)

// device opens any OpenGL 4.3 device, Mesa's llvmpipe included, once for
// the package's tests; they are skipped where there is none.
func device(t testing.TB) gpu.Device {
	t.Helper()
	if testDev == nil && testErr == nil {
		testDev, testErr = gpu.Open(gpu.Options{AllowSoftware: true})
	}
	if testErr != nil {
		t.Skipf("no OpenGL 4.3 device: %v", testErr)
	}
	return testDev
}

var (
	testDev gpu.Device
	testErr error
)

func config(n int, edges flow.Edges) grid.Config {
	p := engine.DefaultParams()
	p.Edges = edges
	return grid.Config{W: n, H: n, Cell: 200, Up: enginetest.Dome(n, n, 5e-4), InitNoise: 1, Seed: 7, Params: p}
}

// pair returns the CPU and GPU engines on the same configuration.
func pair(t *testing.T, c grid.Config) (*grid.Engine, *Engine) {
	t.Helper()
	dev := device(t)
	ce, err := grid.New(c)
	if err != nil {
		t.Fatal(err)
	}
	ge, err := New(dev, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ge.Close)
	return ce, ge
}

func TestStepsMatchCPU(t *testing.T) {
	outlets := flow.Edges{}
	mixed := flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed}
	for _, tc := range []struct {
		name  string
		edges flow.Edges
	}{{"outlets", outlets}, {"mixed", mixed}} {
		t.Run(tc.name, func(t *testing.T) {
			ce, ge := pair(t, config(48, tc.edges))
			for s := 1; s <= 30; s++ {
				cs := ce.Step()
				gs := ge.Step()
				if err := ge.Err(); err != nil {
					t.Fatal(err)
				}
				if s <= 3 || s%10 == 0 {
					t.Logf("step %d: lakes %d/%d clamped %d/%d maxdh %.4g/%.4g rounds %v", s, cs.Lakes, gs.Lakes, cs.Clamped, gs.Clamped, cs.MaxDh, gs.MaxDh, ge.Rounds)
				}
			}
			ch, gh := ce.Heights(), ge.Heights()
			var worst float64
			at := 0
			for i := range ch {
				if d := math.Abs(float64(ch[i] - gh[i])); d > worst {
					worst, at = d, i
				}
			}
			_, chi, cmean := engine.HeightFigures(ch)
			_, ghi, gmean := engine.HeightFigures(gh)
			t.Logf("max %g/%g mean %g/%g worst diff %g at %d", chi, ghi, cmean, gmean, worst, at)
			rec, _ := ge.Receivers()
			diff := 0
			for i, r := range ce.Graph().Rec {
				if rec[i] != r {
					diff++
				}
			}
			t.Logf("receivers differing: %d", diff)
		})
	}
}

// TestConformance runs the engine contract's suite on the GPU engine.
func TestConformance(t *testing.T) {
	dev := device(t)
	enginetest.Run(t, func(t testing.TB, c enginetest.Config) engine.Engine {
		e, err := New(dev, grid.Config{W: c.W, H: c.H, Cell: c.Cell, Up: c.Up, InitNoise: 1, Seed: c.Seed, Params: engine.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}, enginetest.Options{})
}
