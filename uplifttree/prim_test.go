package uplifttree

import (
	"math"
	"math/rand/v2"
	"testing"

	"orogen/sim"
)

// one returns a tree whose root sum holds the single shape s; the sum of
// one child is that child's value exactly.
func one(tb testing.TB, s Shape) *Tree {
	tb.Helper()
	t := New()
	if _, err := t.Add(1, -1, s); err != nil {
		tb.Fatal(err)
	}
	return t
}

// cube is the primitive falloff (1 − q)³ at q = d²/r².
func cube(q float64) float64 { return (1 - q) * (1 - q) * (1 - q) }

// ulp2 is the tolerance of a value computed with a handful of roundings
// (a falloff cube, a product, an interpolation): a few ulps of a value of
// order 1.
const ulp2 = 1e-15

type probe struct {
	name string
	x, y float64
	want float64
	tol  float64 // 0: exact
}

func checkProbes(t *testing.T, tr *Tree, probes []probe) {
	t.Helper()
	for _, p := range probes {
		got := tr.Eval(p.x, p.y)
		if math.Abs(got-p.want) > p.tol || (p.tol == 0 && got != p.want) {
			t.Errorf("%s at (%g, %g): got %.17g; want %.17g (tolerance %g)", p.name, p.x, p.y, got, p.want, p.tol)
		}
	}
}

func TestDisc(t *testing.T) {
	tr := one(t, &Disc{Center: Point{1000, 2000}, Radius: 500, Value: 0.8})
	checkProbes(t, tr, []probe{
		// d = 0: (1 − 0)³ is exact.
		{"centre", 1000, 2000, 0.8, 0},
		// d = r/2: 0.8·(3/4)³ = 0.3375, one product and one cube.
		{"half radius", 1250, 2000, 0.8 * 27 / 64, ulp2},
		{"half radius, diagonal", 1000 + 250/math.Sqrt2, 2000 + 250/math.Sqrt2, 0.8 * 27 / 64, 1e-12},
		// d = r: d² = r² exactly, so the value is exactly 0.
		{"edge", 1500, 2000, 0, 0},
		{"edge, north", 1000, 1500, 0, 0},
		// Just inside the edge the falloff is (1 − d²/r²)³ ≈ (4e-6)³, tiny
		// but positive; 1 − d²/r² loses ten digits to cancellation, so the
		// tolerance is 1e-10 of the value.
		{"just inside", 1499.999, 2000, 0.8 * cube(499.999*499.999/(500*500)), 1e-26},
		{"outside", 1600, 2000, 0, 0},
		{"far", -1e6, 5e6, 0, 0},
	})
}

func TestSegment(t *testing.T) {
	// Two control points: r(t) = 100 + 200t, u(t) = 0.5 + 0.5t, linear.
	tr := one(t, &Segment{A: Point{0, 0}, B: Point{1000, 0}, Ctrls: []Ctrl{{0, 100, 0.5}, {1, 300, 1}}})
	checkProbes(t, tr, []probe{
		{"skeleton start", 0, 0, 0.5, 0},
		{"skeleton end", 1000, 0, 1, 0},
		// t = 0.5: r = 200, u = 0.75 (the interpolation rounds once or twice).
		{"skeleton middle", 500, 0, 0.75, ulp2},
		{"middle, d = r/2", 500, 100, 0.75 * 27 / 64, ulp2},
		{"middle, d = r", 500, -200, 0, 0},
		{"middle, outside", 500, 250, 0, 0},
		// Beyond b the projection clamps to t = 1: round cap of radius 300.
		{"cap at b", 1100, 0, cube(1.0 / 9), ulp2},
		{"cap at a", -50, 0, 0.5 * 27 / 64, ulp2},
		{"beyond cap", 1300, 0, 0, 0},
	})
	// Three control points: the profile peaks at t = 0.5 exactly.
	tr = one(t, &Segment{A: Point{0, 0}, B: Point{1000, 0}, Ctrls: []Ctrl{{0, 100, 0}, {0.5, 200, 1}, {1, 100, 0}}})
	checkProbes(t, tr, []probe{
		{"peak", 500, 0, 1, 0},
		{"zero at a", 0, 0, 0, 0},
		{"peak, d = r/2", 500, 100, 27.0 / 64, ulp2},
	})
	// Along the skeleton the profile rises monotonically to the peak.
	prev := -1.0
	for x := 0.0; x <= 500; x += 5 {
		v := tr.Eval(x, 0)
		if v < prev || v > 1 {
			t.Fatalf("profile at x = %g: %v after %v; want a monotone rise within [0, 1]", x, v, prev)
		}
		prev = v
	}
	// A degenerate skeleton (a = b) is a disc with the first control point.
	tr = one(t, &Segment{A: Point{10, 10}, B: Point{10, 10}, Ctrls: []Ctrl{{0, 100, 0.5}, {1, 300, 1}}})
	checkProbes(t, tr, []probe{{"degenerate centre", 10, 10, 0.5, 0}, {"degenerate d = r/2", 60, 10, 0.5 * 27 / 64, ulp2}})
}

