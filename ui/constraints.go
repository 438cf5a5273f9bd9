package ui

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/doc"
	"orogen/app/scene"
)

// winConstraints lists the elevation constraints (package constrain).
const winConstraints = "Constraints"

// vertexDrag is a constraint vertex being dragged on the map: moved, or
// with Shift its height changed by the vertical drag.
type vertexDrag struct {
	active bool
	c, v   int     // constraint and vertex
	x, y   float64 // map coordinates now
	px, py float64 // map coordinates of the press
	height bool    // a height drag
	sy0    float64 // screen y of the press, pixels
	h0     float64 // the vertex's height at the press, metres
	merge  string  // the height drag's undo key
}

// vertexSel is the selected constraint vertex: its height handle shows on
// the map.
type vertexSel struct {
	ok   bool
	c, v int
}

// MetresPerPixel is how far a height drag moves a vertex per screen pixel.
const MetresPerPixel = 5.0

// constraintVertices returns every constraint's vertices in map
// coordinates (cells) with their heights.
func (a *App) constraintVertices() [][][3]float64 {
	c := a.cell()
	cs := a.s.Doc().Scene().Constraints
	out := make([][][3]float64, len(cs))
	for i, k := range cs {
		for _, p := range k.Points() {
			out[i] = append(out[i], [3]float64{p.X / c, p.Y / c, p.H})
		}
	}
	return out
}

// vertexAt returns the constraint vertex under screen point (sx, sy).
func (a *App) vertexAt(sx, sy float64) (c, v int, ok bool) {
	for i, vs := range a.constraintVertices() {
		for k, p := range vs {
			x, y := a.mapToScreen(p[0], p[1])
			if math.Hypot(x-sx, y-sy) <= handlePx+3 {
				return i, k, true
			}
		}
	}
	return 0, 0, false
}

// heightAt is the terrain height under map point (mx, my) in the newest
// snapshot, metres (0 off the grid).
func (a *App) heightAt(mx, my float64) float64 {
	sn := a.s.Frame().Snap
	x, y := int(math.Floor(mx)), int(math.Floor(my))
	if x < 0 || y < 0 || x >= sn.W || y >= sn.H || len(sn.Height) != sn.W*sn.H {
		return 0
	}
	return float64(sn.Height[y*sn.W+x])
}

// placePin adds a point constraint at map point (mx, my) at height h, or
// at the terrain's height there when h is NaN.
func (a *App) placePin(mx, my, h float64) error {
	if math.IsNaN(h) {
		h = math.Round(a.heightAt(mx, my))
	}
	c := a.cell()
	if err := a.s.AddConstraint(scene.NewPoint(mx*c, my*c, h)); err != nil {
		return err
	}
	a.log.add(levelInfo, "pinned %.0f m at cell (%.0f, %.0f)", h, math.Floor(mx), math.Floor(my))
	return nil
}

// placeCurve adds a two-vertex curve constraint between map points, at
// heights h0 and h1 (NaN: the terrain's there).
func (a *App) placeCurve(x0, y0, h0, x1, y1, h1 float64) error {
	if math.Hypot(x1-x0, y1-y0) < 1 {
		return errors.New("drag farther to draw a curve constraint")
	}
	if math.IsNaN(h0) {
		h0 = math.Round(a.heightAt(x0, y0))
	}
	if math.IsNaN(h1) {
		h1 = math.Round(a.heightAt(x1, y1))
	}
	c := a.cell()
	k := scene.Constraint{Curve: [][]float64{{x0 * c, y0 * c, h0}, {x1 * c, y1 * c, h1}}}
	if err := a.s.AddConstraint(k); err != nil {
		return err
	}
	a.log.add(levelInfo, "drew a curve constraint from %.0f m to %.0f m", h0, h1)
	return nil
}

