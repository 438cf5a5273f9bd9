package pitfill

import (
	"math"

	"orogen/sim"
	"orogen/sim/cellheap"
)

// Step returns the least height above v a raised cell takes.
type Step func(v float32) float32

// Next is the next float32 above v (Barnes et al. 2014's ε).
func Next(v float32) float32 { return math.Nextafter32(v, float32(math.Inf(1))) }

// NextNormal is the next float32 above v, skipping the subnormals: from 0
// the first step is 2^−126, from −2^−126 it is 0.
func NextNormal(v float32) float32 {
	up := Next(v)
	if up > -sim.SmallestNormal32 && up < sim.SmallestNormal32 {
		if up > 0 {
			return sim.SmallestNormal32
		}
		return 0
	}
	return up
}

// Neighbour offsets in the order E, SE, S, SW, W, NW, N, NE.
var (
	dx8 = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	dy8 = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
)

// Fill raises in place every cell of the w×ht heights h that has no
// descending path to an outlet, to step of the cell the flood reached it
// from (Priority-Flood+ε). outlet reports, for each cell, whether water
// leaves there and the level it stands at; it is called once per cell,
// in index order. raised, if not nil, is called with every cell Fill
// raises (a cell already at the step is taken into the fill without a
// call). Fill returns how many cells it raised. A cell no outlet reaches
// (every edge closed, no lake) is left as it is.
func Fill(h []float32, w, ht int, outlet func(i int) (level float32, ok bool), step Step, raised func(i int)) int {
	n := w * ht
	if len(h) != n {
		panic("pitfill: heights and grid differ in size")
	}
	done := make([]bool, n)
	var open cellheap.Heap[float32]
	for i := range n {
		if l, ok := outlet(i); ok {
			done[i] = true
			open.Push(int32(i), l)
		}
	}
	var pit []int32
	head, count := 0, 0
	for open.Len() > 0 || head < len(pit) {
		var c int32
		var v float32
		if head < len(pit) {
			c = pit[head]
			v = h[c]
			head++
			if head == len(pit) {
				pit, head = pit[:0], 0
			}
		} else {
			c, v = open.Pop()
		}
		up := step(v)
		cx, cy := int(c)%w, int(c)/w
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
			if h[j] <= up {
				if h[j] < up {
					count++
					if raised != nil {
						raised(int(j))
					}
				}
				h[j] = up // also when equal: the step's zero is +0
				pit = append(pit, j)
			} else {
				open.Push(j, h[j])
			}
		}
	}
	return count
}
