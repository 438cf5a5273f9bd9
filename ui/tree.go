package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/uplifttree"
)

// treeTool is the Uplift Tree panel: the outliner (add, wrap, remove,
// drag a node onto an operator to reparent it) and the selected node's
// parameters. It keeps its widget state; its methods take the narrow
// toolCtx (whose sel is the app's selected node), not the App.
type treeTool struct{ edit treeEdit }

// treeEdit is the Uplift Tree panel's own widget state: the text of list
// parameters being edited, and the node being dragged in the outliner.
type treeEdit struct {
	addType int32
	texts   map[string]string    // "id/param" -> JSON being typed
	pending map[string][]float64 // "id/param" -> numbers being typed
	dragID  uplifttree.ID
}

const dragPayload = "OROGEN_NODE"

// treeWindow is the outliner: the tree with its node types, selection,
// drag-and-drop reparenting, add and remove, then the selected node's
// parameters.
func (tt *treeTool) treeWindow(tc toolCtx) {
	if !imgui.Begin(winTree) {
		imgui.End()
		return
	}
	t := tc.s.Doc().Tree()
	types := uplifttree.AllTypes()
	imgui.SetNextItemWidth(130)
	imgui.ComboStrarr("##addtype", &tt.edit.addType, types, int32(len(types)))
	imgui.SameLine()
	if imgui.Button("Add") {
		tt.addNode(tc, types[tt.edit.addType])
	}
	if imgui.IsItemHovered() {
		tooltip("Adds a node of this type under the selected operator (or beside the selected primitive), placed in the middle of the view.")
	}
	imgui.SameLine()
	_, selOK := t.Node(*tc.sel)
	imgui.BeginDisabledV(!selOK || !uplifttree.IsOperator(types[tt.edit.addType]))
	if imgui.Button("Wrap") {
		tc.do("wrap", types[tt.edit.addType])
	}
	imgui.EndDisabled()
	if imgui.IsItemHoveredV(imgui.HoveredFlagsAllowWhenDisabled) {
		tooltip("Puts a node of this type (an operator) in the place of the selected node, with the selected node as its child: a scale, transform, fold, fault, noise warp or clamp around a subtree, or a group.")
	}
	imgui.SameLine()
	imgui.BeginDisabledV(*tc.sel == 0 || *tc.sel == t.Root())
	if imgui.Button("Remove") {
		if err := tc.s.Doc().RemoveNode(*tc.sel); err != nil {
			tc.fail("Remove node", err)
		} else {
			tc.logf("removed node %d", *tc.sel)
			*tc.sel = 0
		}
	}
	imgui.EndDisabled()
	if imgui.BeginChildStrV("##outline", vec2(0, imgui.ContentRegionAvail().Y*0.45), imgui.ChildFlagsBorders, 0) {
		if t.Root() != 0 {
			tt.outlineNode(tc, t, t.Root(), 0)
		}
	}
	imgui.EndChild()
	tt.nodeProperties(tc, t)
	imgui.End()
}

func (tt *treeTool) outlineNode(tc toolCtx, t *uplifttree.Tree, id uplifttree.ID, depth int) {
	n, ok := t.Node(id)
	if !ok || depth > 64 {
		return
	}
	flags := imgui.TreeNodeFlagsOpenOnArrow | imgui.TreeNodeFlagsDefaultOpen | imgui.TreeNodeFlagsSpanAvailWidth
	if len(n.Children) == 0 {
		flags |= imgui.TreeNodeFlagsLeaf
	}
	if id == *tc.sel {
		flags |= imgui.TreeNodeFlagsSelected
	}
	label := fmt.Sprintf("%s  #%d%s###node%d", n.Shape.Type(), id, nodeNote(n.Shape), id)
	open := imgui.TreeNodeExStrV(label, flags)
	if imgui.IsItemClicked() && !imgui.IsItemToggledOpen() {
		*tc.sel = id
	}
	// Drag a node onto an operator to reparent it there.
	if id != t.Root() && imgui.BeginDragDropSource() {
		tt.edit.dragID = id
		imgui.SetDragDropPayload(dragPayload, 0, 0)
		imgui.TextUnformatted(fmt.Sprintf("move %s #%d", n.Shape.Type(), id))
		imgui.EndDragDropSource()
	}
	if imgui.BeginDragDropTarget() {
		if p := imgui.AcceptDragDropPayload(dragPayload); p != nil && p.CData != nil && tt.edit.dragID != 0 {
			from := tt.edit.dragID
			tt.edit.dragID = 0
			if err := tc.s.Doc().MoveNode(from, id, -1); err != nil {
				tc.fail("Move node", err)
			} else {
				tc.logf("moved node %d under node %d", from, id)
			}
		}
		imgui.EndDragDropTarget()
	}
	if open {
		for _, c := range n.Children {
			tt.outlineNode(tc, t, c, depth+1)
		}
		imgui.TreePop()
	}
}

