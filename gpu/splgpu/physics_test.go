package splgpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"orogen/gpu"
	"orogen/sim/hillslope"
	"orogen/sim/talus"

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
// receivers of the first four steps are sim/flow's Route and Randomize
// cell for cell (the same hash, the same float32 weights; later steps
// keep each cell's last random receiver while it is downhill, take the
// channels from the last step's area and keep them channels for
// flow.ChannelHold steps), on the GPU's own heights and area, but on the
// paths the lakes reversed. After 20 steps the terrains agree with the
// CPU engine's as without it.
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
	held := 0
	for s := 1; s <= 4; s++ {
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
			if hold := codes[i] >> 24 & 127; hold > 0 && hold < flow.ChannelHold {
				held++ // a cell below the channel area, held a channel
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
	if held == 0 {
		t.Error("no cell was held a channel below the channel area: the test needs some")
	}
	compareSteps(t, ce, ge, 16, 0.02, 0.06)
}

// TestCreepMatchesCreeper runs the creep phase alone (the factors, the x
// and the y sweep) for two steps (the means started, then moved by ω =
// 1/2) on rough heights, steep enough that many faces reach the factor's
// cap, against sim/hillslope's Creeper on the CPU: lines shorter than a
// work group and lines of several cells a chunk with a short last one,
// along x and y, fixed and free ends, r from 0.1 to 50, and the sweep
// along y that grids of wideCells cells take (64 columns a group), and
// the sweep along x of rows of rowWidth cells or more (a row a group,
// chunks of 4 or 5 cells, a short last one; on rows of a multiple of
// 256 cells c' and d' chunk-interleaved; on columns of a multiple of 64
// cells interleaved across the group's columns). The heights
// agree to 1e-3 m (on llvmpipe bit for bit: the float64 scans associate
// differently but round to the same float32), and the volume is kept to
// float32 rounding where no edge is fixed.
func TestCreepMatchesCreeper(t *testing.T) {
	fixedWN := flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Outlet}
	free := flow.Edges{North: flow.Natural, South: flow.Closed, East: flow.Natural, West: flow.Closed}
	defer func(w, n int) { wideCells, NarrowCells = w, n }(wideCells, NarrowCells)
	for _, tc := range []struct {
		w, h   int
		r      float64
		edges  flow.Edges
		wide   bool // the sweep along y of large grids (creepscanwide)
		narrow bool // and of small ones (creepscannarrow)
	}{{53, 37, 0.1, fixedWN, false, false}, {53, 37, 50, free, false, false}, {601, 5, 2, fixedWN, false, false}, {5, 601, 2, free, false, false},
		{53, 37, 50, free, true, false}, {70, 601, 2, fixedWN, true, false}, {1100, 3, 2, fixedWN, false, false}, {1024, 3, 50, free, false, false}, {2048, 3, 2, fixedWN, false, false},
		{53, 37, 50, free, false, true}, {70, 601, 2, fixedWN, false, true},
		{52, 128, 2, fixedWN, false, true}, {64, 192, 50, free, false, true}} {
		w, h, r, edges := tc.w, tc.h, tc.r, tc.edges
		wideCells, NarrowCells = 1<<25, 0
		if tc.wide {
			wideCells = 0
		}
		if tc.narrow {
			NarrowCells = w * h
		}
		rng := rand.New(rand.NewPCG(9, 1))
		hs := make([]float32, w*h)
		for i := range hs {
			hs[i] = float32(500 * rng.Float64())
		}
		p := engine.DefaultParams()
		p.Edges = edges
		p.Kappa = r * 100 * 100 / p.Dt
		p.CreepSc = 2
		e, err := New(device(t), grid.Config{W: w, H: h, Cell: 100, Init: hs, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		want := append([]float32(nil), hs...)
		cr := hillslope.NewCreeper(w, h)
		fixed := hillslope.Edges{North: edges.North == flow.Outlet, West: edges.West == flow.Outlet}
		var worst float64
		for step := 1; step <= 2; step++ {
			cr.Step(want, 100, p.Kappa, p.CreepSc, p.Dt, fixed)
			creepOnly(t, e, step)
			got := e.readFloats(e.hb)
			for i := range want {
				d := math.Abs(float64(got[i] - want[i]))
				worst = max(worst, d)
				if d > 1e-3 {
					t.Fatalf("%d×%d, r = %g, %v, step %d: cell %d: got %g; want %g", w, h, r, edges, step, i, got[i], want[i])
				}
			}
			if !fixed.North && !fixed.West {
				v0, v1 := volume(hs, 1), volume(got, 1)
				if math.Abs(v1-v0) > 1e-6*v0 {
					t.Errorf("%d×%d, r = %g, step %d: volume %g; want %g (no fixed edge)", w, h, r, step, v1, v0)
				}
			}
		}
		e.Close()
		t.Logf("%d×%d, r = %g, fixed %v, wide %v, narrow %v: worst difference %.3g m", w, h, r, fixed, tc.wide, tc.narrow, worst)
	}
}

// TestCreepColumnsInterleaved runs the creep's sweeps on grids whose
// sweep along y keeps c' and d' interleaved across a work group's
// columns (creepscannarrowi) and again with them in the grid's order
// (creepscannarrow): the same arithmetic, so the same heights bit for
// bit, with fixed and free ends, a last group of fewer than 4 columns
// (the fixed west edge leaves 51 of 52) and columns of one chunk of 64.
func TestCreepColumnsInterleaved(t *testing.T) {
	fixedWN := flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Outlet}
	free := flow.Edges{North: flow.Natural, South: flow.Closed, East: flow.Natural, West: flow.Closed}
	defer func(n int, on bool) { NarrowCells, InterleaveColumns = n, on }(NarrowCells, InterleaveColumns)
	for _, tc := range []struct {
		w, h  int
		r     float64
		edges flow.Edges
	}{{52, 128, 2, fixedWN}, {64, 192, 50, free}, {8, 64, 0.1, fixedWN}} {
		NarrowCells = tc.w * tc.h
		var runs [2][]float32
		for k, on := range []bool{true, false} {
			InterleaveColumns = on
			rng := rand.New(rand.NewPCG(9, 2))
			hs := make([]float32, tc.w*tc.h)
			for i := range hs {
				hs[i] = float32(500 * rng.Float64())
			}
			p := engine.DefaultParams()
			p.Edges = tc.edges
			p.Kappa = tc.r * 100 * 100 / p.Dt
			p.CreepSc = 2
			e, err := New(device(t), grid.Config{W: tc.w, H: tc.h, Cell: 100, Init: hs, Params: p})
			if err != nil {
				t.Fatal(err)
			}
			for step := 1; step <= 2; step++ {
				creepOnly(t, e, step)
			}
			if want := map[bool]string{true: "creepscannarrowi", false: "creepscannarrow"}[on]; e.sweepY != want {
				t.Errorf("%d×%d, interleaved %v: the sweep along y ran %s; want %s", tc.w, tc.h, on, e.sweepY, want)
			}
			runs[k] = e.readFloats(e.hb)
			e.Close()
		}
		moved := 0
		for i := range runs[0] {
			if math.Float32bits(runs[0][i]) != math.Float32bits(runs[1][i]) {
				t.Fatalf("%d×%d, r = %g: cell %d: interleaved %g; in the grid's order %g", tc.w, tc.h, tc.r, i, runs[0][i], runs[1][i])
			}
		}
		rng := rand.New(rand.NewPCG(9, 2))
		for i := range runs[0] {
			if runs[0][i] != float32(500*rng.Float64()) {
				moved++
			}
		}
		if moved < len(runs[0])/2 {
			t.Errorf("%d×%d, r = %g: the creep moved %d cells of %d; want most", tc.w, tc.h, tc.r, moved, len(runs[0]))
		}
	}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// TestPhysicsMatchesCPU steps the engine with nonlinear creep, and with
// creep, k noise and random hillslope routing together
// (TestDepositionMatchesCPU adds deposition), beside sim/grid for 20
// steps: the heights' mean and max agree within 2 % and 6 % (as
// TestStepsMatchCPU's), and the rock account closes on the heights read
// back.
func TestPhysicsMatchesCPU(t *testing.T) {
	mixed := flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed}
	for _, tc := range []struct {
		name   string
		random bool
		knoise float64
	}{{"creep", false, 0}, {"creep+knoise+random", true, 0.5}} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(48, mixed)
			c.Params.Kappa, c.Params.CreepSc = 1, 0.5
			c.Params.KNoise, c.Params.Seed = tc.knoise, 3
			if tc.random {
				c.Params.Routing = flow.RoutingRandom
			}
			ce, ge := pair(t, c)
			compareSteps(t, ce, ge, 20, 0.02, 0.06)
		})
	}
}

