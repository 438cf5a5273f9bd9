package flow

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"orogen/sim/simtest"
)

var edgeCases = []struct {
	name  string
	edges Edges
}{
	{"outlets", Edges{}},
	{"west-outlet", Edges{North: Closed, South: Closed, East: Closed, West: Outlet}},
	{"natural", Edges{North: Natural, South: Natural, East: Natural, West: Natural}},
	{"mixed", Edges{North: Natural, South: Closed, East: Outlet, West: Closed}},
	{"one-natural", Edges{North: Closed, South: Closed, East: Closed, West: Natural}},
}

func checkDrains(t *testing.T, g *Graph) {
	t.Helper()
	if err := g.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestEveryCellDrainsToAnOutlet(t *testing.T) {
	terrains := map[string]func(w, h int) []float32{
		"noise": func(w, h int) []float32 { return simtest.Noisy(w, h, 100, 3) },
		"rough": func(w, h int) []float32 { return simtest.Rough(w, h, 500, 4) },
		"flat":  func(w, h int) []float32 { return make([]float32, w*h) },
		"bowl": func(w, h int) []float32 {
			return simtest.Scale(simtest.Cone(w, h, 10, 0, 1), -1)
		},
	}
	for name, make := range terrains {
		for _, ec := range edgeCases {
			for _, size := range [][2]int{{3, 3}, {17, 5}, {128, 96}} {
				t.Run(fmt.Sprintf("%s/%s/%dx%d", name, ec.name, size[0], size[1]), func(t *testing.T) {
					h := make(size[0], size[1])
					g := NewGraph(size[0], size[1], 10, ec.edges, 0)
					g.Update(h)
					checkDrains(t, g)
				})
			}
		}
	}
}

func TestNoisyTerrainHasThousandsOfLakes(t *testing.T) {
	g := NewGraph(256, 256, 10, Edges{}, 0)
	g.Update(simtest.Noisy(256, 256, 100, 9))
	if len(g.Lakes) < 2000 {
		t.Fatalf("got %d lakes on white noise; want thousands (the test must exercise the pass code)", len(g.Lakes))
	}
	checkDrains(t, g)
}

func TestAreaSumsToDomain(t *testing.T) {
	const cell = 30.0
	for _, ec := range edgeCases {
		t.Run(ec.name, func(t *testing.T) {
			w, h := 200, 150
			g := NewGraph(w, h, cell, ec.edges, 0)
			g.Update(simtest.Rough(w, h, 300, 5))
			a := g.Accumulate(nil, cell*cell)
			var sum float64
			for f := 0; f+1 < len(g.Trees); f++ {
				sum += a[g.Stack[g.Trees[f]]]
			}
			want := float64(w*h) * cell * cell
			// Sums of exact multiples of 900 m² stay exact in float64
			// below 2^53; allow one part in 1e12 anyway.
			if math.Abs(sum-want) > want*1e-12 {
				t.Fatalf("area at the outlets = %g m²; want %g", sum, want)
			}
		})
	}
}

func TestAreaOnTiltedPlane(t *testing.T) {
	// A plane falling toward the west outlet edge: every cell drains to its
	// west neighbour, so A(x, y) = (W - x) · cell² exactly.
	const w, h, cell = 40, 9, 25.0
	edges := Edges{North: Closed, South: Closed, East: Closed, West: Outlet}
	g := NewGraph(w, h, cell, edges, 0)
	g.Update(simtest.TiltedPlane(w, h, cell, 0.01))
	a := g.Accumulate(nil, cell*cell)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			want := float64(w-x) * cell * cell
			if got := a[y*w+x]; got != want {
				t.Fatalf("A(%d, %d) = %g; want %g", x, y, got, want)
			}
		}
	}
	if len(g.Lakes) != 0 {
		t.Fatalf("got %d lakes on a plane; want 0", len(g.Lakes))
	}
}