// nodeNote adds a short hint to an outliner line: a raster's layer name.
func nodeNote(s uplifttree.Shape) string {
	if r, ok := s.(*uplifttree.Raster); ok {
		return "  \"" + r.Layer + "\""
	}
	return ""
}

// addNode adds a node of type typ with usable defaults, sized to the view.
func (tt *treeTool) addNode(tc toolCtx, typ string) {
	t := tc.s.Doc().Tree()
	parent, index := t.Root(), -1
	if *tc.sel != 0 {
		if n, ok := t.Node(*tc.sel); ok && uplifttree.IsOperator(n.Shape.Type()) {
			parent = *tc.sel
		} else if p := t.Parent(*tc.sel); p != 0 {
			parent = p
		}
	}
	cx, cy, size := tc.centreX, tc.centreY, tc.viewSize/4
	if !(size > 0) {
		size = tc.s.Doc().Scene().DomainM / 8
	}
	s := newShapeAt(typ, cx, cy, size, *tc.sel)
	id, err := tc.s.Doc().AddNode(parent, index, s)
	if err != nil {
		tc.fail("Add "+typ, err)
		return
	}
	*tc.sel = id
	tc.logf("added %s #%d under #%d", typ, id, parent)
}

// wrapNode puts a new operator of type typ in the place of the selected
// node, with the selected node as its only child (one undo step), and
// selects it. Its geometry (a fold's wavelength, a fault's point, a mix's
// gradient) is sized to the selected node's bounds, else to the view.
func (tt *treeTool) wrapNode(tc toolCtx, args []string) error {
	typ := args[0]
	t := tc.s.Doc().Tree()
	if _, ok := t.Node(*tc.sel); !ok {
		return errors.New("select a node of the Uplift Tree to wrap")
	}
	if !uplifttree.IsOperator(typ) {
		return fmt.Errorf("a %s cannot wrap a node: choose an operator (%s)", typ, strings.Join(wrapTypes(), ", "))
	}
	cx, cy, size := tc.centreX, tc.centreY, tc.viewSize/4
	if b := t.Bounds(*tc.sel); !b.IsEmpty() && !math.IsInf(b.X1-b.X0, 0) && !math.IsInf(b.Y1-b.Y0, 0) && b.X1 > b.X0 && b.Y1 > b.Y0 {
		cx, cy = (b.X0+b.X1)/2, (b.Y0+b.Y1)/2
		size = math.Max(b.X1-b.X0, b.Y1-b.Y0) / 2
	}
	if !(size > 0) || math.IsInf(size, 0) {
		size = tc.s.Doc().Scene().DomainM / 8
	}
	child := *tc.sel
	id, err := tc.s.Doc().WrapNode(child, newShapeAt(typ, cx, cy, size, child))
	if err != nil {
		return err
	}
	*tc.sel = id
	tc.logf("wrapped node %d in %s #%d", child, typ, id)
	return nil
}

// wrapTypes are the node types that can wrap a node: the operators.
func wrapTypes() []string {
	var out []string
	for _, typ := range uplifttree.AllTypes() {
		if uplifttree.IsOperator(typ) {
			out = append(out, typ)
		}
	}
	return out
}

