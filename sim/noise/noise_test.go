package noise

import (
	"math"
	"math/rand/v2"
	"testing"
)

// points returns n pseudo-random points in [lo, hi)³ from a fixed seed.
func points(n int, lo, hi float64) [][3]float64 {
	r := rand.New(rand.NewPCG(7, 11))
	p := make([][3]float64, n)
	for i := range p {
		for k := range 3 {
			p[i][k] = lo + (hi-lo)*r.Float64()
		}
	}
	return p
}

// output is one function under test: its name, the number of coordinates
// it reads, its Lipschitz bound (see lip2, lip3) and the function of a point.
type output struct {
	name string
	dim  int
	lip  float64
	f    func(p [3]float64) float64
}

// Lipschitz bounds. Along one axis the derivative of the blend is at most
// |g_x| + max f'·|ramp₁ − ramp₀| with max f' = 15/8 and |ramp| ≤ |g|·(corner
// distance). Noise2: (1 + 15/8·2·√2)·√2 ≈ 8.9 per axis, ≈ 12.6 for the
// gradient magnitude. Noise3 (|g| = √2, distance ≤ √3, scale √(2/3)):
// (1 + 15/8·2·√6)·√(2/3) ≈ 8.3 per axis, ≈ 14.4 in magnitude.
const (
	lip2 = 12.6
	lip3 = 14.4
)

// fbmLip is the factor an fBm multiplies the noise's Lipschitz bound by:
// Σ|a|·lacunarity^o / Σ|a|.
func fbmLip(octaves int, persistence, lacunarity float64) float64 {
	var num, den float64
	a, f := 1.0, 1.0
	for range octaves {
		num += math.Abs(a) * f
		den += math.Abs(a)
		a *= persistence
		f *= lacunarity
	}
	return num / den
}

// fractal returns the Fractal of seed with frequency 1 and no offset.
func fractal(seed uint64, octaves int, persistence, lacunarity float64) *Fractal {
	return NewFractal(FractalSpec{Seed: seed, Frequency: 1, Octaves: octaves, Persistence: persistence, Lacunarity: lacunarity})
}

// outputs lists Noise2, Noise3 and a few Fractal settings of n's seed.
func outputs(n *Noise, seed uint64) []output {
	f6, f8, f5 := fractal(seed, 6, 0.5, 2), fractal(seed, 8, 0.9, 1.7), fractal(seed, 5, -0.7, 2.3)
	return []output{
		{"Noise2", 2, lip2, func(p [3]float64) float64 { return n.Noise2(p[0], p[1]) }},
		{"Noise3", 3, lip3, func(p [3]float64) float64 { return n.Noise3(p[0], p[1], p[2]) }},
		{"Fractal", 2, lip2 * fbmLip(6, 0.5, 2), func(p [3]float64) float64 { return f6.At(p[0], p[1]) }},
		{"Fractal/rough", 2, lip2 * fbmLip(8, 0.9, 1.7), func(p [3]float64) float64 { return f8.At(p[0], p[1]) }},
		{"Fractal/neg", 2, lip2 * fbmLip(5, -0.7, 2.3), func(p [3]float64) float64 { return f5.At(p[0], p[1]) }},
	}
}

func TestSameSeedSameValues(t *testing.T) {
	a, b := New(42), New(42)
	fa, fb := outputs(a, 42), outputs(b, 42)
	for k := range fa {
		for _, p := range points(2000, -300, 300) {
			va, vb := fa[k].f(p), fb[k].f(p)
			if math.Float64bits(va) != math.Float64bits(vb) {
				t.Fatalf("%s%v: got %v and %v from two New(42); want identical", fa[k].name, p, va, vb)
			}
		}
	}
}

func TestSeedsDiffer(t *testing.T) {
	seeds := []uint64{0, 1, 2, 1 << 63, math.MaxUint64}
	ps := points(1000, -50, 50)
	for i, si := range seeds {
		for _, sj := range seeds[i+1:] {
			fi, fj := outputs(New(si), si), outputs(New(sj), sj)
			for k := range fi {
				same := 0
				for _, p := range ps {
					if fi[k].f(p) == fj[k].f(p) {
						same++
					}
				}
				// Off-lattice points of two independent permutations agree
				// only by accident; allow 1%.
				if same > len(ps)/100 {
					t.Errorf("%s seeds %d and %d: got %d of %d equal values; want ≤ %d", fi[k].name, si, sj, same, len(ps), len(ps)/100)
				}
			}
		}
	}
}

func TestBounded(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4} {
		for _, c := range outputs(New(seed), seed) {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, p := range points(200000, -600, 600) {
				v := c.f(p)
				if !(v >= -1 && v <= 1) {
					t.Fatalf("seed %d %s%v: got %v; want within [-1, 1]", seed, c.name, p, v)
				}
				lo, hi = min(lo, v), max(hi, v)
			}
			// "Roughly [-1, 1]": the single-octave noise must use most of
			// the range (measured extremes ≈ ±0.97 for Noise2, ±0.8 for
			// Noise3 on 2·10⁶ samples; 2·10⁵ see a little less).
			if c.name == "Noise2" || c.name == "Noise3" {
				if hi < 0.65 || lo > -0.65 {
					t.Errorf("seed %d %s: got range [%.3f, %.3f]; want beyond ±0.65", seed, c.name, lo, hi)
				}
			}
		}
	}
}