func TestAreaOnCone(t *testing.T) {
	// Water flows radially out of a cone: the flux through any circle
	// around the peak is the area of the cells inside it, which is πr²
	// up to the discretization of the disc.
	const n, cell = 201, 10.0
	g := NewGraph(n, n, cell, Edges{}, 0)
	g.Update(simtest.Cone(n, n, cell, 1000, 0.5))
	a := g.Accumulate(nil, cell*cell)
	c := float64(n-1) / 2
	rad := func(i int32) float64 {
		return math.Hypot(float64(int(i)%n)-c, float64(int(i)/n)-c) * cell
	}
	for _, r := range []float64{200, 500, 900} {
		var flux, inside float64
		for i := int32(0); i < n*n; i++ {
			if rad(i) <= r {
				inside += cell * cell
				if rad(g.Rec[i]) > r {
					flux += a[i]
				}
			}
		}
		if flux != inside {
			t.Errorf("r = %g: flux through the circle %g m²; want the %g m² inside", r, flux, inside)
		}
		// The pixelated disc has area πr² to within its perimeter band;
		// 2% covers r >= 20 cells.
		if disc := math.Pi * r * r; math.Abs(flux-disc) > 0.02*disc {
			t.Errorf("r = %g: flux %g m²; want πr² = %g within 2%%", r, flux, disc)
		}
	}
}

// grid builds heights from rows of digits for hand-made cases.
func gridOf(rows []string) (w, h int, d []float32) {
	h, w = len(rows), len(rows[0])
	d = make([]float32, w*h)
	for y, r := range rows {
		for x, c := range r {
			d[y*w+x] = float32(c - '0')
		}
	}
	return
}

// westOutletLakes routes a hand-made grid whose only outlet is the west
// edge and checks it drains and holds the given number of lakes.
func westOutletLakes(t *testing.T, rows []string, lakes int) (g *Graph, w int, d []float32) {
	t.Helper()
	w, h, d := gridOf(rows)
	g = NewGraph(w, h, 1, Edges{North: Closed, South: Closed, East: Closed, West: Outlet}, 0)
	g.Update(d)
	checkDrains(t, g)
	if len(g.Lakes) != lakes {
		t.Fatalf("got %d lakes; want %d: %+v", len(g.Lakes), lakes, g.Lakes)
	}
	return g, w, d
}

func TestTwoBasinSpillLevels(t *testing.T) {
	// West edge outlet, others closed. Basin A (the pit 1 at column 2)
	// spills west over the 3s of column 1; basin B (the pit 0 at column 6)
	// spills into A over the pass of height 5 at column 4. So A's water
	// stands at 3 and B's at 5.
	rows := []string{
		"0399999789",
		"0312520789",
		"0399999789",
	}
	g, w, d := westOutletLakes(t, rows, 2)
	pitA, pitB := int32(w+2), int32(w+6)
	for _, lk := range g.Lakes {
		switch lk.Root {
		case pitA:
			if lk.Spill != 3 || lk.Level != 3 {
				t.Errorf("lake A: spill %g, level %g; want 3, 3", lk.Spill, lk.Level)
			}
			if lk.Pass != pitA || int(lk.Outflow)%w != 1 {
				t.Errorf("lake A passes from %d to %d; want from its pit to column 1", lk.Pass, lk.Outflow)
			}
		case pitB:
			if lk.Spill != 5 || lk.Level != 5 {
				t.Errorf("lake B: spill %g, level %g; want 5, 5", lk.Spill, lk.Level)
			}
			if lk.Pass != int32(w+4) || lk.Outflow != int32(w+3) {
				t.Errorf("lake B passes from %d to %d; want from %d to %d", lk.Pass, lk.Outflow, w+4, w+3)
			}
			// Carved: the bottom drains up the path (6,1) → (5,1) →
			// (4,1), and the pass cell over the sill into A.
			if g.Rec[pitB] != int32(w+5) || g.Rec[w+5] != int32(w+4) || g.Rec[w+4] != int32(w+3) {
				t.Errorf("B drains %d → %d → %d → %d; want %d → %d → %d → %d", pitB, g.Rec[pitB], g.Rec[g.Rec[pitB]], g.Rec[g.Rec[g.Rec[pitB]]], pitB, w+5, w+4, w+3)
			}
		default:
			t.Errorf("unexpected lake rooted at (%d, %d)", int(lk.Root)%w, int(lk.Root)/w)
		}
	}
	wd := g.WaterDepth(nil, d)
	for i := range d {
		var lv float32
		switch g.Label[i] {
		case g.Label[pitA]:
			lv = 3
		case g.Label[pitB]:
			lv = 5
		}
		if want := max(0, lv-d[i]); wd[i] != want {
			t.Errorf("water depth at (%d, %d) = %g; want %g", i%w, i/w, wd[i], want)
		}
	}
}

