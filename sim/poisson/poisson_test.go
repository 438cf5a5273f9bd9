package poisson

import (
	"fmt"
	"math"
	"sort"
	"testing"
)

// roundTol is the float rounding allowed on a minimum distance: border
// positions L·i/n are rounded, so two neighbours along an edge may be
// closer than L/n ≥ r by a few ulps; interior points are compared with
// exact squared distances and need none.
const roundTol = 1e-12

// minDist fails on any pair of points closer than r·(1 − roundTol),
// border–border, border–interior and interior–interior alike, by brute
// force over a grid of cells of side r.
func minDist(t *testing.T, pts []Point, w, h, r float64) {
	t.Helper()
	lim := r * (1 - roundTol)
	gw, gh := int(w/r)+1, int(h/r)+1
	cells := make([][]int, gw*gh)
	for i, p := range pts {
		cx, cy := int(p.X/r), int(p.Y/r)
		cells[cy*gw+cx] = append(cells[cy*gw+cx], i)
	}
	for i, p := range pts {
		cx, cy := int(p.X/r), int(p.Y/r)
		for y := max(cy-1, 0); y <= min(cy+1, gh-1); y++ {
			for x := max(cx-1, 0); x <= min(cx+1, gw-1); x++ {
				for _, j := range cells[y*gw+x] {
					if j <= i {
						continue
					}
					q := pts[j]
					if d := math.Hypot(p.X-q.X, p.Y-q.Y); d < lim {
						t.Fatalf("points %d %v and %d %v: got distance %g; want ≥ %g", i, p, j, q, d, r)
					}
				}
			}
		}
	}
}

// coverage checks that every point of a probe grid of spacing r/4 over the
// domain (edges included) lies within 2r of some point: the maximality of a
// Bridson sample, where every retired point had its annulus [r, 2r]
// probed K times.
func coverage(t *testing.T, pts []Point, w, h, r float64) {
	t.Helper()
	gw := int(w/(2*r)) + 1
	gh := int(h/(2*r)) + 1
	cells := make([][]Point, gw*gh)
	for _, p := range pts {
		c := int(p.Y/(2*r))*gw + int(p.X/(2*r))
		cells[c] = append(cells[c], p)
	}
	step := r / 4
	nx, ny := int(math.Ceil(w/step)), int(math.Ceil(h/step))
	for j := 0; j <= ny; j++ {
		for i := 0; i <= nx; i++ {
			p := Point{math.Min(float64(i)*step, w), math.Min(float64(j)*step, h)}
			cx, cy := int(p.X/(2*r)), int(p.Y/(2*r))
			ok := false
			for y := max(cy-1, 0); y <= min(cy+1, gh-1) && !ok; y++ {
				for x := max(cx-1, 0); x <= min(cx+1, gw-1) && !ok; x++ {
					for _, q := range cells[y*gw+x] {
						if math.Hypot(p.X-q.X, p.Y-q.Y) <= 2*r {
							ok = true
							break
						}
					}
				}
			}
			if !ok {
				t.Fatalf("probe %v: got no point within 2r = %g; want one", p, 2*r)
			}
		}
	}
}

// checkBorder checks that Border points lie on the edges, the four corners
// are present, and consecutive border points along each edge are at most
// maxGap apart.
func checkBorder(t *testing.T, s *Sample, w, h, maxGap float64) {
	t.Helper()
	var bottom, top, left, right []float64
	for i, p := range s.Points {
		if !s.Border[i] {
			continue
		}
		on := false
		if p.Y == 0 {
			bottom, on = append(bottom, p.X), true
		}
		if p.Y == h {
			top, on = append(top, p.X), true
		}
		if p.X == 0 {
			left, on = append(left, p.Y), true
		}
		if p.X == w {
			right, on = append(right, p.Y), true
		}
		if !on {
			t.Fatalf("border point %d %v: got off the edges; want on an edge of [0,%g]×[0,%g]", i, p, w, h)
		}
	}
	for _, e := range []struct {
		name string
		ts   []float64
		L    float64
	}{{"bottom", bottom, w}, {"top", top, w}, {"left", left, h}, {"right", right, h}} {
		sort.Float64s(e.ts)
		if len(e.ts) < 2 || e.ts[0] != 0 || e.ts[len(e.ts)-1] != e.L {
			t.Fatalf("%s edge: got ends %v; want corners 0 and %g", e.name, e.ts[:min(len(e.ts), 2)], e.L)
		}
		for i := 1; i < len(e.ts); i++ {
			if g := e.ts[i] - e.ts[i-1]; g > maxGap {
				t.Fatalf("%s edge: got gap %g at %g; want ≤ %g", e.name, g, e.ts[i-1], maxGap)
			}
		}
	}
}

