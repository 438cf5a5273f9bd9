package analysis

import (
	"errors"

	"orogen/sim/flow"
	"orogen/sim/pitfill"
)

// Fill returns heights h with every depression filled to its spill height
// plus a rise of one float32 step per cell away from the spill, so that
// every cell has a strictly lower neighbour on the way to an edge, and the
// cells it raised (Barnes et al. 2014, Priority-Flood+ε: cells are taken
// lowest first from the edges water leaves by, and a neighbour below the
// cell it is reached from is raised just above it and taken next from a
// plain queue). Outlet and Natural edges let water out; a Closed edge does
// not. Ties are taken in index order, so the result is deterministic
// (sim/pitfill).
func Fill(h []float32, w, ht int, edges flow.Edges) (filled []float32, raised []bool, err error) {
	n := w * ht
	if len(h) != n {
		panic("analysis: Fill: heights and grid differ in size")
	}
	if edges.AllClosed() {
		return nil, nil, errors.New("analysis: every edge is closed: no water leaves the map, so there is nothing to fill up to")
	}
	filled = make([]float32, n)
	copy(filled, h)
	raised = make([]bool, n)
	lets := func(b flow.Boundary) bool { return b != flow.Closed }
	north, south, west, east := lets(edges.North), lets(edges.South), lets(edges.West), lets(edges.East)
	pitfill.Fill(filled, w, ht, func(i int) (float32, bool) {
		x, y := i%w, i/w
		return filled[i], (y == 0 && north) || (y == ht-1 && south) || (x == 0 && west) || (x == w-1 && east)
	}, pitfill.Next, func(i int) { raised[i] = true })
	return filled, raised, nil
}

// Neighbour offsets in flow's order E, SE, S, SW, W, NW, N, NE.
var dx8 = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
var dy8 = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
