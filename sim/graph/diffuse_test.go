package graph

import (
	"math"
	"orogen/sim/engine"
	"runtime"
	"testing"
)

// TestCotWeightsPlane: the cotangent Laplacian of a linear function is
// zero at every interior node (linear precision), so the weights of each
// node's edges balance: Σ_j w_ij (p_j − p_i) = 0.
func TestCotWeightsPlane(t *testing.T) {
	m := sampleMesh(t, 3000, 2000, 60, 3)
	w := m.cotWeights()
	for i := range m.N {
		if m.Outlet[i] {
			continue
		}
		var sx, sy, sw float64
		for k := m.NbrOff[i]; k < m.NbrOff[i+1]; k++ {
			j := m.Nbr[k]
			if w[k] < -1e-12 {
				t.Fatalf("node %d: weight %g to %d; want >= 0 on a Delaunay mesh", i, w[k], j)
			}
			sx += w[k] * (m.X[j] - m.X[i])
			sy += w[k] * (m.Y[j] - m.Y[i])
			sw += w[k]
		}
		// Relative to the node's own scale (Σw · spacing): float rounding.
		if tol := 1e-9 * sw * 60; math.Abs(sx) > tol || math.Abs(sy) > tol {
			t.Fatalf("node %d: Σ w (p_j − p_i) = (%g, %g); want 0", i, sx, sy)
		}
	}
}

// bumpEngine is an engine on a 20×20 km square whose heights are a
// Gaussian bump of height h0 and width sigma in the middle, erosion off
// (k tiny) so only diffusion acts.
func bumpEngine(t *testing.T, kappa, dt, sigma, h0 float64) *Engine {
	t.Helper()
	const L = 20000.0
	m := sampleMesh(t, L, L, raceSpacing(120), 5)
	init := make([]float32, m.N)
	for i := range init {
		dx, dy := m.X[i]-L/2, m.Y[i]-L/2
		init[i] = float32(h0 * math.Exp(-(dx*dx+dy*dy)/(2*sigma*sigma)))
		if m.Outlet[i] {
			init[i] = 0
		}
	}
	e, err := New(Config{Mesh: m, Init: init, Params: engine.Params{K: 1e-30, M: 0.5, N: 1, Dt: dt, Kappa: kappa}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestDiffusionBump checks diffusion against the analytic spreading of a
// Gaussian, h(r, t) = h0 σ²/(σ² + 2κt) exp(−r²/(2(σ² + 2κt))), and the
// conservation of volume (the bump is far from the outlets).
func TestDiffusionBump(t *testing.T) {
	skipNumericsUnderRace(t)
	const kappa, sigma, h0 = 1.0, 1500.0, 1000.0
	// 40 steps of 2.5e4 yr: 2κt = 2e6 m², so σ² grows from 2.25e6 to 4.25e6.
	const dt, steps = 2.5e4, 40
	e := bumpEngine(t, kappa, dt, sigma, h0)
	m := e.m
	vol := func() float64 {
		s := 0.0
		for i, h := range e.hgt {
			s += m.Area[i] * float64(h)
		}
		return s
	}
	v0 := vol()
	for range steps {
		e.Step()
	}
	// Volume: the bump's tail at the border is e^(−10000²/(2·4.25e6)) ≈ 1e-5
	// of its peak, so the outlets take at most ~1e-5 of it; float32
	// heights round at ~1e-7. 1e-4 leaves room for both.
	if v1 := vol(); math.Abs(v1-v0) > 1e-4*v0 {
		t.Errorf("volume %g m³ after %d steps; want %g to 1e-4", v1, steps, v0)
	}
	s2 := sigma*sigma + 2*kappa*dt*steps
	want := h0 * sigma * sigma / s2
	peak := 0.0
	for _, h := range e.hgt {
		peak = max(peak, float64(h))
	}
	// Backward Euler in time (40 steps, O(dt) error) and the node
	// spacing (120 m against σ ≥ 1500 m) put the peak within 2 %.
	if math.Abs(peak-want) > 0.02*want {
		t.Errorf("peak %.2f m after %g yr; want %.2f (analytic) to 2 %%", peak, dt*steps, want)
	}
}

// TestDiffusionStable: a huge κ·dt flattens the bump in one step without
// overshoot: heights stay within their former range.
func TestDiffusionStable(t *testing.T) {
	skipNumericsUnderRace(t)
	e := bumpEngine(t, 1e3, 1e6, 1500, 1000)
	e.Step()
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	for i, h := range e.hgt {
		if !(h >= -1e-3 && h <= 1000) {
			t.Fatalf("node %d at %g m after a stiff step; want within [0, 1000]", i, h)
		}
	}
}

// TestDiffusionDeterministic: the same bytes with GOMAXPROCS 1 and 2.
func TestDiffusionDeterministic(t *testing.T) {
	run := func(p int) []float32 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(p))
		e := bumpEngine(t, 2, 2.5e4, 1500, 1000)
		for range 5 {
			e.Step()
		}
		return e.hgt
	}
	a, b := run(1), run(2)
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			t.Fatalf("node %d: %g with GOMAXPROCS 1, %g with 2", i, a[i], b[i])
		}
	}
}
