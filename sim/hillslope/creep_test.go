package hillslope

import (
	"math"
	"runtime"
	"slices"
	"testing"
)

// With S_c = +Inf every factor is 1: a creep step is a linear diffusion
// step of Diffuser, to float32 rounding, for every combination of edges,
// and a separable cosine mode decays by the backward-Euler factor of the
// two sweeps, 1/(1 + 4r·sin²(θx/2))·1/(1 + 4r·sin²(θy/2)).
func TestCreepLinearLimit(t *testing.T) {
	w, h := 37, 29
	for _, fe := range allEdges() {
		a := terrain(w, h, 3)
		b := slices.Clone(a)
		c := NewCreeper(w, h)
		d := NewDiffuser(w, h)
		for range 3 {
			c.Step(b, 50, 2.5, math.Inf(1), 3000, fe)
			d.Step(a, 50, 2.5, 3000, fe)
		}
		for i := range a {
			if d := math.Abs(float64(a[i] - b[i])); d > 1e-3 {
				t.Fatalf("edges %+v: cell %d: diffuser %g, creep %g", fe, i, a[i], b[i])
			}
		}
	}
	const amp, p, q, r = 300.0, 2, 3, 40.0 // r = κ·dt/cell²
	tx, ty := math.Pi*p/float64(w), math.Pi*q/float64(h)
	mode := func(x, y int) float64 {
		return amp * math.Cos(tx*(float64(x)+0.5)) * math.Cos(ty*(float64(y)+0.5))
	}
	v := make([]float32, w*h)
	for y := range h {
		for x := range w {
			v[y*w+x] = float32(mode(x, y))
		}
	}
	sum0 := sum(v)
	sx, sy := math.Sin(tx/2), math.Sin(ty/2)
	g := 1 / (1 + 4*r*sx*sx) / (1 + 4*r*sy*sy)
	NewCreeper(w, h).Step(v, 10, r, math.Inf(1), 100, Edges{}) // κ = r, cell 10 m, dt 100 yr
	for y := range h {
		for x := range w {
			if d := math.Abs(float64(v[y*w+x]) - g*mode(x, y)); d > 1e-5*amp {
				t.Fatalf("cell (%d, %d): %g; the mode decayed by %g gives %g", x, y, v[y*w+x], g, g*mode(x, y))
			}
		}
	}
	if d := math.Abs(sum(v) - sum0); d > float64(w*h)*0x1p-24*2*amp {
		t.Errorf("Σh moved by %g m", d)
	}
}

// With free edges the creep moves rock and conserves it; no new extrema
// appear; the result is the same for any number of workers.
func TestCreepConservesAndIsDeterministic(t *testing.T) {
	w, h := 150, 40 // more than one block of rows and of columns
	base := terrain(w, h, 7)
	var sum0 float64
	lo, hi := slices.Min(base), slices.Max(base)
	for _, v := range base {
		sum0 += float64(v)
	}
	var ref []float32
	for _, procs := range []int{1, 3} {
		old := runtime.GOMAXPROCS(procs)
		v := slices.Clone(base)
		c := NewCreeper(w, h)
		for range 3 { // the second and third with relaxed factors
			c.Step(v, 10, 1, 0.6, 500, Edges{})
		}
		runtime.GOMAXPROCS(old)
		var sum float64
		for _, x := range v {
			sum += float64(x)
		}
		if math.Abs(sum-sum0) > 1e-6*math.Abs(sum0) {
			t.Errorf("GOMAXPROCS %d: sum %g, was %g", procs, sum, sum0)
		}
		if mn, mx := slices.Min(v), slices.Max(v); mn < lo || mx > hi {
			t.Errorf("new extrema: [%g, %g] outside [%g, %g]", mn, mx, lo, hi)
		}
		if ref == nil {
			ref = v
		} else if !slices.Equal(ref, v) {
			t.Errorf("GOMAXPROCS %d differs from 1", procs)
		}
	}
}

