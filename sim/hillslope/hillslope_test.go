package hillslope

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"
)

// terrain returns a seeded w×h field of heights in [0, 1000) m with a few
// sharp spikes and pits, the hardest case for extrema.
func terrain(w, h int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 2))
	f := make([]float32, w*h)
	for i := range f {
		f[i] = float32(300 + 400*r.Float64())
	}
	for range max(1, w*h/50) {
		f[r.IntN(len(f))] = float32(1000 * r.Float64())
		f[r.IntN(len(f))] = float32(10 * r.Float64())
	}
	return f
}

// allEdges lists the 16 combinations of fixed edges.
func allEdges() []Edges {
	var es []Edges
	for m := range 16 {
		es = append(es, Edges{North: m&1 != 0, South: m&2 != 0, East: m&4 != 0, West: m&8 != 0})
	}
	return es
}

func TestHandComputed(t *testing.T) {
	// One row of three cells, r = κ·dt/cell² = 1, free ends:
	// [2 −1 0; −1 3 −1; 0 −1 2]·x = (0, 3, 0) gives x = (0.75, 1.5, 0.75);
	// the y sweep over one row is the identity.
	h := []float32{0, 3, 0}
	NewDiffuser(3, 1).Step(h, 10, 25, 4, Edges{})
	if want := []float32{0.75, 1.5, 0.75}; !slices.Equal(h, want) {
		t.Errorf("got %v; want %v", h, want)
	}
	// The same as a column, with the north end fixed:
	// x0 = 0; −x0 + 3x1 − x2 = 3; −x1 + 2x2 = 0 gives x = (0, 1.2, 0.6).
	h = []float32{0, 3, 0}
	NewDiffuser(1, 3).Step(h, 10, 25, 4, Edges{North: true})
	want := []float32{0, 1.2, 0.6}
	for i := range h {
		if math.Abs(float64(h[i]-want[i])) > 1e-7 {
			t.Errorf("fixed north column: got %v; want %v", h, want)
			break
		}
	}
}

func TestModeDecay(t *testing.T) {
	// Free edges: cos(θx(x+½))·cos(θy(y+½)) with θx = πp/W, θy = πq/H is an
	// eigenvector of the cell-centred zero-flux Laplacian. All edges fixed:
	// sin(θx·x)·sin(θy·y) with θx = πp/(W−1), θy = πq/(H−1) vanishes on the
	// edges and is an eigenvector of the interior system. Each sweep then
	// multiplies it by exactly 1/(1 + 4r·sin²(θ/2)) along its axis.
	//
	// Tolerance: the field is stored as float32, so the start differs from
	// the mode by ≤ 2⁻²⁴·A and every sweep rounds again by ≤ 2⁻²⁴ of the
	// current amplitude. The solve is a contraction, so after k steps the
	// error is ≤ (2k + 1)·2⁻²⁴·A ≈ 4e-7·A for k = 3; with the decayed
	// amplitude g ≥ 0.05 kept, that is below 1e-5·g·A, the tolerance used.
	cases := []struct {
		w, h, p, q int
		r          float64
		fixed      bool
	}{
		{64, 64, 1, 1, 0.5, false},
		{64, 48, 2, 1, 3, false},
		{100, 37, 3, 0, 10, false},
		{33, 80, 0, 2, 40, false},
		{256, 256, 5, 7, 2, false},
		{64, 64, 1, 1, 20, true},
		{65, 41, 2, 3, 1.5, true},
		{200, 9, 1, 1, 0.25, true},
	}
	const steps, A, tol = 3, 500.0, 1e-5
	for _, c := range cases {
		t.Run(fmt.Sprintf("%dx%d/p%d/q%d/r%g/fixed=%v", c.w, c.h, c.p, c.q, c.r, c.fixed), func(t *testing.T) {
			var tx, ty float64
			mode := func(x, y int) float64 {
				if c.fixed {
					return A * math.Sin(tx*float64(x)) * math.Sin(ty*float64(y))
				}
				return A * math.Cos(tx*(float64(x)+0.5)) * math.Cos(ty*(float64(y)+0.5))
			}
			edges := Edges{}
			if c.fixed {
				tx, ty = math.Pi*float64(c.p)/float64(c.w-1), math.Pi*float64(c.q)/float64(c.h-1)
				edges = Edges{true, true, true, true}
			} else {
				tx, ty = math.Pi*float64(c.p)/float64(c.w), math.Pi*float64(c.q)/float64(c.h)
			}
			h := make([]float32, c.w*c.h)
			for y := range c.h {
				for x := range c.w {
					h[y*c.w+x] = float32(mode(x, y))
				}
			}
			sx, sy := math.Sin(tx/2), math.Sin(ty/2)
			g1 := 1 / (1 + 4*c.r*sx*sx) / (1 + 4*c.r*sy*sy)
			if math.Pow(g1, steps) < 0.05 {
				t.Fatalf("bad case: decay %g after %d steps is below 0.05", math.Pow(g1, steps), steps)
			}
			// cell 20 m, κ = 0.01 m²/yr: dt gives the wanted r.
			const cell, kappa = 20.0, 0.01
			dt := c.r * cell * cell / kappa
			d := NewDiffuser(c.w, c.h)
			g := 1.0
			for k := 1; k <= steps; k++ {
				d.Step(h, cell, kappa, dt, edges)
				g *= g1
				var worst float64
				for y := range c.h {
					for x := range c.w {
						worst = max(worst, math.Abs(float64(h[y*c.w+x])-g*mode(x, y)))
					}
				}
				if rel := worst / (g * A); rel > tol {
					t.Errorf("step %d: got max error %.3g of the amplitude %g·%g; want ≤ %g", k, rel, g, A, tol)
				}
			}
		})
	}
}