func TestZeroOnLattice(t *testing.T) {
	n := New(5)
	for x := -3; x <= 260; x += 7 {
		for y := -3; y <= 260; y += 11 {
			if v := n.Noise2(float64(x), float64(y)); v != 0 {
				t.Fatalf("Noise2(%d, %d) = %v; want 0", x, y, v)
			}
			if v := n.Noise3(float64(x), float64(y), float64(x-y)); v != 0 {
				t.Fatalf("Noise3(%d, %d, %d) = %v; want 0", x, y, x-y, v)
			}
		}
	}
}

func TestPeriod(t *testing.T) {
	n := New(9)
	for _, p := range points(500, -100, 100) {
		if a, b := n.Noise2(p[0], p[1]), n.Noise2(p[0]+256, p[1]-512); math.Abs(a-b) > 1e-9 {
			t.Fatalf("Noise2 at %v and shifted by (256, -512): got %v and %v; want equal", p, a, b)
		}
		if a, b := n.Noise3(p[0], p[1], p[2]), n.Noise3(p[0]-256, p[1], p[2]+256); math.Abs(a-b) > 1e-9 {
			t.Fatalf("Noise3 at %v and shifted by (-256, 0, 256): got %v and %v; want equal", p, a, b)
		}
	}
}

func TestContinuity(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for _, c := range outputs(New(3), 3) {
		for _, p := range points(20000, -300, 300) {
			for _, step := range []float64{1e-2, 1e-4, 1e-7} {
				var q [3]float64
				var d2 float64
				for k := range 3 {
					dk := step * (2*r.Float64() - 1)
					q[k] = p[k] + dk
					if k < c.dim {
						d2 += dk * dk
					}
				}
				// 1e-12 absorbs the rounding of the two evaluations.
				if diff, lim := math.Abs(c.f(q)-c.f(p)), c.lip*math.Sqrt(d2)+1e-12; diff > lim {
					t.Fatalf("%s: |f(%v) - f(%v)| = %g; want ≤ %g (Lipschitz %.1f)", c.name, q, p, diff, lim, c.lip)
				}
			}
		}
	}
}

func TestMeanNearZero(t *testing.T) {
	// The gradient sets are symmetric under negation, so each output has
	// zero mean over the permutations; for one permutation the mean over a
	// whole period (256 units, sampled uniformly) differs from 0 only by
	// the residual of ~65536 per-cell means plus sampling noise. With
	// standard deviation ≈ 0.3 and 200000 samples the sampling error is
	// 0.3/√200000 ≈ 7e-4; measured means stay below 1e-3. 5e-3 is 7σ.
	const tol = 5e-3
	for _, seed := range []uint64{1, 77, 1234} {
		for _, c := range outputs(New(seed), seed) {
			var sum float64
			ps := points(200000, 0, 256)
			for _, p := range ps {
				sum += c.f(p)
			}
			if m := sum / float64(len(ps)); math.Abs(m) > tol {
				t.Errorf("seed %d %s: got mean %.5f; want |mean| ≤ %g", seed, c.name, m, tol)
			}
		}
	}
}

func TestStd(t *testing.T) {
	// Std2, Std3 and FBMStd must describe the output within 5% (sampling
	// error of a standard deviation from 200000 samples is ≈ 0.2%; the
	// rest is seed-to-seed spread and the independent-octave model).
	for _, seed := range []uint64{1, 2, 3} {
		n := New(seed)
		f4, f6 := fractal(seed, 4, 0.5, 2), fractal(seed, 6, 0.6, 2)
		cases := []struct {
			name string
			want float64
			f    func(p [3]float64) float64
		}{
			{"Noise2", Std2, func(p [3]float64) float64 { return n.Noise2(p[0], p[1]) }},
			{"Noise3", Std3, func(p [3]float64) float64 { return n.Noise3(p[0], p[1], p[2]) }},
			{"Fractal/4/0.5", FBMStd(Std2, 4, 0.5), func(p [3]float64) float64 { return f4.At(p[0], p[1]) }},
			{"Fractal/6/0.6", FBMStd(Std2, 6, 0.6), func(p [3]float64) float64 { return f6.At(p[0], p[1]) }},
		}
		for _, c := range cases {
			var ss float64
			ps := points(200000, 0, 256)
			for _, p := range ps {
				v := c.f(p)
				ss += v * v
			}
			got := math.Sqrt(ss / float64(len(ps)))
			if math.Abs(got-c.want) > 0.05*c.want {
				t.Errorf("seed %d %s: got std %.4f; want %.4f ± 5%%", seed, c.name, got, c.want)
			}
		}
	}
}

