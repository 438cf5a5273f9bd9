package ui

import (
	"fmt"
	"math"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/uplifttree"
	"orogen/viewer"
)

// painting is the state of a brush stroke in progress.
type painting struct {
	active bool
}

// placement is a range or valley being dragged out.
type placement struct {
	active bool
	x0, y0 float64 // map coordinates of the press
}

// handleDrag is a handle of the selected node being dragged.
type handleDrag struct {
	active bool
	which  handle
	x, y   float64 // current map position of the handle
}

type handle int

const (
	handleNone handle = iota
	handleA
	handleB
	handleRadius
	handleCenter
)

const handlePx = 7 // handle radius on screen

// viewportWindow shows the map (drawn by Draw under this transparent
// window), takes the mouse for panning, zooming, painting and the tree
// tools, and draws the brush circle, handles, readout and scale bar.
func (a *App) viewportWindow() {
	imgui.PushStyleVarVec2(imgui.StyleVarWindowPadding, vec2(0, 0))
	open := imgui.BeginV(winViewport, nil, imgui.WindowFlagsNoBackground|imgui.WindowFlagsNoScrollbar|imgui.WindowFlagsNoScrollWithMouse)
	imgui.PopStyleVar()
	if !open {
		a.vp = viewport{}
		imgui.End()
		return
	}
	pos, avail := imgui.CursorScreenPos(), imgui.ContentRegionAvail()
	full := viewport{x: pos.X, y: pos.Y, w: max(avail.X, 1), h: max(avail.Y, 1)}
	switch a.mode {
	case mode2D:
		a.vp, a.v3.rect = full, viewport{}
	case mode3D:
		a.vp, a.v3.rect = viewport{}, full
	case modeSplit:
		half := float32(math.Floor(float64(full.w) / 2))
		a.vp = viewport{x: full.x, y: full.y, w: half - 1, h: full.h}
		a.v3.rect = viewport{x: full.x + half + 1, y: full.y, w: full.w - half - 1, h: full.h}
	}
	if a.v3.rect.w > 1 {
		imgui.SetCursorScreenPos(vec2(a.v3.rect.x, a.v3.rect.y))
		imgui.InvisibleButtonV("map3d", vec2(a.v3.rect.w, a.v3.rect.h),
			imgui.ButtonFlagsMouseButtonLeft|imgui.ButtonFlagsMouseButtonRight|imgui.ButtonFlagsMouseButtonMiddle)
		a.input3D(imgui.IsItemHovered(), imgui.IsItemActive())
		a.v3.rect.hovered = imgui.IsItemHovered()
	}
	if a.vp.w <= 1 {
		a.draw3DLabels()
		imgui.End()
		return
	}
	avail = vec2(a.vp.w, a.vp.h)
	imgui.SetCursorScreenPos(vec2(a.vp.x, a.vp.y))
	sc := a.s.Doc().Scene()
	if a.fitView && avail.X > 1 && avail.Y > 1 {
		a.view = viewer.Fit(sc.Width, sc.Height, float64(a.vp.w), float64(a.vp.h))
		a.fitView = false
	}
	imgui.InvisibleButtonV("map", vec2(a.vp.w, a.vp.h),
		imgui.ButtonFlagsMouseButtonLeft|imgui.ButtonFlagsMouseButtonRight|imgui.ButtonFlagsMouseButtonMiddle)
	a.vp.hovered = imgui.IsItemHovered()
	active := imgui.IsItemActive()
	io := imgui.CurrentIO()
	mp := imgui.MousePos()
	mx, my := a.screenToMap(float64(mp.X), float64(mp.Y))

	// Zoom around the cursor; pan with the middle or right button.
	if a.vp.hovered && io.MouseWheel() != 0 {
		f := math.Pow(1.15, float64(io.MouseWheel()))
		a.view = a.view.ZoomAt(float64(mp.X-a.vp.x), float64(mp.Y-a.vp.y), f, float64(a.vp.w), float64(a.vp.h))
	}
	if active && (imgui.IsMouseDown(imgui.MouseButtonRight) || imgui.IsMouseDown(imgui.MouseButtonMiddle)) {
		d := io.MouseDelta()
		a.view = a.view.Pan(float64(d.X), float64(d.Y))
	}
	if a.vp.hovered && !io.WantTextInput() && imgui.IsKeyPressedBoolV(imgui.KeyF, false) {
		a.fitView = true
	}

	leftDown := active && imgui.IsMouseDown(imgui.MouseButtonLeft)
	pressed := imgui.IsItemActivated() && imgui.IsMouseClickedBool(imgui.MouseButtonLeft)
	tl := a.tool
	if a.anl.picking {
		tl = -1 // the click picks a river (Analysis panel)
		if pressed {
			a.anl.picking = false
			if err := a.pickRiver(mx, my); err != nil {
				a.log.add(levelWarn, "pick a river: %v", err)
			}
		}
	}
	if a.ampMouse(pressed, leftDown, float64(mp.X), float64(mp.Y), mx, my) {
		tl = -1 // the press was on the amplify window's tab
	}
	switch tl {
	case toolPaint:
		switch {
		case pressed:
			a.paintBegin(mx, my)
		case leftDown && a.painter.active:
			a.paintTo(mx, my)
		case !leftDown && a.painter.active:
			// The release frame's position ends the stroke: at a few
			// frames per second a fast drag moves far between samples,
			// and StrokeTo stamps the whole way.
			a.paintTo(mx, my)
			a.paintEnd()
		}
	case toolSegment, toolValley:
		switch {
		case pressed:
			a.placing = placement{active: true, x0: mx, y0: my}
		case !leftDown && a.placing.active:
			a.placing.active = false
			a.place(a.tool, a.placing.x0, a.placing.y0, mx, my)
		}
	case toolSection:
		a.sectionInput(pressed, leftDown, mx, my)
	case toolRegion:
		a.region.regionMouse(a.toolCtx(), pressed, leftDown, mx, my)
	case toolPin, toolCurve:
		a.cons.constraintMouse(a.toolCtx(), pressed, leftDown, float64(mp.X), float64(mp.Y), mx, my)
	case toolSelect:
		switch {
		case pressed:
			if h := a.handleAt(float64(mp.X), float64(mp.Y)); h != handleNone {
				a.drag = handleDrag{active: true, which: h, x: mx, y: my}
			} else {
				a.selectAt(mx, my)
			}
		case leftDown && a.drag.active:
			a.drag.x, a.drag.y = mx, my
		case !leftDown && a.drag.active:
			a.drag.active = false
			a.dropHandle(a.drag.which, mx, my)
		}
	}

	dl := imgui.WindowDrawList()
	dl.PushClipRect(pos, vec2(pos.X+a.vp.w, pos.Y+a.vp.h))
	a.drawArrows(dl)
	a.drawProfilePath(dl)
	a.drawSectionLine(dl)
	a.drawTreeOverlay(dl, mx, my)
	a.cons.drawConstraints(a.toolCtx(), dl, mx, my)
	a.region.drawRegion(a.toolCtx(), dl)
	a.drawAmpWindow(dl)
	if a.tool == toolPaint && a.vp.hovered {
		r := float32(a.brush.Radius * a.view.Zoom)
		dl.AddCircleV(mp, r, rgba(255, 255, 255, 200), 0, 1.5)
		dl.AddCircleV(mp, r+1.5, rgba(0, 0, 0, 140), 0, 1)
	}
	a.drawScaleBar(dl)
	a.drawReadout(dl, mx, my)
	dl.PopClipRect()
	a.draw3DLabels()
	imgui.End()
	a.cons.vertexHandleWindow(a.toolCtx())
}

