package flow

import (
	"math"
	"runtime"
	"testing"

	"orogen/sim/simtest"
)

// TestAccumulateStackOneWalk checks the two-lane AccumulateStack against
// one plain walk in reverse stack order, bit for bit, with a cell area
// (0.1 m², not exact in binary) whose sums round differently in another
// order, for 1, 2 and 3 workers.
func TestAccumulateStackOneWalk(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const w, h, ca = 180, 130, 0.1
	g := NewGraph(w, h, 10, edgeCases[3].edges, 0)
	g.Update(simtest.Rough(w, h, 300, 4))
	want := make([]float64, w*h)
	for k := range want {
		want[k] = ca
	}
	for k := len(want) - 1; k >= 0; k-- {
		if r := g.RecPos[k]; int(r) != k {
			want[r] += want[k]
		}
	}
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		got := g.AccumulateStack(nil, ca)
		for k := range want {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("GOMAXPROCS %d: area at stack position %d = %v; want %v", procs, k, got[k], want[k])
			}
		}
	}
}

// TestSplitTrees checks that the split of a range of whole trees is a tree
// boundary inside it, the one nearest its middle.
func TestSplitTrees(t *testing.T) {
	g := NewGraph(120, 90, 10, Edges{}, 0)
	g.Update(simtest.Rough(120, 90, 300, 6))
	nf := len(g.Trees) - 1
	for a := 0; a < nf; a += 7 {
		for b := a + 1; b <= nf; b += 11 {
			lo, hi := g.Trees[a], g.Trees[b]
			m := g.SplitTrees(lo, hi)
			best := lo
			for _, v := range g.Trees[a : b+1] {
				if d, bd := v-(lo+(hi-lo)/2), best-(lo+(hi-lo)/2); v > lo && abs32(d) < abs32(bd) {
					best = v
				}
			}
			if m < lo || m > hi || abs32(m-(lo+(hi-lo)/2)) != abs32(best-(lo+(hi-lo)/2)) {
				t.Fatalf("SplitTrees(%d, %d) = %d; want a tree boundary as near the middle as %d", lo, hi, m, best)
			}
		}
	}
}

// TestGatherDist checks GatherDist against OrderedDist and a plain gather.
func TestGatherDist(t *testing.T) {
	const w, h = 64, 48
	d := simtest.Rough(w, h, 300, 2)
	g := NewGraph(w, h, 10, edgeCases[3].edges, 0)
	g.Update(d)
	want := g.OrderedDist(make([]float32, w*h), 0, w*h)
	hs, ds := make([]float32, w*h), make([]float32, w*h)
	g.GatherDist(hs, d, ds, 0, w*h/3)
	g.GatherDist(hs, d, ds, w*h/3, w*h)
	for k, i := range g.Stack {
		if hs[k] != d[i] || ds[k] != want[k] {
			t.Fatalf("position %d: height %g, distance %g; want %g, %g", k, hs[k], ds[k], d[i], want[k])
		}
	}
}