func TestNestedLakeIsSubmerged(t *testing.T) {
	// Basin B (the pit 0 at column 4) spills into A over a pass at 2, but A
	// (the pit 1 at column 2) spills out only at 4 (column 1): A's water
	// covers B's pass, so both lakes stand at 4.
	rows := []string{
		"04999789",
		"04120789",
		"04999789",
	}
	g, w, _ := westOutletLakes(t, rows, 2)
	spills := map[int32]float32{int32(w + 2): 4, int32(w + 4): 2}
	for _, lk := range g.Lakes {
		if lk.Level != 4 || lk.Spill != spills[lk.Root] {
			t.Errorf("lake at column %d: spill %g, level %g; want spill %g, level 4", int(lk.Root)%w, lk.Spill, lk.Level, spills[lk.Root])
		}
	}
}

func TestNaturalEdgeSpill(t *testing.T) {
	// A bowl (20 at the centre, rising 1 m per cell) with all edges natural.
	// Every edge cell is at 40 except one at 30 on the west edge, which
	// still drains into the bowl: the whole grid is one basin, and it
	// spills out of the grid over that cell, at its height.
	const n = 21
	d := simtest.Scale(simtest.Cone(n, n, 1, 0, 1), -1)
	low := int32(n * 10)
	for i := range d {
		d[i] += 20
		x, y := i%n, i/n
		if x == 0 || y == 0 || x == n-1 || y == n-1 {
			d[i] = 40
		}
	}
	d[low] = 30
	g := NewGraph(n, n, 1, Edges{Natural, Natural, Natural, Natural}, 0)
	g.Update(d)
	checkDrains(t, g)
	if len(g.Lakes) != 1 {
		t.Fatalf("got %d lakes; want 1: %+v", len(g.Lakes), g.Lakes)
	}
	lk := g.Lakes[0]
	if lk.Outflow >= 0 || lk.Spill != 30 || lk.Pass != low {
		t.Errorf("lake spills from %d to %d at %g; want from %d out of the grid (-1) at 30", lk.Pass, lk.Outflow, lk.Spill, low)
	}
	if g.Rec[low] != low || g.Dist[low] != float32(g.Natural) {
		t.Errorf("spill cell drains to %d at %g m; want the virtual node at %g m", g.Rec[low], g.Dist[low], g.Natural)
	}
	// The bottom drains up the carved path to the spill cell.
	c, steps := lk.Root, 0
	for ; c != low && steps < n*n; steps++ {
		c = g.Rec[c]
	}
	if c != low {
		t.Errorf("the bottom %d does not drain to the spill cell %d", lk.Root, low)
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	d := simtest.Rough(300, 200, 400, 8)
	var ref *Graph
	for _, procs := range []int{1, 2, 3, 5} {
		runtime.GOMAXPROCS(procs)
		g := NewGraph(300, 200, 10, edgeCases[3].edges, 0)
		g.Update(d)
		a := g.Accumulate(nil, 100)
		if ref == nil {
			ref = g
			ref.Accumulate(nil, 100)
			continue
		}
		ra := ref.Accumulate(nil, 100)
		if !slices.Equal(g.Stack, ref.Stack) || !slices.Equal(g.Rec, ref.Rec) || !slices.Equal(g.Trees, ref.Trees) {
			t.Fatalf("GOMAXPROCS %d: stack, receivers or trees differ from GOMAXPROCS 1", procs)
		}
		if !slices.Equal(a, ra) {
			t.Fatalf("GOMAXPROCS %d: areas differ", procs)
		}
		if !slices.Equal(g.Lakes, ref.Lakes) {
			t.Fatalf("GOMAXPROCS %d: lakes differ", procs)
		}
	}
}

func TestParseBoundary(t *testing.T) {
	for _, b := range []Boundary{Outlet, Closed, Natural} {
		got, err := ParseBoundary(b.String())
		if err != nil || got != b {
			t.Errorf("ParseBoundary(%q) = %v, %v; want %v", b.String(), got, err, b)
		}
	}
	if _, err := ParseBoundary("open"); err == nil {
		t.Error("ParseBoundary(\"open\") gave no error")
	}
}

func benchmarkUpdate(b *testing.B, n int) {
	d := simtest.Rough(n, n, 1000, 1)
	g := NewGraph(n, n, 50, Edges{}, 0)
	g.Update(d)
	var a []float64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		g.Update(d)
		a = g.Accumulate(a, 2500)
	}
}

