package ui

import (
	"bytes"
	"strings"
	"testing"

	"orogen/app/session"
	"orogen/ui/script"
	"orogen/uplifttree"
)

// testApp is an App without a window: a paused session on the default
// preset at 64² cells, the view on the middle of the map.
func testApp(t *testing.T) *App {
	t.Helper()
	d, err := session.LoadScene("default", 64)
	if err != nil {
		t.Fatal(err)
	}
	s, err := session.New(d, "", session.Options{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	a := &App{s: s}
	a.view.CenterX, a.view.CenterY, a.view.Zoom = 32, 32, 4
	a.vp = viewport{w: 400, h: 300}
	return a
}

func treeJSON(t *testing.T, tr *uplifttree.Tree) []byte {
	t.Helper()
	b, err := tr.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWrapNode: the Uplift Tree panel's Wrap (the `wrap` action) puts every
// operator, with the panel's default parameters, in the place of the
// selected node, with that node as its only child and the new node
// selected; one undo gives the tree back byte for byte, and redo the
// wrapped one. Add cannot make these operators useful (an empty fold or
// clamp is refused); Wrap can.
func TestWrapNode(t *testing.T) {
	a := testApp(t)
	d := a.s.Doc()
	seg, err := d.AddNode(d.Tree().Root(), -1, newShapeAt(uplifttree.TypeSegment, 800, 800, 400, 0))
	if err != nil {
		t.Fatal(err)
	}
	types := wrapTypes()
	for _, typ := range []string{uplifttree.TypeFold, uplifttree.TypeClamp, uplifttree.TypeScale, uplifttree.TypeMix} {
		if !strings.Contains(" "+strings.Join(types, " ")+" ", " "+typ+" ") {
			t.Errorf("wrap types %v lack %s", types, typ)
		}
	}
	for _, typ := range types {
		a.sel = seg
		parent := d.Tree().Parent(seg)
		before := treeJSON(t, d.Tree())
		if err := a.wrapNode([]string{typ}); err != nil {
			t.Errorf("wrap in %s: %v", typ, err)
			continue
		}
		w := a.sel
		n, ok := d.Tree().Node(w)
		switch {
		case !ok || w == seg:
			t.Fatalf("wrap in %s: selection %d; want the new node", typ, w)
		case n.Shape.Type() != typ || len(n.Children) != 1 || n.Children[0] != seg:
			t.Fatalf("wrap in %s: new node %s with children %v; want %s with child %d", typ, n.Shape.Type(), n.Children, typ, seg)
		case d.Tree().Parent(w) != parent:
			t.Fatalf("wrap in %s: new node under %d; want under %d, where the node was", typ, d.Tree().Parent(w), parent)
		}
		if !a.log.contains("wrapped node") {
			t.Errorf("wrap in %s: no log line", typ)
		}
		after := treeJSON(t, d.Tree())
		if label, ok, err := a.s.Undo(); !ok || err != nil || label != "Wrap in "+typ {
			t.Fatalf("undo of wrap in %s: %q %v %v", typ, label, ok, err)
		}
		if got := treeJSON(t, d.Tree()); !bytes.Equal(got, before) {
			t.Fatalf("undo of wrap in %s: tree differs", typ)
		}
		if _, ok, err := a.s.Redo(); !ok || err != nil {
			t.Fatalf("redo of wrap in %s: %v %v", typ, ok, err)
		}
		if got := treeJSON(t, d.Tree()); !bytes.Equal(got, after) {
			t.Fatalf("redo of wrap in %s: tree differs", typ)
		}
		if _, _, err := a.s.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing selected: an error, the tree unchanged.
	a.sel = 0
	before := treeJSON(t, d.Tree())
	if err := a.wrapNode([]string{uplifttree.TypeScale}); err == nil || !strings.Contains(err.Error(), "select a node") {
		t.Errorf("wrap without a selection: %v; want an error asking for one", err)
	}
	if !bytes.Equal(treeJSON(t, d.Tree()), before) {
		t.Error("a failed wrap changed the tree")
	}
	// The script grammar offers only operators.
	for _, line := range []string{"wrap disc", "wrap", "wrap scale fold"} {
		if _, err := script.Parse(strings.NewReader(line), scriptSpecs()); err == nil {
			t.Errorf("Parse(%q): no error", line)
		}
	}
	if _, err := script.Parse(strings.NewReader("wrap fold"), scriptSpecs()); err != nil {
		t.Error(err)
	}
}

// TestUndoDropsLostSelection: undoing a Wrap takes the new (selected) node
// out of the tree; the selection must not point at it any more, and undo
// of an edit that keeps the node keeps the selection.
func TestUndoDropsLostSelection(t *testing.T) {
	a := testApp(t)
	d := a.s.Doc()
	seg, err := d.AddNode(d.Tree().Root(), -1, newShapeAt(uplifttree.TypeSegment, 800, 800, 400, 0))
	if err != nil {
		t.Fatal(err)
	}
	a.sel = seg
	if err := a.wrapNode([]string{uplifttree.TypeScale}); err != nil {
		t.Fatal(err)
	}
	w := a.sel
	if w == seg {
		t.Fatal("wrap did not select the new node")
	}
	if err := a.undo(nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Tree().Node(w); ok {
		t.Fatal("undo of the wrap kept the new node")
	}
	if a.sel != 0 {
		t.Errorf("after undoing the wrap the selection is %d, a node no longer in the tree; want none", a.sel)
	}
	// The segment survives undoing the wrap; redo brings the wrap back and
	// selecting the segment then undoing the wrap again keeps it selected.
	if err := a.redo(nil); err != nil {
		t.Fatal(err)
	}
	a.sel = seg
	if err := a.undo(nil); err != nil {
		t.Fatal(err)
	}
	if a.sel != seg {
		t.Errorf("undo dropped the selection of node %d, which is still in the tree", seg)
	}
}
