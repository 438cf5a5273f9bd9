package uplifttree

import (
	"math"
	"testing"

	"orogen/sim"
)

// Mix by hand: two wide discs of values 1 and 3 centred far away (so both
// are ~constant near the origin), mixed from A (x = 0) to B (x = 100):
// 1 at A, 3 at B, the smoothstep's ½ halfway (2), clamped beyond.
func TestMixByHand(t *testing.T) {
	tr := New()
	// Discs of radius 1e7 centred at (0, 5e6): at the origin d/r = ½,
	// (1 − ¼)³ = 27/64 of the value; the same at every x here to 1e-9.
	d1, err := tr.Add(tr.Root(), -1, &Disc{Center: Point{0, 5e6}, Radius: 1e7, Value: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := tr.Wrap(d1.Node(), &Mix{A: Point{0, 0}, B: Point{100, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Add(m.Node(), -1, &Disc{Center: Point{0, 5e6}, Radius: 1e7, Value: 3}); err != nil {
		t.Fatal(err)
	}
	k := 27.0 / 64
	for _, c := range []struct{ x, want float64 }{{-50, 1}, {0, 1}, {50, 2}, {100, 3}, {400, 3}, {25, 1 + 2*0.15625}} {
		got := tr.Eval(c.x, 0)
		if math.Abs(got-c.want*k) > 1e-6 {
			t.Errorf("Eval(%g, 0) = %g; want %g", c.x, got, c.want*k)
		}
	}
}

// Mix through a mask, by hand: the third child's value, clamped to [0, 1],
// is t. The mask is a Raster of a 4×1 layer [0, 0.25, 1, 2] over
// x ∈ [0, 400] (cell centres at 50, 150, 250, 350): t = 0, ¼, 1 and 1
// (2 clamped) there, and 0 outside the raster (its outside value). The
// two blended children are the wide discs of TestMixByHand (1 and 3 times
// 27/64 near the origin).
func TestMixMask(t *testing.T) {
	tr := New()
	d1, err := tr.Add(tr.Root(), -1, &Disc{Center: Point{0, 5e6}, Radius: 1e7, Value: 1})
	if err != nil {
		t.Fatal(err)
	}
	m, err := tr.Wrap(d1.Node(), &Mix{A: Point{0, 0}, B: Point{1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Add(m.Node(), -1, &Disc{Center: Point{0, 5e6}, Radius: 1e7, Value: 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Add(m.Node(), -1, &Raster{Layer: "mask", Rect: Rect{X0: 0, Y0: -50, X1: 400, Y1: 50}, Value: 1}); err != nil {
		t.Fatal(err)
	}
	mask := sim.NewField(4, 1, 100)
	copy(mask.Data, []float32{0, 0.25, 1, 2})
	layers := LayerMap{"mask": mask}
	k := 27.0 / 64
	tr.SetLayers(layers)
	for _, c := range []struct{ x, want float64 }{{-100, 1}, {50, 1}, {150, 1.5}, {250, 3}, {350, 3}, {500, 1}} {
		if got := tr.Eval(c.x, 0); math.Abs(got-c.want*k) > 1e-6 {
			t.Errorf("Eval(%g, 0) = %g; want %g", c.x, got, c.want*k)
		}
	}
	// Rasterize gives Eval's values at the cell centres x = 50 … 350.
	f := tr.Rasterize(sim.NewField(4, 1, 100), Rect{X0: 0, Y0: -50, X1: 400, Y1: 50}, nil)
	for i, v := range f.Data {
		x := 50 + 100*float64(i)
		if want := tr.Eval(x, 0); float64(v) != float64(float32(want)) {
			t.Errorf("Rasterize at x = %g: %g; Eval gives %g", x, v, want)
		}
	}
	// A fourth child is refused.
	if _, err := tr.Add(m.Node(), -1, &Disc{Radius: 1, Value: 1}); err == nil {
		t.Error("a Mix took a fourth child")
	}
}
