package brushes

import (
	"math"
	"math/rand/v2"
	"testing"

	"orogen/sim"
	"orogen/sim/noise"
)

// stampOnce places a single stamp of b at (x, y): a stroke that never moves.
func stampOnce(t testing.TB, l *Layer, b Brush, x, y float64) *Edit {
	t.Helper()
	s, err := Begin(l, b, x, y)
	if err != nil {
		t.Fatal(err)
	}
	e, r := s.End()
	if !r.Empty() || s.Stamps() != 1 {
		t.Fatalf("a stroke that does not move: got %d stamps, End rectangle %v; want 1 stamp and an empty rectangle", s.Stamps(), r)
	}
	return e
}

func sameBits(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

var falloffs = []Falloff{FalloffSmooth, FalloffLinear, FalloffConstant}

func TestRaiseLower(t *testing.T) {
	const c = 32
	for _, f := range falloffs {
		for _, r := range []float64{0.7, 5, 10.5} {
			b := Brush{Kind: Raise, Falloff: f, Radius: r, Strength: 0.5, Spacing: 0.25}
			up := NewLayer(sim.NewField(65, 65, 1))
			stampOnce(t, up, b, c, c)
			b.Kind = Lower
			down := NewLayer(sim.NewField(65, 65, 1))
			stampOnce(t, down, b, c, c)
			for y := range 65 {
				for x := range 65 {
					d := math.Hypot(float64(x-c), float64(y-c))
					got := up.Field.At(x, y)
					// The stamp computes the weight from d² directly, b.Weight
					// from d: they agree to a few ulps of float64, far below
					// float32's rounding (3e-8 here).
					if want := 0.5 * b.Weight(d); math.Abs(float64(got)-want) > 1e-7 {
						t.Fatalf("%v falloff, radius %v: raise at distance %.3f got %v; want %v", f, r, d, got, want)
					}
					inside := d < r || f == FalloffConstant && d <= r
					if inside != (got > 0) {
						t.Fatalf("%v falloff, radius %v: raise at distance %.3f got %v; want > 0 just within the radius", f, r, d, got)
					}
					if dn := down.Field.At(x, y); dn != -got {
						t.Fatalf("%v falloff, radius %v: lower at (%d, %d) got %v; want %v", f, r, x, y, dn, -got)
					}
				}
			}
		}
	}
}

func TestSet(t *testing.T) {
	// Full strength with constant falloff lands on the value exactly within
	// the radius and leaves every other pixel's bytes alone.
	l := randomLayer(64, 64, 3)
	before := append([]float32(nil), l.Field.Data...)
	b := Brush{Kind: Set, Falloff: FalloffConstant, Radius: 7.3, Strength: 1, Value: 0.7, Spacing: 0.25}
	const cx, cy = 20.25, 30.5 // on the 1/64-pixel stamp grid
	stampOnce(t, l, b, cx, cy)
	for y := range 64 {
		for x := range 64 {
			i := y*64 + x
			got := l.Field.Data[i]
			dx, dy := float64(x)-cx, float64(y)-cy
			if dx*dx+dy*dy <= b.Radius*b.Radius {
				if got != float32(0.7) {
					t.Fatalf("set at (%d, %d) got %v; want 0.7", x, y, got)
				}
			} else if math.Float32bits(got) != math.Float32bits(before[i]) {
				t.Fatalf("set outside the radius at (%d, %d) got %v; want %v unchanged", x, y, got, before[i])
			}
		}
	}
	// Half strength goes half way.
	l = NewLayer(sim.NewField(9, 9, 1))
	b.Strength = 0.5
	stampOnce(t, l, b, 4, 4)
	if got := l.Field.At(4, 4); got != 0.35 {
		t.Errorf("half-strength set from 0 to 0.7: got %v; want 0.35", got)
	}
}

func TestFlatten(t *testing.T) {
	// On a ramp h = x/64 a stroke starting at x = 20 flattens toward
	// 20/64; many stamps near the start bring the pixels close to it.
	f := sim.NewField(64, 64, 1)
	for y := range 64 {
		for x := range 64 {
			f.Data[y*64+x] = float32(x) / 64
		}
	}
	l := NewLayer(f)
	before := f.Clone()
	b := Brush{Kind: Flatten, Falloff: FalloffSmooth, Radius: 8, Strength: 0.5, Spacing: 0.125}
	s, err := Begin(l, b, 20, 30)
	if err != nil {
		t.Fatal(err)
	}
	for range 200 {
		s.To(21, 30)
		s.To(20, 30)
	}
	s.End()
	const target = 20.0 / 64
	for y := range 64 {
		for x := range 64 {
			d := math.Hypot(float64(x)-20.5, float64(y)-30)
			got := float64(f.At(x, y))
			switch {
			case d <= 5:
				// Every such pixel has weight ≥ (1 − (5.5/8)²)³ = 0.14
				// at each of 400 stamps of strength 0.5: the error
				// shrinks by at least 0.93 a stamp, from at most 0.1
				// to 0.1·0.93⁴⁰⁰ ≈ 1e-14, and float32 keeps 3e-8.
				if math.Abs(got-target) > 1e-7 {
					t.Fatalf("flatten at (%d, %d) got %v; want %v", x, y, got, target)
				}
			case d > 8.5:
				if got != float64(before.At(x, y)) {
					t.Fatalf("flatten outside the stroke at (%d, %d) got %v; want %v", x, y, got, before.At(x, y))
				}
			}
			// Flatten moves toward the target and never past it.
			if was := float64(before.At(x, y)); math.Abs(got-target) > math.Abs(was-target) {
				t.Fatalf("flatten at (%d, %d): got %v, farther from %v than %v", x, y, got, target, was)
			}
		}
	}
}

func TestErase(t *testing.T) {
	for _, withBase := range []bool{true, false} {
		l := randomLayer(64, 64, 5)
		if !withBase {
			l.Base = nil
		}
		for i := range l.Field.Data {
			l.Field.Data[i] += 0.3 // paint over the base
		}
		painted := append([]float32(nil), l.Field.Data...)
		b := Brush{Kind: Erase, Falloff: FalloffConstant, Radius: 9, Strength: 1, Spacing: 0.25}
		stampOnce(t, l, b, 31, 33)
		for y := range 64 {
			for x := range 64 {
				i := y*64 + x
				want := float32(0)
				if withBase {
					want = l.Base.Data[i]
				}
				if math.Hypot(float64(x-31), float64(y-33)) > 9 {
					want = painted[i]
				}
				if got := l.Field.Data[i]; math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("erase (base %v) at (%d, %d) got %v; want %v", withBase, x, y, got, want)
				}
			}
		}
	}
}

