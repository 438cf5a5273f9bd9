package flow

import (
	"fmt"
	"slices"
	"testing"

	"orogen/sim/simtest"
)

// TestWalkOrder: Order's walks (dfsWorker and dfsBranches) list every
// root's tree as a recursive depth-first walk over the receivers does
// (the node, its donors without donors in direction order, then the
// others' subtrees in reverse direction order), with the same receiver
// positions and labels, on noise, a rough surface and a funnel, for
// every kind of edge and with and without the labels. The terrains give
// nodes with three or more donors of each kind, past dfsWorker's two
// unconditional slots.
func TestWalkOrder(t *testing.T) {
	w, hgt := 70, 53 // rows not a multiple of 8 cells: the scalar ends
	funnel := simtest.Cone(w, hgt, 10, 500, 0.3)
	for i := range funnel {
		funnel[i] = 500 - funnel[i]
	}
	var many [2]int // nodes with 3+ leaf donors, 3+ others
	for _, tc := range []struct {
		name string
		h    []float32
	}{
		{"noise", simtest.Noisy(w, hgt, 100, 7)},
		{"rough", simtest.Rough(w, hgt, 100, 3)},
		{"funnel", funnel},
	} {
		for _, ec := range edgeCases {
			for _, v := range []struct {
				pitLabels bool
				walk      uint8
			}{{false, 1}, {true, 1}, {false, 2}, {true, 2}} {
				pitLabels := v.pitLabels
				name := fmt.Sprintf("%s/%s/pitlabels=%v/walk=%d", tc.name, ec.name, pitLabels, v.walk)
				g := NewGraph(w, hgt, 10, ec.edges, 0)
				g.PitLabels, g.walk = pitLabels, v.walk
				g.Route(tc.h)
				g.Order()
				c := walkCounts(g)
				many[0] += c[0]
				many[1] += c[1]
				for r, root := range g.roots {
					cells, pars := walkReference(g, root)
					o, l := g.segOff[r], g.segLen[r]
					if !slices.Equal(g.bufs[g.segW[r]][o:o+l], cells) || !slices.Equal(g.pars[g.segW[r]][o:o+l], pars) {
						t.Fatalf("%s: tree %d (root %d) differs from the recursive walk", name, r, root)
					}
					if g.Label == nil {
						continue
					}
					for _, i := range cells {
						if g.Label[i] != int32(r) {
							t.Fatalf("%s: cell %d labelled %d, in tree %d", name, i, g.Label[i], r)
						}
					}
				}
				if g.Label == nil && (!pitLabels || g.hasPit()) {
					t.Fatalf("%s: no labels", name)
				}
			}
		}
	}
	if many[0] == 0 || many[1] == 0 {
		t.Fatalf("%d nodes with 3+ leaf donors, %d with 3+ others: want some of each", many[0], many[1])
	}
}

// walkDonors lists the neighbours of i that drain into it, by the
// receivers, in direction order.
func walkDonors(g *Graph, i int32) []int32 {
	var d []int32
	x, y := int(i)%g.W, int(i)/g.W
	for k := range 8 {
		nx, ny := x+dxs[k], y+dys[k]
		if nx < 0 || ny < 0 || nx >= g.W || ny >= g.H {
			continue
		}
		if j := int32(ny*g.W + nx); g.Rec[j] == i && j != i {
			d = append(d, j)
		}
	}
	return d
}

// walkReference is the tree of root, recursively: each cell with its
// receiver's position in the list.
func walkReference(g *Graph, root int32) (cells, pars []int32) {
	var visit func(i, p int32)
	visit = func(i, p int32) {
		me := int32(len(cells))
		cells, pars = append(cells, i), append(pars, p)
		d := walkDonors(g, i)
		for _, j := range d {
			if len(walkDonors(g, j)) == 0 {
				cells, pars = append(cells, j), append(pars, me)
			}
		}
		for _, j := range slices.Backward(d) {
			if len(walkDonors(g, j)) > 0 {
				visit(j, me)
			}
		}
	}
	visit(root, 0)
	return cells, pars
}

// walkCounts counts the cells with three or more donors without donors,
// and with three or more that have some.
func walkCounts(g *Graph) (c [2]int) {
	for i := range g.Rec {
		var n [2]int
		for _, j := range walkDonors(g, int32(i)) {
			if len(walkDonors(g, j)) == 0 {
				n[0]++
			} else {
				n[1]++
			}
		}
		for k := range c {
			if n[k] >= 3 {
				c[k]++
			}
		}
	}
	return c
}

// Order picks dfsWorker where a quarter of the cells or more have no
// donors, dfsBranches where fewer do.
func TestWalkChoice(t *testing.T) {
	for _, tc := range []struct {
		name  string
		h     []float32
		masks bool
	}{
		{"noise", simtest.Noisy(64, 48, 100, 7), true},
		{"tilted plane", simtest.TiltedPlane(64, 48, 10, 0.1), false},
	} {
		g := NewGraph(64, 48, 10, Edges{}, 0)
		g.Route(tc.h)
		g.Order()
		lvs := 0
		for _, d := range g.donors {
			if d == 0 {
				lvs++
			}
		}
		if got := 4*lvs >= len(g.donors); got != tc.masks {
			t.Errorf("%s: %d of %d cells without donors: dfsWorker %v; want %v", tc.name, lvs, len(g.donors), got, tc.masks)
		}
		sum := 0
		for _, v := range g.rowLvs {
			sum += v
		}
		if sum != lvs {
			t.Errorf("%s: the row blocks count %d cells without donors; want %d", tc.name, sum, lvs)
		}
	}
}
