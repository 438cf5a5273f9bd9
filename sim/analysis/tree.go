package analysis

import (
	"fmt"
	"math"

	"orogen/sim"
	"orogen/sim/flow"
)

// Tree is a drainage network over n nodes: the cells of a routed grid
// (TreeOf) or any nodes a test builds. Every node drains to Rec[i]
// (Rec[i] == i for a root) at distance Dist[i] metres, and Stack lists every
// node once, after its receiver. A Tree's slices are read, never written.
type Tree struct {
	Rec    []int32
	Dist   []float32
	Stack  []int32
	Weight []float64 // area of each node, m²; nil: every node has CellArea
	// CellArea is the area of every node when Weight is nil, m².
	CellArea float64
	// Source is the flow length of a node no other node drains into,
	// metres: half a cell on grids (water runs from the cell's upper edge to
	// its centre), so that sources do not have zero length.
	Source float64
}

// TreeOf returns the tree of a routed grid: its receivers, distances and
// order, cells of g.Cell² and sources half a cell long.
func TreeOf(g *flow.Graph) Tree {
	return Tree{Rec: g.Rec, Dist: g.Dist, Stack: g.Stack, CellArea: g.Cell * g.Cell, Source: g.Cell / 2}
}

func (t Tree) check() {
	n := len(t.Rec)
	if len(t.Dist) != n || len(t.Stack) != n || (t.Weight != nil && len(t.Weight) != n) {
		panic(fmt.Sprintf("analysis: tree of %d receivers, %d distances, %d stack entries, %d weights", n, len(t.Dist), len(t.Stack), len(t.Weight)))
	}
}

// Area sets dst[i] to the drainage area of node i, m²: its own area plus
// the areas of every node upstream, summed in float64. It returns dst.
func (t Tree) Area(dst []float64) []float64 {
	t.check()
	dst = sim.Resize(dst, len(t.Rec))
	if t.Weight != nil {
		copy(dst, t.Weight)
	} else {
		for i := range dst {
			dst[i] = t.CellArea
		}
	}
	for k := len(t.Stack) - 1; k >= 0; k-- { // every donor before its receiver
		i := t.Stack[k]
		if r := t.Rec[i]; r != i {
			dst[r] += dst[i]
		}
	}
	return dst
}

// Length sets dst[i] to the longest flow length above node i, metres: the
// longest chain of receiver steps ending at i, starting from a source of
// length Source. It returns dst.
func (t Tree) Length(dst []float64) []float64 {
	t.check()
	dst = sim.Resize(dst, len(t.Rec))
	for i := range dst {
		dst[i] = t.Source
	}
	for k := len(t.Stack) - 1; k >= 0; k-- {
		i := t.Stack[k]
		if r := t.Rec[i]; r != i {
			dst[r] = math.Max(dst[r], dst[i]+float64(t.Dist[i]))
		}
	}
	return dst
}
