package viewer

import (
	"image"
	"math"
	"orogen/sim/engine"
)

// StreamArcs returns in dst (its chunks reused) the stream arcs of s (the
// stream graph's, engine.Snapshot.Arcs) that carry at least
// o.RiverThresholdM2, as opaque quads in the river colour on a screenW ×
// screenH screen looking at the map through v. An arc is as wide as a
// river cell of the same drainage area in Relief (1 cell at the
// threshold, riverPxPerDecade more per decade, at most o.RiverMaxPx),
// times the zoom, and never thinner than a pixel; it is extended by half
// its width at both ends so the arcs of a river join without gaps.
// Arcs that start in a lake (s.Water > 0) are left out when o.Lakes is
// set, so rivers end at the shore, as in Relief. Arcs wholly off the
// screen are skipped. The list is drawn with Ebiten's DrawTriangles or
// RasterizeDrawList.
func StreamArcs(dst *DrawList, s *engine.Snapshot, v View, screenW, screenH int, o Options) *DrawList {
	if dst == nil {
		dst = &DrawList{}
	}
	dst.W, dst.H = screenW, screenH
	for i := range dst.Chunks {
		dst.Chunks[i].Vertices = dst.Chunks[i].Vertices[:0]
		dst.Chunks[i].Indices = dst.Chunks[i].Indices[:0]
	}
	chunks := dst.Chunks[:0]
	o = o.sanitized()
	if len(s.Arcs) == 0 || !(o.RiverThresholdM2 > 0) {
		dst.Chunks = chunks
		return dst
	}
	thr := o.RiverThresholdM2
	sw, sh := float64(screenW), float64(screenH)
	col := riverColour
	var cur *Chunk
	for _, a := range s.Arcs {
		area := float64(a.Area)
		if !(area >= thr) {
			continue
		}
		if o.Lakes && s.Water != nil {
			x, y := int(a.X0), int(a.Y0)
			if x >= 0 && y >= 0 && x < s.W && y < s.H && s.Water[y*s.W+x] > 0 {
				continue
			}
		}
		wc := min(1+riverPxPerDecade*math.Log10(area/thr), o.RiverMaxPx)
		half := max(wc*v.Zoom, 1) / 2
		x0, y0 := v.ToScreen(float64(a.X0), float64(a.Y0), sw, sh)
		x1, y1 := v.ToScreen(float64(a.X1), float64(a.Y1), sw, sh)
		if max(x0, x1)+half < 0 || min(x0, x1)-half > sw || max(y0, y1)+half < 0 || min(y0, y1)-half > sh {
			continue
		}
		dx, dy := x1-x0, y1-y0
		l := math.Hypot(dx, dy)
		if !(l > 0) {
			continue
		}
		ux, uy := dx/l*half, dy/l*half // along the arc
		nx, ny := -uy, ux              // across it
		if cur == nil || len(cur.Vertices)+4 > MaxChunkVertices {
			if len(chunks) < cap(chunks) {
				chunks = chunks[:len(chunks)+1]
			} else {
				chunks = append(chunks, Chunk{})
			}
			cur = &chunks[len(chunks)-1]
		}
		b := uint16(len(cur.Vertices))
		for _, p := range [4][2]float64{
			{x0 - ux + nx, y0 - uy + ny}, {x0 - ux - nx, y0 - uy - ny},
			{x1 + ux - nx, y1 + uy - ny}, {x1 + ux + nx, y1 + uy + ny},
		} {
			cur.Vertices = append(cur.Vertices, Vertex3D{
				DstX: float32(p[0]), DstY: float32(p[1]), SrcX: 0.5, SrcY: 0.5,
				ColorR: col[0], ColorG: col[1], ColorB: col[2], ColorA: 1,
			})
		}
		cur.Indices = append(cur.Indices, b, b+1, b+2, b, b+2, b+3)
	}
	dst.Chunks = chunks
	return dst
}

// drawArcs draws the snapshot's stream arcs over a Relief picture (one
// pixel per cell).
func drawArcs(dst *image.RGBA, s *engine.Snapshot, o Options) {
	v := View{CenterX: float64(s.W) / 2, CenterY: float64(s.H) / 2, Zoom: 1}
	RasterizeDrawList(dst, StreamArcs(nil, s, v, s.W, s.H, o))
}