// moveVertex moves vertex v of constraint i to map point (mx, my), keeping
// its height: one undo entry.
func (a *App) moveVertex(i, v int, mx, my float64) error {
	cs := a.s.Doc().Scene().Constraints
	if i < 0 || i >= len(cs) {
		return fmt.Errorf("no constraint %d: there are %d", i, len(cs))
	}
	k := cs[i].Clone()
	c := a.cell()
	switch {
	case k.Point != nil && v == 0:
		k.Point[0], k.Point[1] = mx*c, my*c
	case v >= 0 && v < len(k.Curve):
		k.Curve[v][0], k.Curve[v][1] = mx*c, my*c
	default:
		return fmt.Errorf("constraint %d has no vertex %d", i, v)
	}
	return a.s.SetConstraint(i, k, "")
}

// setVertexHeight sets the height of vertex v of constraint i; merge joins
// a slider drag's changes into one undo entry.
func (a *App) setVertexHeight(i, v int, h float64, merge string) error {
	cs := a.s.Doc().Scene().Constraints
	if i < 0 || i >= len(cs) {
		return fmt.Errorf("no constraint %d: there are %d", i, len(cs))
	}
	k := cs[i].Clone()
	switch {
	case k.Point != nil && v == 0:
		k.HeightM = &h
	case v >= 0 && v < len(k.Curve):
		k.Curve[v][2] = h
	default:
		return fmt.Errorf("constraint %d has no vertex %d", i, v)
	}
	return a.s.SetConstraint(i, k, merge)
}

// vertexHeight returns the height of vertex v of constraint i.
func (a *App) vertexHeight(i, v int) (float64, bool) {
	cs := a.s.Doc().Scene().Constraints
	if i < 0 || i >= len(cs) {
		return 0, false
	}
	ps := cs[i].Points()
	if v < 0 || v >= len(ps) {
		return 0, false
	}
	return ps[v].H, true
}

// segmentAt returns the curve segment (constraint i, between vertices
// k and k+1) within a handle's reach of screen point (sx, sy), and the
// fraction t along it of the nearest point.
func (a *App) segmentAt(sx, sy float64) (i, k int, t float64, ok bool) {
	best := handlePx + 3.0
	for ci, vs := range a.constraintVertices() {
		for q := 1; q < len(vs); q++ {
			x0, y0 := a.mapToScreen(vs[q-1][0], vs[q-1][1])
			x1, y1 := a.mapToScreen(vs[q][0], vs[q][1])
			dx, dy := x1-x0, y1-y0
			l2 := dx*dx + dy*dy
			if l2 == 0 {
				continue
			}
			u := min(1, max(0, ((sx-x0)*dx+(sy-y0)*dy)/l2))
			if d := math.Hypot(x0+u*dx-sx, y0+u*dy-sy); d <= best {
				best, i, k, t, ok = d, ci, q-1, u, true
			}
		}
	}
	return i, k, t, ok
}

// insertVertex adds a vertex to curve i after vertex k, at fraction t
// along the segment to vertex k+1, with the height interpolated there (one
// undo entry). It returns the new vertex's index.
func (a *App) insertVertex(i, k int, t float64) (int, error) {
	cs := a.s.Doc().Scene().Constraints
	if i < 0 || i >= len(cs) {
		return 0, fmt.Errorf("no constraint %d: there are %d", i, len(cs))
	}
	c := cs[i].Clone()
	if c.Point != nil {
		return 0, fmt.Errorf("constraint %d is a point: only curves take vertices", i+1)
	}
	if k < 0 || k+1 >= len(c.Curve) {
		return 0, fmt.Errorf("curve %d has no segment %d: it has %d vertices", i+1, k+1, len(c.Curve))
	}
	p, q := c.Curve[k], c.Curve[k+1]
	v := []float64{p[0] + t*(q[0]-p[0]), p[1] + t*(q[1]-p[1]), math.Round(p[2] + t*(q[2]-p[2]))}
	c.Curve = append(c.Curve[:k+1], append([][]float64{v}, c.Curve[k+1:]...)...)
	if err := a.s.SetConstraint(i, c, ""); err != nil {
		return 0, err
	}
	a.log.add(levelInfo, "added vertex %d to curve #%d at %.0f m", k+2, i+1, v[2])
	return k + 1, nil
}

