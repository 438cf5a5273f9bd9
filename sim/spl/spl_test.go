package spl

import (
	"math"
	"testing"
)

// chain builds a 1D river, already in drainage order: node 0 is a fixed
// outlet, node i drains to i-1 at distance dx, and every node carries the
// area of the nodes above it.
func chain(n int, dx, cellArea float64) (order, rec []int32, dist []float32, area []float64) {
	for i := 0; i < n; i++ {
		order = append(order, int32(i))
		r := int32(max(i-1, 0))
		rec = append(rec, r)
		d := float32(dx)
		if i == 0 {
			d = 0
		}
		dist = append(dist, d)
		area = append(area, float64(n-i)*cellArea)
	}
	return
}

func TestHandComputedChain(t *testing.T) {
	// Three nodes, k = 1e-3, m = 0.5, dt = 100, dx = 10, areas 300, 200,
	// 100 (node 0 is the fixed outlet), u = 0.01, starting flat at 0.
	// F1 = 1e-3·√200·100/10 = 0.141421..., h1 = 100·0.01/(1+F1) = 0.876097...
	// F2 = 1e-3·√100·100/10 = 0.1, h2 = (1 + 0.1·h1)/1.1 = 0.988736...
	order, rec, dist, area := chain(3, 10, 100)
	h := []float32{0, 0, 0}
	u := []float32{0.01, 0.01, 0.01}
	Erode(h, rec, dist, area, u, 0, len(order), Params{K: 1e-3, M: 0.5, N: 1, Dt: 100})
	f1 := 1e-3 * math.Sqrt(200) * 100 / 10
	h1 := 1 / (1 + f1)
	h2 := (1 + 0.1*h1) / 1.1
	want := []float64{0, h1, h2}
	for i, w := range want {
		// float32 storage: half an ulp at ~1 is 6e-8.
		if math.Abs(float64(h[i])-w) > 1e-7 {
			t.Errorf("h[%d] = %.9g; want %.9g", i, h[i], w)
		}
	}
}

func TestSteadyStateIsAFixedPoint(t *testing.T) {
	// Heights at the steady-state slope s = (u/k)^(1/n) A^(-m/n) must not
	// move, for n = 1 and the Newton path.
	for _, p := range []Params{{K: 2e-6, M: 0.5, N: 1, Dt: 1e5}, {K: 2e-6, M: 0.4, N: 1.5, Dt: 1e5}, {K: 2e-6, M: 0.6, N: 0.7, Dt: 1e5}} {
		const n, dx, u = 50, 100.0, 1e-3
		order, rec, dist, area := chain(n, dx, dx*dx)
		h := make([]float32, n)
		hh := make([]float64, n)
		for i := 1; i < n; i++ {
			s := math.Pow(u/p.K, 1/p.N) * math.Pow(area[i], -p.M/p.N)
			hh[i] = hh[i-1] + s*dx
			h[i] = float32(hh[i])
		}
		up := make([]float32, n)
		for i := range up {
			up[i] = u
		}
		before := append([]float32(nil), h...)
		Erode(h, rec, dist, area, up, 0, len(order), p)
		for i := range h {
			// The fixed point moves only by float32 rounding of the
			// heights (relative 6e-8) amplified by the solve: 1e-6
			// relative is ample.
			if math.Abs(float64(h[i]-before[i])) > 1e-6*math.Abs(float64(before[i]))+1e-6 {
				t.Errorf("m=%g n=%g: node %d moved from %g to %g", p.M, p.N, i, before[i], h[i])
			}
		}
	}
}