// A ridge uplifted at U between two fixed edges at 0 reaches the steady
// state of Roering et al. 1999: the flux at distance x from the divide is
// U·x, so the slope solves κS/(1 − (S/S_c)²) = U·x:
//
//	S(x) = (√(κ² + 4(Ux/S_c)²) − κ) / (2Ux/S_c²),
//
// and the height is ∫ S from the edge. The hilltop is convex (curvature
// −U/κ at the divide) and the flanks steepen towards S_c without reaching
// it. The test steps the creep with uplift to rest on a 1D grid and
// compares the profile with the integral.
func TestCreepSteadyHilltop(t *testing.T) {
	if testing.Short() {
		t.Skip("long under -race; make unit runs it")
	}
	const (
		n     = 41 // cells; the divide is cell 20
		cell  = 10.0
		kappa = 0.01
		sc    = 1.0
		u     = 2e-4
		dt    = 5000.0
	)
	h := make([]float32, n)
	c := NewCreeper(n, 1)
	for range 6000 {
		for i := 1; i < n-1; i++ {
			h[i] += float32(u * dt)
		}
		c.Step(h, cell, kappa, sc, dt, Edges{West: true, East: true})
	}
	// The fixed edges are cells 0 and n−1 (heights 0) at x = ±L from the
	// divide, L = 20 cells; integrate S from the edge inwards.
	slope := func(x float64) float64 {
		if x == 0 {
			return 0
		}
		q := u * x / sc
		return (math.Sqrt(kappa*kappa+4*q*q) - kappa) / (2 * q / sc)
	}
	L := 20 * cell
	want := func(x float64) float64 { // height at distance x from the divide
		const steps = 4000
		var z float64
		dx := (L - x) / steps
		for k := range steps {
			z += slope(x+(float64(k)+0.5)*dx) * dx
		}
		return z
	}
	top := want(0)
	for i := 0; i < n; i++ {
		x := math.Abs(float64(i-20)) * cell
		if d := math.Abs(float64(h[i]) - want(x)); d > 0.03*top {
			t.Errorf("cell %d (x %g m): height %g m, steady state %g m", i, x, h[i], want(x))
		}
	}
	// Convex hilltop; the steepest flank below S_c.
	if !(h[20] > h[19] && h[19]-h[18] > h[20]-h[19]) {
		t.Errorf("hilltop not convex: %v", h[17:24])
	}
	smax := float64(h[1]-h[0]) / cell
	if smax >= sc || smax < 0.5*sc {
		t.Errorf("steepest slope %g: want near but below S_c = %g", smax, sc)
	}
	// Linear diffusion to the same rest would be a parabola of height
	// U·L²/(2κ), far taller: the creep caps the flanks.
	if lin := u * L * L / (2 * kappa); top > 0.5*lin {
		t.Errorf("creep relief %g m not well below the linear %g m", top, lin)
	}
}

// The hilltop of TestCreepSteadyHilltop at the largest time steps the
// engines take: r = κ·dt/cell² = 5 000 (the settle scheme's 4 096 × a
// base r near 1, and far beyond the r ≈ 25 of the default preset at 512²
// with κ = 1 m²/yr). Each step is stable (no height outside [0, the
// uplift so far]), and with the mean factors the steep flanks settle: the
// last step changes no height, and the profile is the steady state's.
// With the factors of each step's own start instead (Picard), the profile
// alternates here between two far from it (checked by hand).
func TestCreepStableAtLongSteps(t *testing.T) {
	const (
		n     = 41
		cell  = 10.0
		kappa = 0.01
		sc    = 1.0
		u     = 2e-4
		dt    = 5e7 // r = 5 000
	)
	h := make([]float32, n)
	c := NewCreeper(n, 1)
	var last []float32
	var moved float64
	for k := range 200 {
		for i := 1; i < n-1; i++ {
			h[i] += float32(u * dt)
		}
		c.Step(h, cell, kappa, sc, dt, Edges{West: true, East: true})
		for i, v := range h {
			if !(v >= 0 && float64(v) <= u*dt*float64(k+1)) {
				t.Fatalf("step %d: cell %d at %g m", k, i, v)
			}
		}
		if k == 199 {
			for i := range h {
				moved = max(moved, math.Abs(float64(h[i]-last[i])))
			}
		}
		last = slices.Clone(h)
	}
	// At rest the step's creep removes exactly the uplift it starts
	// with: the profile after the step is the steady one, whose slope
	// solves κS/(1 − (S/S_c)²) = U·x.
	if moved > 1e-4*float64(h[20]) {
		t.Errorf("the last step moved a height by %g m (top %g m): not settled", moved, h[20])
	}
	slope := func(x float64) float64 {
		if x == 0 {
			return 0
		}
		q := u * x / sc
		return (math.Sqrt(kappa*kappa+4*q*q) - kappa) / (2 * q / sc)
	}
	var top float64
	for k := range 20 { // the divide's height: Σ slopes of the faces
		top += slope((float64(k)+0.5)*cell) * cell
	}
	if d := math.Abs(float64(h[20]) - top); d > 0.03*top {
		t.Errorf("divide at %g m; the steady state's is %g m", h[20], top)
	}
}

// BenchmarkCreep times one creep step at 1024² (r = 10, S_c = 0.5 on a
// rough terrain) beside Diffuser's step of the same r (BenchmarkStep).
func BenchmarkCreep(b *testing.B) {
	const n = 1024
	f := terrain(n, n, 1)
	c := NewCreeper(n, n)
	c.Step(f, 30, 0.09, 0.5, 1e5, Edges{})
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c.Step(f, 30, 0.09, 0.5, 1e5, Edges{})
	}
}