func TestMassConserved(t *testing.T) {
	// With every edge free the two solves conserve Σh exactly (the columns
	// of I + rL sum to 1). What remains is storage: each sweep rounds every
	// cell to float32, by at most 2⁻²⁴·|h| ≤ 2⁻²⁴·1000 m, so after k steps
	// (2k sweeps) |ΔΣh| ≤ 2k·N·2⁻²⁴·1000 m, the tolerance used. The float64
	// solve adds ~cond·2⁻⁵³ ≈ 1e-11 relative at r = 1e4, far below.
	for _, c := range []struct {
		w, h int
		r    float64
	}{{64, 48, 0.1}, {37, 91, 2}, {128, 128, 50}, {50, 50, 1e4}, {1, 70, 3}, {70, 1, 3}} {
		h := terrain(c.w, c.h, 11)
		sum0 := sum(h)
		d := NewDiffuser(c.w, c.h)
		const steps = 5
		for range steps {
			d.Step(h, 1, c.r, 1, Edges{})
		}
		tol := 2 * steps * float64(c.w*c.h) * 0x1p-24 * 1000
		if diff := math.Abs(sum(h) - sum0); diff > tol {
			t.Errorf("%dx%d r=%g: got Σh changed by %g m; want ≤ %g", c.w, c.h, c.r, diff, tol)
		}
	}
}

func sum(h []float32) float64 {
	var s float64
	for _, v := range h {
		s += float64(v)
	}
	return s
}

func TestMaximumPrinciple(t *testing.T) {
	// Backward Euler with an M-matrix makes every new value a convex
	// combination of the old ones: no new extrema, exactly, once rounded to
	// float32 (the float64 error is ~1e-11 relative at r = 1e4, far below
	// half a float32 ulp, and rounding to nearest is monotone).
	for _, r := range []float64{1e-3, 0.3, 1, 30, 1e4} {
		for _, e := range allEdges() {
			h := terrain(45, 38, 5)
			lo, hi := slices.Min(h), slices.Max(h)
			d := NewDiffuser(45, 38)
			for step := range 4 {
				d.Step(h, 1, r, 1, e)
				if l, u := slices.Min(h), slices.Max(h); l < lo || u > hi {
					t.Fatalf("r=%g %+v step %d: got range [%v, %v]; want within [%v, %v]", r, e, step, l, u, lo, hi)
				}
			}
		}
	}
}

func TestFixedEdgesKeepBits(t *testing.T) {
	const w, h = 40, 30
	for _, e := range allEdges() {
		f := terrain(w, h, 3)
		f[0] = float32(math.Copysign(0, -1)) // a −0 corner must stay −0 when fixed
		orig := slices.Clone(f)
		d := NewDiffuser(w, h)
		for range 3 {
			d.Step(f, 5, 1, 100, e)
		}
		for y := range h {
			for x := range w {
				i := y*w + x
				fixed := (e.North && y == 0) || (e.South && y == h-1) || (e.West && x == 0) || (e.East && x == w-1)
				same := math.Float32bits(f[i]) == math.Float32bits(orig[i])
				if fixed && !same {
					t.Fatalf("%+v: fixed cell (%d, %d) got %v; want %v bit for bit", e, x, y, f[i], orig[i])
				}
				if !fixed && same {
					t.Fatalf("%+v: free cell (%d, %d) kept %v; want it diffused", e, x, y, f[i])
				}
			}
		}
	}
}

