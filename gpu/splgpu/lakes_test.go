package splgpu

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"orogen/gpu"
	"orogen/sim/flow"
)

// TestSortRoots: the pits' roots sorted by the bitmap (many pits) and by
// comparisons (few) come out as slices.Sort puts them.
func TestSortRoots(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ n, m int }{{4096, 10}, {4096, 63}, {4096, 64}, {4096, 1000}, {4096, 4096}, {1000, 17}, {130, 130}} {
		roots := make([]int32, 0, c.m)
		for _, i := range rng.Perm(c.n)[:c.m] {
			roots = append(roots, int32(i))
		}
		want := slices.Sorted(slices.Values(roots))
		sortRoots(roots, c.n)
		if !slices.Equal(roots, want) {
			t.Errorf("%d roots of %d cells: sorted %v…, want %v…", c.m, c.n, roots[:min(8, c.m)], want[:min(8, c.m)])
		}
	}
}

// TestLabelRootsSameLakes steps two engines alike but for LabelRoots:
// the lakes (their order, passes and downstream lakes), the lakes'
// order for the deposition and the heights are the same bit for bit
// every step, and where the labels' read brought the roots of a step
// with pits, that step read the device once less.
func TestLabelRootsSameLakes(t *testing.T) {
	defer func(v bool) { LabelRoots = v }(LabelRoots)
	c := config(48, flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed})
	c.Params.Kappa, c.Params.CreepSc = 0.05, 0.6 // creep keeps pits
	dev := device(t)
	es := twoEngines(t, dev, c)
	brought, apart := 0, 0
	for s := 1; s <= 16; s++ {
		var reads [2]int64
		var lakes [2]int
		for k, e := range es {
			LabelRoots = k == 0
			r := gpu.ReadCount
			lakes[k] = e.Step().Lakes
			reads[k] = gpu.ReadCount - r
			if err := e.Err(); err != nil {
				t.Fatal(err)
			}
		}
		a, b := es[0], es[1]
		if !slices.Equal(a.lakeList, b.lakeList) || !slices.Equal(a.lakeOrder, b.lakeOrder) || !slices.Equal(a.Heights(), b.Heights()) {
			t.Fatalf("step %d: the lakes or heights differ with the roots read with the labels (%d / %d lakes)", s, lakes[0], lakes[1])
		}
		want := int64(0)
		if a.rootsOK && a.pits > 0 {
			want, brought = 1, brought+1
		} else if a.pits > 0 {
			apart++
		}
		if reads[1]-reads[0] != want {
			t.Errorf("step %d (%d pits, roots brought %v): %d reads against %d without", s, a.pits, a.rootsOK, reads[0], reads[1])
		}
	}
	t.Logf("steps with pits whose roots came with the labels: %d, apart: %d", brought, apart)
	if brought == 0 || apart == 0 {
		t.Errorf("the test needs steps of both kinds: %d with the roots brought, %d apart", brought, apart)
	}
}

// TestSkipLabelsSameSteps steps two engines alike but for SkipLabels
// (the label dispatches left empty when the routing found no pit): the
// lakes, their order and the heights are the same bit for bit every
// step, through steps without pits and steps where pits come back.
func TestSkipLabelsSameSteps(t *testing.T) {
	defer func(v bool) { SkipLabels = v }(SkipLabels)
	c := config(48, flow.Edges{})
	dev := device(t)
	es := twoEngines(t, dev, c)
	none, back, last := 0, 0, 1
	for s := 1; s <= 24; s++ {
		if s == 20 {
			// Creep from here on brings a pit back (at 48², llvmpipe:
			// 213 pits at step 1, none from step 8, one at step 20).
			p := c.Params
			p.Kappa, p.CreepSc = 0.05, 0.6
			for _, e := range es {
				if err := e.SetParams(p); err != nil {
					t.Fatal(err)
				}
			}
		}
		for k, e := range es {
			SkipLabels = k == 0
			e.Step()
			if err := e.Err(); err != nil {
				t.Fatal(err)
			}
		}
		a, b := es[0], es[1]
		if !slices.Equal(a.lakeList, b.lakeList) || !slices.Equal(a.lakeOrder, b.lakeOrder) || !slices.Equal(a.Heights(), b.Heights()) {
			t.Fatalf("step %d: the lakes or heights differ with the labels skipped without pits (%d / %d pits)", s, a.pits, b.pits)
		}
		if a.pits == 0 {
			none++
		} else if last == 0 {
			back++
		}
		last = a.pits
	}
	t.Logf("steps without pits: %d, steps where pits came back: %d", none, back)
	if none == 0 || back == 0 {
		t.Errorf("the test needs steps without pits (%d) and steps where they come back (%d)", none, back)
	}
}

