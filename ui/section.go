package ui

import (
	"fmt"
	"math"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/sim/engine"
	"orogen/sim/geology"
)

// winSection is the cross-section window: the strata and the terrain
// profile beneath a line dragged on the map with the Cross-section tool,
// as the block diagrams of Roudier et al. 1993, Fig. 1.
const winSection = "Cross-section"

// section is the cross-section line and its picture's columns.
type section struct {
	dragging, set  bool
	x0, y0, x1, y1 float64 // map coordinates (cells)

	// The columns last computed, for snap and line.
	snap  *engine.Snapshot
	key   [4]float64
	cols  int
	h     []float64 // terrain height per column, m
	al    []float64 // alluvium per column, m
	disp  []float64 // per column: the undeformed z is z − disp
	model *geology.Model
	drawn int // frames the window has drawn this line's profile in
}

// setSection sets the line, in cells, and shows the window.
func (a *App) setSection(x0, y0, x1, y1 float64) error {
	if math.Hypot(x1-x0, y1-y0) < 1 {
		return fmt.Errorf("cross-section: the line from (%g, %g) to (%g, %g) is shorter than a cell", x0, y0, x1, y1)
	}
	a.sec = section{set: true, x0: x0, y0: y0, x1: x1, y1: y1}
	return nil
}

// sectionInput handles the Cross-section tool in the viewport.
func (a *App) sectionInput(pressed, leftDown bool, mx, my float64) {
	switch {
	case pressed:
		a.sec.dragging, a.sec.x0, a.sec.y0, a.sec.x1, a.sec.y1 = true, mx, my, mx, my
	case leftDown && a.sec.dragging:
		a.sec.x1, a.sec.y1 = mx, my
	case !leftDown && a.sec.dragging:
		a.sec.dragging = false
		if err := a.setSection(a.sec.x0, a.sec.y0, mx, my); err != nil {
			a.log.add(levelWarn, "%v", err)
		}
	}
}

// drawSectionLine draws the line on the map.
func (a *App) drawSectionLine(dl *imgui.DrawList) {
	if !a.sec.set && !a.sec.dragging {
		return
	}
	x0, y0 := a.mapToScreen(a.sec.x0, a.sec.y0)
	x1, y1 := a.mapToScreen(a.sec.x1, a.sec.y1)
	p0, p1 := vec2(float32(x0), float32(y0)), vec2(float32(x1), float32(y1))
	dl.AddLineV(p0, p1, rgba(0, 0, 0, 160), 4)
	dl.AddLineV(p0, p1, rgba(255, 220, 60, 255), 2)
	dl.AddCircleFilled(p0, 4, rgba(255, 220, 60, 255))
	dl.AddTextVec2(vec2(p0.X+6, p0.Y-16), rgba(255, 255, 255, 230), "A")
	dl.AddTextVec2(vec2(p1.X+6, p1.Y-16), rgba(255, 255, 255, 230), "B")
}

// sample returns the snapshot's field v at map point (x, y), bilinear.
func sample(s *engine.Snapshot, v []float32, x, y float64) float64 {
	x, y = min(max(x-0.5, 0), float64(s.W-1)), min(max(y-0.5, 0), float64(s.H-1))
	i, j := min(int(x), s.W-2), min(int(y), s.H-2)
	i, j = max(i, 0), max(j, 0)
	fx, fy := x-float64(i), y-float64(j)
	at := func(i, j int) float64 { return float64(v[min(j, s.H-1)*s.W+min(i, s.W-1)]) }
	return (at(i, j)*(1-fx)+at(i+1, j)*fx)*(1-fy) + (at(i, j+1)*(1-fx)+at(i+1, j+1)*fx)*fy
}

// sectionColumns samples the line: n columns of terrain, alluvium and
// displacement.
func (a *App) sectionColumns(s *engine.Snapshot, n int) {
	sc := &a.sec
	key := [4]float64{sc.x0, sc.y0, sc.x1, sc.y1}
	if sc.snap == s && sc.key == key && sc.cols == n {
		return
	}
	sc.snap, sc.key, sc.cols, sc.model = s, key, n, s.Geology
	sc.h, sc.al, sc.disp = make([]float64, n), make([]float64, n), make([]float64, n)
	for c := range n {
		t := (float64(c) + 0.5) / float64(n)
		x, y := sc.x0+(sc.x1-sc.x0)*t, sc.y0+(sc.y1-sc.y0)*t
		sc.h[c] = sample(s, s.Height, x, y)
		if s.Alluvium != nil {
			sc.al[c] = max(0, sample(s, s.Alluvium, x, y))
		}
		if sc.model != nil {
			// The undoing moves z by an amount that depends on (x, y)
			// alone (package geology).
			_, _, z0 := sc.model.Undeform(x*s.Cell, y*s.Cell, 0)
			sc.disp[c] = -z0
		}
	}
}