// draw3DLabels writes the 3D view's hints and figures in its corner.
func (a *App) draw3DLabels() {
	r := a.v3.rect
	if r.w <= 1 {
		return
	}
	dl := imgui.WindowDrawList()
	dl.PushClipRect(vec2(r.x, r.y), vec2(r.x+r.w, r.y+r.h))
	_, meshMs, projMs := a.rend.Timings()
	s := fmt.Sprintf("3D: left drag orbits, right drag pans, wheel zooms, Home fits   mesh %.1f ms, picture %.1f ms",
		meshMs, projMs)
	if !a.v3.shown {
		s = "3D: building the mesh..."
	}
	if p := a.ampPreview(); p != nil {
		r := p.Req
		s = fmt.Sprintf("amplified window: cells %d, %d to %d, %d at %d× (%d×%d fine cells of %.3g m)\n%s",
			r.X0, r.Y0, r.X0+r.W-1, r.Y0+r.H-1, r.Opt.Factor, p.Fine.W, p.Fine.H, p.Fine.Cell, s)
	}
	sz := imgui.CalcTextSize(s)
	x, y := r.x+8, r.y+r.h-sz.Y-8
	dl.AddRectFilled(vec2(x-4, y-3), vec2(x+sz.X+4, y+sz.Y+3), rgba(0, 0, 0, 120))
	dl.AddTextVec2(vec2(x, y), rgba(255, 255, 255, 255), s)
	dl.PopClipRect()
}