// nodeProperties edits the selected node's parameters. Each committed
// change is one undo step.
func (tt *treeTool) nodeProperties(tc toolCtx, t *uplifttree.Tree) {
	n, ok := t.Node(*tc.sel)
	if !ok {
		textDisabled("Select a node to edit it.")
		return
	}
	imgui.SeparatorText(fmt.Sprintf("%s #%d", n.Shape.Type(), *tc.sel))
	if n.Shape.Type() == uplifttree.TypeMix {
		if len(n.Children) == 3 {
			textWrapped("Blends the first two children through the third, the mask (its value clamped to [0, 1]: 0 keeps the first, 1 the second); a and b are not used.")
		} else {
			textWrapped("Blends the first two children from a (the first) to b (the second). Add a third child, the mask, to blend through it instead: a Raster of a painted layer or an image, or any shape.")
		}
	}
	for _, p := range uplifttree.Params(n.Shape.Type()) {
		v, err := t.Param(*tc.sel, p.Name)
		if err != nil {
			continue
		}
		imgui.PushIDStr(p.Name)
		tt.paramWidget(tc, p, v)
		imgui.PopID()
	}
}

func (tt *treeTool) paramWidget(tc toolCtx, p uplifttree.ParamInfo, v any) {
	set := func(nv any) {
		if err := tc.s.Doc().SetNodeParam(*tc.sel, p.Name, nv); err != nil {
			tc.fail("Set "+p.Name, err)
		}
	}
	key := fmt.Sprintf("%d/%s", *tc.sel, p.Name)
	switch x := v.(type) {
	case float64:
		f := tt.pendingOr(key, []float64{x})
		if imgui.InputDoubleV(p.Name, &f[0], 0, 0, "%.6g", 0) {
			tt.edit.pending[key] = f
		}
		if tt.commitPending(tc, key) && f[0] != x {
			set(f[0])
		}
	case int:
		f := tt.pendingOr(key, []float64{float64(x)})
		i := int32(f[0])
		if imgui.InputIntV(p.Name, &i, 1, 10, 0) {
			tt.edit.pending[key] = []float64{float64(i)}
		}
		if tt.commitPending(tc, key) && int(i) != x {
			set(int(i))
		}
	case uint64:
		s := strconv.FormatUint(x, 10)
		if imgui.InputTextWithHint(p.Name, "seed", &s, imgui.InputTextFlagsEnterReturnsTrue|imgui.InputTextFlagsCharsDecimal, nil) {
			if u, err := strconv.ParseUint(s, 10, 64); err == nil && u != x {
				set(u)
			}
		}
	case uplifttree.Point:
		f := tt.pendingOr(key, []float64{x.X, x.Y})
		v := [2]float32{float32(f[0]), float32(f[1])}
		if imgui.InputFloat2V(p.Name+" (m)", &v, "%.1f", 0) {
			tt.edit.pending[key] = []float64{float64(v[0]), float64(v[1])}
		}
		if tt.commitPending(tc, key) {
			set(uplifttree.Point{X: float64(v[0]), Y: float64(v[1])})
		}
	case uplifttree.Rect:
		f := tt.pendingOr(key, []float64{x.X0, x.Y0, x.X1, x.Y1})
		v := [4]float32{float32(f[0]), float32(f[1]), float32(f[2]), float32(f[3])}
		if imgui.InputFloat4V(p.Name+" (m)", &v, "%.1f", 0) {
			tt.edit.pending[key] = []float64{float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3])}
		}
		if tt.commitPending(tc, key) {
			set(uplifttree.Rect{X0: float64(v[0]), Y0: float64(v[1]), X1: float64(v[2]), Y1: float64(v[3])})
		}
	case string:
		s := x
		if imgui.InputTextWithHint(p.Name, "", &s, imgui.InputTextFlagsEnterReturnsTrue, nil) && s != x {
			set(s)
		}
	case uplifttree.ID:
		f := tt.pendingOr(key, []float64{float64(x)})
		i := int32(f[0])
		if imgui.InputIntV(p.Name+" (node)", &i, 1, 10, 0) {
			tt.edit.pending[key] = []float64{float64(i)}
		}
		if tt.commitPending(tc, key) && uplifttree.ID(i) != x {
			set(uplifttree.ID(i))
		}
	default:
		// Lists (control points, vertices, polygons) edit as JSON.
		tt.jsonParam(tc, p, v, set)
	}
}

