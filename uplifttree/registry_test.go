package uplifttree

import "testing"

// TestRegistry checks each kind against its Shape: the names agree, the
// child counts make sense, and the parameter names are unique and not the
// keys every node has.
func TestRegistry(t *testing.T) {
	if len(allTypes) != len(kinds) || len(byType) != len(kinds) {
		t.Fatalf("%d kinds, %d type names, %d indexed", len(kinds), len(allTypes), len(byType))
	}
	for _, k := range kinds {
		a := k.new()
		if a.Type() != k.typ {
			t.Errorf("kind %q makes a %q", k.typ, a.Type())
		}
		if k.lo < 0 || (k.hi >= 0 && k.hi < k.lo) {
			t.Errorf("kind %q: bad child range [%d, %d]", k.typ, k.lo, k.hi)
		}
		seen := map[string]bool{"id": true, "type": true, "children": true}
		for _, p := range a.params() {
			if seen[p.name] {
				t.Errorf("kind %q: parameter %q repeats or clashes with a node key", k.typ, p.name)
			}
			seen[p.name] = true
		}
	}
}

// TestNewShapeAt: every node type, placed as the app adds it, is a valid
// node of a tree: added under the root (or wrapped around a disc when it
// needs a child), with IsOperator true exactly for the types that take
// children.
func TestNewShapeAt(t *testing.T) {
	for _, typ := range AllTypes() {
		tr := New()
		disc, _ := NewShapeAt(TypeDisc, 500, 500, 200, 0)
		ed, err := tr.Add(tr.Root(), -1, disc)
		if err != nil {
			t.Fatal(err)
		}
		d := ed.Node()
		s, ok := NewShapeAt(typ, 500, 500, 200, d)
		if !ok {
			t.Fatalf("NewShapeAt(%q): unknown", typ)
		}
		if lo, hi := childRange(s); IsOperator(typ) != (hi != 0) {
			t.Errorf("%s: IsOperator %v with children [%d, %d]", typ, IsOperator(typ), lo, hi)
		}
		if lo, _ := childRange(s); lo > 0 {
			_, err = tr.Wrap(d, s)
		} else {
			_, err = tr.Add(tr.Root(), -1, s)
		}
		if err != nil {
			t.Errorf("%s placed at (500, 500), 200 m: %v", typ, err)
		}
	}
	if IsOperator("voxel") {
		t.Error("an unknown type is an operator")
	}
	if _, ok := NewShapeAt("voxel", 0, 0, 1, 0); ok {
		t.Error("NewShapeAt made an unknown type")
	}
}
