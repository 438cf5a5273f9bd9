package grid

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/geology"
)

// TestSetAlluvium: the alluvium given is the snapshot's, and the rock a
// cell exposes is alluvium where it is thick enough; a field of the
// wrong size or with a negative or non-finite value is refused and
// changes nothing.
func TestSetAlluvium(t *testing.T) {
	const n = 8
	e, err := New(Config{W: n, H: n, Cell: 100, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	m, err := geology.Spec{Stack: []geology.Group{{Layers: []geology.Layer{{Thickness: 100, Rock: "Clay"}}}}}.Compile()
	if err != nil {
		t.Fatal(err)
	}
	e.SetGeology(m)
	a := make([]float32, n*n)
	a[5] = 2
	if err := e.SetAlluvium(a); err != nil {
		t.Fatal(err)
	}
	s := e.Snapshot()
	if s.Alluvium[5] != 2 || s.Rock[5] != uint8(m.NumLayers()) || s.Rock[4] == uint8(m.NumLayers()) {
		t.Fatalf("alluvium %g m, rock %d and %d; want 2 m, alluvium (%d) at cell 5 only", s.Alluvium[5], s.Rock[5], s.Rock[4], m.NumLayers())
	}
	for _, bad := range [][]float32{make([]float32, n), {-1}, {float32(math.NaN())}, {float32(math.Inf(1))}} {
		if len(bad) == 1 {
			b := make([]float32, n*n)
			b[3] = bad[0]
			bad = b
		}
		if err := e.SetAlluvium(bad); err == nil {
			t.Errorf("SetAlluvium accepted %v", bad[3])
		}
	}
	if e.Alluvium()[5] != 2 {
		t.Error("a refused field changed the alluvium")
	}
}