// constraintMouse handles the pin and curve tools in the viewport: a
// press on a vertex selects it and drags it (one undo entry on release),
// or with Shift drags its height up and down (MetresPerPixel, one undo
// entry per drag); a double click on a curve adds a vertex there;
// elsewhere the pin tool pins the terrain's height and the curve tool
// draws a curve from press to release.
func (a *App) constraintMouse(pressed, leftDown bool, sx, sy, mx, my float64) {
	switch {
	case pressed:
		if c, v, ok := a.vertexAt(sx, sy); ok {
			a.vsel = vertexSel{ok: true, c: c, v: v}
			a.vdrag = vertexDrag{active: true, c: c, v: v, x: mx, y: my, px: mx, py: my}
			if imgui.CurrentIO().KeyShift() {
				h, _ := a.vertexHeight(c, v)
				a.vdragSeq++
				a.vdrag.height, a.vdrag.sy0, a.vdrag.h0 = true, sy, h
				a.vdrag.merge = fmt.Sprintf("constraint-height-drag-%d", a.vdragSeq)
			}
			return
		}
		if imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) {
			if c, k, t, ok := a.segmentAt(sx, sy); ok {
				a.placing.active = false
				v, err := a.insertVertex(c, k, t)
				if err != nil {
					a.showError("Add vertex", err)
					return
				}
				a.vsel = vertexSel{ok: true, c: c, v: v}
				return
			}
		}
		a.vsel = vertexSel{}
		if a.tool == toolPin {
			if err := a.placePin(mx, my, math.NaN()); err != nil {
				a.showError("Pin", err)
			}
			return
		}
		a.placing = placement{active: true, x0: mx, y0: my}
	case leftDown && a.vdrag.active && a.vdrag.height:
		h := math.Round(a.vdrag.h0 + (a.vdrag.sy0-sy)*MetresPerPixel)
		if old, ok := a.vertexHeight(a.vdrag.c, a.vdrag.v); ok && old != h {
			if err := a.setVertexHeight(a.vdrag.c, a.vdrag.v, h, a.vdrag.merge); err != nil {
				a.vdrag.active = false
				a.showError("Constraint height", err)
			}
		}
	case leftDown && a.vdrag.active:
		a.vdrag.x, a.vdrag.y = mx, my
	case !leftDown && a.vdrag.active:
		a.vdrag.active = false
		if a.vdrag.height {
			if h, ok := a.vertexHeight(a.vdrag.c, a.vdrag.v); ok && h != a.vdrag.h0 {
				a.log.add(levelInfo, "vertex %d of constraint #%d now at %.0f m", a.vdrag.v+1, a.vdrag.c+1, h)
			}
			return
		}
		if mx == a.vdrag.px && my == a.vdrag.py {
			return // a click: the vertex is selected, not moved
		}
		if err := a.moveVertex(a.vdrag.c, a.vdrag.v, mx, my); err != nil {
			a.showError("Move constraint", err)
		}
	case !leftDown && a.placing.active:
		a.placing.active = false
		if err := a.placeCurve(a.placing.x0, a.placing.y0, math.NaN(), mx, my, math.NaN()); err != nil {
			a.log.add(levelInfo, "%v", err)
		}
	}
}