// TestMono checks the monotone cubic: knots exact, monotone and within the
// knot values on every interval, continuous slope at the knots, and lines
// reproduced.
func TestMono(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for k := range 200 {
		n := 1 + r.IntN(7)
		x := randTs(r, n)
		y := make([]float64, n)
		for i := range y {
			y[i] = rnd(r, -1, 1)
			if r.IntN(4) == 0 && i > 0 {
				y[i] = y[i-1] // flat runs
			}
		}
		c := newMono(x, y)
		for i := range n {
			if got := c.at(x[i]); got != y[i] {
				t.Fatalf("case %d: at knot %d got %v; want %v exactly", k, i, got, y[i])
			}
		}
		for i := 0; i+1 < n; i++ {
			lo, hi := min(y[i], y[i+1]), max(y[i], y[i+1])
			prev := y[i]
			for s := 1; s <= 100; s++ {
				v := c.local(i, float64(s)/100)
				if v < lo || v > hi {
					t.Fatalf("case %d interval %d: %v outside [%v, %v]", k, i, v, lo, hi)
				}
				if (y[i+1] >= y[i] && v < prev) || (y[i+1] < y[i] && v > prev) {
					t.Fatalf("case %d interval %d: not monotone at step %d", k, i, s)
				}
				prev = v
			}
		}
		// Slopes from either side of an interior knot agree: one-sided
		// differences with step h differ by O(h) for a C¹ curve (the
		// second derivative of these data is at most a few hundred).
		for i := 1; i+1 < n; i++ {
			h := 1e-7 * min(x[i]-x[i-1], x[i+1]-x[i])
			left := (c.at(x[i]) - c.at(x[i]-h)) / h
			right := (c.at(x[i]+h) - c.at(x[i])) / h
			if math.Abs(left-right) > 1e-3*(1+math.Abs(left)) {
				t.Fatalf("case %d knot %d: slope %v from the left, %v from the right", k, i, left, right)
			}
		}
	}
	// Collinear data give the line (three roundings of the cubic's power form).
	c := newMono([]float64{0, 0.2, 0.7, 1}, []float64{1, 1.4, 2.4, 3})
	for s := 0.0; s <= 1; s += 0.01 {
		if got := c.at(s); math.Abs(got-(1+2*s)) > 1e-14 {
			t.Fatalf("line at %v: got %v; want %v", s, got, 1+2*s)
		}
	}
}

