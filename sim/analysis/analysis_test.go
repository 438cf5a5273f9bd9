package analysis

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"orogen/sim"
	"orogen/sim/flow"
	"orogen/sim/simtest"
)

var (
	outlets = flow.Edges{North: flow.Outlet, South: flow.Outlet, East: flow.Outlet, West: flow.Outlet}
	natural = flow.Edges{North: flow.Natural, South: flow.Natural, East: flow.Natural, West: flow.Natural}
)

// steadyState returns the steady state of the stream power law with uniform
// uplift u and erodibility k on a w×h grid with outlets at height 0 on
// every edge: S = (u/k)^(1/n)·A^(−m/n) along the D8 receivers of the
// heights themselves. It is found as a fixed point: route, integrate the
// slopes up the receiver tree from the outlets, route again, until no
// receiver changes.
func steadyState(t testing.TB, w, h int, cell, u, k, m, n float64) *sim.Field {
	t.Helper()
	f, ok := steadyHeights(w, h, cell, u, k, m, n, 200)
	if !ok {
		t.Fatal("the steady state's receivers did not settle in 200 routings")
	}
	return f
}

// steadyHeights is steadyState stopped after at most iters routings; it
// reports whether the receivers settled.
func steadyHeights(w, h int, cell, u, k, m, n float64, iters int) (*sim.Field, bool) {
	ks := math.Pow(u/k, 1/n)
	f := sim.NewField(w, h, cell)
	copy(f.Data, simtest.Noisy(w, h, 1, 3))
	for y := range h {
		for x := range w { // a dome, so the first routing already has long rivers
			d := math.Min(math.Min(float64(x), float64(w-1-x)), math.Min(float64(y), float64(h-1-y)))
			f.Data[y*w+x] += float32(d * cell * 0.01)
		}
	}
	var prev []int32
	hs := make([]float64, w*h)
	for range iters {
		g := flow.NewGraph(w, h, cell, outlets, 0)
		g.Update(f.Data)
		if prev != nil && equal(prev, g.Rec) {
			return f, true
		}
		prev = append(prev[:0], g.Rec...)
		area := g.Accumulate(nil, cell*cell)
		for _, i := range g.Stack {
			r := g.Rec[i]
			if r == i {
				hs[i] = 0
				continue
			}
			hs[i] = hs[r] + float64(g.Dist[i])*ks*math.Pow(area[i], -m/n)
		}
		for i, v := range hs {
			f.Data[i] = float32(v)
		}
	}
	return f, false
}

func equal(a, b []int32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// On the analytic steady state, slope against area is the stream power law's
// own: exponent −m/n, steepness (u/k)^(1/n). The issue asks for 1 % on the
// exponent and 2 % on k_s; the only error is float32 rounding of heights
// of a few hundred metres (about 1e-5 m against drops of 0.1 m or more), so
// the fit is far closer than that.
func TestSlopeAreaSteadyState(t *testing.T) {
	for _, c := range []struct {
		name       string
		u, k, m, n float64
	}{
		{"n=1", 1e-3, 2e-5, 0.45, 1},
		{"n=2", 5e-4, 1e-7, 0.8, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := steadyState(t, 96, 80, 100, c.u, c.k, c.m, c.n)
			r, err := Analyze(f, Options{Edges: outlets, MinArea: 5})
			if err != nil {
				t.Fatal(err)
			}
			sa := r.SlopeA
			if sa == nil {
				t.Fatal(r.SlopeErr)
			}
			want := -c.m / c.n
			if math.Abs(sa.Exponent-want) > 0.01*math.Abs(want) {
				t.Errorf("exponent %g; want %g within 1%%", sa.Exponent, want)
			}
			ks := math.Pow(c.u/c.k, 1/c.n)
			if math.Abs(sa.Ks-ks) > 0.02*ks {
				t.Errorf("k_s %g; want %g within 2%%", sa.Ks, ks)
			}
			if sa.R2 < 0.9999 {
				t.Errorf("r² %g; want 1 (every cell on the law)", sa.R2)
			}
			if r.Drainage.Pits != 0 || r.Drainage.ToEdge != 1 {
				t.Errorf("pits %d, fraction to an edge %g; want 0 and 1 on a steady state", r.Drainage.Pits, r.Drainage.ToEdge)
			}
			for _, b := range sa.Bins {
				if got := ks * math.Pow(b.Area, want); math.Abs(b.Slope-got) > 0.1*got {
					t.Errorf("bin at %g m²: median slope %g; the law gives %g within 10%% (the bin is a tenth of a decade wide)", b.Area, b.Slope, got)
				}
			}
			t.Logf("exponent %.5f (want %.5f), k_s %.5g (want %.5g), r² %.6f, %d points; %s", sa.Exponent, want, sa.Ks, ks, sa.R2, sa.Points, r.Verdict.Line)
		})
	}
}

