package constrain

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/grid"
	"orogen/sim/simtest"
)

// Rasterize by hand: a point lands in the cell under it; a horizontal
// curve over 3 cells takes each cell once, heights interpolated.
func TestRasterize(t *testing.T) {
	const cell = 10.0
	ts, err := Rasterize([]Constraint{
		{Points: []Point{{X: 25, Y: 5, H: 7}}},                           // cell (2, 0)
		{Points: []Point{{X: 5, Y: 35, H: 100}, {X: 35, Y: 35, H: 130}}}, // cells (0..3, 3)
		{Points: []Point{{X: 21, Y: 1, H: 1}}},                           // cell (2, 0) again: the first wins
	}, 5, 5, cell)
	if err != nil {
		t.Fatal(err)
	}
	want := []Target{{Cell: 2, H: 7, C: 0}, {Cell: 15, H: 100, C: 1}, {Cell: 16}, {Cell: 17}, {Cell: 18, H: 130, C: 1}}
	if len(ts) != len(want) {
		t.Fatalf("%d targets %v; want %d", len(ts), ts, len(want))
	}
	for k, w := range want {
		if ts[k].Cell != w.Cell {
			t.Errorf("target %d in cell %d; want %d", k, ts[k].Cell, w.Cell)
		}
	}
	// The curve runs through the cell centres x = 5, 15, 25, 35 m from
	// 100 to 130 m: 1 m per metre, so 100, 110, 120, 130 at the centres
	// (samples every 2.5 m hit them; float rounding 1e-9).
	for k, h := range []float64{7, 100, 110, 120, 130} {
		if math.Abs(ts[k].H-h) > 1e-9 {
			t.Errorf("target %d: height %g; want %g", k, ts[k].H, h)
		}
	}
}

func TestRasterizeErrors(t *testing.T) {
	for _, c := range []struct {
		cs   []Constraint
		want string
	}{
		{[]Constraint{{}}, "constraint 0: 0 points"},
		{[]Constraint{{Points: []Point{{X: 60, Y: 5, H: 1}}}}, "outside the map"},
		{[]Constraint{{Points: []Point{{X: -1, Y: 5, H: 1}}}}, "outside the map"},
		{[]Constraint{{Points: []Point{{X: 1, Y: 5, H: 1}}}, {Points: []Point{{X: 1, Y: 1, H: 1}, {X: math.NaN(), Y: 1, H: 1}}}}, "constraint 1, point 1"},
		{[]Constraint{{Points: []Point{{X: 1, Y: 5, H: 1e9}}}}, "absurd"},
	} {
		_, err := Rasterize(c.cs, 5, 5, 10)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v; want one naming %q", c.cs, err, c.want)
		}
	}
}