// drawConstraints draws pins and curves with their targets.
func (a *App) drawConstraints(dl *imgui.DrawList, mx, my float64) {
	vs := a.constraintVertices()
	if a.vdrag.active && a.vdrag.c < len(vs) && a.vdrag.v < len(vs[a.vdrag.c]) {
		vs[a.vdrag.c][a.vdrag.v][0], vs[a.vdrag.c][a.vdrag.v][1] = a.vdrag.x, a.vdrag.y
	}
	line, fill, dark := rgba(120, 220, 255, 230), rgba(40, 160, 220, 255), rgba(0, 0, 0, 160)
	for i, ps := range vs {
		for k := 1; k < len(ps); k++ {
			x0, y0 := a.mapToScreen(ps[k-1][0], ps[k-1][1])
			x1, y1 := a.mapToScreen(ps[k][0], ps[k][1])
			dl.AddLineV(vec2(float32(x0), float32(y0)), vec2(float32(x1), float32(y1)), line, 2.5)
		}
		selected := a.vsel.ok && a.vsel.c == i
		for k, p := range ps {
			x, y := a.mapToScreen(p[0], p[1])
			dl.AddCircleFilled(vec2(float32(x), float32(y)), handlePx, fill)
			dl.AddCircleV(vec2(float32(x), float32(y)), handlePx, dark, 0, 1.5)
			switch {
			case selected && k == a.vsel.v:
				// The height handle: a ring and a stem whose knob a
				// Shift-drag moves up and down.
				dl.AddCircleV(vec2(float32(x), float32(y)), handlePx+4, rgba(255, 220, 80, 255), 0, 2.5)
				dl.AddLineV(vec2(float32(x), float32(y)-handlePx-4), vec2(float32(x), float32(y)-handlePx-26), rgba(255, 220, 80, 255), 2)
				dl.AddCircleFilled(vec2(float32(x), float32(y)-handlePx-28), 4, rgba(255, 220, 80, 255))
				dl.AddTextVec2(vec2(float32(x)+handlePx+6, float32(y)-7), rgba(255, 240, 160, 255), fmt.Sprintf("#%d.%d %.0f m", i+1, k+1, p[2]))
			case selected || k == 0 || k == len(ps)-1:
				dl.AddTextVec2(vec2(float32(x)+handlePx+2, float32(y)-7), rgba(255, 255, 255, 230), fmt.Sprintf("#%d %.0f m", i+1, p[2]))
			}
		}
	}
	if a.tool == toolCurve && a.placing.active {
		x0, y0 := a.mapToScreen(a.placing.x0, a.placing.y0)
		x1, y1 := a.mapToScreen(mx, my)
		dl.AddLineV(vec2(float32(x0), float32(y0)), vec2(float32(x1), float32(y1)), line, 2.5)
	}
}

// vertexHandleWindow is the selected vertex's height field, floating
// beside it on the map (Pin and Curve tools): drag or type a height (one
// undo entry per edit), or remove a curve's vertex.
func (a *App) vertexHandleWindow() {
	if !a.vsel.ok || (a.tool != toolPin && a.tool != toolCurve) || a.vp.w <= 1 {
		return
	}
	h, ok := a.vertexHeight(a.vsel.c, a.vsel.v)
	if !ok {
		a.vsel = vertexSel{}
		return
	}
	vs := a.constraintVertices()
	p := vs[a.vsel.c][a.vsel.v]
	x, y := a.mapToScreen(p[0], p[1])
	if x < float64(a.vp.x) || y < float64(a.vp.y) || x > float64(a.vp.x+a.vp.w) || y > float64(a.vp.y+a.vp.h) {
		return // scrolled off the map
	}
	imgui.SetNextWindowPosV(vec2(float32(x)+handlePx+14, float32(y)+10), imgui.CondAlways, vec2(0, 0))
	flags := imgui.WindowFlagsNoTitleBar | imgui.WindowFlagsAlwaysAutoResize | imgui.WindowFlagsNoSavedSettings | imgui.WindowFlagsNoFocusOnAppearing | imgui.WindowFlagsNoMove
	if imgui.BeginV("##vertex-height", nil, flags) {
		imgui.Text(fmt.Sprintf("#%d vertex %d", a.vsel.c+1, a.vsel.v+1))
		hf := float32(h)
		imgui.SetNextItemWidth(90)
		if imgui.DragFloatV("m##h", &hf, 5, -1e4, 1e4, "%.0f", 0) {
			if err := a.setVertexHeight(a.vsel.c, a.vsel.v, float64(hf), fmt.Sprintf("constraint-height-%d-%d", a.vsel.c, a.vsel.v)); err != nil {
				a.showError("Constraint height", err)
			}
		}
		if len(vs[a.vsel.c]) > 2 {
			imgui.SameLine()
			if noNavButton("Remove") {
				if err := a.deleteVertex(a.vsel.c, a.vsel.v); err != nil {
					a.showError("Remove vertex", err)
				}
				a.vsel = vertexSel{}
			}
		}
		textWrapped("Shift-drag the vertex: height")
	}
	imgui.End()
}