// hackTree returns a main stem of nodes 0 (outlet) .. n-1 (source) whose
// longest lengths and areas follow l = c·a^h exactly, each stem node with a
// side branch: a source node of small area draining into it over a short
// step, so the tree has tributaries that do not change the stem's longest
// path. It returns the tree and the stem's (a km², l km).
func hackTree(n int, c, h float64) (Tree, []float64, []float64) {
	const source = 50.0 // metres
	nodes := 2 * n
	t := Tree{Rec: make([]int32, nodes), Dist: make([]float32, nodes), Weight: make([]float64, nodes), Source: source}
	as, ls := make([]float64, n), make([]float64, n)
	for j := range n { // stem node j, j steps below the source
		l := source * math.Pow(1.3, float64(j)) // metres
		ls[j] = l / 1e3
		as[j] = math.Pow(ls[j]/c, 1/h)
	}
	side := 0.4 * as[0] * 1e6 // m², each side branch's area: below the fitting threshold
	// Stem node s = n-1-j: index s, receiver s-1; its side branch is n+s.
	for j := range n {
		s := n - 1 - j
		own := as[j] * 1e6
		if j > 0 {
			own -= as[j-1]*1e6 + side
		}
		if own <= 0 {
			panic("hackTree: areas grow too slowly")
		}
		t.Weight[s] = own
		t.Rec[s] = int32(max(s-1, 0))
		t.Rec[n+s] = int32(s)
		t.Weight[n+s] = side
		t.Dist[n+s] = 1 // the side source reaches the stem 1 m below its length
		if j+1 < n {
			t.Dist[s] = float32(ls[j+1]*1e3 - ls[j]*1e3)
		}
	}
	t.Weight[n+n-1] = 0 // the source has no side branch: make it a node of no area
	t.Rec[n+n-1] = int32(n + n - 1)
	// Stack: the stem from the outlet up, then the side branches.
	for s := range n {
		t.Stack = append(t.Stack, int32(s))
	}
	for s := range n {
		t.Stack = append(t.Stack, int32(n+s))
	}
	return t, as, ls
}

// On a tree built on the law, the fit returns the law: only rounding
// error (float32 step lengths: 1e-7 relative) separates them.
func TestHackSyntheticTree(t *testing.T) {
	for _, c := range []struct{ c, h float64 }{{1.4, 0.6}, {3, 0.5}, {5.5, 0.68}} {
		tr, as, ls := hackTree(30, c.c, c.h)
		gotA, gotL := tr.Area(nil), tr.Length(nil)
		for j := range as {
			s := len(as) - 1 - j
			if math.Abs(gotA[s]/1e6-as[j]) > 1e-9*as[j] || math.Abs(gotL[s]/1e3-ls[j]) > 1e-6*ls[j] {
				t.Fatalf("stem node %d: area %g km², length %g km; want %g, %g", s, gotA[s]/1e6, gotL[s]/1e3, as[j], ls[j])
			}
		}
		// Fit the stem only: the side sources drain side m², below it.
		hk, err := FitHackTree(tr, as[0]*1e6*0.999)
		if err != nil {
			t.Fatal(err)
		}
		if hk.Points != len(as) || math.Abs(hk.H-c.h) > 1e-6 || math.Abs(hk.C-c.c) > 1e-6*c.c || hk.R2 < 1-1e-9 {
			t.Errorf("fit h=%g c=%g r²=%g over %d points; want h=%g c=%g r²=1 over %d", hk.H, hk.C, hk.R2, hk.Points, c.h, c.c, len(as))
		}
	}
}

