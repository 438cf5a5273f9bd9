package export

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"orogen/sim"
)

// noise returns a w×h field of seeded values in [-100, 900) m.
func noise(w, h int, seed uint64) *sim.Field {
	r := rand.New(rand.NewPCG(seed, 2))
	f := sim.NewField(w, h, 30)
	for i := range f.Data {
		f.Data[i] = float32(-100 + 1000*r.Float64())
	}
	return f
}

func TestResampleIdentity(t *testing.T) {
	// At the source size the weights are exactly (0, 1, 0, 0): bit for bit.
	f := noise(37, 23, 1)
	g := Resample(f, 37, 23)
	for i := range f.Data {
		if g.Data[i] != f.Data[i] {
			t.Fatalf("cell %d: got %v; want %v", i, g.Data[i], f.Data[i])
		}
	}
	if g.Cell != f.Cell {
		t.Errorf("cell size %g; want %g", g.Cell, f.Cell)
	}
}

func TestResamplePolynomial(t *testing.T) {
	// Catmull-Rom reproduces polynomials up to degree 2 exactly away
	// from the borders (Keys 1981: third-order accuracy), so upsampling a
	// quadratic surface gives the surface at the new pixels. Tolerance
	// 1e-3 m on values up to ~1e3 m: float32 storage (~6e-5 relative)
	// and float64 sums. Within two source cells of a border the repeated
	// edge cells bend the curve; those pixels are skipped. The quadratic
	// has no extremum on the grid (see the clamp in resample.go).
	n, m := 33, 129
	f := sim.NewField(n, n, 10)
	// Increasing in x and y over the grid: no extremum between cells,
	// where the clamp to the neighbours' range would flatten the peak.
	q := func(x, y float64) float64 { return 0.3*x*x + 0.2*x*y - 0.1*y*y + 3*x + 7*y + 100 }
	for y := range n {
		for x := range n {
			f.Data[y*n+x] = float32(q(float64(x), float64(y)))
		}
	}
	g := Resample(f, m, m)
	if want := 10.0 * 32 / 128; g.Cell != want {
		t.Errorf("cell %g; want %g (the extent (n-1)·cell kept)", g.Cell, want)
	}
	s := float64(n-1) / float64(m-1)
	for y := range m {
		for x := range m {
			fx, fy := float64(x)*s, float64(y)*s
			if fx < 2 || fy < 2 || fx > float64(n-3) || fy > float64(n-3) {
				continue
			}
			if d := math.Abs(float64(g.Data[y*m+x]) - q(fx, fy)); d > 1e-3 {
				t.Fatalf("pixel %d,%d: got %v; want %v", x, y, g.Data[y*m+x], q(fx, fy))
			}
		}
	}
}

func TestResampleNoOvershoot(t *testing.T) {
	// A step (a lake shore of depth 0 to 5 m): the cubic would ring below
	// 0 and above 5; the clamp keeps every value in [0, 5], and the edge
	// stays sharp where nothing is interpolated.
	f := sim.NewField(16, 16, 30)
	for i := range f.Data {
		if i%16 >= 8 {
			f.Data[i] = 5
		}
	}
	g := Resample(f, 61, 61)
	lo, hi := g.MinMax()
	if lo != 0 || hi != 5 {
		t.Errorf("range [%v, %v]; want [0, 5]", lo, hi)
	}
}

func TestResampleShrinkDoesNotAlias(t *testing.T) {
	// A checkerboard of ±1 shrunk 8×: nearest or a narrow cubic would
	// return ±1 patterns; the widened filter averages to about 0. The
	// bound 0.1 is loose: the widened Catmull-Rom's residual on the
	// Nyquist pattern is a few percent.
	f := sim.NewField(513, 513, 1)
	for y := range 513 {
		for x := range 513 {
			f.Data[y*513+x] = float32(1 - 2*((x+y)%2))
		}
	}
	// Pixels within the filter's reach of a border (2 output pixels)
	// see repeated edge cells, which unbalance the pattern: skipped.
	g := Resample(f, 65, 65)
	for y := 2; y < 63; y++ {
		for x := 2; x < 63; x++ {
			if v := g.Data[y*65+x]; math.Abs(float64(v)) > 0.1 {
				t.Fatalf("pixel %d,%d: %v; want |v| ≤ 0.1 (aliasing)", x, y, v)
			}
		}
	}
}

func TestResampleWindowsAndCores(t *testing.T) {
	// A pixel has the same bits in every window and with any number of
	// goroutines.
	f := noise(100, 80, 3)
	whole := Resample(f, 253, 253)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	r := NewResampler(f, 253, 253)
	for _, w := range [][4]int{{0, 0, 253, 253}, {0, 0, 127, 127}, {126, 126, 127, 127}, {200, 5, 53, 248}} {
		g := r.Window(w[0], w[1], w[2], w[3])
		for y := range w[3] {
			for x := range w[2] {
				if a, b := g.Data[y*w[2]+x], whole.Data[(w[1]+y)*253+w[0]+x]; a != b {
					t.Fatalf("window %v pixel %d,%d: %v; whole export (GOMAXPROCS %d) has %v", w, x, y, a, runtime.NumCPU(), b)
				}
			}
		}
	}
}
