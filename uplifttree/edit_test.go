package uplifttree

import (
	"bytes"
	"image"
	"math/rand/v2"
	"strings"
	"testing"

	"orogen/sim"
)

// TestDirtyRect makes random edits of every kind on random trees and checks
// that re-rasterizing only the cells of the edit's dirty rectangle turns
// the raster of the old tree into the raster of the new one, byte for byte
// (and the same for Undo and Redo).
func TestDirtyRect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	layers := testLayers()
	const n = 40
	steps := 50
	if testing.Short() {
		steps = 10
	}
	bounded := map[string][2]int{}
	for k := range 3 {
		tr := randTree(t, r, 80)
		cur := raster(tr, n, layers)
		for step := range steps {
			e, kind := randEdit(t, r, tr)
			c := bounded[kind]
			c[1]++
			if e.Dirty().Union(Rect{0, 0, world, world}) != Everywhere {
				c[0]++
			}
			bounded[kind] = c
			for _, dir := range []string{"edit", "undo", "redo"} {
				switch dir {
				case "undo":
					if err := e.Undo(tr); err != nil {
						t.Fatal(err)
					}
				case "redo":
					if err := e.Redo(tr); err != nil {
						t.Fatal(err)
					}
				}
				want := raster(tr, n, layers)
				tr.RasterizeRect(cur, Domain(cur), CellRect(cur, Domain(cur), e.Dirty()), layers)
				if i := firstDiff(cur, want); i >= 0 {
					t.Fatalf("tree %d step %d (%s, %s of node %d, dirty %v): cell (%d, %d) is %v after the dirty update; want %v",
						k, step, kind, dir, e.Node(), e.Dirty(), i%n, i/n, cur.Data[i], want.Data[i])
				}
			}
		}
	}
	for kind, c := range bounded {
		t.Logf("%-8s %3d of %3d dirty rectangles bounded", kind, c[0], c[1])
	}
}

// TestDirtyRectSmall checks that small edits of a big tree give small dirty
// rectangles: moving a disc in the root sum dirties its old and new boxes
// only, adding one to a max of primitives only its box.
func TestDirtyRectSmall(t *testing.T) {
	tr := benchTree(rand.New(rand.NewPCG(1, 1)), 200)
	disc := ID(0)
	for _, id := range tr.IDs() {
		if _, ok := tr.nodes[id].shape.(*Disc); ok {
			disc = id
			break
		}
	}
	c0 := tr.nodes[disc].shape.(*Disc).Center
	rad := tr.nodes[disc].shape.(*Disc).Radius
	e, err := tr.SetParam(disc, "center", Point{c0.X + 100, c0.Y})
	if err != nil {
		t.Fatal(err)
	}
	want := around(c0, rad).Union(around(Point{c0.X + 100, c0.Y}, rad))
	if d := e.Dirty(); d.X0 > want.X0 || d.X1 < want.X1 || d.X1-d.X0 > want.X1-want.X0+1 || d.Y1-d.Y0 > want.Y1-want.Y0+1 {
		t.Errorf("moving disc %d: dirty %v; want about %v", disc, d, want)
	}
	// The ranges group (node 3, under the min of node 2) is a max of
	// primitives that are all ≥ 0.
	maxID := ID(3)
	add := &Disc{Center: Point{5000, 5000}, Radius: 300, Value: 1}
	e, err = tr.Add(maxID, 0, add)
	if err != nil {
		t.Fatal(err)
	}
	if d := e.Dirty(); d.X1-d.X0 > 601 || d.Y1-d.Y0 > 601 {
		t.Errorf("adding a disc of radius 300 to max %d: dirty %v; want a 600 m square", maxID, d)
	}
}

// TestUndoRedo checks that undo → redo → undo restores the exact JSON
// bytes and raster bytes of each state, over a chain of random edits
// undone in reverse order.
func TestUndoRedo(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	layers := testLayers()
	tr := randTree(t, r, 100)
	type state struct {
		json, raster []byte
	}
	snap := func() state {
		return state{mustJSON(t, tr), fieldBytes(raster(tr, 40, layers))}
	}
	states := []state{snap()}
	var edits []*Edit
	for range 40 {
		e, _ := randEdit(t, r, tr)
		edits = append(edits, e)
		states = append(states, snap())
	}
	check := func(i int, what string) {
		t.Helper()
		got := snap()
		if !bytes.Equal(got.json, states[i].json) {
			t.Fatalf("%s: JSON differs from state %d", what, i)
		}
		if !bytes.Equal(got.raster, states[i].raster) {
			t.Fatalf("%s: raster differs from state %d", what, i)
		}
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		if err := e.Undo(tr); err != nil {
			t.Fatal(err)
		}
		check(i, "undo")
		if err := e.Redo(tr); err != nil {
			t.Fatal(err)
		}
		check(i+1, "redo")
		if err := e.Undo(tr); err != nil {
			t.Fatal(err)
		}
		check(i, "undo again")
	}
	// Out of order: redoing the last edit now is refused and harmless.
	if err := edits[len(edits)-1].Redo(tr); err == nil {
		t.Error("redo out of order: got no error")
	}
	check(0, "refused redo")
	// A round trip through JSON keeps IDs, and new IDs are never reused.
	u, err := Unmarshal(states[0].json)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustJSON(t, u), states[0].json) {
		t.Error("round trip changed the JSON")
	}
}