// Flow length against a brute-force walk: from every cell, follow the
// receivers to the root, and every cell passed keeps the longest distance
// walked to it (plus the source's half cell).
func TestFlowLengthBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for trial := range 40 {
		w, h := 3+rng.IntN(20), 3+rng.IntN(20)
		f := sim.NewField(w, h, 10+rng.Float64()*90)
		for i := range f.Data {
			f.Data[i] = float32(rng.Float64() * 100)
		}
		edges := []flow.Edges{outlets, natural, {North: flow.Outlet, South: flow.Closed, East: flow.Closed, West: flow.Natural}}[trial%3]
		g, err := Route(f, edges)
		if err != nil {
			t.Fatal(err)
		}
		tr := TreeOf(g)
		got := tr.Length(nil)
		want := make([]float64, w*h)
		for i := range want {
			want[i] = tr.Source
		}
		for s := range w * h {
			d := tr.Source
			for i := int32(s); g.Rec[i] != i; i = g.Rec[i] {
				d += float64(g.Dist[i])
				r := g.Rec[i]
				want[r] = math.Max(want[r], d)
			}
		}
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-9*want[i] {
				t.Fatalf("trial %d (%d×%d): cell %d length %g; the walk gives %g", trial, w, h, i, got[i], want[i])
			}
		}
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	field := func(w, h int, v []float32) *sim.Field {
		f := sim.NewField(w, h, 30)
		if v != nil {
			copy(f.Data, v)
		}
		return f
	}
	nan := field(40, 40, simtest.Cone(40, 40, 30, 500, 0.2))
	nan.Data[3*40+7] = float32(math.NaN())
	nan.Data[9*40+1] = float32(math.NaN())
	checker := field(64, 64, nil)
	for i := range checker.Data {
		checker.Data[i] = float32((i%64 + i/64) % 2) // every other cell a pit
	}
	noCell := field(20, 20, simtest.Cone(20, 20, 30, 500, 0.2))
	noCell.Cell = 0
	for _, c := range []struct {
		name string
		f    *sim.Field
		o    Options
		want string
	}{
		{"constant", field(50, 50, simtest.Uniform(50, 50, 120)), Options{Edges: natural}, "flat map"},
		{"1×1", field(1, 1, nil), Options{Edges: natural}, "at least 3×3"},
		{"short data", &sim.Field{W: 10, H: 10, Cell: 1, Data: make([]float32, 5)}, Options{Edges: natural}, "at least 3×3"},
		{"no cell size", noCell, Options{Edges: natural}, "--cell"},
		{"NaN cells", nan, Options{Edges: natural}, "2 cells have no height"},
		{"no drainage", checker, Options{Edges: natural}, "no drainage"},
		{"threshold", field(20, 20, simtest.Cone(20, 20, 30, 500, 0.2)), Options{Edges: natural, MinArea: 1}, "at least 2 cells"},
		{"fill closed", field(20, 20, simtest.Cone(20, 20, 30, 500, 0.2)), Options{Fill: true, Edges: flow.Edges{North: flow.Closed, South: flow.Closed, East: flow.Closed, West: flow.Closed}}, "every edge is closed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Analyze(c.f, c.o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, %v; want an error containing %q", r, err, c.want)
			}
		})
	}
}

// Fill leaves no pit, raises only cells in depressions and never lowers
// one; a bowl fills to its lowest rim cell.
func TestFill(t *testing.T) {
	w, h := 60, 50
	raw := simtest.Rough(w, h, 200, 4)
	for _, e := range []flow.Edges{natural, outlets, {North: flow.Closed, South: flow.Outlet, East: flow.Closed, West: flow.Closed}} {
		filled, raised, err := Fill(raw, w, h, e)
		if err != nil {
			t.Fatal(err)
		}
		if p := countPits(filled, w, h, e, nil); p != 0 {
			t.Errorf("%+v: %d pits after the fill; want 0", e, p)
		}
		for i := range raw {
			if filled[i] < raw[i] || (filled[i] != raw[i]) != raised[i] {
				t.Fatalf("cell %d: %g filled to %g, raised %v", i, raw[i], filled[i], raised[i])
			}
		}
	}
	// A bowl: the edge cells are at 10 m but one at 7 m, the inside at 0
	// and 1 m; the inside fills to just above 7 m (a few float32 steps).
	bowl := make([]float32, 25)
	for i := range bowl {
		if x, y := i%5, i/5; x == 0 || y == 0 || x == 4 || y == 4 {
			bowl[i] = 10
		} else {
			bowl[i] = 1
		}
	}
	bowl[12] = 0
	bowl[2] = 7
	filled, _, _ := Fill(bowl, 5, 5, natural)
	for _, i := range []int{6, 7, 8, 11, 12, 13, 16, 17, 18} {
		if filled[i] <= 7 || filled[i] > 7.00001 {
			t.Errorf("inside cell %d filled to %g; want just above the 7 m rim cell", i, filled[i])
		}
	}
	if p := countPits(bowl, 5, 5, natural, nil); p != 1 {
		t.Errorf("%d pits in the bowl; want 1", p)
	}
}

