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