func TestConstantStays(t *testing.T) {
	// A constant is in the null space of L, so each solve returns it to
	// within ~1e-11 relative, which rounds back to the same float32.
	for _, v := range []float32{0, 1234.567, -88.25, 8848.86} {
		for _, r := range []float64{1e-3, 1, 1e4} {
			for _, e := range allEdges() {
				f := make([]float32, 33*17)
				for i := range f {
					f[i] = v
				}
				NewDiffuser(33, 17).Step(f, 1, r, 1, e)
				for i, got := range f {
					if got != v {
						t.Fatalf("v=%v r=%g %+v: cell %d got %v; want %v", v, r, e, i, got, v)
					}
				}
			}
		}
	}
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	cases := []struct {
		w, h int
		e    Edges
	}{
		// Large enough for several workers (one per minCells cells), with
		// widths that leave partial column blocks.
		{512, 512, Edges{}},
		{601, 397, Edges{North: true, East: true}},
		{300, 900, Edges{true, true, true, true}},
		{31, 7, Edges{West: true}},
	}
	for _, c := range cases {
		var want []float32
		for _, procs := range []int{1, 2, 3, 4} {
			runtime.GOMAXPROCS(procs)
			f := terrain(c.w, c.h, 21)
			d := NewDiffuser(c.w, c.h)
			for _, r := range []float64{0.2, 7, 3000} {
				d.Step(f, 1, r, 1, c.e)
			}
			if want == nil {
				want = f
				continue
			}
			for i := range f {
				if math.Float32bits(f[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%dx%d %+v: GOMAXPROCS %d cell %d got %v; want %v as with 1", c.w, c.h, c.e, procs, i, f[i], want[i])
				}
			}
		}
	}
}

func TestNoOp(t *testing.T) {
	f := terrain(20, 20, 1)
	orig := slices.Clone(f)
	d := NewDiffuser(20, 20)
	d.Step(f, 10, 0, 1e6, Edges{})
	d.Step(f, 10, 5, 0, Edges{})
	if !slices.Equal(f, orig) {
		t.Errorf("kappa = 0 or dt = 0 changed the field")
	}
}

func TestTinyGrids(t *testing.T) {
	// A single cell has no neighbours: nothing moves, fixed or not.
	for _, e := range allEdges() {
		f := []float32{42}
		NewDiffuser(1, 1).Step(f, 1, 1e3, 1, e)
		if f[0] != 42 {
			t.Errorf("1x1 %+v: got %v; want 42", e, f[0])
		}
	}
	// Two free cells relax towards their mean: x0 = (d0(1+r) + r·d1)/(1+2r).
	f := []float32{0, 10}
	NewDiffuser(2, 1).Step(f, 1, 1, 1, Edges{})
	if want := []float32{10.0 / 3, 20.0 / 3}; math.Abs(float64(f[0]-want[0])) > 1e-6 || math.Abs(float64(f[1]-want[1])) > 1e-6 {
		t.Errorf("2x1: got %v; want %v", f, want)
	}
}

func TestPanics(t *testing.T) {
	d := NewDiffuser(4, 3)
	ok := make([]float32, 12)
	cases := []struct {
		name string
		f    func()
	}{
		{"size", func() { d.Step(make([]float32, 11), 1, 1, 1, Edges{}) }},
		{"cell0", func() { d.Step(ok, 0, 1, 1, Edges{}) }},
		{"cellNaN", func() { d.Step(ok, math.NaN(), 1, 1, Edges{}) }},
		{"kappaNeg", func() { d.Step(ok, 1, -1, 1, Edges{}) }},
		{"dtNaN", func() { d.Step(ok, 1, 1, math.NaN(), Edges{}) }},
		{"dtInf", func() { d.Step(ok, 1, 1, math.Inf(1), Edges{}) }},
		{"overflow", func() { d.Step(ok, 1e-200, 1e200, 1e200, Edges{}) }},
		{"newBad", func() { NewDiffuser(0, 3) }},
	}
	for _, c := range cases {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); len(s) < 11 || s[:11] != "hillslope: " {
					t.Errorf("%s: got panic %v; want a \"hillslope: \" panic", c.name, r)
				}
			}()
			c.f()
		}()
	}
}

func TestStepAllocs(t *testing.T) {
	f := terrain(300, 200, 4)
	d := NewDiffuser(300, 200)
	d.Step(f, 1, 1, 1, Edges{}) // the first step may allocate scratch
	if n := testing.AllocsPerRun(20, func() { d.Step(f, 1, 1, 1, Edges{North: true}) }); n != 0 {
		t.Errorf("got %v allocations per step; want 0", n)
	}
}

func benchmarkStep(b *testing.B, n int) {
	f := terrain(n, n, 1)
	d := NewDiffuser(n, n)
	d.Step(f, 30, 0.01, 1e5, Edges{})
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		d.Step(f, 30, 0.01, 1e5, Edges{})
	}
}

func BenchmarkStep(b *testing.B) {
	for _, n := range []int{256, 512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkStep(b, n) })
	}
}

func TestHelpersStopWithDiffuser(t *testing.T) {
	// The helper goroutines of a dropped Diffuser must exit once it is
	// collected; poll, since cleanups run asynchronously after a GC.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3))
	// Let the Diffusers of earlier tests go first, so they cannot make up
	// for helpers of this one that fail to stop.
	for range 10 {
		runtime.GC()
		time.Sleep(2 * time.Millisecond)
	}
	before := runtime.NumGoroutine()
	func() {
		f := terrain(512, 256, 1)
		d := NewDiffuser(512, 256)
		d.Step(f, 1, 1, 1, Edges{})
		if d.team == nil || d.team.helpers == 0 {
			t.Fatal("no helpers started with GOMAXPROCS 3")
		}
	}()
	for range 200 {
		runtime.GC()
		if runtime.NumGoroutine() <= before {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Errorf("got %d goroutines after dropping the Diffuser; want %d", runtime.NumGoroutine(), before)
}
