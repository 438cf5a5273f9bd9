package graph

import (
	"math"

	"orogen/sim"
	"orogen/sim/pitfill"
)

// drain conditions the rasterized heights hgt of the grid so that D8
// steepest descent on them follows the stream graph off the grid, as the
// graph's own water does:
//
//  1. carve: every arc from a node down to its receiver (h_i > h_r) lowers
//     the cells it crosses, sampled every half cell, to the height the arc
//     has there, h_i + (h_r − h_i)·t: the piecewise-linear raster puts a
//     valley's cells a little above its arc where the triangles do not
//     follow it, and those cells became pits;
//  2. fill: Priority-Flood+ε (Barnes et al. 2014) from the grid's border
//     and from the cells under a lake's water (water > 0, which are meant
//     to lie below their outlet) raises whatever pit is left, cell by
//     cell, one float32 step above the cell it drains to (pitfill.NextNormal:
//     never to a subnormal height).
//
// Afterwards every cell but the border's and the lakes' has a strictly
// lower neighbour on a path that leaves the grid or reaches a lake. A
// node's cell keeps its height within the carve's interpolation (the arc
// starts at the node's own height); the fill raises only cells that no
// arc explains. water may be nil. The loops are serial and in a fixed
// order, so the result is the same for any GOMAXPROCS.
func (g *OnGrid) drain(hgt, water []float32) {
	e := g.e
	m := e.m
	w, h := g.w, g.h
	hs := e.Heights()
	sim.FlushSubnormals(hgt) // the triangles' blend of tiny heights
	inv := 1 / g.cell
	for i, r := range e.rec {
		if int(r) == i || !(hs[i] > hs[r]) {
			continue
		}
		x0, y0 := m.X[i]*inv-0.5, m.Y[i]*inv-0.5
		x1, y1 := m.X[r]*inv-0.5, m.Y[r]*inv-0.5
		n := int(math.Ceil(2*math.Max(math.Abs(x1-x0), math.Abs(y1-y0)))) + 1
		hi, hr := float64(hs[i]), float64(hs[r])
		for k := 0; k <= n; k++ {
			t := float64(k) / float64(n)
			cx := min(w-1, max(0, int(math.Round(x0+(x1-x0)*t))))
			cy := min(h-1, max(0, int(math.Round(y0+(y1-y0)*t))))
			if v := sim.Flush(float32(hi + (hr-hi)*t)); v < hgt[cy*w+cx] {
				hgt[cy*w+cx] = v
			}
		}
	}
	fillPits(hgt, water, w, h)
}

// fillPits is Priority-Flood+ε (sim/pitfill) on the w×h heights hgt,
// seeded with the border cells and the cells whose water is positive
// (water may be nil), never stepping to a subnormal height.
func fillPits(hgt, water []float32, w, h int) {
	pitfill.Fill(hgt, w, h, func(i int) (float32, bool) {
		x, y := i%w, i/w
		return hgt[i], x == 0 || y == 0 || x == w-1 || y == h-1 || (water != nil && water[i] > 0)
	}, pitfill.NextNormal, nil)
}

// Neighbour offsets in the order E, SE, S, SW, W, NW, N, NE.
var (
	d8x = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	d8y = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
)
