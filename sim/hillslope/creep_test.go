package hillslope

import (
	"math"
	"runtime"
	"slices"
	"testing"
)

// With S_c = +Inf every factor is 1: a creep step of m sub-steps is m
// linear diffusion steps of Diffuser over dt/m, to float32 rounding, for
// every combination of edges.
func TestCreepLinearLimit(t *testing.T) {
	w, h := 37, 29
	for _, fe := range allEdges() {
		a := terrain(w, h, 3)
		b := slices.Clone(a)
		c := NewCreeper(w, h)
		c.Step(b, 50, 2.5, math.Inf(1), 3000, fe)
		m := c.Substeps()
		if m != 2 { // r = 3, bound 2
			t.Fatalf("%d sub-steps; want 2", m)
		}
		d := NewDiffuser(w, h)
		for range m {
			d.Step(a, 50, 2.5, 3000/float64(m), fe)
		}
		for i := range a {
			if d := math.Abs(float64(a[i] - b[i])); d > 1e-3 {
				t.Fatalf("edges %+v: cell %d: diffuser %g, creep %g", fe, i, a[i], b[i])
			}
		}
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
		NewCreeper(w, h).Step(v, 10, 1, 0.6, 500, Edges{})
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