// paintBegin, paintTo and paintEnd run a stroke through the document in
// layer pixels (cell centres at integer coordinates).
func (a *App) paintBegin(mx, my float64) {
	if err := a.s.Doc().BeginStroke(a.s.Doc().PaintLayer(), a.brush, mx-0.5, my-0.5); err != nil {
		a.showError("Brush", err)
		return
	}
	a.painter.active = true
}

func (a *App) paintTo(mx, my float64) {
	a.s.Doc().StrokeTo(mx-0.5, my-0.5)
}

func (a *App) paintEnd() {
	a.s.Doc().EndStroke()
	a.painter.active = false
	a.log.add(levelInfo, "painted a %v stroke", a.brush.Kind)
}

// cell returns the cell size in metres: map coordinates times cell are
// the Uplift Tree's world coordinates.
func (a *App) cell() float64 {
	sc := a.s.Doc().Scene()
	return sc.DomainM / float64(max(sc.Width, sc.Height))
}

// place adds a range segment or a valley from (x0, y0) to (x1, y1), map
// coordinates, to the root of the tree.
func (a *App) place(t tool, x0, y0, x1, y1 float64) {
	c := a.cell()
	A := uplifttree.Point{X: x0 * c, Y: y0 * c}
	B := uplifttree.Point{X: x1 * c, Y: y1 * c}
	length := math.Hypot(B.X-A.X, B.Y-A.Y)
	if length < 2*c {
		a.log.add(levelInfo, "drag farther to place a %s", toolNames[t])
		return
	}
	var s uplifttree.Shape
	var what string
	if t == toolSegment {
		r := max(length/4, 4*c)
		s = &uplifttree.Segment{A: A, B: B, Ctrls: []uplifttree.Ctrl{{T: 0, R: r, U: 1}, {T: 1, R: r, U: 1}}}
		what = "range segment"
	} else {
		r := max(length/10, 3*c)
		s = &uplifttree.Valley{A: A, B: B, Ctrls: []uplifttree.Ctrl{{T: 0, R: r, U: -0.6}, {T: 1, R: r, U: -0.6}}}
		what = "valley"
	}
	id, err := a.s.Doc().AddNode(a.s.Doc().Tree().Root(), -1, s)
	if err != nil {
		a.showError("Place "+what, err)
		return
	}
	a.sel = id
	a.log.add(levelInfo, "placed a %s (node %d)", what, id)
}

// selectAt picks the primitive under map point (mx, my).
func (a *App) selectAt(mx, my float64) {
	c := a.cell()
	a.sel = a.s.Doc().Tree().Pick(mx*c, my*c)
}

// handles returns the draggable points of the selected node, in map
// coordinates.
func (a *App) handles() map[handle][2]float64 {
	n, ok := a.s.Doc().Tree().Node(a.sel)
	if !ok {
		return nil
	}
	c := a.cell()
	h := map[handle][2]float64{}
	switch s := n.Shape.(type) {
	case *uplifttree.Segment:
		segHandles(h, s.A, s.B, s.Ctrls, c)
	case *uplifttree.Valley:
		segHandles(h, s.A, s.B, s.Ctrls, c)
	case *uplifttree.Disc:
		h[handleCenter] = [2]float64{s.Center.X / c, s.Center.Y / c}
		h[handleRadius] = [2]float64{(s.Center.X + s.Radius) / c, s.Center.Y / c}
	}
	return h
}

func segHandles(h map[handle][2]float64, A, B uplifttree.Point, ctrls []uplifttree.Ctrl, c float64) {
	h[handleA] = [2]float64{A.X / c, A.Y / c}
	h[handleB] = [2]float64{B.X / c, B.Y / c}
	mx, my := (A.X+B.X)/2, (A.Y+B.Y)/2
	nx, ny := -(B.Y - A.Y), B.X-A.X
	l := math.Hypot(nx, ny)
	if l == 0 || len(ctrls) == 0 {
		return
	}
	r := midRadius(ctrls)
	h[handleRadius] = [2]float64{(mx + nx/l*r) / c, (my + ny/l*r) / c}
}

