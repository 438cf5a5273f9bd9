package analysis

import (
	"errors"
	"math"

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
	var open cellHeap
	seed := func(x, y int) {
		i := y*w + x
		if !done[i] {
			done[i] = true
			open.push(filled[i], int32(i))
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
	for open.len() > 0 || head < len(pit) {
		var c int32
		if head < len(pit) {
			c = pit[head]
			head++
			if head == len(pit) {
				pit, head = pit[:0], 0
			}
		} else {
			c = open.pop()
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
				open.push(filled[j], j)
			}
		}
	}
	return filled, raised, nil
}

// Neighbour offsets in flow's order E, SE, S, SW, W, NW, N, NE.
var dx8 = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
var dy8 = [8]int{0, 1, 1, 1, 0, -1, -1, -1}

// cellHeap is a binary min-heap of cells by height, then index.
type cellHeap struct {
	h []float32
	i []int32
}

func (q *cellHeap) len() int { return len(q.i) }

func (q *cellHeap) less(a, b int) bool {
	return q.h[a] < q.h[b] || (q.h[a] == q.h[b] && q.i[a] < q.i[b])
}

func (q *cellHeap) swap(a, b int) {
	q.h[a], q.h[b] = q.h[b], q.h[a]
	q.i[a], q.i[b] = q.i[b], q.i[a]
}

func (q *cellHeap) push(h float32, i int32) {
	q.h = append(q.h, h)
	q.i = append(q.i, i)
	for k := len(q.i) - 1; k > 0; {
		p := (k - 1) / 2
		if !q.less(k, p) {
			break
		}
		q.swap(k, p)
		k = p
	}
}

func (q *cellHeap) pop() int32 {
	top := q.i[0]
	last := len(q.i) - 1
	q.swap(0, last)
	q.h, q.i = q.h[:last], q.i[:last]
	for k := 0; ; {
		l, r, m := 2*k+1, 2*k+2, k
		if l < last && q.less(l, m) {
			m = l
		}
		if r < last && q.less(r, m) {
			m = r
		}
		if m == k {
			break
		}
		q.swap(k, m)
		k = m
	}
	return top
}
