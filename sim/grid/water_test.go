package grid

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/simtest"
)

// TestWaterBudgetEngine runs the grid engine with the lakes' water budget
// on a rough terrain that erodes under it (so basins and passes change
// every step): over 200 steps, rain = evaporation + outflow + stored, to
// 1e-6 relative (the model keeps its account in float64; each step's
// residue is ~1e-12 of the flows), snapshots show the budget's lakes, and
// turning rain off returns to lakes filled to their passes.
func TestWaterBudgetEngine(t *testing.T) {
	const w, h = 64, 64
	p := engine.DefaultParams()
	p.Dt = 2e4
	p.Rain, p.Evap = 0.5, 2
	e := mustNew(t, Config{W: w, H: h, Cell: 200, Up: simtest.Uniform(w, h, 5e-4), Init: simtest.Rough(w, h, 300, 4), Params: p})
	var rain, evap, out float64
	for range 200 {
		st := e.Step()
		if e.Water() == nil {
			t.Fatal("water budget off with rain > 0")
		}
		b := e.Water().Stats().Budget
		rain, evap, out = rain+b.Rain, evap+b.Evaporated, out+b.Outflow
		if st.Phase[engine.PhaseWater] <= 0 {
			t.Fatal("no time in the water phase")
		}
	}
	stored := e.Water().Budget().Stored
	if res := rain - evap - out - stored; math.Abs(res) > 1e-6*rain {
		t.Fatalf("rain %g m³ = evaporated %g + outflow %g + stored %g leaves %g; want 0 to 1e-6", rain, evap, out, stored, res)
	}
	want := 0.5 * float64(w*h) * 200 * 200 * p.Dt * 200
	if math.Abs(rain-want) > 1e-9*want {
		t.Fatalf("rain in %g m³; want r·area·dt·steps = %g", rain, want)
	}
	s := e.Snapshot()
	if s.Discharge == nil || len(s.Discharge) != w*h {
		t.Fatal("snapshot without discharge")
	}
	// Discharge at an outlet cell is at most all the rain of a step's year.
	var maxQ float64
	for _, q := range s.Discharge {
		maxQ = max(maxQ, float64(q))
	}
	if maxQ <= 0 || maxQ > 0.5*float64(w*h)*200*200*1.0001 {
		t.Fatalf("largest discharge %g m³/yr; want in (0, r·domain]", maxQ)
	}
	wet, vol := 0, 0.0
	for _, l := range s.WaterLakes {
		vol += l.Volume
	}
	for _, d := range s.Water {
		if d < 0 {
			t.Fatal("negative water depth")
		}
		if d > 0 {
			wet++
		}
	}
	if (vol > 0) != (wet > 0) {
		t.Fatalf("lakes hold %g m³ but %d cells are wet", vol, wet)
	}
	p.Rain = 0
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	e.Step()
	if e.Water() != nil || e.Snapshot().WaterLakes != nil {
		t.Fatal("water budget still on with rain 0")
	}
	bad := p
	bad.Rain = math.NaN()
	if err := e.SetParams(bad); err == nil {
		t.Fatal("SetParams accepted NaN rain")
	}
	bad.Rain, bad.Evap = 1, 1e9
	if err := e.SetParams(bad); err == nil {
		t.Fatal("SetParams accepted evaporation 1e9")
	}
	if err := e.SetRainMap(make([]float32, 7)); err == nil {
		t.Fatal("SetRainMap accepted 7 values for 64×64 cells")
	}
}