// midRadius is the radius of the control point nearest the middle.
func midRadius(ctrls []uplifttree.Ctrl) float64 {
	best, r := math.Inf(1), 0.0
	for _, k := range ctrls {
		if d := math.Abs(k.T - 0.5); d < best {
			best, r = d, k.R
		}
	}
	return r
}

// handleAt returns the handle within reach of screen point (sx, sy).
func (a *App) handleAt(sx, sy float64) handle {
	for h, p := range a.handles() {
		x, y := a.mapToScreen(p[0], p[1])
		if math.Hypot(x-sx, y-sy) <= handlePx+3 {
			return h
		}
	}
	return handleNone
}

// dropHandle commits a handle drag as one undoable parameter change.
func (a *App) dropHandle(h handle, mx, my float64) {
	n, ok := a.s.Doc().Tree().Node(a.sel)
	if !ok {
		return
	}
	c := a.cell()
	p := uplifttree.Point{X: mx * c, Y: my * c}
	var err error
	switch s := n.Shape.(type) {
	case *uplifttree.Segment:
		err = a.dropSegHandle(h, p, s.A, s.B, s.Ctrls)
	case *uplifttree.Valley:
		err = a.dropSegHandle(h, p, s.A, s.B, s.Ctrls)
	case *uplifttree.Disc:
		switch h {
		case handleCenter:
			err = a.s.Doc().SetNodeParam(a.sel, "center", p)
		case handleRadius:
			err = a.s.Doc().SetNodeParam(a.sel, "radius", max(math.Hypot(p.X-s.Center.X, p.Y-s.Center.Y), c))
		}
	}
	if err != nil {
		a.showError("Edit node", err)
	}
}

func (a *App) dropSegHandle(h handle, p, A, B uplifttree.Point, ctrls []uplifttree.Ctrl) error {
	switch h {
	case handleA:
		return a.s.Doc().SetNodeParam(a.sel, "a", p)
	case handleB:
		return a.s.Doc().SetNodeParam(a.sel, "b", p)
	case handleRadius:
		r := distToSegment(p, A, B)
		old := midRadius(ctrls)
		if old <= 0 || r <= 0 {
			return nil
		}
		k := make([]uplifttree.Ctrl, len(ctrls))
		for i, c := range ctrls {
			k[i] = uplifttree.Ctrl{T: c.T, R: c.R * r / old, U: c.U}
		}
		return a.s.Doc().SetNodeParam(a.sel, "ctrl", k)
	}
	return nil
}

func distToSegment(p, a, b uplifttree.Point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = max(0, min(1, ((p.X-a.X)*dx+(p.Y-a.Y)*dy)/l2))
	}
	return math.Hypot(p.X-(a.X+t*dx), p.Y-(a.Y+t*dy))
}

// drawTreeOverlay draws the placement preview and the selected node's
// skeleton and handles (moved where a drag has them).
func (a *App) drawTreeOverlay(dl *imgui.DrawList, mx, my float64) {
	col := rgba(255, 214, 90, 230)
	if a.placing.active {
		x0, y0 := a.mapToScreen(a.placing.x0, a.placing.y0)
		x1, y1 := a.mapToScreen(mx, my)
		dl.AddLineV(vec2(float32(x0), float32(y0)), vec2(float32(x1), float32(y1)), col, 3)
	}
	hs := a.handles()
	if hs == nil {
		return
	}
	if a.drag.active {
		hs[a.drag.which] = [2]float64{a.drag.x, a.drag.y}
	}
	screen := func(h handle) (imgui.Vec2, bool) {
		p, ok := hs[h]
		if !ok {
			return imgui.Vec2{}, false
		}
		x, y := a.mapToScreen(p[0], p[1])
		return vec2(float32(x), float32(y)), true
	}
	pa, okA := screen(handleA)
	pb, okB := screen(handleB)
	if okA && okB {
		dl.AddLineV(pa, pb, col, 2)
	}
	pc, okC := screen(handleCenter)
	pr, okR := screen(handleRadius)
	if okC && okR {
		r := math.Hypot(float64(pr.X-pc.X), float64(pr.Y-pc.Y))
		dl.AddCircleV(pc, float32(r), col, 0, 1.5)
	}
	for _, h := range []handle{handleA, handleB, handleCenter, handleRadius} {
		if p, ok := screen(h); ok {
			dl.AddCircleFilled(p, handlePx, rgba(30, 30, 30, 220))
			dl.AddCircleV(p, handlePx, col, 0, 2)
		}
	}
}

