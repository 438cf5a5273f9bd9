package flow

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// referencePasses is the pass search as it was before its reduction per
// row block (docs/MEMORY.md): every pair of neighbouring cells across two
// basins, at least one a pit, in row-major scan order (per row: each
// cell's E pair, then each cell's S, SW and SE pairs, then the row's
// Natural edge cells), reduced per pit, in pit order, to the lowest pair
// per neighbouring basin, the first on ties, listed in the order the
// neighbours were first found. findPasses must give exactly this list.
func referencePasses(g *Graph, h []float32) []passEdge {
	type cand = passEdge
	var cands []cand
	w, hgt := g.W, g.H
	pair := func(i, j int32) {
		ni, nj := g.node[g.Label[i]], g.node[g.Label[j]]
		if ni == 0 && nj == 0 {
			return
		}
		wt := max(h[i], h[j])
		if ni == 0 || (nj != 0 && nj < ni) {
			cands = append(cands, cand{a: nj, b: ni, ca: j, cb: i, w: wt})
			return
		}
		cands = append(cands, cand{a: ni, b: nj, ca: i, cb: j, w: wt})
	}
	for y := 0; y < hgt; y++ {
		row := int32(y * w)
		for x := int32(0); x+1 < int32(w); x++ {
			if g.Label[row+x] != g.Label[row+x+1] {
				pair(row+x, row+x+1)
			}
		}
		if y+1 < hgt {
			for x := int32(0); x < int32(w); x++ {
				i := row + x
				for _, j := range []int32{i + int32(w), i + int32(w) - 1, i + int32(w) + 1} {
					if (j == i+int32(w)-1 && x == 0) || (j == i+int32(w)+1 && x == int32(w)-1) {
						continue
					}
					if g.Label[j] != g.Label[i] {
						pair(i, j)
					}
				}
			}
		}
		for x := int32(0); x < int32(w); x++ {
			i := row + x
			if g.kind[i] == natural && g.node[g.Label[i]] != 0 {
				cands = append(cands, cand{a: g.node[g.Label[i]], b: 0, ca: i, cb: -1, w: h[i]})
			}
		}
	}
	var out []passEdge
	for p := int32(1); p <= int32(len(g.pits)); p++ {
		at := map[int32]int{}
		for _, c := range cands {
			if c.a != p {
				continue
			}
			k, ok := at[c.b]
			if !ok {
				at[c.b] = len(out)
				out = append(out, c)
				continue
			}
			if c.w < out[k].w {
				out[k].ca, out[k].cb, out[k].w = c.ca, c.cb, c.w
			}
		}
	}
	return out
}

// TestFindPassesReference: the passes findPasses keeps (per row block,
// then per pit) are those of the reference search over every pair of
// cells, in the same order, on noisy terrains with thousands of pits,
// every kind of edge and heights quantized to whole metres (ties
// everywhere), for 1 and 3 workers.
func TestFindPassesReference(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, ec := range edgeCases {
		for _, procs := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/%d", ec.name, procs), func(t *testing.T) {
				runtime.GOMAXPROCS(procs)
				const w, hgt = 101, 67
				r := rand.New(rand.NewPCG(7, uint64(procs)))
				h := make([]float32, w*hgt)
				for i := range h {
					h[i] = float32(r.IntN(20))
				}
				g := NewGraph(w, hgt, 10, ec.edges, 0)
				g.Route(h)
				g.Order()
				g.ConnectLakes(h)
				want := referencePasses(g, h)
				if len(g.pits) < 500 {
					t.Fatalf("%d pits; want a terrain with hundreds", len(g.pits))
				}
				if !slices.Equal(g.edges, want) {
					n := 0
					for n < min(len(g.edges), len(want)) && g.edges[n] == want[n] {
						n++
					}
					t.Fatalf("%d passes; want %d; first difference at %d", len(g.edges), len(want), n)
				}
			})
		}
	}
}
