package delaunay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func uniform(rng *rand.Rand, n int) []Point {
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = Point{rng.Float64(), rng.Float64()}
	}
	return pts
}

// clustered draws n points around a few Gaussian centres, several orders of
// magnitude tighter than the spread of the centres.
func clustered(rng *rand.Rand, n int) []Point {
	centres := uniform(rng, 5)
	pts := make([]Point, n)
	for i := range pts {
		c := centres[i%len(centres)]
		s := math.Pow(10, -1-4*rng.Float64())
		pts[i] = Point{c.X + s*rng.NormFloat64(), c.Y + s*rng.NormFloat64()}
	}
	return pts
}

func grid(w, h int) []Point {
	pts := make([]Point, 0, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			pts = append(pts, Point{float64(x), float64(y)})
		}
	}
	return pts
}

func TestRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{3, 4, 10, 100, 1000, 20000} {
		for _, gen := range []struct {
			name string
			f    func(*rand.Rand, int) []Point
		}{{"uniform", uniform}, {"clustered", clustered}} {
			t.Run(fmt.Sprintf("%s/%d", gen.name, n), func(t *testing.T) {
				pts := gen.f(rng, n)
				tr, err := Triangulate(pts)
				if err != nil {
					t.Fatalf("got error %v; want nil", err)
				}
				if err := validate(tr); err != nil {
					t.Fatal(err)
				}
				// Brute force all-points check only where n×triangles is small.
				if err := checkDelaunay(tr, n <= 1000); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

func TestCocircular(t *testing.T) {
	circle := func(n int, r float64) []Point {
		pts := make([]Point, n)
		for i := range pts {
			a := 2 * math.Pi * float64(i) / float64(n)
			pts[i] = Point{r * math.Cos(a), r * math.Sin(a)}
		}
		return pts
	}
	// Integer circle points: all lattice points with x²+y² = 5^4 = 625
	// lie exactly on one circle (floating-point circles do not).
	var lattice []Point
	for x := -25; x <= 25; x++ {
		for y := -25; y <= 25; y++ {
			if x*x+y*y == 625 {
				lattice = append(lattice, Point{float64(x), float64(y)})
			}
		}
	}
	scaled := grid(30, 30)
	for i := range scaled {
		scaled[i].X, scaled[i].Y = 1e-3*scaled[i].X+1e6, 1e-3*scaled[i].Y-1e6
	}
	for _, tc := range []struct {
		name string
		pts  []Point
		all  bool
	}{
		{"grid3x3", grid(3, 3), true},
		{"grid2x50", grid(2, 50), true},
		{"grid100x100", grid(100, 100), false},
		{"grid offset", scaled, true},
		{"circle360", circle(360, 1), true},
		{"circle+centre", append(circle(64, 10), Point{}), true},
		{"lattice circle", lattice, true},
		{"lattice circle+centre", append(lattice, Point{}), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Triangulate(tc.pts)
			if err != nil {
				t.Fatalf("got error %v; want nil", err)
			}
			if err := validate(tr); err != nil {
				t.Fatal(err)
			}
			if err := checkDelaunay(tr, tc.all); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		pts  []Point
		want error
	}{
		{"empty", nil, ErrTooFew},
		{"two", []Point{{0, 0}, {1, 1}}, ErrTooFew},
		{"collinear", []Point{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {-5, -5}}, ErrCollinear},
		{"collinear3", []Point{{0, 0}, {0, 1}, {0, 2}}, ErrCollinear},
		{"duplicate", []Point{{0, 0}, {1, 0}, {0, 1}, {1, 0}}, ErrDuplicate},
		{"all same", []Point{{2, 2}, {2, 2}, {2, 2}}, ErrDuplicate},
		{"duplicate pair on line", []Point{{0, 0}, {1, 0}, {1, 0}}, ErrDuplicate},
		{"NaN", []Point{{0, 0}, {1, 0}, {0, nan}}, ErrNonFinite},
		{"Inf", []Point{{0, 0}, {math.Inf(1), 0}, {0, 1}}, ErrNonFinite},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Triangulate(tc.pts)
			if !errors.Is(err, tc.want) {
				t.Fatalf("got error %v; want %v", err, tc.want)
			}
		})
	}
	// The duplicate error names both indices.
	rng := rand.New(rand.NewPCG(1, 1))
	pts := uniform(rng, 1000)
	pts[717] = pts[42]
	_, err := Triangulate(pts)
	if want := "points 42 and 717"; err == nil || !contains(err.Error(), want) {
		t.Fatalf("got error %v; want one naming %q", err, want)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestDeterministic(t *testing.T) {
	pts := uniform(rand.New(rand.NewPCG(1, 1)), 5000)
	a, err := Triangulate(pts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Triangulate(pts)
	for i := range a.Triangles {
		if a.Triangles[i] != b.Triangles[i] || a.Halfedges[i] != b.Halfedges[i] {
			t.Fatalf("runs differ at halfedge %d", i)
		}
	}
}

// TestPredicates compares the filtered predicates with exact evaluation on
// nearly degenerate inputs, where the plain float formula gets signs wrong.
func TestPredicates(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for k := 0; k < 2000; k++ {
		// Points near the line y = x, offsets of a few ulps.
		a := Point{0.5 + float64(rng.IntN(64))*0x1p-53, 0.5 + float64(rng.IntN(64))*0x1p-53}
		b := Point{12, 12}
		c := Point{24, 24}
		d := Point{rng.Float64(), rng.Float64()}
		if got, want := sign(orient(a, b, c)), sign(orientExact(a, b, c)); got != want {
			t.Fatalf("orient(%v, %v, %v) sign: got %v; want %v", a, b, c, got, want)
		}
		if got, want := sign(inCircle(a, b, d, c)), sign(inCircleExact(a, b, d, c)); got != want {
			t.Fatalf("inCircle sign: got %v; want %v", got, want)
		}
	}
	// Hand-checked signs.
	o, x, y := Point{0, 0}, Point{1, 0}, Point{0, 1}
	if got := sign(orient(o, x, y)); got != 1 {
		t.Errorf("orient(ccw) sign: got %v; want 1", got)
	}
	if got := sign(inCircle(o, x, y, Point{0.5, 0.5})); got != 1 {
		t.Errorf("inCircle(inside) sign: got %v; want 1", got)
	}
	if got := sign(inCircle(o, x, y, Point{1, 1})); got != 0 {
		t.Errorf("inCircle(cocircular) sign: got %v; want 0", got)
	}
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// FuzzTriangulate decodes pairs of float64 (little-endian) and checks that
// Triangulate either returns an error or a triangulation meeting every
// invariant, including the Delaunay property.
func FuzzTriangulate(f *testing.F) {
	enc := func(pts ...float64) []byte {
		b := make([]byte, 8*len(pts))
		for i, v := range pts {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
		}
		return b
	}
	f.Add(enc(0, 0, 1, 0, 0, 1))
	f.Add(enc(0, 0, 1, 0, 0, 1, 1, 1))
	f.Add(enc(0, 0, 1, 1, 2, 2))
	f.Add(enc(0, 0, 0, 0, 1, 0))
	f.Add(enc(0, 0, 2, 0, 1, 1e-300, 1, -1e-300, 1, 5e-324))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16*64 { // keeps the all-points check and exact fallbacks fast
			return
		}
		pts := make([]Point, len(data)/16)
		for i := range pts {
			pts[i].X = math.Float64frombits(binary.LittleEndian.Uint64(data[16*i:]))
			pts[i].Y = math.Float64frombits(binary.LittleEndian.Uint64(data[16*i+8:]))
		}
		tr, err := Triangulate(pts)
		if err != nil {
			return
		}
		if err := validate(tr); err != nil {
			t.Fatal(err)
		}
		if err := checkDelaunay(tr, true); err != nil {
			t.Fatal(err)
		}
	})
}

func benchmarkTriangulate(b *testing.B, n int) {
	pts := uniform(rand.New(rand.NewPCG(1, 1)), n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Triangulate(pts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTriangulate(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
	}{{"10k", 10_000}, {"100k", 100_000}, {"1M", 1_000_000}} {
		b.Run(c.name, func(b *testing.B) { benchmarkTriangulate(b, c.n) })
	}
}