func TestCurve(t *testing.T) {
	// An L: east along y = 0, then south along x = 1000; r = 200, u = 1.
	l := func(blend float64) *Tree {
		return one(t, &Curve{Blend: blend, Vertices: []Vertex{{0, 0, 200, 1}, {1000, 0, 200, 1}, {1000, 1000, 200, 1}}})
	}
	tr := l(0.1)
	checkProbes(t, tr, []probe{
		{"first vertex", 0, 0, 1, 0},
		{"join vertex", 1000, 0, 1, 0},
		{"first segment", 500, 0, 1, 0},
		// Far from the join only one segment counts (m₁ − m₂ ≥ blend).
		{"first segment, d = r/2", 500, 100, 27.0 / 64, ulp2},
		{"second segment, d = r/2", 1100, 500, 27.0 / 64, ulp2},
		// Outside the bend both segments clamp to the join vertex.
		{"outer corner", 1100, -100, cube(0.5), ulp2},
		// On the inner bisector both segments give the same value, and the
		// blend of equal values is that value exactly.
		{"inner bisector", 900, 100, 27.0 / 64, ulp2},
		{"outside", 500, 300, 0, 0},
	})
	// Crossing the inner bisector along (1, 1): with blend 0 the value is
	// the max of two ramps and has a crease, a jump of the slope of about
	// 0.017 per metre, so the second difference with step h is about
	// 0.017·h; with blend 0.1 the join is smooth (second derivative about
	// 0.006 per m²) and the second difference is about 0.006·h². At
	// h = 1 mm: 1.7e-5 against 6e-9, each 3 to 15 times from its threshold.
	second := func(tr *Tree, h float64) float64 {
		f := func(s float64) float64 { return tr.Eval(900+s, 100+s) }
		return math.Abs(f(h) - 2*f(0) + f(-h))
	}
	const h = 0.001
	if c := second(l(0), h); c < 5e-6 {
		t.Errorf("blend 0: second difference %v at the crease; want the crease (> 5e-6)", c)
	}
	if c := second(l(0.1), h); c > 1e-7 {
		t.Errorf("blend 0.1: second difference %v at the bisector; want a smooth join (< 1e-7)", c)
	}
	// Radius and value interpolate along arc length: half way along a
	// two-vertex curve they are the means.
	tr = one(t, &Curve{Vertices: []Vertex{{0, 0, 100, 0.5}, {1000, 0, 300, 1}}})
	checkProbes(t, tr, []probe{{"interpolated", 500, 100, 0.75 * 27 / 64, ulp2}})
}

func TestValley(t *testing.T) {
	tr := one(t, &Valley{A: Point{0, 0}, B: Point{1000, 0}, Ctrls: []Ctrl{{0, 200, 0.1}}, Outside: 1})
	checkProbes(t, tr, []probe{
		// On the skeleton: Outside + (floor − Outside)·1.
		{"floor", 500, 0, 0.1, ulp2},
		{"half width", 500, 100, 1 - 0.9*27/64, ulp2},
		{"wall top", 500, 200, 1, 0},
		{"outside", 500, 300, 1, 0},
		{"beyond the end", 1300, 0, 1, 0},
		{"far", 1e7, -1e7, 1, 0},
	})
	// The profile rises monotonically from the floor to Outside.
	prev := 0.0
	for y := 0.0; y <= 250; y += 2 {
		v := tr.Eval(500, y)
		if v < prev-1e-15 || v > 1 {
			t.Fatalf("valley wall at y = %g: %v after %v; want a monotone rise to 1", y, v, prev)
		}
		prev = v
	}
}

func TestRegion(t *testing.T) {
	square := []Point{{0, 0}, {1000, 0}, {1000, 1000}, {0, 1000}}
	tr := one(t, &Region{Polygon: square, Border: 100, Value: 0.7})
	checkProbes(t, tr, []probe{
		{"deep inside", 500, 500, 0.7, 0},
		{"depth = border", 100, 500, 0.7, 0},
		// Depth 50 = border/2: smoothstep(1/2) = 1/2.
		{"half border", 50, 500, 0.35, ulp2},
		{"corner band", 50, 50, 0.35, ulp2},
		{"outside", 1500, 500, 0, 0},
		{"just outside", -1e-9, 500, 0, 0},
	})
	tr = one(t, &Region{Polygon: square, Value: 0.7})
	checkProbes(t, tr, []probe{{"hard inside", 1, 1, 0.7, 0}, {"hard outside", -1, 1, 0, 0}})
	// A bow tie: even-odd, the two lobes are inside.
	tr = one(t, &Region{Polygon: []Point{{0, 0}, {1000, 1000}, {1000, 0}, {0, 1000}}, Value: 1})
	checkProbes(t, tr, []probe{{"left lobe", 100, 500, 1, 0}, {"top gap", 500, 100, 0, 0}})
}

