package ui

import (
	"image"
	"image/color"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/sim/engine"
	"orogen/viewer"
)

// arcLayer draws the stream graph's arcs over the 2D map at the screen's
// resolution (the map picture leaves them out): a draw list rebuilt in
// Update when the snapshot, the view, the viewport or the river options
// change, drawn in Draw with Ebiten's DrawTriangles.
type arcLayer struct {
	list  *viewer.DrawList
	shown bool
	of    arcKey // what list shows
	white *ebiten.Image
	tri   ebiten.DrawTrianglesOptions
}

// arcKey is what an arc list is drawn from.
type arcKey struct {
	snap *engine.Snapshot
	view viewer.View
	vp   viewport
	opts viewer.Options
}

// syncArcs rebuilds the arc list if what it shows changed.
func (a *App) syncArcs() {
	l := &a.arcs
	s := a.s.Snapshot()
	if a.mode == mode3D || s.Arcs == nil || !a.vopts.Rivers || a.vp.w < 1 || a.vp.h < 1 {
		l.shown = false
		return
	}
	vp := a.vp
	vp.hovered = false
	k := arcKey{snap: s, view: a.view, vp: vp, opts: a.vopts}
	if l.shown && k == l.of {
		return
	}
	l.of = k
	l.list = viewer.StreamArcs(l.list, s, a.view, int(vp.w), int(vp.h), a.vopts)
	for _, c := range l.list.Chunks {
		for i := range c.Vertices {
			c.Vertices[i].DstX += vp.x
			c.Vertices[i].DstY += vp.y
		}
	}
	l.shown = true
}

// draw draws the arcs into the viewport's part of screen.
func (l *arcLayer) draw(screen *ebiten.Image, clip clipFunc) {
	if !l.shown || l.list == nil {
		return
	}
	if l.white == nil {
		l.white = ebiten.NewImage(1, 1) // vertices sample its centre
		l.white.Fill(color.White)
	}
	vp := l.of.vp
	r := image.Rect(int(vp.x), int(vp.y), int(vp.x+vp.w), int(vp.y+vp.h))
	dst := clip(screen, r)
	for _, c := range l.list.Chunks {
		if len(c.Indices) == 0 {
			continue
		}
		vs := unsafe.Slice((*ebiten.Vertex)(unsafe.Pointer(unsafe.SliceData(c.Vertices))), len(c.Vertices))
		dst.DrawTriangles(vs, c.Indices, l.white, &l.tri)
	}
}