// TestEditErrors checks that impossible edits are refused with an error
// naming the problem and leave the tree as it was.
func TestEditErrors(t *testing.T) {
	tr := New()
	mustAdd := func(parent ID, s Shape) ID {
		t.Helper()
		e, err := tr.Add(parent, -1, s)
		if err != nil {
			t.Fatal(err)
		}
		return e.Node()
	}
	disc := mustAdd(1, &Disc{Center: Point{1, 2}, Radius: 3, Value: 1})
	grp := mustAdd(1, &Max{})
	inst := mustAdd(1, &Instance{Ref: grp, Frame: Identity})
	e, err := tr.Wrap(disc, &Transform{Frame: Identity})
	if err != nil {
		t.Fatal(err)
	}
	tf := e.Node()
	before := mustJSON(t, tr)
	cases := []struct {
		name string
		edit func() (*Edit, error)
		want string
	}{
		{"remove root", func() (*Edit, error) { return tr.Remove(1) }, "root cannot be removed"},
		{"remove only child", func() (*Edit, error) { return tr.Remove(disc) }, "takes exactly 1 child, got 0"},
		{"remove referenced", func() (*Edit, error) { return tr.Remove(grp) }, "referenced by instance"},
		{"cycle by ref", func() (*Edit, error) { return tr.SetParam(inst, "ref", ID(1)) }, "leads back to itself"},
		{"cycle by move", func() (*Edit, error) { return tr.Move(inst, grp, 0) }, "leads back to itself"},
		{"move under itself", func() (*Edit, error) { return tr.Move(tf, tf, 0) }, "under itself"},
		{"move root", func() (*Edit, error) { return tr.Move(1, grp, 0) }, "root cannot be moved"},
		{"child of leaf", func() (*Edit, error) { return tr.Add(disc, -1, &Sum{}) }, "takes no children"},
		{"second child", func() (*Edit, error) { return tr.Add(tf, -1, &Sum{}) }, "exactly 1 child, got 2"},
		{"unary by add", func() (*Edit, error) { return tr.Add(1, -1, &Clamp{Hi: 1}) }, "needs a child"},
		{"bad index", func() (*Edit, error) { return tr.Add(1, 9, &Sum{}) }, "index 9"},
		{"missing node", func() (*Edit, error) { return tr.SetParam(99, "radius", 1.0) }, "node 99: no such node"},
		{"negative radius", func() (*Edit, error) { return tr.SetParam(disc, "radius", -1.0) }, "node 2 (disc): radius: must be > 0"},
		{"wrong type", func() (*Edit, error) { return tr.SetParam(disc, "center", 3.0) }, "center wants a point"},
		{"unknown param", func() (*Edit, error) { return tr.SetParam(disc, "colour", 3.0) }, `has ["center" "radius" "value"]`},
		{"bad ctrl order", func() (*Edit, error) {
			return tr.Add(1, -1, &Segment{Ctrls: []Ctrl{{0.5, 1, 1}, {0.5, 1, 1}}})
		}, "ctrl[1].t: must be greater"},
		{"unwrap leaf", func() (*Edit, error) { return tr.Unwrap(disc) }, "exactly one child"},
	}
	for _, c := range cases {
		_, err := c.edit()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v; want one containing %q", c.name, err, c.want)
		}
		if !bytes.Equal(mustJSON(t, tr), before) {
			t.Fatalf("%s: the refused edit changed the tree", c.name)
		}
	}
}