// drawArrows draws flow arrows toward each cell's receiver once cells are
// large enough on screen to read them.
func (a *App) drawArrows(dl *imgui.DrawList) {
	if !a.arrows || a.view.Zoom < 8 {
		return
	}
	snap := a.s.Snapshot()
	x0, y0 := a.screenToMap(float64(a.vp.x), float64(a.vp.y))
	x1, y1 := a.screenToMap(float64(a.vp.x+a.vp.w), float64(a.vp.y+a.vp.h))
	r := rectOf(x0, y0, x1, y1)
	col := rgba(20, 40, 120, 200)
	for _, s := range viewer.Arrows(snap, r, 4000) {
		ax, ay := a.mapToScreen(float64(s[0])+0.5, float64(s[1])+0.5)
		bx, by := a.mapToScreen(float64(s[2])+0.5, float64(s[3])+0.5)
		// Stop short of the receiver's centre and add a head.
		ex, ey := ax+(bx-ax)*0.6, ay+(by-ay)*0.6
		dl.AddLineV(vec2(float32(ax), float32(ay)), vec2(float32(ex), float32(ey)), col, 1.5)
		dx, dy := ex-ax, ey-ay
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		ux, uy := dx/l, dy/l
		hl := min(6, l/2)
		for _, sgn := range []float64{1, -1} {
			hx := ex - hl*(ux*0.87-sgn*uy*0.5)
			hy := ey - hl*(uy*0.87+sgn*ux*0.5)
			dl.AddLineV(vec2(float32(ex), float32(ey)), vec2(float32(hx), float32(hy)), col, 1.5)
		}
	}
}

// drawScaleBar draws a 1-2-5 scale bar in the bottom-right corner.
func (a *App) drawScaleBar(dl *imgui.DrawList) {
	mPerPx := a.cell() / a.view.Zoom
	px, label := viewer.ScaleBar(mPerPx, float64(a.vp.w)/4)
	if px <= 0 {
		return
	}
	x1 := a.vp.x + a.vp.w - 16
	x0 := x1 - float32(px)
	y := a.vp.y + a.vp.h - 16
	dl.AddRectFilled(vec2(x0-6, y-22), vec2(x1+6, y+6), rgba(0, 0, 0, 120))
	dl.AddLineV(vec2(x0, y), vec2(x1, y), rgba(255, 255, 255, 255), 2)
	dl.AddLineV(vec2(x0, y-5), vec2(x0, y+1), rgba(255, 255, 255, 255), 2)
	dl.AddLineV(vec2(x1, y-5), vec2(x1, y+1), rgba(255, 255, 255, 255), 2)
	w := imgui.CalcTextSize(label).X
	dl.AddTextVec2(vec2((x0+x1)/2-w/2, y-20), rgba(255, 255, 255, 255), label)
}

// drawReadout shows x, y, height, uplift and drainage under the cursor.
func (a *App) drawReadout(dl *imgui.DrawList, mx, my float64) {
	if !a.vp.hovered {
		return
	}
	r, ok := viewer.Probe(a.s.Snapshot(), mx, my)
	if !ok {
		return
	}
	up := r.UpliftMPerYr
	if u := a.s.Doc().Uplift(); u != nil && r.X < u.W && r.Y < u.H {
		up = float64(u.Data[r.Y*u.W+r.X]) // the document's, painted strokes included
	}
	s := fmt.Sprintf("x %.2f km  y %.2f km  (cell %d, %d)\nheight %.1f m   uplift %.3g mm/yr\ndrainage %.3g km²",
		r.XM/1000, r.YM/1000, r.X, r.Y, r.HeightM, up*1000, r.AreaM2/1e6)
	if r.WaterM > 0 {
		s += fmt.Sprintf("   lake %.1f m deep", r.WaterM)
	}
	sz := imgui.CalcTextSize(s)
	x, y := a.vp.x+10, a.vp.y+a.vp.h-sz.Y-14
	dl.AddRectFilled(vec2(x-6, y-4), vec2(x+sz.X+6, y+sz.Y+4), rgba(0, 0, 0, 140))
	dl.AddTextVec2(vec2(x, y), rgba(255, 255, 255, 255), s)
}