func TestNewtonSolvesTheImplicitEquation(t *testing.T) {
	for _, n := range []float64{0.5, 0.8, 1.5, 2, 3.5} {
		for _, d0 := range []float64{-50, -1e-3, 0, 1e-4, 1, 300} {
			for _, f := range []float64{0, 1e-6, 0.3, 10, 1e5} {
				x := solveDelta(d0, f, n)
				// The root lies between 0 and d0 ...
				if math.Abs(x) > math.Abs(d0)+1e-12 || x*d0 < 0 {
					t.Errorf("n=%g d0=%g f=%g: δ = %g outside [0, d0]", n, d0, f, x)
				}
				// ... and satisfies the equation to the solver's 1e-12
				// relative step tolerance, scaled by the derivative.
				spow := math.Copysign(math.Pow(math.Abs(x), n), x)
				res := x - d0 + f*spow
				if math.Abs(res) > 1e-9*(1+math.Abs(d0))*(1+f) {
					t.Errorf("n=%g d0=%g f=%g: residual %g at δ = %g", n, d0, f, res, x)
				}
			}
		}
	}
}

func TestNoOvershoot(t *testing.T) {
	// Huge dt and k: a node never ends below its receiver.
	order, rec, dist, area := chain(4, 10, 1e6)
	for _, n := range []float64{1, 1.5, 0.6} {
		h := []float32{0, 50, 10, 200}
		Erode(h, rec, dist, area, nil, 0, len(order), Params{K: 1, M: 0.5, N: n, Dt: 1e6})
		for i := 1; i < 4; i++ {
			if h[i] < h[i-1] {
				t.Errorf("n=%g: node %d at %g below its receiver at %g", n, i, h[i], h[i-1])
			}
		}
	}
}

func TestLakeBottomFills(t *testing.T) {
	// A node below its receiver (a lake bottom routed through its pass)
	// rises toward the receiver and never above it.
	for _, n := range []float64{1, 1.5, 0.6} {
		for _, k := range []float64{1e-9, 1e-5, 1} {
			h := []float32{50, 10}
			Erode(h, []int32{0, 0}, []float32{0, 10}, []float64{0, 1e6}, nil, 0, 2, Params{K: k, M: 0.5, N: n, Dt: 1e4})
			if h[1] <= 10 || h[1] > 50 {
				t.Errorf("n=%g k=%g: lake bottom went from 10 to %g; want within (10, 50]", n, k, h[1])
			}
		}
	}
}

func TestNaturalEdgeRoot(t *testing.T) {
	// A root with distance D drains to a virtual node at height 0:
	// h' = (h + dt u) / (1 + k √A dt / D)  (Błaszczuk et al. 2023,
	// §III.B.5).
	h := []float32{100}
	Erode(h, []int32{0}, []float32{5e4}, []float64{1e6}, []float32{1e-3}, 0, 1, Params{K: 1e-5, M: 0.5, N: 1, Dt: 1e4})
	want := (100 + 1e4*1e-3) / (1 + 1e-5*1e3*1e4/5e4)
	if math.Abs(float64(h[0])-want) > 1e-4 {
		t.Fatalf("natural root: h = %g; want %g", h[0], want)
	}
}

func TestValidate(t *testing.T) {
	good := Params{K: 1e-6, M: 0.5, N: 1, Dt: 1e3}
	if err := good.Validate(); err != nil {
		t.Fatalf("valid params rejected: %v", err)
	}
	bad := []Params{
		{K: math.NaN(), M: 0.5, N: 1, Dt: 1},
		{K: -1, M: 0.5, N: 1, Dt: 1},
		{K: 1, M: -0.1, N: 1, Dt: 1},
		{K: 1, M: 0.5, N: 0, Dt: 1},
		{K: 1, M: 0.5, N: 9, Dt: 1},
		{K: 1, M: 0.5, N: 1, Dt: math.Inf(1)},
	}
	for _, p := range bad {
		if err := p.Validate(); err == nil {
			t.Errorf("%+v accepted", p)
		}
	}
}