// deleteVertex removes vertex v of curve i (one undo entry); a curve
// keeps at least two.
func (a *App) deleteVertex(i, v int) error {
	cs := a.s.Doc().Scene().Constraints
	if i < 0 || i >= len(cs) {
		return fmt.Errorf("no constraint %d: there are %d", i+1, len(cs))
	}
	c := cs[i].Clone()
	switch {
	case c.Point != nil:
		return fmt.Errorf("constraint %d is a point: delete it instead", i+1)
	case v < 0 || v >= len(c.Curve):
		return fmt.Errorf("curve %d has no vertex %d", i+1, v+1)
	case len(c.Curve) <= 2:
		return fmt.Errorf("curve %d has only two vertices: delete the curve instead", i+1)
	}
	c.Curve = append(c.Curve[:v], c.Curve[v+1:]...)
	if err := a.s.SetConstraint(i, c, ""); err != nil {
		return err
	}
	a.log.add(levelInfo, "removed vertex %d of curve #%d", v+1, i+1)
	return nil
}

// constraintsWindow lists the constraints with their target, current
// height and error, a height handle per vertex and a delete button.
func (a *App) constraintsWindow() {
	if !imgui.Begin(winConstraints) {
		imgui.End()
		return
	}
	st := a.s.Constraints()
	cs := a.s.Doc().Scene().Constraints
	if len(cs) == 0 {
		textWrapped("No elevation constraints. Choose the Pin tool and click the map to hold a height there, or the Curve tool and drag to hold a ridge or a river bed. The simulation then adjusts the uplift until the terrain passes through them.")
	}
	for i := range cs {
		if i >= len(st) {
			break
		}
		imgui.PushIDInt(int32(i))
		s := st[i]
		imgui.SeparatorText(fmt.Sprintf("#%d %s", i+1, s.Kind))
		imgui.Text(fmt.Sprintf("target %.0f m   now %.0f m   error %.0f m", s.Target, s.Current, s.Error))
		for k, p := range cs[i].Points() {
			h := float32(p.H)
			label := "height (m)"
			if cs[i].Point == nil {
				label = fmt.Sprintf("vertex %d height (m)", k+1)
			}
			if imgui.DragFloatV(label, &h, 5, -1e4, 1e4, "%.0f", 0) {
				if err := a.setVertexHeight(i, k, float64(h), fmt.Sprintf("constraint-height-%d-%d", i, k)); err != nil {
					a.showError("Constraint height", err)
				}
			}
		}
		if noNavButton("Delete") {
			if err := a.s.DeleteConstraint(i); err != nil {
				a.showError("Delete constraint", err)
			}
		}
		imgui.PopID()
	}
	imgui.End()
}

// Script forms of the tools, in cells and metres.

func (a *App) pinAction(args []string) error {
	return a.placePin(num(args, 0)+0.5, num(args, 1)+0.5, num(args, 2))
}

func (a *App) curveAction(args []string) error {
	return a.placeCurve(num(args, 0)+0.5, num(args, 1)+0.5, num(args, 2), num(args, 3)+0.5, num(args, 4)+0.5, num(args, 5))
}

func (a *App) unpinAction(args []string) error {
	return a.s.DeleteConstraint(int(num(args, 0)) - 1)
}

// selectVertex selects vertex v of constraint i with the tool that edits
// it (Pin for a point, Curve for a curve), so its handle shows.
func (a *App) selectVertex(i, v int) {
	a.vsel = vertexSel{ok: true, c: i, v: v}
	cs := a.s.Doc().Scene().Constraints
	if i < len(cs) && cs[i].Point != nil {
		a.tool = toolPin
	} else {
		a.tool = toolCurve
	}
}

// vertexHeightAction sets the height of vertex V of constraint N and
// selects it, as the map's height handle does.
func (a *App) vertexHeightAction(args []string) error {
	i, v := int(num(args, 0))-1, int(num(args, 1))-1
	if _, ok := a.vertexHeight(i, v); !ok {
		return fmt.Errorf("no vertex %d of constraint %d", v+1, i+1)
	}
	if err := a.setVertexHeight(i, v, num(args, 2), ""); err != nil {
		return err
	}
	a.selectVertex(i, v)
	a.log.add(levelInfo, "vertex %d of constraint #%d now at %.0f m", v+1, i+1, num(args, 2))
	return nil
}