// A point constraint on a cone of uplift: lowering the summit and raising
// it both converge within 1 % of the relief; the uplift stays within the
// bounds; far from the disc it is the base uplift.
func TestPointOnCone(t *testing.T) {
	const n, cell = 48, 1000.0
	base := simtest.Scale(simtest.Cone(n, n, cell, 1, 0), 5e-4) // uniform 5e-4 m/yr
	p := engine.DefaultParams()
	for _, target := range []float64{0.7, 1.2} {
		e, err := grid.New(grid.Config{W: n, H: n, Cell: cell, Up: base, InitNoise: 1, Seed: 3, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		for range 300 {
			e.Step()
		}
		c := int32(24*n + 24)
		h0 := float64(e.Heights()[c])
		ts := []Target{{Cell: c, H: target * h0}}
		s, err := New(ts, n, n, cell)
		if err != nil {
			t.Fatal(err)
		}
		errs, err := Drive(context.Background(), e, s, base, 1, DriveOptions{Every: 60, Iterations: 30, Tol: 0.005 * h0, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		got := s.Error(e.Heights(), 1)[0]

		t.Logf("target %.0f m (×%g): errors %.0f m", target*h0, target, errs)
		if got > 0.01*h0 {
			t.Errorf("×%g: off by %.1f m; want <= 1 %% of %.0f m", target, got, h0)
		}
		u := s.Uplift(nil, base, 1)
		for i, v := range u {
			x, y := i%n-24, i/n-24
			far := x*x+y*y >= DefaultRadius*DefaultRadius
			if far && v != base[i] {
				t.Fatalf("cell %d outside the disc: uplift %g; want the base %g", i, v, base[i])
			}
			if r := float64(v / base[i]); r < MinScale-1e-6 || r > MaxScale+1e-6 {
				t.Fatalf("cell %d: factor %g outside [%g, %g]", i, r, MinScale, float64(MaxScale))
			}
		}
	}
}

// A diagonal curve is an 8-connected line: one cell per step along the
// longer axis, none it only clips at a corner (a 4-connected line would
// take 7 cells here, every other one beside the line), each with the
// curve's height at the point nearest its centre.
func TestRasterizeDiagonal(t *testing.T) {
	const cell = 10.0
	// From the centre of cell (0, 0) to the centre of (3, 3), 0 to 300 m:
	// the centres lie on the line, a third of the way apart.
	ts, err := Rasterize([]Constraint{{Points: []Point{{X: 5, Y: 5, H: 0}, {X: 35, Y: 35, H: 300}}}}, 5, 5, cell)
	if err != nil {
		t.Fatal(err)
	}
	want := []Target{{Cell: 0, H: 0}, {Cell: 6, H: 100}, {Cell: 12, H: 200}, {Cell: 18, H: 300}}
	if len(ts) != len(want) {
		t.Fatalf("targets %v; want %v", ts, want)
	}
	for k, w := range want {
		if ts[k].Cell != w.Cell || math.Abs(ts[k].H-w.H) > 1e-9 {
			t.Errorf("target %d: %+v; want %+v (heights to 1e-9 m)", k, ts[k], w)
		}
	}
	// A shallow line from (0, 0.5) to (4.5, 2) cells: x steps one cell
	// at a time, y moves by at most one cell per step.
	ts, err = Rasterize([]Constraint{{Points: []Point{{X: 0, Y: 5, H: 0}, {X: 45, Y: 20, H: 0}}}}, 5, 5, cell)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 5 {
		t.Errorf("%d cells %v; want 5, one per column", len(ts), ts)
	}
	for k := 1; k < len(ts); k++ {
		a, b := int(ts[k-1].Cell), int(ts[k].Cell)
		if dx, dy := b%5-a%5, b/5-a/5; dx != 1 || dy < 0 || dy > 1 {
			t.Errorf("cells %d then %d: not one step east (and at most one south)", a, b)
		}
	}
}

// BenchmarkAdjust512 is one adjustment at 512² (the app makes one every
// run.ConstraintEvery steps, on the UI thread): a point and a 64-vertex
// curve on a cone.
func BenchmarkAdjust512(b *testing.B) {
	const n, cell = 512, 100.0
	hs := simtest.Cone(n, n, cell, 2000, 0)
	var cs []Constraint
	cs = append(cs, Constraint{Points: []Point{{X: 256 * cell, Y: 256 * cell, H: 1500}}})
	var curve []Point
	for k := range 64 {
		curve = append(curve, Point{X: (100 + 4*float64(k)) * cell, Y: (300 + float64(k%7)) * cell, H: 700})
	}
	cs = append(cs, Constraint{Points: curve})
	ts, err := Rasterize(cs, n, n, cell)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(ts, n, n, cell)
	if err != nil {
		b.Fatal(err)
	}
	p := engine.DefaultParams()
	for b.Loop() {
		if err := s.Adjust(hs, p); err != nil {
			b.Fatal(err)
		}
	}
}

// Adjust by hand on a 21×3 ramp of 10 m cells rising east (each cell's
// steepest receiver is its west neighbour), n = 1, talus 30°: a step can
// rise at most 0.98·tan 30°·10 m = 5.658 m.
//
//   - Ramp of 2 m a cell, the middle cell (20 m) asked for 26 m: its step
//     (2 m) should become 8 m, past the limit, so it asks ×2 (the bound
//     of one adjustment) and passes the rest, 26 − 5.658 − 16 = 4.342 m
//     over a 2 m step, to its receiver, which asks ×2 as well; both local
//     factors are then 2^½ (LocalDamping). The disc factor is
//     ((26+50)/(20+50))^(¼·w) with w = (1 − d²/100)³ at d cells.
//   - Ramp at the talus angle (every cell held), the middle cell asked 2 m
//     lower: its step should shrink from 5.774 to 3.774 m, a factor
//     0.6536; as it is held, its receiver is asked the same; both local
//     factors 0.6536^½.
func TestAdjustByHand(t *testing.T) {
	const w, h, cell = 21, 3, 10.0
	p := engine.DefaultParams()
	mid := int32(w + 10)
	for _, c := range []struct {
		name        string
		slope, want float64 // m a cell; the target's height above its own
		local       float64 // the local factor of the target and its receiver
	}{
		{"rise past the talus limit", 2, 6, math.Sqrt2},
		{"lower a held cell", cell * math.Tan(math.Pi/6), -2, math.Sqrt((cell*math.Tan(math.Pi/6) - 2) / (cell * math.Tan(math.Pi/6)))},
	} {
		t.Run(c.name, func(t *testing.T) {
			hs := make([]float32, w*h)
			for i := range hs {
				hs[i] = float32(c.slope * float64(i%w))
			}
			h0 := float64(hs[mid])
			s, err := New([]Target{{Cell: mid, H: h0 + c.want}}, w, h, cell)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Adjust(hs, p); err != nil {
				t.Fatal(err)
			}
			lr := math.Log((h0+c.want+Eps)/(h0+Eps)) * Damping
			for x := 0; x < w; x++ {
				d2 := float64((x-10)*(x-10)) / (DefaultRadius * DefaultRadius)
				want := math.Exp((1 - d2) * (1 - d2) * (1 - d2) * lr)
				if x == 10 || x == 9 {
					want *= c.local
				}
				// float32 factors: 1e-6 relative.
				if got := float64(s.Scale()[w+x]); math.Abs(got-want) > 1e-6*want {
					t.Errorf("cell (%d, 1): factor %.7g; want %.7g", x, got, want)
				}
			}
		})
	}
}

// Inherit carries the factors over to a solver of the same grid (an
// edited constraint) and ignores one of another grid.
func TestInherit(t *testing.T) {
	const w, h, cell = 21, 3, 10.0
	hs := make([]float32, w*h)
	for i := range hs {
		hs[i] = float32(2 * (i % w))
	}
	a, err := New([]Target{{Cell: w + 10, H: 30}}, w, h, cell)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Adjust(hs, engine.DefaultParams()); err != nil {
		t.Fatal(err)
	}
	b, _ := New([]Target{{Cell: w + 10, H: 25}}, w, h, cell)
	b.Inherit(a)
	if !slices.Equal(a.Scale(), b.Scale()) {
		t.Error("Inherit did not carry the factors over")
	}
	c, _ := New(nil, w+1, h, cell)
	c.Inherit(a)
	for _, f := range c.Scale() {
		if f != 1 {
			t.Fatal("Inherit from another grid changed a factor")
		}
	}
}