// Without uplift a node draining to base level at 0 decays geometrically;
// it must reach 0, never stall at a subnormal height (1e-45 m) as float32
// rounding of h/(1+F) would hold it, in Erode and in ErodeClamp alike.
func TestDecayReachesZero(t *testing.T) {
	p := Params{K: 1e-6, M: 0.5, N: 1, Dt: 1e5}
	hs := []float32{0, 1}
	rp := []int32{0, 0}
	ds := []float32{0, 100}
	as := []float64{2e4, 1e4}
	for range 3000 {
		Erode(hs, rp, ds, as, nil, 0, 2, p)
		if v := hs[1]; v != 0 && math.Abs(float64(v)) < 0x1p-126 {
			t.Fatalf("Erode left a subnormal height %g", v)
		}
	}
	if hs[1] != 0 {
		t.Errorf("after 3000 steps of decay by 1/(1+F), F = %g: height %g; want 0", p.K*p.Dt*100/100, hs[1])
	}
	// Two lanes of the same chain: ErodeClamp's two-lane loop (pairs) and
	// its one-node path both flush.
	hs, he := []float32{0, 1, 0, 1}, make([]float32, 4)
	rp2, ds2, as2 := []int32{0, 0, 2, 2}, []float32{0, 100, 0, 100}, []float64{2e4, 1e4, 2e4, 1e4}
	for _, l := range []Lanes{{A0: 0, A1: 2}, {A0: 0, A1: 2, B0: 2, B1: 4}} {
		hs[1], hs[3] = 1, 1
		for range 3000 {
			ErodeClamp(hs, he, rp2, ds2, as2, l, p, math.Inf(1))
			for _, v := range hs {
				if v != 0 && math.Abs(float64(v)) < 0x1p-126 {
					t.Fatalf("ErodeClamp %+v left a subnormal height %g", l, v)
				}
			}
		}
		if hs[1] != 0 {
			t.Errorf("ErodeClamp %+v: height %g after the decay; want 0", l, hs[1])
		}
	}
}

// TestErodeCrossesContacts: a node whose soft cover ends above what one
// step erodes goes on at the k of the rock under it (backward Euler with
// k at the new height), down several contacts, and stops at a contact
// that the rock under it cannot erode down to within the step. The old
// solve took the cover's k for the whole step (100/11 m in case "stop").
func TestErodeCrossesContacts(t *testing.T) {
	// Node 1 drains to the fixed outlet 0 at 1 m, area 1, k·dt = 1: the
	// step's g = 1, times each material's factor. It starts at 100 m on
	// a cover of factor 10 whose bottom is at 90 m.
	type layer struct{ factor, bottom float64 } // under each contact, top down
	cases := []struct {
		name   string
		n      float64
		under  []layer
		want   float64
		inside bool // the answer is a root of the material it lies in
	}{
		{"stop", 1, []layer{{0.01, math.Inf(-1)}}, 90, false},
		{"into the next", 1, []layer{{0.5, 50}}, 100 / 1.5, true},
		{"two contacts", 1, []layer{{0.5, 70}, {2, math.Inf(-1)}}, 100 / 3.0, true},
		{"stop at the second", 1, []layer{{0.5, 70}, {0.3, math.Inf(-1)}}, 70, false},
		{"n 1.5", 1.5, []layer{{0.5, 20}}, math.NaN(), true},
	}
	for _, c := range cases {
		h := []float32{0, 100}
		var asked []float64
		p := Params{K: 1, M: 0.5, N: c.n, Dt: 1, KFactor: []float32{1, 10}, Bottom: []float32{0, 90},
			Below: func(k int, z float64) (float64, float64) {
				if k != 1 {
					t.Fatalf("%s: Below asked for node %d", c.name, k)
				}
				asked = append(asked, z)
				l := c.under[len(asked)-1]
				return l.factor, l.bottom
			}}
		Erode(h, []int32{0, 0}, []float32{0, 1}, []float64{1, 1}, nil, 0, 2, p)
		got := float64(h[1])
		if c.inside {
			f := c.under[len(asked)-1].factor
			if r := got - 100 + f*math.Pow(got, c.n); math.Abs(r) > 1e-4 {
				t.Errorf("%s: h %g leaves a residual %g with the factor %g of the rock it lies in", c.name, got, r, f)
			}
		}
		if !math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-4 {
			t.Errorf("%s: h = %g, want %g (contacts asked at %v)", c.name, got, c.want, asked)
		}
	}
}