// TestDepositionMatchesCPU steps the engine with deposition (Yuan et al.
// 2019: G·Qs/A in the implicit step, sim/spl's Hold, the sediment carried
// down with its clamps, lakes filled) beside sim/grid, alone, with the
// other soil physics, and with the presets' physics (a talus angle by
// noise among them): after 25 steps the
// heights' mean and max agree within 2 % and 6 %, the rock account closes
// on the heights read back, the sediment account (Eroded + Talus =
// Deposited + SedimentOut) closes to 1e-6 of the sediment moved, and the
// deposited volume is the CPU's within 10 %.
func TestDepositionMatchesCPU(t *testing.T) {
	mixed := flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed}
	for _, tc := range []struct {
		name    string
		g       float64
		all     bool
		presets bool
	}{{"G=1", 1, false, false}, {"G=0.2+creep+knoise+random", 0.2, true, false}, {"presets", 1.5, true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			c := config(48, mixed)
			c.Params.G = tc.g
			if tc.all {
				c.Params.Kappa, c.Params.CreepSc = 1, 0.5
				c.Params.KNoise, c.Params.Seed, c.Params.Routing = 0.5, 3, flow.RoutingRandom
			}
			if tc.presets {
				// The physics the presets take (presets branch): creep κ
				// 0.02, S_c 0.6, G 1.5, k noise 0.8 at 3 km, random
				// routing, a talus angle of 25-40° by noise.
				c.Params.Kappa, c.Params.CreepSc, c.Params.KNoise, c.Params.KNoiseWavelength = 0.02, 0.6, 0.8, 3000
				c.Params.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 25, MaxDeg: 40, WavelengthM: 3000, Octaves: 4, Seed: 3}
				c.Params.PlainUplift = 5e-5
			}
			ce, ge := pair(t, c)
			var cdep, gdep float64
			for s := 1; s <= 20; s++ {
				cs := ce.Step()
				gs := ge.Step()
				if err := ge.Err(); err != nil {
					t.Fatal(err)
				}
				cdep += cs.Mass.Deposited
				gdep += gs.Mass.Deposited
				m := gs.Mass
				if r := m.SedimentResidual(); math.Abs(r) > 1e-6*(math.Abs(m.Eroded)+math.Abs(m.Talus)+math.Abs(m.Deposited))+1 {
					t.Errorf("step %d: the sediment account is off by %g m³ (%+v)", s, r, m)
				}
				if s <= 3 || s%10 == 0 {
					t.Logf("step %d: %d rounds; deposited %.4g/%.4g m³, out %.4g/%.4g m³ (GPU/CPU)", s, ge.DepRounds, m.Deposited, cs.Mass.Deposited, m.SedimentOut, cs.Mass.SedimentOut)
				}
			}
			t.Logf("deposited over 20 steps: %.4g/%.4g m³ (GPU/CPU)", gdep, cdep)
			if math.Abs(gdep-cdep) > 0.1*cdep {
				t.Errorf("deposited %.4g m³ over 20 steps; want %.4g within 10 %%", gdep, cdep)
			}
			compareSteps(t, ce, ge, 5, 0.02, 0.06)
			// The alluvium: what the sediment left, as thick in all as
			// on the CPU within 10 %.
			ca, ga := ce.Snapshot().Alluvium, ge.Snapshot().Alluvium
			if ga == nil {
				t.Fatal("no alluvium in the GPU's snapshot")
			}
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

// TestTalusNoiseMatchesCPU steps the engine with sim/talus's noise mode
// (the angle between 20° and 40° by seeded fBm) beside sim/grid: the
// limit lowers as many cells in the first 5 steps as on the CPU within
// 30 %, and after 20 steps the heights' mean and max agree within 2 % and
// 6 %, the rock account closed.
func TestTalusNoiseMatchesCPU(t *testing.T) {
	c := config(48, flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed})
	c.Params.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 20, MaxDeg: 40, WavelengthM: 3000, Octaves: 4, Seed: 5}
	ce, ge := pair(t, c)
	var cc, gc int
	for range 5 {
		cc += ce.Step().Clamped
		gc += ge.Step().Clamped
	}
	t.Logf("cells the limit lowered in 5 steps: %d/%d (GPU/CPU)", gc, cc)
	if cc == 0 || math.Abs(float64(gc-cc)) > 0.3*float64(cc) {
		t.Errorf("the limit lowered %d cells in 5 steps; want %d within 30 %% (and some)", gc, cc)
	}
	compareSteps(t, ce, ge, 15, 0.02, 0.06)
}

// creepOnly runs the creep's sweeps of step (from 1) alone on e's heights.
func creepOnly(t *testing.T, e *Engine, step int) {
	t.Helper()
	err := e.dev.Do(func(c gpu.Context) error {
		e.bindCommon(c)
		if err := e.setCtl(c, 11, math.Float32bits(1/float32(step))); err != nil {
			return err
		}
		if err := e.setCtl(c, 12, b2u(step == 1)); err != nil {
			return err
		}
		return e.diffuse(c, true, false, nil)
	})
	if err != nil {
		t.Fatal(err)
	}
}