func TestBridson(t *testing.T) {
	for _, c := range []struct {
		w, h, r float64
		seed    uint64
	}{
		{100, 100, 1, 1},   // r divides both sides: gaps exactly r
		{1000, 400, 10, 2}, // likewise
		{1000, 730, 17, 3}, // gaps 1000/58 and 730/42
		{50, 3, 2.5, 4},    // ⌊3/2.5⌋ = 1: the short side is one gap of 3
		{1, 1, 1, 5},       // corners only
		{12345.6, 9876.5, 33.3, 6},
	} {
		// Edge gaps are L/⌊L/r⌋ (exactly r when r divides L), with 1e-9
		// relative slack for the rounding of L·i/n.
		maxGap := math.Max(c.w/math.Floor(c.w/c.r), c.h/math.Floor(c.h/c.r))
		if maxGap >= 2*c.r {
			t.Fatalf("test case %v: gap %g not below 2r", c, maxGap)
		}
		c := struct {
			w, h, r float64
			seed    uint64
			maxGap  float64
		}{c.w, c.h, c.r, c.seed, maxGap}
		t.Run(fmt.Sprintf("%gx%g/r=%g", c.w, c.h, c.r), func(t *testing.T) {
			s, err := Bridson(c.w, c.h, c.r, c.seed)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Border) != len(s.Points) {
				t.Fatalf("got %d border flags; want %d", len(s.Border), len(s.Points))
			}
			for i, p := range s.Points {
				if !(p.X >= 0 && p.X <= c.w && p.Y >= 0 && p.Y <= c.h) {
					t.Fatalf("point %d: got %v; want inside the domain", i, p)
				}
			}
			minDist(t, s.Points, c.w, c.h, c.r)
			coverage(t, s.Points, c.w, c.h, c.r)
			checkBorder(t, s, c.w, c.h, c.maxGap*(1+1e-9))
		})
	}
}

func TestDeterminism(t *testing.T) {
	a, _ := Bridson(2000, 1000, 10, 7)
	b, _ := Bridson(2000, 1000, 10, 7)
	if len(a.Points) != len(b.Points) {
		t.Fatalf("same seed: got %d and %d points; want equal", len(a.Points), len(b.Points))
	}
	for i := range a.Points {
		if a.Points[i] != b.Points[i] || a.Border[i] != b.Border[i] {
			t.Fatalf("same seed: point %d got %v and %v; want identical", i, a.Points[i], b.Points[i])
		}
	}
	c, _ := Bridson(2000, 1000, 10, 8)
	same := len(a.Points) == len(c.Points)
	for i := 0; same && i < len(a.Points); i++ {
		same = a.Points[i] == c.Points[i]
	}
	if same {
		t.Fatal("seeds 7 and 8: got identical samples; want different")
	}
}