// Numeric fields edit a pending copy while they are active and commit it
// when they are left (Enter, Tab or a click elsewhere): one undo step per
// edit, not per keystroke.

// pendingOr returns the pending values of key, or def.
func (tt *treeTool) pendingOr(key string, def []float64) []float64 {
	if tt.edit.pending == nil {
		tt.edit.pending = map[string][]float64{}
	}
	if v, ok := tt.edit.pending[key]; ok {
		return v
	}
	return def
}

// commitPending reports whether the last item was just left after an edit,
// and forgets its pending values either way once it is inactive.
func (tt *treeTool) commitPending(tc toolCtx, key string) bool {
	if imgui.IsItemDeactivatedAfterEdit() {
		delete(tt.edit.pending, key)
		return true
	}
	if !imgui.IsItemActive() {
		delete(tt.edit.pending, key)
	}
	return false
}

// jsonParam edits a list parameter as JSON text, applied with Enter.
func (tt *treeTool) jsonParam(tc toolCtx, p uplifttree.ParamInfo, v any, set func(any)) {
	key := fmt.Sprintf("%d/%s", *tc.sel, p.Name)
	if tt.edit.texts == nil {
		tt.edit.texts = map[string]string{}
	}
	s, ok := tt.edit.texts[key]
	if !ok {
		b, _ := json.Marshal(v)
		s = string(b)
	}
	imgui.TextUnformatted(p.Name + " (" + p.Type.String() + ", JSON; Enter applies)")
	if imgui.InputTextMultiline("##"+p.Name, &s, vec2(-1, 70), imgui.InputTextFlagsCtrlEnterForNewLine|imgui.InputTextFlagsEnterReturnsTrue, nil) {
		delete(tt.edit.texts, key)
		nv, err := decodeParam(p.Type, s)
		if err != nil {
			tc.fail("Set "+p.Name, err)
			return
		}
		set(nv)
		return
	}
	tt.edit.texts[key] = s
	if !imgui.IsItemActive() {
		delete(tt.edit.texts, key)
	}
}

// decodeParam reads a list parameter typed as JSON.
func decodeParam(t uplifttree.ParamType, s string) (any, error) {
	var err error
	switch t {
	case uplifttree.ParamCtrls:
		var v []struct{ T, R, U float64 }
		if err = json.Unmarshal([]byte(s), &v); err == nil {
			out := make([]uplifttree.Ctrl, len(v))
			for i, c := range v {
				out[i] = uplifttree.Ctrl{T: c.T, R: c.R, U: c.U}
			}
			return out, nil
		}
	case uplifttree.ParamVertices:
		var v []struct{ X, Y, R, U float64 }
		if err = json.Unmarshal([]byte(s), &v); err == nil {
			out := make([]uplifttree.Vertex, len(v))
			for i, c := range v {
				out[i] = uplifttree.Vertex{X: c.X, Y: c.Y, R: c.R, U: c.U}
			}
			return out, nil
		}
	case uplifttree.ParamPoints:
		var v []struct{ X, Y float64 }
		if err = json.Unmarshal([]byte(s), &v); err == nil {
			out := make([]uplifttree.Point, len(v))
			for i, c := range v {
				out[i] = uplifttree.Point{X: c.X, Y: c.Y}
			}
			return out, nil
		}
	default:
		return nil, fmt.Errorf("cannot edit a %v parameter as text", t)
	}
	return nil, fmt.Errorf("not valid JSON for a %v list: %v", t, err)
}

// newShapeAt is the shape the tree panel adds: uplifttree.NewShapeAt (typ
// comes from uplifttree.AllTypes).
func newShapeAt(typ string, cx, cy, size float64, ref uplifttree.ID) uplifttree.Shape {
	s, _ := uplifttree.NewShapeAt(typ, cx, cy, size, ref)
	return s
}

// wrapNode is the `wrap` action: the tree tool's wrapNode.
func (a *App) wrapNode(args []string) error { return a.tree.wrapNode(a.toolCtx(), args) }
