package brushes

import (
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"orogen/sim"
)

// paintPath paints a fresh copy of a random layer with one stroke through
// pts, each leg given to To as the pieces split returns, and returns the
// layer, the stroke and its edit.
func paintPath(t *testing.T, b Brush, pts [][2]float64, split func(a, b [2]float64) [][2]float64) (*Layer, *Stroke, *Edit) {
	t.Helper()
	l := randomLayer(200, 150, 21)
	s, err := Begin(l, b, pts[0][0], pts[0][1])
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(pts); i++ {
		for _, p := range split(pts[i-1], pts[i]) {
			s.To(p[0], p[1])
		}
	}
	e, _ := s.End()
	return l, s, e
}

// TestSplitInvariance paints one path given as whole legs, as 50 equal
// pieces per leg, and as random pieces with repeated points: the bytes, the
// stamp count and the dirty rectangle must not change.
func TestSplitInvariance(t *testing.T) {
	pts := [][2]float64{{3.3, 7.1}, {180.7, 90.2}, {20.5, 140.9}, {-30, 60}, {100, 75}}
	whole := func(a, b [2]float64) [][2]float64 { return [][2]float64{b} }
	equal := func(a, b [2]float64) [][2]float64 {
		var out [][2]float64
		for i := 1; i <= 50; i++ {
			f := float64(i) / 50
			out = append(out, [2]float64{a[0] + (b[0]-a[0])*f, a[1] + (b[1]-a[1])*f})
		}
		return out
	}
	r := rand.New(rand.NewPCG(4, 4))
	random := func(a, b [2]float64) [][2]float64 {
		var out [][2]float64
		f := 0.0
		for {
			f += r.Float64() * 0.2
			if f >= 1 {
				return append(out, b)
			}
			p := [2]float64{a[0] + (b[0]-a[0])*f, a[1] + (b[1]-a[1])*f}
			out = append(out, p)
			if r.IntN(4) == 0 {
				out = append(out, p) // a mouse event that did not move
			}
		}
	}
	for k := range numKinds {
		for _, f := range falloffs {
			b := Brush{Kind: k, Falloff: f, Radius: 9.5, Strength: 0.4, Value: 0.8, Spacing: 0.3, Seed: 3}
			l0, s0, e0 := paintPath(t, b, pts, whole)
			for name, split := range map[string]func(a, b [2]float64) [][2]float64{"50 pieces": equal, "random pieces": random} {
				l, s, e := paintPath(t, b, pts, split)
				if !sameBits(l.Field.Data, l0.Field.Data) {
					t.Errorf("%v %v: path in %s: got other bytes than the whole path", k, f, name)
				}
				if s.Stamps() != s0.Stamps() || e.Bounds() != e0.Bounds() {
					t.Errorf("%v %v: path in %s: got %d stamps in %v; want %d in %v",
						k, f, name, s.Stamps(), e.Bounds(), s0.Stamps(), e0.Bounds())
				}
			}
		}
	}
}

func TestStampCount(t *testing.T) {
	for _, tc := range []struct {
		to    float64 // the stroke goes from (10, 20) to (to, 20)
		want  int     // stamps, End's included
		atEnd bool    // End places a stamp
	}{
		{10, 1, false},   // a click
		{110, 26, false}, // 100 pixels at 4 a stamp: 0, 4, ..., 100
		{111, 27, true},  // one pixel more: End stamps at 111
		{110.001, 26, false},
		{-90, 26, false}, // backwards
		{12, 2, true},
	} {
		l := randomLayer(128, 40, 1)
		b := Brush{Kind: Raise, Falloff: FalloffSmooth, Radius: 16, Strength: 0.1, Spacing: 0.25}
		s, _ := Begin(l, b, 10, 20)
		s.To(tc.to, 20)
		_, r := s.End()
		if s.Stamps() != tc.want || r.Empty() == tc.atEnd {
			t.Errorf("stroke from 10 to %v: got %d stamps, End's rectangle %v; want %d stamps, one at the end %v", tc.to, s.Stamps(), r, tc.want, tc.atEnd)
		}
	}
}

// TestNoGaps moves fast, in one To, across the layer with a small brush at
// the widest spacing whose stamps still touch: every pixel along the path
// is painted.
func TestNoGaps(t *testing.T) {
	for _, end := range [][2]float64{{190, 50}, {185, 140}, {7, 3}} {
		l := NewLayer(sim.NewField(200, 150, 1))
		b := Brush{Kind: Raise, Falloff: FalloffConstant, Radius: 3, Strength: 1, Spacing: 1}
		s, _ := Begin(l, b, 5, 50)
		s.To(end[0], end[1])
		s.End()
		dx, dy := end[0]-5, end[1]-50
		n := int(math.Hypot(dx, dy))
		for i := 0; i <= n; i++ {
			x := int(math.Round(5 + dx*float64(i)/float64(n)))
			y := int(math.Round(50 + dy*float64(i)/float64(n)))
			if l.Field.At(x, y) == 0 {
				t.Fatalf("stroke from (5, 50) to %v: pixel (%d, %d) on the path is not painted", end, x, y)
			}
		}
	}
}

