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
	snap  *engine.Snapshot
	view  viewer.View
	vp    viewport
	opts  viewer.Options
	white *ebiten.Image
	tri   ebiten.DrawTrianglesOptions
}

// syncArcs rebuilds the arc list if what it shows changed.
func (a *App) syncArcs() {
	l := &a.arcs
	s := a.viewSnap()
	if a.mode == mode3D || s.Arcs == nil || !a.vopts.Rivers || a.vp.w < 1 || a.vp.h < 1 {
		l.shown = false
		return
	}
	vp := a.vp
	vp.hovered = false
	if l.shown && l.snap == s && l.view == a.view && l.vp == vp && l.opts == a.vopts {
		return
	}
	l.snap, l.view, l.vp, l.opts = s, a.view, vp, a.vopts
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
func (l *arcLayer) draw(screen *ebiten.Image) {
	if !l.shown || l.list == nil {
		return
	}
	if l.white == nil {
		l.white = ebiten.NewImage(1, 1) // vertices sample its centre
		l.white.Fill(color.White)
	}
	r := image.Rect(int(l.vp.x), int(l.vp.y), int(l.vp.x+l.vp.w), int(l.vp.y+l.vp.h))
	dst := screen.SubImage(r).(*ebiten.Image)
	for _, c := range l.list.Chunks {
		if len(c.Indices) == 0 {
			continue
		}
		vs := unsafe.Slice((*ebiten.Vertex)(unsafe.Pointer(unsafe.SliceData(c.Vertices))), len(c.Vertices))
		dst.DrawTriangles(vs, c.Indices, l.white, &l.tri)
	}
}