func TestNoise(t *testing.T) {
	s := &Noise{Seed: 3, Frequency: 1.0 / 1000, Octaves: 5, Persistence: 0.5, Lacunarity: 2, Amplitude: 0.3, Offset: 0.2}
	tr := one(t, s)
	other := one(t, &Noise{Seed: 4, Frequency: 1.0 / 1000, Octaves: 5, Persistence: 0.5, Lacunarity: 2, Amplitude: 0.3, Offset: 0.2})
	r := rand.New(rand.NewPCG(1, 1))
	var sum, sum2 float64
	differ := 0
	const n = 20000
	for range n {
		x, y := rnd(r, -1e5, 1e5), rnd(r, -1e5, 1e5)
		v := tr.Eval(x, y)
		if v < 0.2-0.3 || v > 0.2+0.3 {
			t.Fatalf("noise at (%g, %g) = %v outside offset ± amplitude", x, y, v)
		}
		if v != tr.Eval(x, y) {
			t.Fatal("noise is not deterministic")
		}
		if v != other.Eval(x, y) {
			differ++
		}
		sum += v
		sum2 += v * v
	}
	mean := sum / n
	std := math.Sqrt(sum2/n - mean*mean)
	// The mean of gradient noise is 0; over 20000 samples spread over
	// 200 km (many independent lattice cells) the sample mean is within a
	// few thousandths. Its spread is about that of sim/noise's fBm
	// (0.305·√(Σa²)/Σ|a| ≈ 0.19 for 5 octaves of persistence 0.5).
	if math.Abs(mean-0.2) > 0.01 {
		t.Errorf("mean %v; want 0.2 ± 0.01", mean)
	}
	if std < 0.3*0.1 || std > 0.3*0.3 {
		t.Errorf("standard deviation %v; want 0.3·(0.1 … 0.3)", std)
	}
	if differ < n*9/10 {
		t.Errorf("seeds 3 and 4 agree at %d of %d points; want different fields", n-differ, n)
	}
}

// TestFBMSpan checks that the grid path of the noise gives the bits of the
// per-point path, on grid spans and on spans that only look like grids.
func TestFBMSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	w := new(work)
	for k := range 50 {
		f := newFractal(r.Uint64(), 1/rnd(r, 10, 5000), 1+r.IntN(6), rnd(r, 0, 1), rnd(r, 1, 3), 0)
		nx, ny := 1+r.IntN(40), 1+r.IntN(40)
		xs, ys := make([]float64, nx*ny), make([]float64, nx*ny)
		x0, y0, c := rnd(r, -1e6, 1e6), rnd(r, -1e6, 1e6), rnd(r, 0.1, 100)
		for j := range ny {
			for i := range nx {
				xs[j*nx+i], ys[j*nx+i] = x0+(float64(i)+0.5)*c, y0+(float64(j)+0.5)*c
			}
		}
		if k%3 == 0 && nx*ny > 2 {
			xs[nx*ny-1] += 1 // not a grid any more
		}
		dst := make([]float64, nx*ny)
		span(f, w, xs, ys, dst)
		for i := range dst {
			if want := f.At(xs[i], ys[i]); math.Float64bits(dst[i]) != math.Float64bits(want) {
				t.Fatalf("case %d (%d×%d), point %d: span gave %v; at gives %v", k, nx, ny, i, dst[i], want)
			}
		}
	}
}

func TestRaster(t *testing.T) {
	layer := sim.NewField(4, 2, 1)
	copy(layer.Data, []float32{0, 1, 2, 3, 4, 5, 6, 7})
	tr := one(t, &Raster{Layer: "paint", Rect: Rect{0, 0, 400, 200}, Value: 0.5})
	tr.SetLayers(LayerMap{"paint": layer})
	checkProbes(t, tr, []probe{
		// Cell centres give the cell values exactly.
		{"cell (0, 0)", 50, 50, 0, 0},
		{"cell (3, 1)", 350, 150, 0.5 * 7, 0},
		{"cell (1, 0)", 150, 50, 0.5 * 1, 0},
		// Half way between cell centres: the mean.
		{"between (1, 0) and (2, 0)", 200, 50, 0.5 * 1.5, 0},
		{"between rows", 150, 100, 0.5 * 3, 0},
		// The border half-cells take the edge value.
		{"west border", 10, 50, 0, 0},
		{"east border", 390, 150, 0.5 * 7, 0},
		{"outside", 401, 100, 0, 0},
	})
	tr.SetLayers(nil)
	checkProbes(t, tr, []probe{{"missing layer", 150, 50, 0, 0}})
	if got := tr.LayerNames(); len(got) != 1 || got[0] != "paint" {
		t.Errorf("LayerNames = %v; want [paint]", got)
	}
}