func BenchmarkUpdate(b *testing.B) {
	for _, n := range []int{256, 512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkUpdate(b, n) })
	}
}

func TestCheckCatchesBrokenGraphs(t *testing.T) {
	g := NewGraph(8, 8, 1, Edges{}, 0)
	g.Update(simtest.Noisy(8, 8, 10, 1))
	i := g.Stack[len(g.Stack)-1] // a leaf: nothing drains to it
	r := g.Stack[g.Trees[0]]     // the first outlet
	g.Rec[r] = i                 // the outlet now drains into its own leaf
	if err := g.Check(); err == nil {
		t.Fatal("Check accepted an outlet draining into a cell after it")
	}
}

func TestHysteresisKeepsTiedReceivers(t *testing.T) {
	// The centre of a 5×5 grid (all edges closed but the east one, so the
	// cells route inward) has two lower neighbours, east and south.
	const n = 5
	d := simtest.Uniform(n, n, 100)
	c := int32(2*n + 2)
	d[c], d[c+1], d[c+n] = 50, 40, 40
	g := NewGraph(n, n, 10, Edges{North: Closed, South: Closed, East: Outlet, West: Closed}, 0)
	g.Route(d)
	if g.Rec[c] != c+1 {
		t.Fatalf("tie: receiver %d; want the east neighbour %d (first in order)", g.Rec[c], c+1)
	}
	d[c+n] = 40 - 0.001 // south now steeper by 1e-4: within the hysteresis
	g.Route(d)
	if g.Rec[c] != c+1 {
		t.Fatalf("south steeper by 1e-4: receiver %d; want the previous one %d", g.Rec[c], c+1)
	}
	d[c+n] = 39 // steeper by 10 %: the receiver moves
	g.Route(d)
	if g.Rec[c] != c+n {
		t.Fatalf("south steeper by 10%%: receiver %d; want %d", g.Rec[c], c+n)
	}
	// A fresh graph has no previous receiver and takes the steepest.
	g = NewGraph(n, n, 10, Edges{North: Closed, South: Closed, East: Outlet, West: Closed}, 0)
	d[c+n] = 40 - 0.001
	g.Route(d)
	if g.Rec[c] != c+n {
		t.Fatalf("fresh graph: receiver %d; want the steepest %d", g.Rec[c], c+n)
	}
}

// TestLakesAfterPitCountGrows reuses one graph on terrains with more and
// more pits: the per-worker pass tables grown for an earlier, smaller pit
// count must serve a later, larger one (they once grew unevenly and a
// later call read past the end of two of them, killing the app mid-edit).
func TestLakesAfterPitCountGrows(t *testing.T) {
	const n = 96
	g := NewGraph(n, n, 10, Edges{}, 0)
	prev := 0
	for i, amp := range []float64{2, 5, 20, 60, 150, 400} {
		h := simtest.Cone(n, n, 10, 500, 0.05)
		for k, v := range simtest.Noisy(n, n, amp, uint64(i+1)) {
			h[k] += v
		}
		g.Update(h)
		if err := g.Check(); err != nil {
			t.Fatalf("noise %g m: %v", amp, err)
		}
		if len(g.Lakes) < prev {
			t.Logf("noise %g m: %d lakes (fewer than before)", amp, len(g.Lakes))
		}
		prev = len(g.Lakes)
	}
	if prev < 100 {
		t.Fatalf("the last terrain has %d lakes; want hundreds (the test must grow the pit count)", prev)
	}
}