// Analyze on a routed terrain agrees with the parts it is made of.
func TestAnalyzeConsistent(t *testing.T) {
	f := sim.NewField(80, 70, 50)
	copy(f.Data, simtest.Rough(80, 70, 300, 2))
	for _, fill := range []bool{false, true} {
		r, err := Analyze(f, Options{Edges: natural, Fill: fill, MinArea: 20})
		if err != nil {
			t.Fatal(err)
		}
		g, _ := Route(f, natural)
		if !fill {
			hk, _ := FitHack(g, 20)
			if *r.Hack != hk {
				t.Errorf("Analyze's Hack %+v; FitHack %+v", *r.Hack, hk)
			}
			if r.Drainage.Pits != len(g.Lakes) {
				t.Errorf("%d pits; flow found %d lakes", r.Drainage.Pits, len(g.Lakes))
			}
		}
		if math.Abs(r.Drainage.ToEdge-1) > 1e-12 {
			t.Errorf("fill=%v: fraction to an edge %g; want 1 with natural edges", fill, r.Drainage.ToEdge)
		}
		var sum float64
		for k, b := range r.Drainage.Basins {
			sum += b.AreaKm
			if k > 0 && b.AreaKm > r.Drainage.Basins[k-1].AreaKm {
				t.Errorf("basins out of order: %+v", r.Drainage.Basins)
			}
		}
		if total := 80 * 70 * 50 * 50 / 1e6; sum > total+1e-9 || r.Drainage.Basins[0].AreaKm <= 0 {
			t.Errorf("basins %+v over a map of %g km²", r.Drainage.Basins, total)
		}
		if r.Hypsometric <= 0 || r.Hypsometric >= 1 || r.HypsoCurve[0] != 1 || r.HypsoCurve[100] <= 0 {
			t.Errorf("hypsometric integral %g, curve ends %g, %g", r.Hypsometric, r.HypsoCurve[0], r.HypsoCurve[100])
		}
		if len(r.Rivers.Cell) != r.Hack.Points {
			t.Errorf("%d river cells; Hack fitted %d", len(r.Rivers.Cell), r.Hack.Points)
		}
	}
}

// The hypsometric integral of a cone is 1/3 and its mean slope its
// constant slope; both only to the grid's discretization (the apex and the
// corners beyond the inscribed circle): 2 %.
func TestTerrainCone(t *testing.T) {
	n := 201
	f := sim.NewField(n, n, 10)
	cx := float64(n-1) / 2
	for y := range n {
		for x := range n {
			r := math.Min(math.Hypot(float64(x)-cx, float64(y)-cx), cx) * 10
			f.Data[y*n+x] = float32(1000 - r*0.5)
		}
	}
	r, err := Analyze(f, Options{Edges: natural})
	if err != nil {
		t.Fatal(err)
	}
	// Heights are flat beyond the circle (a fraction 1 − π/4 of the map at
	// the bottom): the integral is (π/4)·(1/3).
	if want := math.Pi / 4 / 3; math.Abs(r.Hypsometric-want) > 0.02*want {
		t.Errorf("hypsometric integral %g; want %g", r.Hypsometric, want)
	}
	if r.Relief < 499 || r.Relief > 501 {
		t.Errorf("relief %g; want 500", r.Relief)
	}
}

// BenchmarkAnalyze measures the whole analysis (routing included) on two
// terrains: "river", a stream-power steady state (few pits, as an eroded
// terrain or a DEM), and "rough", white noise over bumps, whose hundreds of
// thousands of pits make the lake routing dominate: the worst case.
func BenchmarkAnalyze(b *testing.B) {
	for _, n := range []int{256, 512, 1024} {
		b.Run("river/"+strconv.Itoa(n), func(b *testing.B) {
			f, _ := steadyHeights(n, n, 30, 1e-3, 2e-5, 0.45, 1, 8) // near enough for timing
			benchmarkAnalyze(b, f)
		})
	}
	for _, n := range []int{256, 512, 1024} {
		f := sim.NewField(n, n, 30)
		copy(f.Data, simtest.Rough(n, n, 500, 1))
		b.Run("rough/"+strconv.Itoa(n), func(b *testing.B) { benchmarkAnalyze(b, f) })
	}
}

func benchmarkAnalyze(b *testing.B, f *sim.Field) {
	b.ResetTimer()
	b.ReportAllocs()
	for range b.N {
		if _, err := Analyze(f, Options{Edges: natural}); err != nil {
			b.Fatal(err)
		}
	}
}

