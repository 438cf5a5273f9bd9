package graph

import (
	"math"
	"orogen/sim/engine"
	"testing"
)

// lakeOfNode returns the lake whose basin holds node i, or -1.
func lakeOfNode(e *Engine, i int32) int {
	for k := range e.Lakes() {
		for _, j := range e.Basin(k) {
			if j == i {
				return k
			}
		}
	}
	return -1
}

// roughEngine returns an engine on rough noise after steps steps: many
// lakes, nested ones among them.
func roughEngine(t *testing.T, steps int) *Engine {
	t.Helper()
	m := sampleMesh(t, 5000, 4000, 50, 4)
	up := make([]float32, m.N)
	for i := range up {
		up[i] = 5e-4
	}
	e, err := New(Config{Mesh: m, Up: up, InitNoise: 300, Seed: 4, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	for range steps {
		e.Step()
	}
	if len(e.Lakes()) == 0 {
		t.Fatal("no lakes: the test terrain is too smooth")
	}
	return e
}

// TestWaterLevelsRouted checks that on the heights the step routed every
// wet node's surface h + depth is its lake's level, every lake's level is
// its Prim pass height or the level downstream, and basins do not overlap.
func TestWaterLevelsRouted(t *testing.T) {
	e := roughEngine(t, 1)
	h := e.prev // the heights the last step routed
	depth := e.waterDepth(nil, h)
	levels := e.Levels(nil, h)
	seen := make([]bool, e.m.N)
	wet := 0
	for k, lk := range e.Lakes() {
		if e.m.Outlet[lk.Pass] || lakeOfNode(e, lk.Pit) != k || !isNbr(e.m, int(lk.Pass), lk.Outflow) {
			t.Fatalf("lake %d: pit %d, pass %d, outflow %d: inconsistent", k, lk.Pit, lk.Pass, lk.Outflow)
		}
		if lk.Down >= int32(k) {
			t.Fatalf("lake %d spills into lake %d; want an earlier one", k, lk.Down)
		}
		for _, i := range e.Basin(k) {
			if seen[i] {
				t.Fatalf("node %d in two basins", i)
			}
			seen[i] = true
			if depth[i] == 0 {
				if h[i] < levels[k] {
					t.Fatalf("lake %d node %d: dry at %g m under level %g m", k, i, h[i], levels[k])
				}
				continue
			}
			wet++
			// depth = level − h rounded to float32, so h + depth is the
			// level to one float32 rounding of the level.
			if got, want := h[i]+depth[i], levels[k]; math.Abs(float64(got-want)) > 1e-6*math.Abs(float64(want))+1e-6 {
				t.Fatalf("lake %d node %d: h + depth = %g m; want the level %g m", k, i, got, want)
			}
		}
	}
	if wet == 0 {
		t.Fatal("no wet node")
	}
	for i, d := range depth {
		if d != 0 && !seen[i] {
			t.Fatalf("node %d: depth %g outside every basin", i, d)
		}
	}
}

// TestWaterUpliftInvariant raises every non-outlet node by the same amount:
// the lakes rise with their passes and keep their depths.
func TestWaterUpliftInvariant(t *testing.T) {
	e := roughEngine(t, 3)
	before := append([]float32(nil), e.WaterDepth(nil)...)
	const lift = 37.5
	for i := range e.hgt {
		if !e.m.Outlet[i] {
			e.hgt[i] += lift
		}
	}
	after := e.WaterDepth(nil)
	for i := range before {
		// Tolerance: float32 rounding of heights of a few hundred metres
		// plus the lift is about 3e-5 m; 1e-3 m leaves room.
		if math.Abs(float64(after[i]-before[i])) > 1e-3 {
			t.Fatalf("node %d: depth %g m after a uniform uplift of %g m; want %g m", i, after[i], lift, before[i])
		}
	}
}

// TestWaterBowl fills a bowl with a notch in its wall (TestLowestPass's
// terrain) to the notch height.
func TestWaterBowl(t *testing.T) {
	m := sampleMesh(t, 2000, 2000, 50, 9)
	const cx, cy, notch = 1000, 1000, 500
	init := make([]float32, m.N)
	bottom, rmin := int32(-1), math.Inf(1)
	for i := range init {
		dx, dy := m.X[i]-cx, m.Y[i]-cy
		r := math.Hypot(dx, dy)
		edge := min(m.X[i], m.Y[i], m.W-m.X[i], m.H-m.Y[i])
		switch {
		case m.Outlet[i]:
		case r < 300:
			init[i] = float32(1 + r/100)
		case r < 400 && dx > 0 && math.Abs(dy) < 80:
			init[i] = notch
		case r < 400:
			init[i] = 1000
		default:
			init[i] = float32(200 * edge / 1000)
		}
		if r < rmin {
			bottom, rmin = int32(i), r
		}
	}
	p := engine.DefaultParams()
	e, err := New(Config{Mesh: m, Init: init, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	if d := e.WaterDepth(nil); d[bottom] != 0 {
		t.Fatalf("before the first step: depth %g at the bottom; want dry", d[bottom])
	}
	e.Step()
	k := lakeOfNode(e, bottom)
	if k < 0 {
		t.Fatal("the bowl's bottom is in no lake")
	}
	if lvl := e.Levels(nil, init)[k]; lvl != notch {
		t.Fatalf("bowl level on the routed heights: got %g m; want %g m (the notch)", lvl, float32(notch))
	}
	depth := e.waterDepth(nil, init)
	for i := range init {
		if r := math.Hypot(m.X[i]-cx, m.Y[i]-cy); r < 300 {
			if want := notch - init[i]; depth[i] != want {
				t.Fatalf("node %d, %g m from the centre: depth %g m; want %g m", i, r, depth[i], want)
			}
		}
	}
	// On the current heights the level follows the eroded notch: at most
	// the notch, and the bowl is still full to within the erosion of one
	// step.
	cur := e.WaterDepth(nil)
	lvl := e.Levels(nil, e.Heights())[k]
	if lvl > notch || cur[bottom] <= 0 || math.Abs(float64(e.Heights()[bottom]+cur[bottom]-lvl)) > 1e-3 {
		t.Fatalf("current heights: level %g m, bottom depth %g m; want <= %g m and wet to the level", lvl, cur[bottom], float32(notch))
	}
}
