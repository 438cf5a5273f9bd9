package talus

import (
	"slices"
	"testing"
)

// TestClampOrderedScaledByHand: the chain of TestClampHandComputed in
// drainage order, with node 3's tangent doubled and node 5's halved:
//
//	h1 = min(100, 0 + 10)      = 10  (lowered)
//	h2 = min(3, 10 + 10)       = 3
//	h3 = min(200, 3 + 2·10)    = 23  (lowered)
//	h4 = min(14, 23 + 10)      = 14
//	h5 = min(9, 3 + 0.5·5)     = 5.5 (lowered)
//
// With every scale 1 it matches ClampOrdered exactly.
func TestClampOrderedScaledByHand(t *testing.T) {
	l := Model{Mode: ModeConstant, AngleDeg: 45}.Limiter(6, 1, 10)
	// Drainage order 0 1 2 5 3 4: positions of the nodes.
	hs := []float32{0, 100, 3, 9, 200, 14}
	rp := []int32{0, 0, 1, 2, 2, 4}
	ds := []float32{0, 10, 10, 5, 10, 10}
	cell := []int32{0, 1, 2, 5, 3, 4}
	scale := []float32{1, 1, 1, 0.5, 2, 1}
	got := slices.Clone(hs)
	n := l.ClampOrderedScaled(got, rp, ds, cell, scale, 0, 6)
	if want := []float32{0, 10, 3, 5.5, 23, 14}; !slices.Equal(got, want) || n != 3 {
		t.Errorf("got %v, %d clamped; want %v, 3", got, n, want)
	}
	for _, m := range []Model{{Mode: ModeConstant, AngleDeg: 30}, {Mode: ModeHeight, LowDeg: 20, HighDeg: 50, HeightM: 50, BlendM: 20},
		{Mode: ModeNoise, MinDeg: 10, MaxDeg: 60, WavelengthM: 30, Octaves: 2}} {
		l := m.Limiter(6, 1, 10)
		a, b := slices.Clone(hs), slices.Clone(hs)
		na := l.ClampOrdered(a, rp, ds, cell, 0, 6)
		nb := l.ClampOrderedScaled(b, rp, ds, cell, []float32{1, 1, 1, 1, 1, 1}, 0, 6)
		if !slices.Equal(a, b) || na != nb {
			t.Errorf("%s: scaled by 1 %v (%d); want ClampOrdered's %v (%d)", m.Mode, b, nb, a, na)
		}
	}
}