func (a *App) sectionWindow() {
	if !a.sec.set {
		return
	}
	open := true
	imgui.SetNextWindowSizeV(vec2(640, 320), imgui.CondFirstUseEver)
	if !imgui.BeginV(winSection, &open, 0) {
		imgui.End()
		if !open {
			a.sec.set = false
		}
		return
	}
	if !open {
		a.sec.set = false
	}
	recordWindowRect(winSection)
	s := a.s.Snapshot()
	if s == nil || len(s.Height) != s.W*s.H || s.W < 2 || s.H < 2 {
		textDisabled("No terrain yet.")
		imgui.End()
		return
	}
	sc := &a.sec
	length := math.Hypot(sc.x1-sc.x0, sc.y1-sc.y0) * s.Cell
	if s.Geology == nil {
		textDisabled("Uniform rock: turn on layered rock in the Geology panel to see strata.")
	}
	pos, avail := imgui.CursorScreenPos(), imgui.ContentRegionAvail()
	w, h := max(avail.X, 50), max(avail.Y-20, 50)
	n := int(min(w/2, 600))
	a.sectionColumns(s, n)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, z := range sc.h {
		lo, hi = min(lo, z), max(hi, z)
	}
	depth := max(100, 0.5*(hi-lo))
	zb, zt := lo-depth, hi+0.08*(hi-lo+1)
	yOf := func(z float64) float32 { return pos.Y + float32((zt-z)/(zt-zb))*h }
	dl := imgui.WindowDrawList()
	dl.AddRectFilled(pos, vec2(pos.X+w, pos.Y+h), rgba(20, 24, 30, 255))
	cw := w / float32(n)
	var pal []uint32
	if sc.model != nil {
		for i := 0; i <= sc.model.NumLayers(); i++ {
			c := sc.model.Rock(i).Color
			pal = append(pal, rgba(c.R, c.G, c.B, 255))
		}
	}
	const rowPx = 2
	for c := range n {
		x0 := pos.X + float32(c)*cw
		top := yOf(sc.h[c])
		if sc.model == nil {
			dl.AddRectFilled(vec2(x0, top), vec2(x0+cw+0.5, pos.Y+h), rgba(140, 130, 120, 255))
			continue
		}
		// Runs of one layer down the column, merged into one rectangle.
		rock := sc.h[c] - sc.al[c]
		if sc.al[c] >= geology.MinAlluvium {
			dl.AddRectFilled(vec2(x0, top), vec2(x0+cw+0.5, yOf(rock)), pal[len(pal)-1])
		}
		runTop, runLayer := yOf(rock), -1
		for y := yOf(rock); y < pos.Y+h; y += rowPx {
			z := zt - float64(y+rowPx/2-pos.Y)/float64(h)*(zt-zb)
			l := sc.model.LayerOf(z - sc.disp[c])
			if l != runLayer {
				if runLayer >= 0 {
					dl.AddRectFilled(vec2(x0, runTop), vec2(x0+cw+0.5, y), pal[runLayer])
				}
				runTop, runLayer = y, l
			}
		}
		if runLayer >= 0 {
			dl.AddRectFilled(vec2(x0, runTop), vec2(x0+cw+0.5, pos.Y+h), pal[runLayer])
		}
	}
	// The profile as a path: cimgui-go's AddPolyline hands C a copy of
	// its first point only, and C read the rest past it (the stray lines
	// of issue 30, new every frame).
	dl.PathClear()
	for c := range n {
		dl.PathLineTo(vec2(pos.X+(float32(c)+0.5)*cw, yOf(sc.h[c])))
	}
	dl.PathStrokeV(rgba(255, 255, 255, 255), 0, 1.5)
	dl.AddTextVec2(vec2(pos.X+4, pos.Y+2), rgba(255, 255, 255, 220), "A")
	dl.AddTextVec2(vec2(pos.X+w-12, pos.Y+2), rgba(255, 255, 255, 220), "B")
	imgui.Dummy(vec2(w, h))
	sc.drawn++
	textDisabled(fmt.Sprintf("A-B %.1f km; terrain %.0f to %.0f m; shown from %.0f m. Drag another line with the Cross-section tool.", length/1000, lo, hi, zb))
	imgui.End()
}
