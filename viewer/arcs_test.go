package viewer

import (
	"image"
	"math"
	"orogen/sim/engine"
	"testing"
)

// flatSnap is a w×h flat snapshot with the given arcs.
func flatSnap(w, h int, arcs []engine.Arc) *engine.Snapshot {
	n := w * h
	s := &engine.Snapshot{W: w, H: h, Cell: 100, Height: make([]float32, n), Area: make([]float32, n),
		Receivers: make([]int32, n), Water: make([]float32, n), StreamArcs: engine.StreamArcs{Arcs: arcs}}
	for i := range s.Receivers {
		s.Receivers[i] = int32(i)
		s.Area[i] = 1e4
	}
	return s
}

func isRiver(c [4]uint8) bool {
	r, g, b := float32(c[0])/255, float32(c[1])/255, float32(c[2])/255
	d := func(a, b float32) float32 {
		if a > b {
			return a - b
		}
		return b - a
	}
	// Opaque arcs leave the river colour exactly (to 8-bit rounding).
	return d(r, riverColour[0]) < 0.01 && d(g, riverColour[1]) < 0.01 && d(b, riverColour[2]) < 0.01
}

func pixel(img *image.RGBA, x, y int) [4]uint8 {
	o := img.PixOffset(x, y)
	return [4]uint8(img.Pix[o : o+4])
}

// TestStreamArcs draws arcs over a flat relief: an arc at the threshold is
// one pixel wide along its whole length, a bigger one is wider, one below
// the threshold and one starting in a lake are not drawn.
func TestStreamArcs(t *testing.T) {
	o := DefaultOptions()
	thr := float32(o.RiverThresholdM2)
	arcs := []engine.Arc{
		{X0: 5.5, Y0: 10.5, X1: 55.5, Y1: 10.5, Area: thr},       // 1 px at zoom 1
		{X0: 5.5, Y0: 30.5, X1: 55.5, Y1: 30.5, Area: thr * 1e2}, // 1 + 2·1.5 = 4 px
		{X0: 5.5, Y0: 50.5, X1: 55.5, Y1: 50.5, Area: thr / 2},   // below the threshold
		{X0: 30.5, Y0: 55.5, X1: 40.5, Y1: 58.5, Area: thr * 10}, // from a lake
	}
	s := flatSnap(64, 64, arcs)
	s.Water[55*64+30] = 2
	img := Relief(nil, s, o)
	for x := 6; x < 55; x++ {
		if !isRiver(pixel(img, x, 10)) {
			t.Fatalf("pixel (%d, 10) on the threshold arc is %v; want the river colour", x, pixel(img, x, 10))
		}
		if isRiver(pixel(img, x, 9)) || isRiver(pixel(img, x, 11)) {
			t.Fatalf("the threshold arc is wider than 1 px at x = %d", x)
		}
		wide := 0
		for y := 25; y < 36; y++ {
			if isRiver(pixel(img, x, y)) {
				wide++
			}
		}
		if wide != 4 {
			t.Fatalf("the arc of 100× the threshold is %d px wide at x = %d; want 4", wide, x)
		}
		if isRiver(pixel(img, x, 50)) {
			t.Fatalf("the arc below the threshold was drawn at x = %d", x)
		}
	}
	for y := 54; y < 60; y++ {
		for x := 28; x < 42; x++ {
			if isRiver(pixel(img, x, y)) {
				t.Fatalf("the arc starting in a lake was drawn at (%d, %d)", x, y)
			}
		}
	}
	// Without rivers, no arcs.
	o.Rivers = false
	img = Relief(nil, s, o)
	if isRiver(pixel(img, 20, 10)) {
		t.Fatal("arcs drawn with Rivers off")
	}
}

// TestStreamArcsView checks the screen mapping and culling and that long
// lists are split into chunks within the uint16 index range.
func TestStreamArcsView(t *testing.T) {
	o := DefaultOptions()
	thr := float32(o.RiverThresholdM2)
	var arcs []engine.Arc
	for i := range 40000 {
		x := float32(i%200) + 0.25
		y := float32(i/200) + 0.25
		arcs = append(arcs, engine.Arc{X0: x, Y0: y, X1: x + 0.5, Y1: y + 0.5, Area: thr})
	}
	s := flatSnap(200, 200, arcs)
	d := StreamArcs(nil, s, View{CenterX: 100, CenterY: 100, Zoom: 4}, 800, 800, o)
	if got := d.Triangles(); got != 2*len(arcs) {
		t.Fatalf("%d triangles for %d arcs on screen; want 2 per arc", got, len(arcs))
	}
	for _, c := range d.Chunks {
		if len(c.Vertices) > MaxChunkVertices {
			t.Fatalf("a chunk of %d vertices", len(c.Vertices))
		}
	}
	if len(d.Chunks) < 3 {
		t.Fatalf("%d chunks for %d vertices; want at least 3", len(d.Chunks), 4*len(arcs))
	}
	// Zoomed on the top-left quarter at 8 px per cell: only arcs there.
	d = StreamArcs(d, s, View{CenterX: 25, CenterY: 25, Zoom: 8}, 400, 400, o)
	if got := d.Triangles() / 2; got < 50*50 || got > 53*53 {
		t.Fatalf("%d arcs drawn on a 50×50-cell view; want about 2500", got)
	}
	v := d.Chunks[0].Vertices[0]
	// The first arc (0.25, 0.25)→(0.75, 0.75) is 8 px wide at zoom 8 and
	// starts half a width before (0.25, 0.25), which is at screen (2, 2):
	// its first corner is 4·√2 px from there, at (2 − 4√2, 2).
	if dx, dy := v.DstX-(2-4*math.Sqrt2), v.DstY-2; dx*dx+dy*dy > 1e-6 {
		t.Fatalf("first vertex at (%g, %g); want (%g, 2)", v.DstX, v.DstY, 2-4*math.Sqrt2)
	}
}