// A profile runs from a source (no donors) through the cell to an outlet,
// each step to the receiver; the distance at the cell is its longest flow
// length, areas grow downstream, and the basins are the outlets' trees.
func TestProfile(t *testing.T) {
	f := sim.NewField(90, 70, 30)
	copy(f.Data, simtest.Rough(90, 70, 300, 6))
	r, err := Analyze(f, Options{Edges: natural, MinArea: 20})
	if err != nil {
		t.Fatal(err)
	}
	hasDonor := make([]bool, len(r.Tree.Rec))
	for i, rc := range r.Tree.Rec {
		if rc != int32(i) {
			hasDonor[rc] = true
		}
	}
	outlets := r.Outlets()
	for _, cell := range []int{0, 35*90 + 45, int(r.Rivers.Cell[len(r.Rivers.Cell)/2]), 90*70 - 1} {
		p := r.Profile(cell)
		if hasDonor[p.Cells[0]] {
			t.Errorf("cell %d: profile starts at %d, which has donors", cell, p.Cells[0])
		}
		last := p.Cells[len(p.Cells)-1]
		if r.Tree.Rec[last] != last || outlets[cell] != last {
			t.Errorf("cell %d: profile ends at %d, not its outlet %d", cell, last, outlets[cell])
		}
		at := -1
		for k := 1; k < len(p.Cells); k++ {
			if r.Tree.Rec[p.Cells[k-1]] != p.Cells[k] || p.Area[k] <= p.Area[k-1] || p.Dist[k] <= p.Dist[k-1] {
				t.Fatalf("cell %d: step %d from %d to %d is no receiver step downhill in area", cell, k, p.Cells[k-1], p.Cells[k])
			}
		}
		for k, c := range p.Cells {
			if int(c) == cell {
				at = k
			}
		}
		if at < 0 || math.Abs(p.Dist[at]-(r.Length[cell]-r.Tree.Source)) > 1e-6 {
			t.Errorf("cell %d at %d of its profile, %g m from the source; its longest flow length is %g m", cell, at, p.Dist[max(at, 0)], r.Length[cell]-r.Tree.Source)
		}
	}
}

// Fill against the definition of a depression fill, computed another way:
// the filled height of a cell is the lowest, over all paths to an edge
// water leaves by, of the highest cell on the path (relaxed to a fixed
// point). Priority-Flood+ε lies at or above it by the float32 steps that
// make flats drain: at most one step per cell of a flat, 1e-4 m here.
func TestFillMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 10 {
		w, h := 5+rng.IntN(30), 5+rng.IntN(30)
		raw := simtest.Rough(w, h, 100, uint64(trial))
		e := []flow.Edges{natural, {North: flow.Outlet, South: flow.Closed, East: flow.Closed, West: flow.Closed}}[trial%2]
		filled, _, err := Fill(raw, w, h, e)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, w*h)
		for i := range want {
			want[i] = math.Inf(1)
			if lets(e, i%w, i/w, w, h) {
				want[i] = float64(raw[i])
			}
		}
		for changed := true; changed; {
			changed = false
			for i := range want {
				x, y := i%w, i/w
				for d := range 8 {
					nx, ny := x+dx8[d], y+dy8[d]
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					if v := math.Max(float64(raw[i]), want[ny*w+nx]); v < want[i] {
						want[i], changed = v, true
					}
				}
			}
		}
		for i := range want {
			if got := float64(filled[i]); got < want[i] || got > want[i]+1e-4 {
				t.Fatalf("trial %d (%d×%d): cell %d filled to %.7g; the minimax fill is %.7g", trial, w, h, i, got, want[i])
			}
		}
	}
}

// The analysis is the same whatever the number of threads (flow's
// parallel routing is deterministic; the rest is sequential).
func TestAnalyzeDeterministic(t *testing.T) {
	f := sim.NewField(150, 130, 30)
	copy(f.Data, simtest.Rough(150, 130, 300, 9))
	var first *Result
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		r, err := Analyze(f, Options{Edges: natural})
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = r
			continue
		}
		if *r.Hack != *first.Hack || r.SlopeA.Exponent != first.SlopeA.Exponent || r.Drainage.Pits != first.Drainage.Pits || r.Density != first.Density {
			t.Errorf("GOMAXPROCS %d: %+v; with 1: %+v", procs, *r.Hack, *first.Hack)
		}
	}
}