// TestWaterDepthFollowsPasses checks lake depths on the routed heights
// (each lake filled to its Level) and on the same terrain raised by a
// uniform uplift after routing, as a snapshot sees it after a step: the
// lakes rise with their passes and keep their depths.
func TestWaterDepthFollowsPasses(t *testing.T) {
	const n = 120
	h := simtest.Cone(n, n, 10, 400, 0.04)
	for k, v := range simtest.Noisy(n, n, 40, 3) {
		h[k] += v
	}
	g := NewGraph(n, n, 10, Edges{}, 0)
	g.Update(h)
	if len(g.Lakes) < 50 {
		t.Fatalf("%d lakes; want many", len(g.Lakes))
	}
	d0 := g.WaterDepth(nil, h)
	wet := 0
	for _, lk := range g.Lakes {
		for _, i := range g.Stack[lk.Start : lk.Start+lk.Len] {
			want := max(0, lk.Level-h[i])
			if d0[i] != want {
				t.Fatalf("cell %d: depth %v; want Level %v − h %v = %v", i, d0[i], lk.Level, h[i], want)
			}
			if want > 0 {
				wet++
			}
		}
	}
	if wet == 0 {
		t.Fatal("no wet cells; the test needs lakes with water")
	}
	// Raised by 125 m (one step of 0.5 mm/yr over 250 kyr): float32
	// heights near 500 m carry 3e-5 m of rounding; allow 1e-3 m.
	up := make([]float32, len(h))
	for i, v := range h {
		up[i] = v + 125
	}
	d1 := g.WaterDepth(nil, up)
	for i := range d0 {
		if math.Abs(float64(d1[i]-d0[i])) > 1e-3 {
			t.Fatalf("cell %d: depth %v after a uniform 125 m uplift; want %v as before", i, d1[i], d0[i])
		}
	}
}

// BenchmarkRoute times the steepest-descent routing alone at 1024².
func BenchmarkRoute(b *testing.B) {
	const n = 1024
	d := simtest.Noisy(n, n, 1000, 3)
	g := NewGraph(n, n, 50, Edges{}, 0)
	g.Update(d)
	for b.Loop() {
		g.Route(d)
	}
}

// After Forget, a graph routes like a new one: no receiver is kept by
// hysteresis.
func TestForget(t *testing.T) {
	const w, h = 5, 5
	// The centre drains north on a, and on b west, steeper by 0.05 %:
	// within the hysteresis, so a graph that saw a keeps north.
	a, b := simtest.Uniform(w, h, 10), simtest.Uniform(w, h, 10)
	c, n, wst := 2*w+2, 1*w+2, 2*w+1
	a[c], a[n], a[wst] = 5, 4, 4.0005
	b[c], b[n], b[wst] = 5, 4.0005, 4.0
	g := NewGraph(w, h, 1, Edges{}, 0)
	g.Update(a)
	g.Forget()
	g.Update(b)
	fresh := NewGraph(w, h, 1, Edges{}, 0)
	fresh.Update(b)
	if g.Rec[c] != int32(wst) || fresh.Rec[c] != int32(wst) {
		t.Errorf("centre drains to %d after Forget, %d on a new graph; want %d (west)", g.Rec[c], fresh.Rec[c], wst)
	}
	kept := NewGraph(w, h, 1, Edges{}, 0)
	kept.Update(a)
	kept.Update(b)
	if kept.Rec[c] != int32(n) {
		t.Errorf("without Forget the centre drains to %d; want %d (north, kept by hysteresis)", kept.Rec[c], n)
	}
}

// TestOrderTrees: OrderTrees and AssembleTrees list the same trees as
// Order and Assemble without lakes (Stack, RecPos, Trees equal, for every
// kind of edge); OrderTrees forgets the lakes of an earlier ConnectLakes,
// ConnectLakes refuses to run on its missing labels, and AssembleTrees
// refuses a graph with lakes.
func TestOrderTrees(t *testing.T) {
	for _, ec := range edgeCases {
		w, hgt := 96, 80
		h := simtest.Noisy(w, hgt, 100, 5)
		a := NewGraph(w, hgt, 10, ec.edges, 0)
		a.Route(h)
		a.Order()
		a.Assemble()
		b := NewGraph(w, hgt, 10, ec.edges, 0)
		b.Update(h) // lakes connected, then forgotten by OrderTrees
		if len(b.Lakes) == 0 {
			t.Fatalf("%s: no lakes on noise: the test would not show OrderTrees forgets them", ec.name)
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: AssembleTrees on a graph with lakes did not panic", ec.name)
				}
			}()
			b.AssembleTrees()
		}()
		b.Route(h)
		b.OrderTrees()
		b.AssembleTrees()
		for _, c := range []struct {
			name string
			x, y []int32
		}{{"Stack", a.Stack, b.Stack}, {"RecPos", a.RecPos, b.RecPos}, {"Trees", a.Trees, b.Trees}} {
			if !slices.Equal(c.x, c.y) {
				t.Errorf("%s: %s differs between Order and OrderTrees", ec.name, c.name)
			}
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: ConnectLakes after OrderTrees did not panic", ec.name)
				}
			}()
			b.ConnectLakes(h)
		}()
	}
}