func TestFractalEdgeCases(t *testing.T) {
	if v := fractal(1, 0, 0.5, 2).At(0.3, 0.7); v != 0 {
		t.Errorf("0 octaves: got %v; want 0", v)
	}
	n := New(1)
	// One octave at frequency 1 is the noise itself, to the bit.
	if a, b := fractal(1, 1, 0.5, 2).At(3.3, 1.7), n.Noise2(3.3, 1.7); a != b {
		t.Errorf("1 octave: got %v; want Noise2 = %v", a, b)
	}
	// Persistence 0 leaves only the first octave.
	if a, b := fractal(1, 5, 0, 2).At(3.3, 1.7), n.Noise2(3.3, 1.7); a != b {
		t.Errorf("persistence 0: got %v; want Noise2 = %v", a, b)
	}
	// Far-off and non-finite coordinates put every octave's lattice x at
	// 0: defined, bounded and all alike, never undefined conversions.
	f := fractal(1, 4, 0.5, 2)
	want := f.At(math.NaN(), 2.5)
	for _, x := range []float64{math.Inf(1), math.Inf(-1), 1e300, -1e17} {
		if v := f.At(x, 2.5); v != want || !(math.Abs(v) <= 1) {
			t.Errorf("At(%v, 2.5) = %v; want At(NaN, 2.5) = %v within [-1, 1]", x, v, want)
		}
	}
}

func TestFractalGridMatchesAt(t *testing.T) {
	// Grid must give At's bits at every point, for any sub-rectangle of
	// the axes, with offsets, negative persistence and odd spacings.
	r := rand.New(rand.NewPCG(7, 7))
	for _, spec := range []FractalSpec{
		{Seed: 1, Frequency: 0.013, Octaves: 6, Persistence: 0.5, Lacunarity: 2},
		{Seed: 9, Frequency: 1.7, Octaves: 3, Persistence: -0.8, Lacunarity: 2.3, Offset: 0.5},
		{Seed: 2, Frequency: 1, Octaves: 0, Persistence: 0.5, Lacunarity: 2},
	} {
		f := NewFractal(spec)
		xs, ys := make([]float64, 37), make([]float64, 23)
		for i := range xs {
			xs[i] = 1000*r.Float64() - 500
		}
		for j := range ys {
			ys[j] = -40 + 3.3*float64(j)
		}
		var cols, rows Axis
		f.SetX(&cols, xs)
		f.SetY(&rows, ys)
		for _, b := range [][4]int{{0, 37, 0, 23}, {5, 6, 3, 20}, {36, 37, 0, 1}, {10, 10, 2, 9}} {
			c0, c1, r0, r1 := b[0], b[1], b[2], b[3]
			dst := make([]float64, (c1-c0)*(r1-r0))
			f.Grid(dst, &cols, c0, c1, &rows, r0, r1)
			for j := r0; j < r1; j++ {
				for i := c0; i < c1; i++ {
					got, want := dst[(j-r0)*(c1-c0)+i-c0], f.At(xs[i], ys[j])
					if math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("%+v grid %v at (%d, %d): got %v; want At = %v", spec, b, i, j, got, want)
					}
				}
			}
		}
	}
}

func TestFractalSpecValidate(t *testing.T) {
	good := FractalSpec{Frequency: 1, Octaves: 4, Persistence: 0.5, Lacunarity: 2}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid spec: %v", err)
	}
	for _, bad := range []func(*FractalSpec){
		func(s *FractalSpec) { s.Frequency = 0 },
		func(s *FractalSpec) { s.Frequency = math.NaN() },
		func(s *FractalSpec) { s.Octaves = -1 },
		func(s *FractalSpec) { s.Octaves = MaxFractalOctaves + 1 },
		func(s *FractalSpec) { s.Persistence = math.Inf(1) },
		func(s *FractalSpec) { s.Lacunarity = 0 },
		func(s *FractalSpec) { s.Offset = math.NaN() },
	} {
		s := good
		bad(&s)
		if err := s.Validate(); err == nil {
			t.Errorf("%+v: got no error; want one", s)
		}
	}
}

var sink float64

func BenchmarkNoise2(b *testing.B) {
	n := New(1)
	ps := points(1024, -100, 100)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		p := &ps[i&1023]
		sink += n.Noise2(p[0], p[1])
	}
}

func BenchmarkFractalGrid(b *testing.B) {
	// Per point of a 64×64 tile, 6 octaves.
	f := fractal(1, 6, 0.5, 2)
	xs, ys := make([]float64, 64), make([]float64, 64)
	for i := range xs {
		xs[i], ys[i] = 0.37*float64(i), 0.41*float64(i)
	}
	var cols, rows Axis
	dst := make([]float64, 64*64)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		f.SetX(&cols, xs)
		f.SetY(&rows, ys)
		f.Grid(dst, &cols, 0, 64, &rows, 0, 64)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/4096, "ns/point")
}

func BenchmarkNoise3(b *testing.B) {
	n := New(1)
	ps := points(1024, -100, 100)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		p := &ps[i&1023]
		sink += n.Noise3(p[0], p[1], p[2])
	}
}

func BenchmarkFractalAt(b *testing.B) {
	f := fractal(1, 6, 0.5, 2)
	ps := points(1024, -100, 100)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		p := &ps[i&1023]
		sink += f.At(p[0], p[1])
	}
}
