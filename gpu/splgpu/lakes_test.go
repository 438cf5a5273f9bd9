package splgpu

import (
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
	var es [2]*Engine
	for k := range es {
		e, err := New(dev, c)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		es[k] = e
	}
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
	var es [2]*Engine
	for k := range es {
		e, err := New(dev, c)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		es[k] = e
	}
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
	var es [2]*Engine
	for k := range es {
		e, err := New(dev, c)
		if err != nil {
			t.Fatal(err)
		}
		defer e.Close()
		es[k] = e
	}
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