func TestRefine(t *testing.T) {
	const w, h, r = 3000.0, 2000.0, 40.0
	for _, c := range []struct {
		r2     float64
		maxGap float64 // along an edge: old gaps are r, split in ⌊r/r2⌋ parts
	}{
		{20, 20},
		{15, 20}, // ⌊40/15⌋ = 2 parts of 20
		{39, 40}, // no split
	} {
		t.Run(fmt.Sprintf("r2=%g", c.r2), func(t *testing.T) {
			s, err := Bridson(w, h, r, 11)
			if err != nil {
				t.Fatal(err)
			}
			old := append([]Point(nil), s.Points...)
			f, err := Refine(s, w, h, c.r2, 12)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Points) <= len(old) {
				t.Fatalf("got %d points; want more than %d", len(f.Points), len(old))
			}
			for i, p := range old {
				if f.Points[i] != p || f.Border[i] != s.Border[i] || s.Points[i] != p {
					t.Fatalf("point %d: got %v; want %v kept", i, f.Points[i], p)
				}
			}
			minDist(t, f.Points, w, h, c.r2)
			coverage(t, f.Points, w, h, c.r2)
			// A new border point is skipped where an old interior point lies
			// within r2 of it; the gap is then at most two parts.
			checkBorder(t, f, w, h, 2*c.maxGap*(1+1e-9))
		})
	}
}

// TestRefineTwice refines a sample twice, as progressive refinement does.
func TestRefineTwice(t *testing.T) {
	const w, h = 1000.0, 1000.0
	s, _ := Bridson(w, h, 40, 1)
	s, err := Refine(s, w, h, 20, 2)
	if err != nil {
		t.Fatal(err)
	}
	s, err = Refine(s, w, h, 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	minDist(t, s.Points, w, h, 10)
	coverage(t, s.Points, w, h, 10)
}

func TestErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct{ w, h, r float64 }{
		{nan, 1, 0.1}, {1, nan, 0.1}, {1, 1, nan},
		{inf, 1, 0.1}, {1, 1, inf},
		{0, 1, 0.1}, {1, -1, 0.1}, {1, 1, 0}, {1, 1, -0.1},
		{1, 2, 1.5}, {2, 1, 1.5}, // r larger than a side
		{1e5, 1e5, 10}, // 7e7 points > MaxPoints
	} {
		if _, err := Bridson(c.w, c.h, c.r, 1); err == nil {
			t.Errorf("Bridson(%g, %g, %g): got nil error; want one", c.w, c.h, c.r)
		}
	}
	s, _ := Bridson(100, 100, 10, 1)
	for _, c := range []struct{ w, h, r2 float64 }{
		{100, 100, nan}, {100, 100, 0}, {100, 100, 200},
		{100, 100, 20}, // coarser than the sample
		{50, 100, 5},   // points outside the domain
		{1e5, 1e5, 10}, // too many points
	} {
		if _, err := Refine(s, c.w, c.h, c.r2, 1); err == nil {
			t.Errorf("Refine(%g, %g, %g): got nil error; want one", c.w, c.h, c.r2)
		}
	}
}

// TestCount compares Count with the number of points on 100 km × 100 km
// at r = 500 m (about 28 000 points). The tolerance, 2 %, is about ten
// times the seed-to-seed spread measured over 8 seeds.
func TestCount(t *testing.T) {
	const w, h, r = 100e3, 100e3, 500.0
	want := Count(w, h, r)
	for seed := uint64(1); seed <= 8; seed++ {
		s, err := Bridson(w, h, r, seed)
		if err != nil {
			t.Fatal(err)
		}
		got := float64(len(s.Points))
		t.Logf("seed %d: %d points, density %.4f", seed, len(s.Points), got*r*r/(w*h))
		if math.Abs(got-want) > 0.02*want {
			t.Errorf("seed %d: got %g points; want %.0f ± 2 %%", seed, got, want)
		}
	}
}

func BenchmarkBridson(b *testing.B) {
	for _, n := range []int{10_000, 160_000, 1_000_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) { benchmarkBridson(b, n) })
	}
}

// benchmarkBridson samples a square of side 1000 m at the r that gives
// about n points.
func benchmarkBridson(b *testing.B, n int) {
	const side = 1000.0
	r := math.Sqrt(Density * side * side / float64(n))
	b.ReportAllocs()
	b.ResetTimer()
	var m int
	for i := 0; i < b.N; i++ {
		s, err := Bridson(side, side, r, uint64(i))
		if err != nil {
			b.Fatal(err)
		}
		m = len(s.Points)
	}
	b.ReportMetric(float64(m), "points")
}
