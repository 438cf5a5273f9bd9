package doc

import (
	"math"
	"testing"

	"orogen/app/scene"
	"orogen/uplifttree"
)

// Copy and paste a subtree: the copy lands centred where asked and
// evaluates as the original moved there; an instance follows the
// original's edits; both are one undo step; a copy pastes into another
// document, an instance does not.
func TestCopyPasteSubtree(t *testing.T) {
	sc, err := scene.Load("default")
	if err != nil {
		t.Fatal(err)
	}
	sc.Width, sc.Height = 64, 64
	d, err := FromScene(sc)
	if err != nil {
		t.Fatal(err)
	}
	tr := d.Tree()
	// A disc wrapped in a scale: an operator that needs its child.
	disc, err := d.AddNode(tr.Root(), -1, &uplifttree.Disc{Center: uplifttree.Point{X: 10000, Y: 10000}, Radius: 3000, Value: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	sc1, err := d.WrapNode(disc, &uplifttree.Scale{Factor: 2})
	if err != nil {
		t.Fatal(err)
	}
	clip, err := d.CopySubtree(sc1)
	if err != nil {
		t.Fatal(err)
	}
	if clip.Center.X != 10000 || clip.Center.Y != 10000 {
		t.Fatalf("clip centre %v; want the disc's centre (10000, 10000)", clip.Center)
	}
	n := tr.Len()
	top, err := d.PasteSubtree(clip, tr.Root(), 30000, 20000, false)
	if err != nil {
		t.Fatal(err)
	}
	// The pasted subtree alone at the new place: 2·0.5 = 1 at the centre.
	if got := evalNode(t, d, top, 30000, 20000); math.Abs(got-1) > 1e-12 {
		t.Errorf("pasted copy at its centre: %g; want 1", got)
	}
	if tr.Len() != n+3 { // transform, scale, disc
		t.Errorf("%d nodes after paste; want %d", tr.Len(), n+3)
	}
	if _, _, err := d.Undo(); err != nil || tr.Len() != n {
		t.Fatalf("undo: %v, %d nodes; want %d (one step)", err, tr.Len(), n)
	}
	inst, err := d.PasteSubtree(clip, tr.Root(), 30000, 20000, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetNodeParam(disc, "value", 0.25); err != nil {
		t.Fatal(err)
	}
	if got := evalNode(t, d, inst, 30000, 20000); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("instance after the original's edit: %g; want 0.5 (it follows)", got)
	}
	// Another document: a copy pastes, an instance is refused.
	d2, err := FromScene(sc)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d2.PasteSubtree(clip, d2.Tree().Root(), 5000, 5000, false); err != nil {
		t.Errorf("copy into another document: %v", err)
	}
	if _, err := d2.PasteSubtree(clip, d2.Tree().Root(), 5000, 5000, true); err == nil {
		t.Error("an instance pasted into another document")
	}
}

// evalNode is what node id adds to the tree at (x, y): the tree's value
// with it less the value without it (the root is a Sum).
func evalNode(t *testing.T, d *Doc, id uplifttree.ID, x, y float64) float64 {
	t.Helper()
	before := d.Tree().Eval(x, y)
	e, err := d.tree.Remove(id)
	if err != nil {
		t.Fatal(err)
	}
	without := d.Tree().Eval(x, y)
	if err := e.Undo(d.tree); err != nil {
		t.Fatal(err)
	}
	return before - without
}
