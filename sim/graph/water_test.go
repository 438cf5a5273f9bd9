package graph

import (
	"math"
	"testing"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/noise"
)

// TestWaterBudgetGraph runs the graph engine with the lakes' water budget
// on a rough start under uplift through 2 refinements (nodes are added,
// the water stays at its pits): rain = evaporation + outflow + stored to
// 1e-6 relative; the rain map is sampled at the nodes; snapshots on the
// grid carry the budget's depth and discharge.
func TestWaterBudgetGraph(t *testing.T) {
	skipNumericsUnderRace(t)
	const side = 20000.0
	m := sampleMesh(t, side, side, 400, 2)
	init := make([]float32, m.N)
	f := noise.NewFractal(noise.FractalSpec{Seed: 5, Frequency: 1, Octaves: 4, Persistence: 0.5, Lacunarity: 2})
	for i := range init {
		if !m.Outlet[i] {
			init[i] = float32(200 + 150*f.At(m.X[i]/3000, m.Y[i]/3000))
		}
	}
	p := engine.Params{K: 1e-6, M: 0.5, N: 1, Dt: 1e4, Rain: 0.8, Evap: 1}
	e, err := New(Config{Mesh: m, Init: init, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	const gw, gh = 50, 50
	g, err := NewOnGrid(e, gw, gh, side/gw)
	if err != nil {
		t.Fatal(err)
	}
	up := make([]float32, gw*gh)
	for i := range up {
		up[i] = 2e-4
	}
	if err := g.SetUplift(up); err != nil {
		t.Fatal(err)
	}
	if err := e.SetRefinement(400, 2, 40, 0, 3); err != nil {
		t.Fatal(err)
	}
	var rain, evap, out float64
	for range 150 {
		g.Step()
		b := e.Water().Stats().Budget
		rain, evap, out = rain+b.Rain, evap+b.Evaporated, out+b.Outflow
	}
	if e.Stage() != 2 {
		t.Fatalf("stage %d after 150 steps; want 2 refinements", e.Stage())
	}
	stored := e.Water().Budget().Stored
	if res := rain - evap - out - stored; math.Abs(res) > 1e-6*rain {
		t.Fatalf("rain %g m³ = evaporated %g + outflow %g + stored %g leaves %g; want 0 to 1e-6", rain, evap, out, stored, res)
	}
	if want := 0.8 * side * side * p.Dt * 150; math.Abs(rain-want) > 1e-9*want {
		t.Fatalf("rain %g m³; want r·area·dt·steps %g (Voronoi areas sum to the domain)", rain, want)
	}
	s := g.Snapshot()
	if s.Discharge == nil || s.WaterLakes == nil && len(e.Water().Lakes()) > 0 {
		t.Fatal("snapshot without the water budget's fields")
	}
	// A rain map twice the rain doubles the next step's rain.
	r2 := make([]float32, gw*gh)
	for i := range r2 {
		r2[i] = 1.6
	}
	if err := g.SetRainMap(r2); err != nil {
		t.Fatal(err)
	}
	g.Step()
	if b := e.Water().Stats().Budget.Rain; math.Abs(b-1.6*side*side*p.Dt) > 1e-6*b {
		t.Fatalf("rain of a step with a 1.6 m/yr map: %g m³; want %g", b, 1.6*side*side*p.Dt)
	}
	if err := e.SetRainField(&sim.Field{W: 3, H: 3, Cell: 1, Data: make([]float32, 9)}); err == nil {
		t.Fatal("SetRainField accepted a raster that does not cover the domain")
	}
}