func TestNoise(t *testing.T) {
	paint := func(seed uint64) *Layer {
		l := NewLayer(sim.NewField(96, 80, 1))
		b := Brush{Kind: Noise, Falloff: FalloffSmooth, Radius: 20, Strength: 0.8, Spacing: 0.25, Seed: seed, NoiseScale: 12}
		stampOnce(t, l, b, 50, 40)
		return l
	}
	a, b := paint(7), paint(7)
	if !sameBits(a.Field.Data, b.Field.Data) {
		t.Fatal("noise with seed 7 twice: got different bytes; want the same")
	}
	if c := paint(8); sameBits(a.Field.Data, c.Field.Data) {
		t.Fatal("noise with seeds 7 and 8: got the same bytes; want different ones")
	}
	// Each pixel gets strength·w·F(x, y), F the Fractal of frequency 1/λ
	// with the package defaults.
	n := noise.NewFractal(noise.FractalSpec{Seed: 7, Frequency: 1.0 / 12, Octaves: DefaultOctaves,
		Persistence: NoisePersistence, Lacunarity: NoiseLacunarity})
	br := Brush{Falloff: FalloffSmooth, Radius: 20}
	var sumAbs float64
	for y := range 80 {
		for x := range 96 {
			fbm := n.At(float64(x), float64(y))
			want := 0.8 * br.Weight(math.Hypot(float64(x-50), float64(y-40))) * fbm
			got := float64(a.Field.At(x, y))
			// Tolerance: float32 rounding of the fBm that the stroke
			// caches and of the result, 1e-7 for values below 1.
			if math.Abs(got-want) > 1e-7 {
				t.Fatalf("noise at (%d, %d) got %v; want %v", x, y, got, want)
			}
			sumAbs += math.Abs(got)
		}
	}
	if sumAbs < 10 {
		t.Errorf("noise: total |change| %v; want a visible texture", sumAbs)
	}
}