// TestEditKinds walks through each edit once and checks its effect.
func TestEditKinds(t *testing.T) {
	tr := New()
	d1, _ := tr.Add(1, -1, &Disc{Center: Point{1000, 1000}, Radius: 500, Value: 1})
	d2, _ := tr.Add(1, 0, &Disc{Center: Point{3000, 1000}, Radius: 500, Value: 0.5})
	if got := tr.nodes[1].children; len(got) != 2 || got[0] != d2.Node() || got[1] != d1.Node() {
		t.Fatalf("children after Add at 0: %v", got)
	}
	w, err := tr.Wrap(d1.Node(), &Transform{Frame: Frame{Translate: Point{0, 2000}, Scale: Point{1, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := tr.Eval(1000, 3000); got != 1 {
		t.Errorf("translated disc at its new centre: got %v; want 1", got)
	}
	g, _ := tr.Add(1, -1, &Max{})
	if _, err := tr.Move(w.Node(), g.Node(), 0); err != nil {
		t.Fatal(err)
	}
	if p := tr.Parent(w.Node()); p != g.Node() {
		t.Errorf("parent after Move: got %d; want %d", p, g.Node())
	}
	if _, err := tr.Unwrap(w.Node()); err != nil {
		t.Fatal(err)
	}
	if got := tr.Eval(1000, 1000); got != 1 {
		t.Errorf("unwrapped disc at its centre: got %v; want 1", got)
	}
	wr, _ := tr.Wrap(1, &Scale{Factor: 2})
	if tr.Root() != wr.Node() {
		t.Errorf("root after wrapping it: got %d; want %d", tr.Root(), wr.Node())
	}
	if got := tr.Eval(1000, 1000); got != 2 {
		t.Errorf("scaled root: got %v; want 2", got)
	}
	if _, err := tr.Remove(d2.Node()); err != nil {
		t.Fatal(err)
	}
	if _, ok := tr.Node(d2.Node()); ok {
		t.Error("removed node still there")
	}
	if p, _ := tr.Param(d1.Node(), "radius"); p != 500.0 {
		t.Errorf("Param radius: got %v; want 500", p)
	}
}

// TestPick checks that Pick finds the primitive contributing most.
func TestPick(t *testing.T) {
	_, err := Unmarshal([]byte(`{"version": 1, "root": 1, "nodes": [
		{"id": 1, "type": "sum", "children": [2, 3, 4, 6]},
		{"id": 2, "type": "disc", "center": [1000, 1000], "radius": 800, "value": 1},
		{"id": 3, "type": "disc", "center": [1500, 1000], "radius": 800, "value": 0.5},
		{"id": 4, "type": "transform", "translate": [5000, 0], "children": [5]},
		{"id": 5, "type": "region", "polygon": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]},
		{"id": 6, "type": "instance", "ref": 2, "translate": [0, 5000]},
		{"id": 7, "type": "scale", "factor": 0, "children": [8]},
		{"id": 8, "type": "disc", "center": [9000, 9000], "radius": 800, "value": 1}
	]}`))
	if err == nil {
		t.Fatal("node 7 is unreachable: want an error")
	}
	tr, err := Unmarshal([]byte(`{"version": 1, "root": 1, "nodes": [
		{"id": 1, "type": "sum", "children": [2, 3, 4, 6, 7]},
		{"id": 2, "type": "disc", "center": [1000, 1000], "radius": 800, "value": 1},
		{"id": 3, "type": "disc", "center": [1500, 1000], "radius": 800, "value": 0.5},
		{"id": 4, "type": "transform", "translate": [5000, 0], "children": [5]},
		{"id": 5, "type": "region", "polygon": [[0, 0], [1000, 0], [1000, 1000], [0, 1000]]},
		{"id": 6, "type": "instance", "ref": 2, "translate": [0, 5000]},
		{"id": 7, "type": "scale", "factor": 0, "children": [8]},
		{"id": 8, "type": "disc", "center": [9000, 9000], "radius": 800, "value": 1}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		x, y float64
		want ID
	}{
		{1000, 1000, 2}, // disc 2 at its centre beats disc 3
		{1700, 1000, 3}, // nearer disc 3's centre: 0.5·(1−0.04/0.64)³ > (1−0.49/0.64)³
		{5500, 500, 5},  // the region, through the transform
		{1000, 6000, 6}, // the copy of disc 2 is reported as the instance
		{9000, 9000, 0}, // disc 8 is scaled by 0
		{3000, 3000, 0}, // nothing there
	}
	for _, c := range cases {
		if got := tr.Pick(c.x, c.y); got != c.want {
			t.Errorf("Pick(%v, %v) = %d; want %d", c.x, c.y, got, c.want)
		}
	}
}

// TestLayerDirty paints into a layer and re-rasterizes the rectangle
// LayerDirty gives.
func TestLayerDirty(t *testing.T) {
	tr := New()
	tr.Add(1, -1, &Raster{Layer: "paint", Rect: Rect{1000, 2000, 9000, 8000}, Value: 1})
	w, _ := tr.Add(1, -1, &Disc{Center: Point{5000, 5000}, Radius: 3000, Value: 0.3})
	tr.Wrap(w.Node(), &Fold{Amplitude: 300, Wavelength: 2000})
	layer := sim.NewField(40, 30, 1)
	layers := LayerMap{"paint": layer}
	cur := raster(tr, 80, layers)
	for k := range 10 {
		x, y := 4*k, 3*k
		layer.Data[y*40+x] += 1
		want := raster(tr, 80, layers)
		d := tr.LayerDirty("paint", layer, image.Rect(x, y, x+1, y+1))
		tr.RasterizeRect(cur, Domain(cur), CellRect(cur, Domain(cur), d), layers)
		if i := firstDiff(cur, want); i >= 0 {
			t.Fatalf("paint at (%d, %d), dirty %v: cell %d is %v; want %v", x, y, d, i, cur.Data[i], want.Data[i])
		}
	}
}