// TestDirty checks that To, End and Dirty report every pixel that changed,
// and nothing outside the layer.
func TestDirty(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	bounds := image.Rect(0, 0, 130, 90)
	for k := range numKinds {
		l := randomLayer(130, 90, 2)
		b := Brush{Kind: k, Falloff: FalloffSmooth, Radius: 11, Strength: 0.5, Value: 2, Spacing: 0.5, Seed: 1}
		s, _ := Begin(l, b, -5, 40)
		changed := func(before []float32) image.Rectangle {
			var c image.Rectangle
			for i, v := range l.Field.Data {
				if math.Float32bits(v) != math.Float32bits(before[i]) {
					c = c.Union(image.Rect(i%130, i/130, i%130+1, i/130+1))
				}
			}
			return c
		}
		var all image.Rectangle
		for range 30 {
			before := append([]float32(nil), l.Field.Data...)
			d := s.To(r.Float64()*170-20, r.Float64()*130-20)
			if c := changed(before); !c.In(d) || !d.In(bounds) {
				t.Fatalf("%v: To changed %v; reported %v", k, c, d)
			}
			all = all.Union(d)
		}
		before := append([]float32(nil), l.Field.Data...)
		e, d := s.End()
		if c := changed(before); !c.In(d) {
			t.Fatalf("%v: End changed %v; reported %v", k, c, d)
		}
		all = all.Union(d)
		if !all.In(s.Dirty()) || e.Bounds() != s.Dirty() || !s.Dirty().In(bounds) {
			t.Fatalf("%v: stamps reported %v, Dirty %v, edit %v", k, all, s.Dirty(), e.Bounds())
		}
	}
}

// TestFarMoves moves far off the layer and back: stamps there change
// nothing and cost nothing, and the stroke comes back on the same grid of
// arc length.
func TestFarMoves(t *testing.T) {
	l := randomLayer(64, 64, 1)
	before := append([]float32(nil), l.Field.Data...)
	b := Brush{Kind: Raise, Falloff: FalloffSmooth, Radius: 5, Strength: 1, Spacing: 0.01} // 0.05 pixels a stamp
	s, _ := Begin(l, b, -10, -10)
	// Around the layer, never within 5 pixels of it.
	for _, p := range [][2]float64{{1e9, -1e9}, {1e9, 1e9}, {-20, 1e9}, {-20, 20}} {
		s.To(p[0], p[1])
	}
	// The cost in rounds of To's loop, not in time: stamping every
	// 0.05 pixels would take 10¹¹ rounds.
	if s.rounds > 100 {
		t.Errorf("moves of 10⁹ pixels off the layer took %d rounds of To's loop; want next to nothing (<= 100)", s.rounds)
	}
	if !sameBits(before, l.Field.Data) {
		t.Errorf("stamps off the layer changed it")
	}
	s.To(30, 30)
	if sameBits(before, l.Field.Data) {
		t.Errorf("stamps back on the layer changed nothing")
	}
}

func TestStrokePanics(t *testing.T) {
	mustPanic := func(name, want string, f func()) {
		t.Helper()
		defer func() {
			r := recover()
			if s, ok := r.(string); !ok || !strings.Contains(s, want) {
				t.Errorf("%s: got panic %v; want one with %q", name, r, want)
			}
		}()
		f()
	}
	l := randomLayer(32, 32, 1)
	s, _ := Begin(l, Default(Raise), 5, 5)
	mustPanic("To(NaN)", "out of range", func() { s.To(math.NaN(), 3) })
	mustPanic("To(huge)", "out of range", func() { s.To(3, 4*MaxCoord) })
	s.End()
	mustPanic("To after End", "ended stroke", func() { s.To(6, 6) })
	mustPanic("End twice", "ended stroke", func() { s.End() })
	mustPanic("nil layer", "nil layer", func() { Begin(nil, Default(Raise), 0, 0) })
	bad := &Layer{Field: sim.NewField(8, 8, 1), Base: sim.NewField(8, 9, 1)}
	mustPanic("base of another shape", "layer base is 8×9", func() { Begin(bad, Default(Raise), 0, 0) })
}