// TestErodeRisesThroughContacts: with Top and Above the solve starts
// from the material at the node's height before the step and walks up
// the stack when that material cannot keep the node below its top, and
// where a harder rock lies over a softer one it keeps the root on the
// node's side. Node 1 drains to the fixed outlet 0 at 0 m, area 1, k·dt
// = 1; its height before erosion is 100 m and its material's top is at
// 50 m.
func TestErodeRisesThroughContacts(t *testing.T) {
	type layer struct{ factor, top float64 } // above each contact, bottom up
	cases := []struct {
		name   string
		n      float64
		start  float32 // the starting material's factor
		above  []layer
		want   float64
		inside bool // the answer is a root of the material it lies in
	}{
		// Quartzite (0.5) over clay (9): backward Euler with k at the
		// new height has a root in each, 10 m and 66.7 m. A node that
		// starts in the clay keeps the clay's; started from the
		// quartzite at its uplifted surface (Bottom alone) it took
		// 66.7 m.
		{"soft under hard", 1, 9, []layer{{0.5, math.Inf(1)}}, 10, true},
		{"into the next", 1, 0.1, []layer{{0.5, math.Inf(1)}}, 100 / 1.5, true},
		{"stop under softer rock", 1, 0.1, []layer{{2, math.Inf(1)}}, 50, false},
		{"two contacts", 1, 0.1, []layer{{0.5, 60}, {0.2, math.Inf(1)}}, 100 / 1.2, true},
		{"n 1.5", 1.5, 0.01, []layer{{0.05, math.Inf(1)}}, math.NaN(), true},
	}
	for _, c := range cases {
		h := []float32{0, 100}
		var asked []float64
		p := Params{K: 1, M: 0.5, N: c.n, Dt: 1, KFactor: []float32{1, c.start},
			Bottom: []float32{0, 0}, Top: []float32{0, 50},
			Below: func(k int, z float64) (float64, float64) {
				t.Fatalf("%s: Below asked for node %d at %g", c.name, k, z)
				return 0, 0
			},
			Above: func(k int, z float64) (float64, float64) {
				if k != 1 {
					t.Fatalf("%s: Above asked for node %d", c.name, k)
				}
				asked = append(asked, z)
				l := c.above[len(asked)-1]
				return l.factor, l.top
			}}
		Erode(h, []int32{0, 0}, []float32{0, 1}, []float64{1, 1}, nil, 0, 2, p)
		got := float64(h[1])
		f := float64(c.start)
		if len(asked) > 0 {
			f = c.above[len(asked)-1].factor
		}
		if c.inside {
			if r := got - 100 + f*math.Pow(got, c.n); math.Abs(r) > 1e-4 {
				t.Errorf("%s: h %g leaves a residual %g with the factor %g of the rock it lies in", c.name, got, r, f)
			}
		}
		if !math.IsNaN(c.want) && math.Abs(got-c.want) > 1e-4 {
			t.Errorf("%s: h = %g, want %g (contacts asked at %v)", c.name, got, c.want, asked)
		}
	}
	// The same column laid out as before Top: the quartzite at the
	// uplifted surface, its bottom at 50 m. Its own root (66.7 m) lies
	// in it, so the old solve never reached the clay's.
	h := []float32{0, 100}
	p := Params{K: 1, M: 0.5, N: 1, Dt: 1, KFactor: []float32{1, 0.5}, Bottom: []float32{0, 50},
		Below: func(int, float64) (float64, float64) { return 9, math.Inf(-1) }}
	Erode(h, []int32{0, 0}, []float32{0, 1}, []float64{1, 1}, nil, 0, 2, p)
	if math.Abs(float64(h[1])-100/1.5) > 1e-4 {
		t.Errorf("from the surface's quartzite: h = %g, want the upper root %g", h[1], 100/1.5)
	}
}
