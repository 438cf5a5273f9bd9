package ui

import (
	"errors"
	"fmt"
	"math"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/scene"
)

// winConstraints lists the elevation constraints (package constrain).
const winConstraints = "Constraints"

// constraintTool is the Pin and Curve tools: elevation constraints placed,
// dragged, raised and edited on the map, and the Constraints window. It
// keeps its own state; its methods take the narrow toolCtx, not the App.
type constraintTool struct {
	drag    vertexDrag
	sel     vertexSel
	seq     int       // height drags so far: each is its own undo entry
	placing placement // a curve being drawn
}

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
func (ct *constraintTool) constraintVertices(tc toolCtx) [][][3]float64 {
	c := tc.cell
	cs := tc.s.Doc().Scene().Constraints
	out := make([][][3]float64, len(cs))
	for i, k := range cs {
		for _, p := range k.Points() {
			out[i] = append(out[i], [3]float64{p.X / c, p.Y / c, p.H})
		}
	}
	return out
}

// vertexAt returns the constraint vertex under screen point (sx, sy).
func (ct *constraintTool) vertexAt(tc toolCtx, sx, sy float64) (c, v int, ok bool) {
	for i, vs := range ct.constraintVertices(tc) {
		for k, p := range vs {
			x, y := tc.toScreen(p[0], p[1])
			if math.Hypot(x-sx, y-sy) <= handlePx+3 {
				return i, k, true
			}
		}
	}
	return 0, 0, false
}

// heightAt is the terrain height under map point (mx, my) in the newest
// snapshot, metres (0 off the grid).
func (ct *constraintTool) heightAt(tc toolCtx, mx, my float64) float64 {
	sn := tc.s.Frame().Snap
	x, y := int(math.Floor(mx)), int(math.Floor(my))
	if x < 0 || y < 0 || x >= sn.W || y >= sn.H || len(sn.Height) != sn.W*sn.H {
		return 0
	}
	return float64(sn.Height[y*sn.W+x])
}

// placePin adds a point constraint at map point (mx, my) at height h, or
// at the terrain's height there when h is NaN.
func (ct *constraintTool) placePin(tc toolCtx, mx, my, h float64) error {
	if math.IsNaN(h) {
		h = math.Round(ct.heightAt(tc, mx, my))
	}
	c := tc.cell
	if err := tc.s.AddConstraint(scene.NewPoint(mx*c, my*c, h)); err != nil {
		return err
	}
	tc.logf("pinned %.0f m at cell (%.0f, %.0f)", h, math.Floor(mx), math.Floor(my))
	return nil
}

// placeCurve adds a two-vertex curve constraint between map points, at
// heights h0 and h1 (NaN: the terrain's there).
func (ct *constraintTool) placeCurve(tc toolCtx, x0, y0, h0, x1, y1, h1 float64) error {
	if math.Hypot(x1-x0, y1-y0) < 1 {
		return errors.New("drag farther to draw a curve constraint")
	}
	if math.IsNaN(h0) {
		h0 = math.Round(ct.heightAt(tc, x0, y0))
	}
	if math.IsNaN(h1) {
		h1 = math.Round(ct.heightAt(tc, x1, y1))
	}
	c := tc.cell
	k := scene.Constraint{Curve: [][]float64{{x0 * c, y0 * c, h0}, {x1 * c, y1 * c, h1}}}
	if err := tc.s.AddConstraint(k); err != nil {
		return err
	}
	tc.logf("drew a curve constraint from %.0f m to %.0f m", h0, h1)
	return nil
}

// moveVertex moves vertex v of constraint i to map point (mx, my), keeping
// its height: one undo entry.
func (ct *constraintTool) moveVertex(tc toolCtx, i, v int, mx, my float64) error {
	cs := tc.s.Doc().Scene().Constraints
	if i < 0 || i >= len(cs) {
		return fmt.Errorf("no constraint %d: there are %d", i, len(cs))
	}
	k := cs[i].Clone()
	c := tc.cell
	switch {
	case k.Point != nil && v == 0:
		k.Point[0], k.Point[1] = mx*c, my*c
	case v >= 0 && v < len(k.Curve):
		k.Curve[v][0], k.Curve[v][1] = mx*c, my*c
	default:
		return fmt.Errorf("constraint %d has no vertex %d", i, v)
	}
	return tc.s.SetConstraint(i, k, "")
}

