package graph

import (
	"math"
	"orogen/sim/engine"
	"testing"
)

// TestRefine refines an eroded terrain: more nodes, the old ones at their
// exact heights, the new ones within their old triangle's heights, outlets
// at base level, and the refined engine drains everything to the outlets.
func TestRefine(t *testing.T) {
	const r = 100
	m := sampleMesh(t, 8000, 6000, r, 5)
	up := make([]float32, m.N)
	for i := range up {
		up[i] = 5e-4
	}
	e, err := New(Config{Mesh: m, Up: up, InitNoise: 50, Seed: 5, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		e.Step()
	}
	ne, err := Refine(e, r/2, 7)
	if err != nil {
		t.Fatal(err)
	}
	nm := ne.Mesh()
	// Halving r quadruples the density (poisson.Density per r²); the old
	// nodes block some room, so ask for 3×.
	if nm.N < 3*m.N {
		t.Errorf("nodes: got %d from %d; want >= %d", nm.N, m.N, 3*m.N)
	}
	if ne.step != e.step || ne.time != e.time {
		t.Errorf("step, time: got %d, %g; want %d, %g", ne.step, ne.time, e.step, e.time)
	}
	h0, h1 := e.Heights(), ne.Heights()
	for i := 0; i < m.N; i++ {
		if nm.X[i] != m.X[i] || nm.Y[i] != m.Y[i] || nm.Outlet[i] != m.Outlet[i] || h1[i] != h0[i] || ne.up[i] != up[i] {
			t.Fatalf("old node %d moved or changed: height %g; want %g", i, h1[i], h0[i])
		}
	}
	tri := m.locate(nm.X[m.N:], nm.Y[m.N:])
	for k, tr := range tri {
		i := m.N + k
		if tr < 0 {
			t.Fatalf("new node %d at (%g, %g): in no old triangle", i, nm.X[i], nm.Y[i])
		}
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		for _, j := range m.Tri[3*tr : 3*tr+3] {
			lo, hi = min(lo, h0[j]), max(hi, h0[j])
		}
		if h1[i] < lo || h1[i] > hi {
			t.Fatalf("new node %d: height %g m outside its old triangle's [%g, %g] m", i, h1[i], lo, hi)
		}
		if nm.Outlet[i] && h1[i] != 0 {
			t.Fatalf("new outlet %d: height %g m; want base level 0", i, h1[i])
		}
	}
	for s := 1; s <= 3; s++ {
		ne.Step()
		if ne.Err() != nil {
			t.Fatal(ne.Err())
		}
		checkDrains(t, ne, s)
		if s == 1 && ne.Converged(1e9) {
			t.Error("converged one step after refining; want two steps of its own first")
		}
	}
	if _, err := Refine(ne, 4*r, 1); err == nil {
		t.Error("refining to a larger distance: got no error")
	}
}

// TestRefinementSchedule runs two stages of refinement every 5 steps: the
// node count grows at steps 6 and 11 and Converged holds back until the
// last stage.
func TestRefinementSchedule(t *testing.T) {
	const r = 400
	m := sampleMesh(t, 16000, 12000, r, 6)
	up := make([]float32, m.N)
	for i := range up {
		up[i] = 5e-4
	}
	e, err := New(Config{Mesh: m, Up: up, InitNoise: 10, Seed: 6, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetRefinement(r, 2, 5, 0, 11); err != nil {
		t.Fatal(err)
	}
	var nodes []int
	for s := 1; s <= 15; s++ {
		e.Step()
		if e.Err() != nil {
			t.Fatal(e.Err())
		}
		nodes = append(nodes, e.Mesh().N)
		checkDrains(t, e, s)
		if s < 11 && e.Converged(math.Inf(1)) {
			t.Fatalf("step %d: converged with stages left", s)
		}
	}
	if nodes[4] != m.N || nodes[5] <= nodes[4] || nodes[9] != nodes[5] || nodes[10] <= nodes[9] || e.Stage() != 2 {
		t.Errorf("node counts by step: %v, stage %d; want growth at steps 6 and 11, stage 2", nodes, e.Stage())
	}
	if e.stats.Step != 15 {
		t.Errorf("step: got %d; want 15", e.stats.Step)
	}
	for _, c := range []struct {
		r      float64
		stages int
		every  int
	}{{r, -1, 5}, {r, 1, 0}, {0, 1, 5}, {math.Inf(1), 1, 5}} {
		if err := e.SetRefinement(c.r, c.stages, c.every, 0, 1); err == nil {
			t.Errorf("SetRefinement(%g, %d, %d): got no error", c.r, c.stages, c.every)
		}
	}
}

// TestRefinementConverged ends a stage as soon as it has converged: on a
// still terrain, with a tolerance no step can miss, each stage lasts the
// two steps Converged needs, whatever its step budget.
func TestRefinementConverged(t *testing.T) {
	const r = 400
	m := sampleMesh(t, 16000, 12000, r, 8)
	// A tilted plane that barely erodes keeps its receivers: converged
	// from the second step of every stage on.
	init := make([]float32, m.N)
	for i := range init {
		if !m.Outlet[i] {
			init[i] = float32(0.01*m.X[i] + 0.003*m.Y[i])
		}
	}
	p := engine.DefaultParams()
	p.K = 1e-15
	e, err := New(Config{Mesh: m, Init: init, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetRefinement(r, 1, 1000, math.Inf(1), 3); err != nil {
		t.Fatal(err)
	}
	var nodes []int
	for range 4 {
		e.Step()
		nodes = append(nodes, e.Mesh().N)
	}
	if nodes[1] != m.N || nodes[2] <= m.N || e.Stage() != 1 {
		t.Errorf("node counts by step: %v; want growth at step 3", nodes)
	}
	if !e.Converged(math.Inf(1)) {
		t.Error("last stage, two steps in: not converged to an infinite tolerance")
	}
}