// insertVertexAction adds a vertex to curve N at the point of its nearest
// segment to cell X Y, as a double click on the curve does.
func (a *App) insertVertexAction(args []string) error {
	i := int(num(args, 0)) - 1
	vs := a.constraintVertices()
	if i < 0 || i >= len(vs) {
		return fmt.Errorf("no constraint %d: there are %d", i+1, len(vs))
	}
	x, y := num(args, 1)+0.5, num(args, 2)+0.5
	best, bk, bt := math.Inf(1), -1, 0.0
	for q := 1; q < len(vs[i]); q++ {
		p, r := vs[i][q-1], vs[i][q]
		dx, dy := r[0]-p[0], r[1]-p[1]
		t := 0.0
		if l2 := dx*dx + dy*dy; l2 > 0 {
			t = min(1, max(0, ((x-p[0])*dx+(y-p[1])*dy)/l2))
		}
		if d := math.Hypot(p[0]+t*dx-x, p[1]+t*dy-y); d < best {
			best, bk, bt = d, q-1, t
		}
	}
	if bk < 0 {
		return fmt.Errorf("constraint %d is a point: only curves take vertices", i+1)
	}
	v, err := a.insertVertex(i, bk, bt)
	if err == nil {
		a.selectVertex(i, v)
	}
	return err
}

// expectVertexAction fails unless vertex V of constraint N stands at H
// metres (within 0.5 m: heights are whole metres from the map's handles).
func (a *App) expectVertexAction(args []string) error {
	i, v, want := int(num(args, 0))-1, int(num(args, 1))-1, num(args, 2)
	h, ok := a.vertexHeight(i, v)
	if !ok {
		return fmt.Errorf("expected vertex %d of constraint %d at %g m: there is no such vertex", v+1, i+1, want)
	}
	if math.Abs(h-want) > 0.5 {
		return fmt.Errorf("expected vertex %d of constraint %d at %g m: it is at %g m", v+1, i+1, want, h)
	}
	return nil
}

func (a *App) deleteVertexAction(args []string) error {
	return a.deleteVertex(int(num(args, 0))-1, int(num(args, 1))-1)
}

func (a *App) movePinAction(args []string) error {
	return a.moveVertex(int(num(args, 0))-1, int(num(args, 1))-1, num(args, 2)+0.5, num(args, 3)+0.5)
}

// regionState is the Region tool's selection and floating paste.
type regionState struct {
	selecting bool
	x0, y0    float64         // map coordinates of the press
	sel       image.Rectangle // the selected cells
	clip      *doc.RegionClip
	floating  bool // a paste follows the cursor until a click commits it
	angle     float64
	scale     float64
	fx, fy    float64 // where the floating paste stands (map coordinates)
}

// regionMouse handles the Region tool: drag selects cells; while a paste
// floats it follows the cursor and a click commits it.
func (a *App) regionMouse(pressed, leftDown bool, mx, my float64) {
	r := &a.region
	if r.floating {
		r.fx, r.fy = mx, my
		if imgui.IsKeyPressedBoolV(imgui.KeyEscape, false) {
			r.floating = false
			return
		}
		if pressed {
			a.commitRegion(mx, my)
		}
		return
	}
	switch {
	case pressed:
		r.selecting, r.x0, r.y0 = true, mx, my
	case leftDown && r.selecting:
		r.sel = cellRect(r.x0, r.y0, mx, my)
	case !leftDown && r.selecting:
		r.selecting = false
		r.sel = cellRect(r.x0, r.y0, mx, my)
	}
}

func cellRect(x0, y0, x1, y1 float64) image.Rectangle {
	return image.Rect(int(math.Floor(min(x0, x1))), int(math.Floor(min(y0, y1))), int(math.Ceil(max(x0, x1))), int(math.Ceil(max(y0, y1))))
}

