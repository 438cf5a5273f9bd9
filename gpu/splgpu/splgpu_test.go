package splgpu

import (
	"math"
	"testing"

	"orogen/gpu"
	"orogen/gpu/gputest"
	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
	"orogen/sim/flow"
	"orogen/sim/grid"
	"orogen/sim/hillslope"
)

// device is the package tests' device (package gputest).
func device(t testing.TB) gpu.Device { return gputest.Device(t) }

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

// TestStepsMatchCPU steps both engines from the same start, for edges of
// every kind, k noise, diffusion and n ≠ 1: the first routing is
// sim/flow's D8 cell for cell but on the paths the lakes reversed, with
// as many lakes as on the CPU (the passes may differ where pairs of cells
// tie: each engine picks in its own order) holding as much water; after
// 20 steps, where those choices have moved rivers, the terrains agree in
// mean height within 2 % and in max height within 6 % (measured on
// llvmpipe: 1.1 % and 2.8 % at most; 4.9 % after 30 steps).
func TestStepsMatchCPU(t *testing.T) {
	outlets := flow.Edges{}
	mixed := flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed}
	for _, tc := range []struct {
		name             string
		edges            flow.Edges
		knoise, kappa, n float64
	}{{"outlets", outlets, 0, 0, 1}, {"mixed", mixed, 0, 0, 1}, {"knoise", outlets, 0.5, 0, 1},
		{"diffusion", mixed, 0, 1, 1}, {"n=1.5", outlets, 0, 0, 1.5}, {"n=0.7", mixed, 0, 0, 0.7}} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(48, tc.edges)
			c.Params.KNoise = tc.knoise
			c.Params.Kappa = tc.kappa
			c.Params.N = tc.n
			ce, ge := pair(t, c)
			// sim/flow's D8 receivers of the start (after the hillslope
			// term), before the lakes.
			h0 := append([]float32(nil), ce.Heights()...)
			if tc.kappa > 0 {
				hillslope.NewDiffuser(c.W, c.H).Step(h0, c.Cell, tc.kappa, c.Params.Dt, hillslope.Edges{North: true})
			}
			g := flow.NewGraph(c.W, c.H, c.Cell, c.Params.Edges, 0)
			g.Route(h0)
			d8 := append([]int32(nil), g.Rec...)
			cs, gs := ce.Step(), ge.Step()
			if err := ge.Err(); err != nil {
				t.Fatal(err)
			}
			if cs.Lakes != gs.Lakes {
				t.Errorf("step 1: %d lakes on the GPU; want %d", gs.Lakes, cs.Lakes)
			}
			rec, _ := ge.Receivers()
			codes := ge.readWords(ge.db, ge.n)
			for i, r := range d8 {
				if rec[i] != r && codes[i]&16 == 0 {
					t.Errorf("step 1: cell %d drains to %d; want %d (D8; not on a reversed path)", i, rec[i], r)
				}
			}
			// The lakes of the snapshot: the same pits, water only in their
			// basins, as much as on the CPU within 20 % (ties move passes).
			gsn, csn := ge.Snapshot(), ce.Snapshot()
			roots := map[int32]bool{}
			for _, lk := range csn.Lakes {
				roots[lk.Root] = true
			}
			for _, lk := range gsn.Lakes {
				if !roots[lk.Root] || lk.Level < lk.Spill {
					t.Errorf("GPU lake %+v: no CPU lake at its root, or its level below its spill", lk)
				}
			}
			var gw, cw float64
			for i := range gsn.Water {
				gw += float64(gsn.Water[i])
				cw += float64(csn.Water[i])
			}
			t.Logf("step 1: %d lakes, water %.4g/%.4g m·cells (GPU/CPU)", len(gsn.Lakes), gw, cw)
			if len(gsn.Lakes) != len(csn.Lakes) || math.Abs(gw-cw) > 0.2*cw {
				t.Errorf("step 1: %d lakes holding %.4g m·cells of water; want %d holding %.4g", len(gsn.Lakes), gw, len(csn.Lakes), cw)
			}
			for range 19 {
				ce.Step()
				ge.Step()
			}
			if err := ge.Err(); err != nil {
				t.Fatal(err)
			}
			_, chi, cmean := engine.HeightFigures(ce.Heights())
			_, ghi, gmean := engine.HeightFigures(ge.Heights())
			t.Logf("after 20 steps: max %.1f/%.1f m, mean %.2f/%.2f m (GPU/CPU)", ghi, chi, gmean, cmean)
			if r := math.Abs(gmean-cmean) / cmean; r > 0.02 {
				t.Errorf("mean height %.2f m; want %.2f m within 2 %%", gmean, cmean)
			}
			if r := math.Abs(ghi-chi) / chi; r > 0.06 {
				t.Errorf("max height %.1f m; want %.1f m within 6 %%", ghi, chi)
			}
		})
	}
}

