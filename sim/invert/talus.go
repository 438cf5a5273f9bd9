package invert

import (
	"math"

	"orogen/sim/flow"
	"orogen/sim/parallel"
	"orogen/sim/talus"
)

// Neighbour offsets in package flow's order E, SE, S, SW, W, NW, N, NE.
var dxs = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
var dys = [8]int{0, 1, 1, 1, 0, -1, -1, -1}

// envelope lowers h (w×h, in place) to the largest heightmap at or below it
// whose every cell stands at most tanθ·d above each of its 8 neighbours, d
// the distance between them as package flow measures it and tanθ =
// lim.Tan(i, neighbour's height): the engine's talus limit then lowers no
// cell, whatever the routing, since it only compares a cell with its
// receiver. Cells g holds fixed (Outlet edges) never move. Heights are
// lowered as the engine's limiter lowers them: to the float32 at or below
// h_j + tanθ·d computed in float64. orig is h as given (for the count).
// It returns the number of cells lowered.
//
// A parallel scan finds the cells above their limit; a work list then
// lowers them and revisits the neighbours of every lowered cell, so the
// work follows the cells that move. Heights only go down and the result is
// the greatest fixed point below h, whatever the order.
func envelope(h, orig []float32, w, ht int, cell float64, g *flow.Graph, m talus.Model, lim *talus.Limiter, queued []bool) (lowered int, _ []bool) {
	n := w * ht
	var dl [8]float64
	for k := range dl {
		if k&1 == 1 {
			dl[k] = float64(float32(cell * math.Sqrt2))
		} else {
			dl[k] = float64(float32(cell))
		}
	}
	// Constant angle (the usual mode): one tangent, no call per neighbour.
	constant := m.Mode == talus.ModeConstant
	t0 := float64(lim.Tan(0, 0))
	limit := func(i, x, y int) float64 {
		lo := math.Inf(1)
		if x > 0 && y > 0 && x < w-1 && y < ht-1 && constant {
			for k := 0; k < 8; k++ {
				lo = min(lo, float64(h[i+dxs[k]+dys[k]*w])+t0*dl[k])
			}
			return lo
		}
		for k := 0; k < 8; k++ {
			xx, yy := x+dxs[k], y+dys[k]
			if xx < 0 || yy < 0 || xx >= w || yy >= ht {
				continue
			}
			hj := h[yy*w+xx]
			lo = min(lo, float64(hj)+float64(lim.Tan(i, hj))*dl[k])
		}
		return lo
	}
	if cap(queued) < n {
		queued = make([]bool, n)
	}
	queued = queued[:n]
	clear(queued)
	// The scan: rows in parallel, each block's finds listed in order.
	nb := parallel.NumBlocks(ht, 16)
	found := make([][]int32, nb)
	parallel.Blocks(ht, 16, func(b, y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < w; x++ {
				i := y*w + x
				if !g.IsFixed(i) && float64(h[i]) > limit(i, x, y) {
					found[b] = append(found[b], int32(i))
				}
			}
		}
	})
	var work []int32
	for _, f := range found {
		work = append(work, f...)
	}
	for _, i := range work {
		queued[i] = true
	}
	lowered = 0
	for len(work) > 0 {
		i := work[0]
		work = work[1:]
		queued[i] = false
		x, y := int(i)%w, int(i)/w
		l := limit(int(i), x, y)
		if !(float64(h[i]) > l) {
			continue
		}
		v := float32(l)
		if float64(v) > l {
			v = math.Nextafter32(v, float32(math.Inf(-1)))
		}
		if h[i] == orig[i] {
			lowered++ // first time this cell moves
		}
		h[i] = v
		for k := 0; k < 8; k++ {
			xx, yy := x+dxs[k], y+dys[k]
			if xx < 0 || yy < 0 || xx >= w || yy >= ht {
				continue
			}
			j := int32(yy*w + xx)
			if !queued[j] && !g.IsFixed(int(j)) {
				queued[j] = true
				work = append(work, j)
			}
		}
	}
	return lowered, queued
}