// symmetricLayer returns an n×n layer (n odd) whose field and base are
// invariant under x ↔ −x, y ↔ −y and transposition about the centre pixel.
func symmetricLayer(n int, seed uint64) *Layer {
	r := rand.New(rand.NewPCG(seed, 2))
	c := n / 2
	table := func() []float32 {
		g := make([]float32, (c+1)*(c+1))
		for i := range g {
			g[i] = r.Float32()
		}
		return g
	}
	fill := func(f *sim.Field, g []float32) {
		for y := range n {
			for x := range n {
				a, b := abs(x-c), abs(y-c)
				f.Data[y*n+x] = g[min(a, b)*(c+1)+max(a, b)]
			}
		}
	}
	l := &Layer{Field: sim.NewField(n, n, 1), Base: sim.NewField(n, n, 1)}
	fill(l.Field, table())
	fill(l.Base, table())
	return l
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TestSymmetry checks that a stamp at the centre of an odd layer keeps the
// layer's symmetry under x ↔ −x, y ↔ −y and transposition bit for bit:
// weights depend on dx² + dy², which is exact for integer offsets, and
// Smooth sums its neighbours in mirror pairs. Noise is left out: its weight
// envelope is as symmetric, but the texture it scales is not (TestNoise
// checks the envelope).
func TestSymmetry(t *testing.T) {
	const n = 61
	const c = n / 2
	for _, k := range []Kind{Raise, Lower, Smooth, Flatten, Set, Erase} {
		for _, f := range falloffs {
			for _, r := range []float64{9, 12.7, 30} {
				l := symmetricLayer(n, 9)
				before := append([]float32(nil), l.Field.Data...)
				b := Brush{Kind: k, Falloff: f, Radius: r, Strength: 0.7, Value: 0.25, Spacing: 0.25}
				stampOnce(t, l, b, c, c)
				if sameBits(before, l.Field.Data) {
					t.Fatalf("%v %v radius %v: the stamp changed nothing", k, f, r)
				}
				at := func(x, y int) uint32 { return math.Float32bits(l.Field.Data[(y+c)*n+x+c]) }
				for y := -c; y <= c; y++ {
					for x := -c; x <= c; x++ {
						v := at(x, y)
						if at(-x, y) != v || at(x, -y) != v || at(y, x) != v {
							t.Fatalf("%v %v radius %v: (%d, %d) = %v, mirrored (%v, %v), transposed %v; want equal bits",
								k, f, r, x, y, l.Field.Data[(y+c)*n+x+c],
								math.Float32frombits(at(-x, y)), math.Float32frombits(at(x, -y)), math.Float32frombits(at(y, x)))
						}
					}
				}
			}
		}
	}
}

func TestSmoothSmooths(t *testing.T) {
	l := randomLayer(64, 64, 11)
	before := append([]float32(nil), l.Field.Data...)
	lo, hi := l.Field.MinMax()
	b := Brush{Kind: Smooth, Falloff: FalloffSmooth, Radius: 12, Strength: 1, Spacing: 0.25}
	stampOnce(t, l, b, 32, 32)
	// Roughness: mean squared difference between side neighbours within 6
	// pixels of the centre, where every weight is at least 0.33.
	rough := func(d []float32) float64 {
		var s float64
		for y := 26; y <= 38; y++ {
			for x := 26; x <= 38; x++ {
				e := float64(d[y*64+x+1] - d[y*64+x])
				s += e * e
			}
		}
		return s
	}
	if r0, r1 := rough(before), rough(l.Field.Data); r1 > 0.5*r0 {
		t.Errorf("smooth: roughness %v after, %v before; want at most half", r1, r0)
	}
	for y := range 64 {
		for x := range 64 {
			i := y*64 + x
			v := l.Field.Data[i]
			if v < lo || v > hi {
				t.Fatalf("smooth at (%d, %d) got %v outside the old range [%v, %v]", x, y, v, lo, hi)
			}
			if math.Hypot(float64(x-32), float64(y-32)) >= 12 && v != before[i] {
				t.Fatalf("smooth outside the radius at (%d, %d) got %v; want %v", x, y, v, before[i])
			}
		}
	}
}

// TestSmoothKeepsMean runs Smooth strokes over a periodic layer, crossing its
// borders, and over a clipped one, along its corners: the exchange is
// conservative, so the layer's sum changes only by float32 rounding of the
// pixels written.
func TestSmoothKeepsMean(t *testing.T) {
	sum := func(d []float32) float64 {
		var s float64
		for _, v := range d {
			s += float64(v)
		}
		return s
	}
	for _, periodic := range []bool{true, false} {
		for _, f := range falloffs {
			l := randomLayer(96, 80, 13)
			l.Periodic = periodic
			before := append([]float32(nil), l.Field.Data...)
			s0 := sum(before)
			b := Brush{Kind: Smooth, Falloff: f, Radius: 13, Strength: 1, Spacing: 0.3}
			s, err := Begin(l, b, 90, 75)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range [][2]float64{{100, 85}, {-10, 70}, {3, -8}, {95, 5}, {50, 40}, {90, 75}} {
				s.To(p[0], p[1])
			}
			s.End()
			// Bound: each stamp rounds at most (2r+1)² values below 1
			// to float32, each by at most 2⁻²⁵; the float64 sums add
			// nothing that matters. The measured change is far below.
			n := float64(len(before))
			bound := float64(s.Stamps()) * 27 * 27 * 0x1p-25 / n
			if d := math.Abs(sum(l.Field.Data)-s0) / n; d > bound {
				t.Errorf("smooth (%v, periodic %v): mean changed by %v; want at most %v", f, periodic, d, bound)
			}
			if sameBits(before, l.Field.Data) {
				t.Errorf("smooth (%v, periodic %v): nothing changed", f, periodic)
			}
			if periodic {
				// The strokes wrapped: the corner pixel far from every
				// unwrapped stroke point changed.
				if l.Field.Data[0] == before[0] {
					t.Errorf("smooth (%v) on a periodic layer: pixel (0, 0) did not change", f)
				}
			}
		}
	}
}

func TestPeriodicTranslation(t *testing.T) {
	// On a periodic layer of zeros, a stamp across the corner is the
	// translate of a stamp in the middle.
	for _, k := range []Kind{Raise, Smooth} {
		a := NewLayer(sim.NewField(64, 64, 1))
		a.Periodic = true
		b := NewLayer(sim.NewField(64, 64, 1))
		b.Periodic = true
		if k == Smooth {
			a, b = randomLayer(64, 64, 1), randomLayer(64, 64, 1)
			// Make b the translate of a by (32, 32).
			for y := range 64 {
				for x := range 64 {
					b.Field.Data[((y+32)%64)*64+(x+32)%64] = a.Field.Data[y*64+x]
				}
			}
			a.Periodic, b.Periodic = true, true
		}
		br := Brush{Kind: k, Falloff: FalloffSmooth, Radius: 10, Strength: 0.6, Spacing: 0.25}
		stampOnce(t, a, br, 1.5, 2.25)
		stampOnce(t, b, br, 33.5, 34.25)
		for y := range 64 {
			for x := range 64 {
				va, vb := a.Field.Data[y*64+x], b.Field.Data[((y+32)%64)*64+(x+32)%64]
				if math.Float32bits(va) != math.Float32bits(vb) {
					t.Fatalf("%v: wrapped stamp at (%d, %d) got %v; the translate got %v", k, x, y, va, vb)
				}
			}
		}
		if k == Raise && a.Field.At(63, 63) <= 0 {
			t.Errorf("raise at (1.5, 2.25) on a periodic layer: pixel (63, 63) got %v; want > 0", a.Field.At(63, 63))
		}
	}
}
