package uplifttree

import (
	"math"
	"testing"
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
