package graph

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/water"
)

// TestWaterOnGraphEngine drives the stream-graph engine on rough noise
// (many lakes) and feeds every step's basins to sim/water: the account must
// balance each step (1e-9 relative: float64 sums of ~1e4 terms), every
// lake's level must lie between its pit and its pass (a full lake exactly
// at its pass), and the depth raster over the Voronoi areas must hold the
// stored water (1e-5: float32 depths).
func TestWaterOnGraphEngine(t *testing.T) {
	m := sampleMesh(t, 5000, 4000, 50, 4)
	up := make([]float32, m.N)
	for i := range up {
		up[i] = 5e-4
	}
	e, err := New(Config{Mesh: m, Up: up, InitNoise: 300, Seed: 4, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	w, err := water.New(water.Params{Rain: 1, Evap: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	var in water.Input
	var stored float64
	wet, lakes := 0, 0
	for step := range 12 {
		e.Step()
		e.WaterInput(&in)
		st := w.Step(&in, 100)
		b := st.Budget
		if d := b.Rain - b.Evaporated - b.Outflow - (b.Stored - stored); math.Abs(d) > 1e-9*b.Rain {
			t.Fatalf("step %d: rain %g − evaporated %g − outflow %g − Δstored %g = %g m³",
				step, b.Rain, b.Evaporated, b.Outflow, b.Stored-stored, d)
		}
		stored = b.Stored
		wet = max(wet, st.Lakes)
		lakes = max(lakes, len(e.Lakes()))
		depth := w.WaterDepth(nil, &in)
		var held float64
		for i, d := range depth {
			held += float64(d) * m.Area[i]
		}
		if math.Abs(held-b.Stored) > 1e-5*b.Stored+1e-6 {
			t.Fatalf("step %d: depth raster holds %g m³; stored %g m³", step, held, b.Stored)
		}
		for k, lk := range w.Lakes() {
			pit := float64(in.H[lk.Root])
			if lk.Level < pit || lk.Level > lk.PassH || (lk.Full && lk.Level != lk.PassH) {
				t.Fatalf("step %d lake %d: level %g m, pit %g m, pass %g m, full %v", step, k, lk.Level, pit, lk.PassH, lk.Full)
			}
			for _, bs := range lk.Basins {
				if in.Label[in.Root[bs]] != bs+1 {
					t.Fatalf("step %d lake %d: basin %d's pit %d is labelled %d", step, k, bs, in.Root[bs], in.Label[in.Root[bs]])
				}
			}
		}
	}
	if wet == 0 || lakes == 0 {
		t.Fatalf("%d lakes, %d wet: the test terrain is too smooth", lakes, wet)
	}
	t.Logf("up to %d lakes, %d wet", lakes, wet)
}
