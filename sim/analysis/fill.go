package analysis

import (
	"errors"
	"math"

	"orogen/sim/cellheap"
	"orogen/sim/flow"
)

// Fill returns heights h with every depression filled to its spill height
// plus a rise of one float32 step per cell away from the spill, so that
// every cell has a strictly lower neighbour on the way to an edge, and the
// cells it raised (Barnes et al. 2014, Priority-Flood+ε: cells are taken
// lowest first from the edges water leaves by, and a neighbour below the
// cell it is reached from is raised just above it and taken next from a
// plain queue). Outlet and Natural edges let water out; a Closed edge does
// not. Ties are taken in index order, so the result is deterministic.
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
	done := make([]bool, n)
	var open cellheap.Heap[float32]
	seed := func(x, y int) {
		i := y*w + x
		if !done[i] {
			done[i] = true
			open.Push(int32(i), filled[i])
		}
	}
	lets := func(b flow.Boundary) bool { return b != flow.Closed }
	for x := 0; x < w; x++ {
		if lets(edges.North) {
			seed(x, 0)
		}
		if lets(edges.South) {
			seed(x, ht-1)
		}
	}
	for y := 0; y < ht; y++ {
		if lets(edges.West) {
			seed(0, y)
		}
		if lets(edges.East) {
			seed(w-1, y)
		}
	}
	var pit []int32
	head := 0
	for open.Len() > 0 || head < len(pit) {
		var c int32
		if head < len(pit) {
			c = pit[head]
			head++
			if head == len(pit) {
				pit, head = pit[:0], 0
			}
		} else {
			c, _ = open.Pop()
		}
		cx, cy := int(c)%w, int(c)/w
		up := math.Nextafter32(filled[c], float32(math.Inf(1)))
		for d := range 8 {
			x, y := cx+dx8[d], cy+dy8[d]
			if x < 0 || y < 0 || x >= w || y >= ht {
				continue
			}
			j := int32(y*w + x)
			if done[j] {
				continue
			}
			done[j] = true
			if filled[j] <= up {
				if filled[j] < up {
					raised[j] = true
				}
				filled[j] = up
				pit = append(pit, j)
			} else {
				open.Push(j, filled[j])
			}
		}
	}
	return filled, raised, nil
}

// Neighbour offsets in flow's order E, SE, S, SW, W, NW, N, NE.
var dx8 = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
var dy8 = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
