package graph

import (
	"math"
	"testing"

	"orogen/sim/engine"
)

// pitsOn counts the cells of the w×h heights with no strictly lower
// neighbour, leaving out the border and the cells under water.
func pitsOn(hgt, water []float32, w, h int) int {
	n := 0
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			if water != nil && water[i] > 0 {
				continue
			}
			pit := true
			for d := range 8 {
				if hgt[(y+d8y[d])*w+x+d8x[d]] < hgt[i] {
					pit = false
					break
				}
			}
			if pit {
				n++
			}
		}
	}
	return n
}

// The snapshot's heights drain: no pits outside the lakes, and D8 steepest
// descent from every cell reaches the border or a lake, where the plain
// piecewise-linear raster of the same nodes keeps pits in its valleys.
// Cells that no arc explains are only raised by the fill, so the heights
// stay within a float32 step of the raster or below it, down to the arcs.
func TestSnapshotDrains(t *testing.T) {
	const w, h, cell = 80, 64, 100.0
	m := sampleMesh(t, w*cell, h*cell, 2*cell, 3)
	e, err := New(Config{Mesh: m, Params: engine.Params{K: 2e-6, M: 0.5, N: 1, Dt: 2e4}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewOnGrid(e, w, h, cell)
	if err != nil {
		t.Fatal(err)
	}
	up := make([]float32, w*h)
	for y := range h {
		for x := range w {
			dx, dy := float64(x)-39.5, float64(y)-31.5
			up[y*w+x] = float32(1e-3 * math.Exp(-(dx*dx+dy*dy)/400))
		}
	}
	if err := g.SetUplift(up); err != nil {
		t.Fatal(err)
	}
	for range 60 {
		g.Step()
	}
	raw := g.Raster(e.Heights())
	s := g.Snapshot()
	rawPits := pitsOn(raw, s.Water, w, h)
	if p := pitsOn(s.Height, s.Water, w, h); p != 0 {
		t.Errorf("%d pits in the snapshot's heights; want 0 (the plain raster has %d)", p, rawPits)
	}
	if rawPits == 0 {
		t.Log("the plain raster has no pits on this mesh: the test only checks the invariant")
	}
	for i := range s.Height {
		j, steps := i, 0
		for ; steps <= w*h; steps++ {
			x, y := j%w, j/w
			if x == 0 || y == 0 || x == w-1 || y == h-1 || (s.Water != nil && s.Water[j] > 0) {
				break
			}
			j = int(s.Receivers[j])
		}
		if steps > w*h {
			t.Fatalf("cell %d: D8 does not leave the grid", i)
		}
	}
	for i, v := range s.Height {
		if v > raw[i] && float64(v-raw[i]) > 1e-3*math.Max(1, math.Abs(float64(raw[i]))) {
			t.Errorf("cell %d raised from %g to %g: the fill should only fill the pits the raster left", i, raw[i], v)
			break
		}
	}
	t.Logf("plain raster: %d pits; snapshot: 0", rawPits)
}

// A flat plain at base level 0 is filled with steps that drain it, never
// with subnormal heights (1e-45 m): the first step above 0 is 2^−126 m.
func TestFillPlainNoSubnormals(t *testing.T) {
	const w, h = 9, 7
	hgt := make([]float32, w*h)
	hgt[3*w+4] = -2 // a pit in the plain
	fillPits(hgt, nil, w, h)
	if p := pitsOn(hgt, nil, w, h); p != 0 {
		t.Errorf("%d pits after the fill; want 0", p)
	}
	for i, v := range hgt {
		if v != 0 && math.Abs(float64(v)) < 0x1p-126 {
			t.Fatalf("cell %d filled to the subnormal %g", i, v)
		}
	}
}
