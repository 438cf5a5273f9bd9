package doc

import (
	"image"
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

// Copy and paste a region of a painted layer by hand: unmoved it is an
// exact copy; turned 90° a 4×2 block stands 2×4; doubled it covers 8×4;
// each paste is one undo step.
func TestCopyPasteRegion(t *testing.T) {
	sc, err := scene.Load("default")
	if err != nil {
		t.Fatal(err)
	}
	sc.Width, sc.Height = 32, 32
	d, err := FromScene(sc)
	if err != nil {
		t.Fatal(err)
	}
	name := d.PaintLayer()
	l := d.Layer(name)
	// A 4×2 block at (2..5, 3..4): values 1..8 row by row.
	for y := 3; y < 5; y++ {
		for x := 2; x < 6; x++ {
			l.Field.Data[y*32+x] = float32((y-3)*4 + (x - 2) + 1)
		}
	}
	c, err := d.CopyRegion(name, image.Rect(2, 3, 6, 5))
	if err != nil {
		t.Fatal(err)
	}
	at := func(x, y int) float32 { return d.Layer(name).Field.Data[y*32+x] }
	// Unmoved copy centred on (20, 20): cells 18..21 × 19..20.
	if _, err := d.PasteRegion(name, c, 20, 20, 0, 1); err != nil {
		t.Fatal(err)
	}
	for y := 19; y < 21; y++ {
		for x := 18; x < 22; x++ {
			if want := float32((y-19)*4 + (x - 18) + 1); at(x, y) != want {
				t.Fatalf("pasted (%d, %d) = %g; want %g", x, y, at(x, y), want)
			}
		}
	}
	if at(17, 19) != 0 || at(22, 19) != 0 || at(18, 21) != 0 {
		t.Error("the paste spilled beyond the 4×2 block")
	}
	if _, _, err := d.Undo(); err != nil || at(18, 19) != 0 {
		t.Fatalf("undo: %v; cell (18, 19) = %g, want 0", err, at(18, 19))
	}
	// Turned 90°: covers 2 columns × 4 rows around (10, 10).
	if _, err := d.PasteRegion(name, c, 10, 10, 90, 1); err != nil {
		t.Fatal(err)
	}
	n := 0
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			if at(x, y) != 0 && !(y >= 3 && y < 5 && x >= 2 && x < 6) {
				n++
				if x < 9 || x > 10 || y < 8 || y > 11 {
					t.Errorf("turned paste at (%d, %d); want within 9..10 × 8..11", x, y)
				}
			}
		}
	}
	if n != 8 {
		t.Errorf("turned paste covers %d cells; want 8", n)
	}
	if _, _, err := d.Undo(); err != nil {
		t.Fatal(err)
	}
	// Doubled: 8×4 cells.
	box, err := d.PasteRegion(name, c, 16, 24, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	if box.Dx() != 8 || box.Dy() != 4 {
		t.Errorf("doubled paste box %v; want 8×4", box)
	}
	if _, err := d.PasteRegion(name, c, 16, 24, 0, 100); err == nil {
		t.Error("a paste scaled ×100 was accepted")
	}
}