// TestConformance runs the engine contract's suite on the GPU engine,
// without and with hillslope diffusion (whose volume the rock account
// books as Diffused).
func TestConformance(t *testing.T) {
	dev := device(t)
	for _, kappa := range []float64{0, 0.5} {
		p := engine.DefaultParams()
		p.Kappa = kappa
		o := enginetest.Options{}
		if kappa > 0 {
			o = enginetest.Options{Size: 32, Steps: 10} // the diffusion's account; the rest is the same engine
		}
		enginetest.Run(t, func(t testing.TB, c enginetest.Config) engine.Engine {
			e, err := New(dev, grid.Config{W: c.W, H: c.H, Cell: c.Cell, Up: c.Up, InitNoise: 1, Seed: c.Seed, Params: p})
			if err != nil {
				t.Fatal(err)
			}
			return e
		}, o)
	}
}

// TestFlatStart steps a flat start without noise: every interior cell is
// a pit (the lakes' arrays as long as the grid), every basin must be
// routed out, and the first step's lakes are the CPU engine's.
func TestFlatStart(t *testing.T) {
	c := config(40, flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed})
	c.InitNoise = 0
	ce, ge := pair(t, c)
	for s := 1; s <= 3; s++ {
		cs, gs := ce.Step(), ge.Step()
		if err := ge.Err(); err != nil {
			t.Fatal(err)
		}
		if s == 1 && cs.Lakes != gs.Lakes {
			t.Errorf("step 1: %d lakes; want %d", gs.Lakes, cs.Lakes)
		}
		rec, _ := ge.Receivers()
		for i := range rec {
			k, steps := i, 0
			for int(rec[k]) != k && steps <= len(rec) {
				k, steps = int(rec[k]), steps+1
			}
			if ge.kinds[k] == kindInterior || steps > len(rec) {
				t.Fatalf("step %d: cell %d does not drain out (ends at %d after %d steps)", s, i, k, steps)
			}
		}
	}
}

// TestStatsOverManyGroups: on a grid of more than 256 work groups (the
// finish's sums added in two levels, reducepart) the step's rock
// account and largest changes are those of the heights read back: the
// stored volume is Σ h over the cells to 1e-12, max |Δh| over one and
// two steps exactly the largest float32 difference.
func TestStatsOverManyGroups(t *testing.T) {
	c := config(0, flow.Edges{})
	c.W, c.H = 320, 240 // 300 groups of 256 cells
	c.Up = enginetest.Dome(c.W, c.H, 5e-4)
	e, err := New(device(t), c)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	hs := [][]float32{e.Heights()}
	var st engine.StepStats
	for range 2 {
		st = e.Step()
		hs = append(hs, e.Heights())
	}
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, v := range hs[2] {
		sum += float64(v)
	}
	if got := e.vol / (c.Cell * c.Cell); math.Abs(got-sum) > 1e-12*math.Abs(sum) {
		t.Errorf("Σ h %.15g; want %.15g from the heights read back", got, sum)
	}
	var d1, d2 float32
	for i, v := range hs[2] {
		d1 = max(d1, float32(math.Abs(float64(v-hs[1][i]))))
		d2 = max(d2, float32(math.Abs(float64(v-hs[0][i]))))
	}
	if st.MaxDh != float64(d1) || st.MaxDh2 != float64(d2) {
		t.Errorf("max |Δh| %g, over two steps %g; want %g, %g", st.MaxDh, st.MaxDh2, d1, d2)
	}
}