// TestLakeWalkSplit: the lakes' tree walked with every level split over
// the cores gives the lakes, their order and the heights of the walk on
// one core, bit for bit, from a flat start (hundreds of lakes).
func TestLakeWalkSplit(t *testing.T) {
	defer func(v int) { wideLevel = v }(wideLevel)
	c := config(64, flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed})
	dev := device(t)
	es := twoEngines(t, dev, c)
	for s := 1; s <= 4; s++ {
		for k, e := range es {
			wideLevel = []int{1, 1 << 30}[k]
			e.Step()
			if err := e.Err(); err != nil {
				t.Fatal(err)
			}
		}
		a, b := es[0], es[1]
		if len(a.lakeList) == 0 && s == 1 {
			t.Fatal("no lakes at the first step: the test needs some")
		}
		if !slices.Equal(a.lakeList, b.lakeList) || !slices.Equal(a.lakeOrder, b.lakeOrder) || !slices.Equal(a.Heights(), b.Heights()) {
			t.Fatalf("step %d: the lakes or heights differ with the walk split (%d / %d lakes)", s, len(a.lakeList), len(b.lakeList))
		}
	}
}

// lakeTree is a spanning tree of the basins of a side×side lattice and
// the outlets' basin 0 (joined to every basin of the border and to one
// in eight of the others, as basins spilling straight to an outlet), in
// the random order Kruskal's algorithm takes them: the shape of the
// pass trees of a young terrain.
func lakeTree(side int) ([]lakeEdge, []int32) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := side * side
	id := func(x, y int) int32 { return int32(y*side + x + 1) }
	var cand [][2]int32
	for y := range side {
		for x := range side {
			if x+1 < side {
				cand = append(cand, [2]int32{id(x, y), id(x+1, y)})
			}
			if y+1 < side {
				cand = append(cand, [2]int32{id(x, y), id(x, y+1)})
			}
			if x == 0 || y == 0 || rng.IntN(8) == 0 {
				cand = append(cand, [2]int32{id(x, y), 0})
			}
		}
	}
	rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	uf := make([]int32, m+1)
	for i := range uf {
		uf[i] = int32(i)
	}
	find := func(x int32) int32 {
		for uf[x] != x {
			uf[x] = uf[uf[x]]
			x = uf[x]
		}
		return x
	}
	var tree []lakeEdge
	for _, c := range cand {
		if ra, rb := find(c[0]), find(c[1]); ra != rb {
			uf[ra] = rb
			tree = append(tree, lakeEdge{c[0], c[1], 3 * c[0], 3*c[1] - 1})
		}
	}
	roots := make([]int32, m)
	for i := range roots {
		roots[i] = int32(5 * i)
	}
	return tree, roots
}

// TestOrientSplit: the tree rooted with its adjacency and walk split
// over the cores (a lattice of 40 000 basins, the outlets' with some 5 000
// edges) gives the walk on one core, bit for bit.
func TestOrientSplit(t *testing.T) {
	defer func(v int) { wideLevel = v }(wideLevel)
	tree, roots := lakeTree(200)
	m := len(roots)
	var e [2]Engine
	var pass, out [2][]int32
	for k := range e {
		wideLevel = []int{1 << 30, 64}[k]
		pass[k], out[k] = e[k].orient(tree, roots, m)
	}
	if !slices.Equal(pass[0], pass[1]) || !slices.Equal(out[0], out[1]) || !slices.Equal(e[0].lakeList, e[1].lakeList) || !slices.Equal(e[0].lakeOrder, e[1].lakeOrder) {
		t.Fatal("the tree rooted over the cores differs from the walk on one core")
	}
	if len(e[0].lakeList) != m {
		t.Fatalf("%d lakes reached of %d", len(e[0].lakeList), m)
	}
}

// BenchmarkOrient times the lakes' tree rooted on the host (orient) for
// a million basins (lakeTree), on one core's walk and split over the
// cores (GOMAXPROCS).
func BenchmarkOrient(b *testing.B) {
	defer func(v int) { wideLevel = v }(wideLevel)
	tree, roots := lakeTree(1000)
	for _, w := range []int{1 << 30, 1 << 15} {
		b.Run(fmt.Sprint(w), func(b *testing.B) {
			wideLevel = w
			var e Engine
			for range b.N {
				e.orient(tree, roots, len(roots))
			}
		})
	}
}

// twoEngines makes two engines of c on dev, closed when the test ends.
func twoEngines(t *testing.T, dev gpu.Device, c Config) [2]*Engine {
	t.Helper()
	var es [2]*Engine
	for k := range es {
		e, err := New(dev, c)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(e.Close)
		es[k] = e
	}
	return es
}