// setVertexHeight sets the height of vertex v of constraint i; merge joins
// a slider drag's changes into one undo entry.
func (ct *constraintTool) setVertexHeight(tc toolCtx, i, v int, h float64, merge string) error {
	cs := tc.s.Doc().Scene().Constraints
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
	return tc.s.SetConstraint(i, k, merge)
}

// vertexHeight returns the height of vertex v of constraint i.
func (ct *constraintTool) vertexHeight(tc toolCtx, i, v int) (float64, bool) {
	cs := tc.s.Doc().Scene().Constraints
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
func (ct *constraintTool) segmentAt(tc toolCtx, sx, sy float64) (i, k int, t float64, ok bool) {
	best := handlePx + 3.0
	for ci, vs := range ct.constraintVertices(tc) {
		for q := 1; q < len(vs); q++ {
			x0, y0 := tc.toScreen(vs[q-1][0], vs[q-1][1])
			x1, y1 := tc.toScreen(vs[q][0], vs[q][1])
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
func (ct *constraintTool) insertVertex(tc toolCtx, i, k int, t float64) (int, error) {
	cs := tc.s.Doc().Scene().Constraints
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
	if err := tc.s.SetConstraint(i, c, ""); err != nil {
		return 0, err
	}
	tc.logf("added vertex %d to curve #%d at %.0f m", k+2, i+1, v[2])
	return k + 1, nil
}

// constraintMouse handles the pin and curve tools in the viewport: a
// press on a vertex selects it and drags it (one undo entry on release),
// or with Shift drags its height up and down (MetresPerPixel, one undo
// entry per drag); a double click on a curve adds a vertex there;
// elsewhere the pin tool pins the terrain's height and the curve tool
// draws a curve from press to release.
func (ct *constraintTool) constraintMouse(tc toolCtx, pressed, leftDown bool, sx, sy, mx, my float64) {
	switch {
	case pressed:
		if c, v, ok := ct.vertexAt(tc, sx, sy); ok {
			ct.sel = vertexSel{ok: true, c: c, v: v}
			ct.drag = vertexDrag{active: true, c: c, v: v, x: mx, y: my, px: mx, py: my}
			if imgui.CurrentIO().KeyShift() {
				h, _ := ct.vertexHeight(tc, c, v)
				ct.seq++
				ct.drag.height, ct.drag.sy0, ct.drag.h0 = true, sy, h
				ct.drag.merge = fmt.Sprintf("constraint-height-drag-%d", ct.seq)
			}
			return
		}
		if imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) {
			if c, k, t, ok := ct.segmentAt(tc, sx, sy); ok {
				ct.placing.active = false
				v, err := ct.insertVertex(tc, c, k, t)
				if err != nil {
					tc.fail("Add vertex", err)
					return
				}
				ct.sel = vertexSel{ok: true, c: c, v: v}
				return
			}
		}
		ct.sel = vertexSel{}
		if tc.tool == toolPin {
			if err := ct.placePin(tc, mx, my, math.NaN()); err != nil {
				tc.fail("Pin", err)
			}
			return
		}
		ct.placing = placement{active: true, x0: mx, y0: my}
	case leftDown && ct.drag.active && ct.drag.height:
		h := math.Round(ct.drag.h0 + (ct.drag.sy0-sy)*MetresPerPixel)
		if old, ok := ct.vertexHeight(tc, ct.drag.c, ct.drag.v); ok && old != h {
			if err := ct.setVertexHeight(tc, ct.drag.c, ct.drag.v, h, ct.drag.merge); err != nil {
				ct.drag.active = false
				tc.fail("Constraint height", err)
			}
		}
	case leftDown && ct.drag.active:
		ct.drag.x, ct.drag.y = mx, my
	case !leftDown && ct.drag.active:
		ct.drag.active = false
		if ct.drag.height {
			if h, ok := ct.vertexHeight(tc, ct.drag.c, ct.drag.v); ok && h != ct.drag.h0 {
				tc.logf("vertex %d of constraint #%d now at %.0f m", ct.drag.v+1, ct.drag.c+1, h)
			}
			return
		}
		if mx == ct.drag.px && my == ct.drag.py {
			return // a click: the vertex is selected, not moved
		}
		if err := ct.moveVertex(tc, ct.drag.c, ct.drag.v, mx, my); err != nil {
			tc.fail("Move constraint", err)
		}
	case !leftDown && ct.placing.active:
		ct.placing.active = false
		if err := ct.placeCurve(tc, ct.placing.x0, ct.placing.y0, math.NaN(), mx, my, math.NaN()); err != nil {
			tc.logf("%v", err)
		}
	}
}

// drawConstraints draws pins and curves with their targets.
func (ct *constraintTool) drawConstraints(tc toolCtx, dl *imgui.DrawList, mx, my float64) {
	vs := ct.constraintVertices(tc)
	if ct.drag.active && ct.drag.c < len(vs) && ct.drag.v < len(vs[ct.drag.c]) {
		vs[ct.drag.c][ct.drag.v][0], vs[ct.drag.c][ct.drag.v][1] = ct.drag.x, ct.drag.y
	}
	line, fill, dark := rgba(120, 220, 255, 230), rgba(40, 160, 220, 255), rgba(0, 0, 0, 160)
	for i, ps := range vs {
		for k := 1; k < len(ps); k++ {
			x0, y0 := tc.toScreen(ps[k-1][0], ps[k-1][1])
			x1, y1 := tc.toScreen(ps[k][0], ps[k][1])
			dl.AddLineV(vec2(float32(x0), float32(y0)), vec2(float32(x1), float32(y1)), line, 2.5)
		}
		selected := ct.sel.ok && ct.sel.c == i
		for k, p := range ps {
			x, y := tc.toScreen(p[0], p[1])
			dl.AddCircleFilled(vec2(float32(x), float32(y)), handlePx, fill)
			dl.AddCircleV(vec2(float32(x), float32(y)), handlePx, dark, 0, 1.5)
			switch {
			case selected && k == ct.sel.v:
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
	if tc.tool == toolCurve && ct.placing.active {
		x0, y0 := tc.toScreen(ct.placing.x0, ct.placing.y0)
		x1, y1 := tc.toScreen(mx, my)
		dl.AddLineV(vec2(float32(x0), float32(y0)), vec2(float32(x1), float32(y1)), line, 2.5)
	}
}

// vertexHandleWindow is the selected vertex's height field, floating
// beside it on the map (Pin and Curve tools): drag or type a height (one
// undo entry per edit), or remove a curve's vertex.
func (ct *constraintTool) vertexHandleWindow(tc toolCtx) {
	if !ct.sel.ok || (tc.tool != toolPin && tc.tool != toolCurve) || tc.vp.w <= 1 {
		return
	}
	h, ok := ct.vertexHeight(tc, ct.sel.c, ct.sel.v)
	if !ok {
		ct.sel = vertexSel{}
		return
	}
	vs := ct.constraintVertices(tc)
	p := vs[ct.sel.c][ct.sel.v]
	x, y := tc.toScreen(p[0], p[1])
	if x < float64(tc.vp.x) || y < float64(tc.vp.y) || x > float64(tc.vp.x+tc.vp.w) || y > float64(tc.vp.y+tc.vp.h) {
		return // scrolled off the map
	}
	imgui.SetNextWindowPosV(vec2(float32(x)+handlePx+14, float32(y)+10), imgui.CondAlways, vec2(0, 0))
	flags := imgui.WindowFlagsNoTitleBar | imgui.WindowFlagsAlwaysAutoResize | imgui.WindowFlagsNoSavedSettings | imgui.WindowFlagsNoFocusOnAppearing | imgui.WindowFlagsNoMove
	if imgui.BeginV("##vertex-height", nil, flags) {
		imgui.Text(fmt.Sprintf("#%d vertex %d", ct.sel.c+1, ct.sel.v+1))
		hf := float32(h)
		imgui.SetNextItemWidth(90)
		if imgui.DragFloatV("m##h", &hf, 5, -1e4, 1e4, "%.0f", 0) {
			if err := ct.setVertexHeight(tc, ct.sel.c, ct.sel.v, float64(hf), fmt.Sprintf("constraint-height-%d-%d", ct.sel.c, ct.sel.v)); err != nil {
				tc.fail("Constraint height", err)
			}
		}
		if len(vs[ct.sel.c]) > 2 {
			imgui.SameLine()
			if noNavButton("Remove") {
				if err := ct.deleteVertex(tc, ct.sel.c, ct.sel.v); err != nil {
					tc.fail("Remove vertex", err)
				}
				ct.sel = vertexSel{}
			}
		}
		textWrapped("Shift-drag the vertex: height")
	}
	imgui.End()
}

// deleteVertex removes vertex v of curve i (one undo entry); a curve
// keeps at least two.
func (ct *constraintTool) deleteVertex(tc toolCtx, i, v int) error {
	cs := tc.s.Doc().Scene().Constraints
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
	if err := tc.s.SetConstraint(i, c, ""); err != nil {
		return err
	}
	tc.logf("removed vertex %d of curve #%d", v+1, i+1)
	return nil
}

// constraintsWindow lists the constraints with their target, current
// height and error, a height handle per vertex and a delete button.
func (ct *constraintTool) constraintsWindow(tc toolCtx) {
	if !imgui.Begin(winConstraints) {
		imgui.End()
		return
	}
	st := tc.s.Constraints()
	cs := tc.s.Doc().Scene().Constraints
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
				if err := ct.setVertexHeight(tc, i, k, float64(h), fmt.Sprintf("constraint-height-%d-%d", i, k)); err != nil {
					tc.fail("Constraint height", err)
				}
			}
		}
		if noNavButton("Delete") {
			if err := tc.s.DeleteConstraint(i); err != nil {
				tc.fail("Delete constraint", err)
			}
		}
		imgui.PopID()
	}
	imgui.End()
}

// Script forms of the tools, in cells and metres.

func (a *App) pinAction(args []string) error {
	return a.cons.placePin(a.toolCtx(), num(args, 0)+0.5, num(args, 1)+0.5, num(args, 2))
}

func (a *App) curveAction(args []string) error {
	return a.cons.placeCurve(a.toolCtx(), num(args, 0)+0.5, num(args, 1)+0.5, num(args, 2), num(args, 3)+0.5, num(args, 4)+0.5, num(args, 5))
}

func (a *App) unpinAction(args []string) error {
	return a.s.DeleteConstraint(int(num(args, 0)) - 1)
}

// selectVertex selects vertex v of constraint i with the tool that edits
// it (Pin for a point, Curve for a curve), so its handle shows.
func (ct *constraintTool) selectVertex(tc toolCtx, i, v int) {
	ct.sel = vertexSel{ok: true, c: i, v: v}
	cs := tc.s.Doc().Scene().Constraints
	if i < len(cs) && cs[i].Point != nil {
		tc.setTool(toolPin)
	} else {
		tc.setTool(toolCurve)
	}
}

// vertexHeightAction sets the height of vertex V of constraint N and
// selects it, as the map's height handle does.
func (a *App) vertexHeightAction(args []string) error {
	i, v := int(num(args, 0))-1, int(num(args, 1))-1
	if _, ok := a.cons.vertexHeight(a.toolCtx(), i, v); !ok {
		return fmt.Errorf("no vertex %d of constraint %d", v+1, i+1)
	}
	if err := a.cons.setVertexHeight(a.toolCtx(), i, v, num(args, 2), ""); err != nil {
		return err
	}
	a.cons.selectVertex(a.toolCtx(), i, v)
	a.log.add(levelInfo, "vertex %d of constraint #%d now at %.0f m", v+1, i+1, num(args, 2))
	return nil
}

// insertVertexAction adds a vertex to curve N at the point of its nearest
// segment to cell X Y, as a double click on the curve does.
func (a *App) insertVertexAction(args []string) error {
	i := int(num(args, 0)) - 1
	vs := a.cons.constraintVertices(a.toolCtx())
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
	v, err := a.cons.insertVertex(a.toolCtx(), i, bk, bt)
	if err == nil {
		a.cons.selectVertex(a.toolCtx(), i, v)
	}
	return err
}

// expectVertexAction fails unless vertex V of constraint N stands at H
// metres (within 0.5 m: heights are whole metres from the map's handles).
func (a *App) expectVertexAction(args []string) error {
	i, v, want := int(num(args, 0))-1, int(num(args, 1))-1, num(args, 2)
	h, ok := a.cons.vertexHeight(a.toolCtx(), i, v)
	if !ok {
		return fmt.Errorf("expected vertex %d of constraint %d at %g m: there is no such vertex", v+1, i+1, want)
	}
	if math.Abs(h-want) > 0.5 {
		return fmt.Errorf("expected vertex %d of constraint %d at %g m: it is at %g m", v+1, i+1, want, h)
	}
	return nil
}

func (a *App) deleteVertexAction(args []string) error {
	return a.cons.deleteVertex(a.toolCtx(), int(num(args, 0))-1, int(num(args, 1))-1)
}

func (a *App) movePinAction(args []string) error {
	return a.cons.moveVertex(a.toolCtx(), int(num(args, 0))-1, int(num(args, 1))-1, num(args, 2)+0.5, num(args, 3)+0.5)
}