// copyRegion copies the selected cells of the paint layer.
func (a *App) copyRegion(r image.Rectangle) error {
	c, err := a.s.Doc().CopyRegion(a.s.Doc().PaintLayer(), r)
	if err != nil {
		return err
	}
	a.region.clip = c
	a.log.add(levelInfo, "copied a %d×%d region of layer %q", c.Field.W, c.Field.H, c.Layer)
	return nil
}

// commitRegion pastes the floating region at map point (mx, my).
func (a *App) commitRegion(mx, my float64) {
	r := &a.region
	if err := a.pasteRegionAt(mx, my, r.angle, r.scale); err != nil {
		a.showError("Paste region", err)
		return
	}
	r.floating = false
}

func (a *App) pasteRegionAt(mx, my, angle, scale float64) error {
	if a.region.clip == nil {
		return errors.New("no region copied: select one with the Region tool and copy it (Ctrl+C)")
	}
	if scale == 0 {
		scale = 1
	}
	box, err := a.s.Doc().PasteRegion(a.s.Doc().PaintLayer(), a.region.clip, mx, my, angle, scale)
	if err != nil {
		return err
	}
	a.log.add(levelInfo, "pasted a region over cells %v, turned %.0f°, ×%.2f", box, angle, scale)
	return nil
}

// drawRegion outlines the selection and the floating paste.
func (a *App) drawRegion(dl *imgui.DrawList) {
	r := &a.region
	col := rgba(255, 255, 255, 220)
	if !r.sel.Empty() && a.tool == toolRegion {
		x0, y0 := a.mapToScreen(float64(r.sel.Min.X), float64(r.sel.Min.Y))
		x1, y1 := a.mapToScreen(float64(r.sel.Max.X), float64(r.sel.Max.Y))
		dl.AddRectV(vec2(float32(x0), float32(y0)), vec2(float32(x1), float32(y1)), col, 0, 0, 1.5)
	}
	if r.floating && r.clip != nil {
		hw, hh := float64(r.clip.Field.W)*r.scale/2, float64(r.clip.Field.H)*r.scale/2
		s, c := math.Sincos(r.angle * math.Pi / 180)
		var pts [4]imgui.Vec2
		for k, q := range [4][2]float64{{-hw, -hh}, {hw, -hh}, {hw, hh}, {-hw, hh}} {
			x, y := a.mapToScreen(r.fx+c*q[0]-s*q[1], r.fy+s*q[0]+c*q[1])
			pts[k] = vec2(float32(x), float32(y))
		}
		for k := range pts {
			dl.AddLineV(pts[k], pts[(k+1)%4], rgba(255, 200, 60, 240), 2)
		}
	}
}

// regionPanel is the Region tool's part of the Tools window.
func (a *App) regionPanel() {
	r := &a.region
	textWrapped("Drag on the map to select cells of the paint layer; Copy (Ctrl+C), then Paste (Ctrl+V): the region follows the cursor, turn and scale it here, click the map to commit it (one undo step), Esc to cancel.")
	imgui.BeginDisabledV(r.sel.Empty())
	if imgui.Button("Copy") {
		if err := a.copyRegion(r.sel); err != nil {
			a.showError("Copy region", err)
		}
	}
	imgui.EndDisabled()
	imgui.SameLine()
	imgui.BeginDisabledV(r.clip == nil)
	if imgui.Button("Paste") {
		r.floating = true
	}
	imgui.EndDisabled()
	if r.scale == 0 {
		r.scale = 1
	}
	sliderF64("turn (degrees)", &r.angle, -180, 180, false, "%.0f", "Rotation of the pasted region, clockwise on the map.")
	sliderF64("scale", &r.scale, 0.1, 8, true, "%.2f", "Size of the pasted region.")
	if r.floating && imgui.Button("Cancel paste") {
		r.floating = false
	}
}

func (a *App) copyRegionAction(args []string) error {
	return a.copyRegion(cellRect(num(args, 0), num(args, 1), num(args, 2)+1, num(args, 3)+1))
}

func (a *App) pasteRegionAction(args []string) error {
	angle, scale := 0.0, 1.0
	if len(args) == 4 {
		angle, scale = num(args, 2), num(args, 3)
	}
	return a.pasteRegionAt(num(args, 0)+0.5, num(args, 1)+0.5, angle, scale)
}
