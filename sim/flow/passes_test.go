package flow_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/grid"
	"orogen/sim/simtest"
	"orogen/sim/water"
)

// newEngine returns a grid engine on an n×n grid of 50 m cells with uplift
// rising to the centre (a cone, so lakes form on the flanks early on).
func newEngine(tb testing.TB, n int, seed uint64) *grid.Engine {
	tb.Helper()
	up := simtest.Scale(simtest.Cone(n, n, 50, 1, 1/(50*float64(n))), 1e-3)
	p := engine.DefaultParams()
	p.Dt = 1e5
	e, err := grid.New(grid.Config{W: n, H: n, Cell: 50, Up: up, InitNoise: 2, Seed: seed, Params: p})
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// TestWaterOnGridEngine drives a grid engine and feeds the basins of every
// step's heights to sim/water, routed by a graph of its own as the
// engine's is (the engine keeps its basins only while its own water budget
// runs): the account must balance each step (1e-9 relative: float64
// sums of ~1e4 terms), every lake's level must lie between its pit and its
// pass (a full lake exactly at its pass), and the depth raster must hold
// the stored water (1e-5: float32 depths).
func TestWaterOnGridEngine(t *testing.T) {
	const n = 96
	e := newEngine(t, n, 3)
	m, err := water.New(water.Params{Rain: 1, Evap: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	var in water.Input
	var stored float64
	wet := 0
	g := flow.NewGraph(n, n, 50, e.Params().Edges, e.Params().NaturalDist)
	for step := range 40 {
		h := slices.Clone(e.Heights()) // κ = 0: the heights the step routes
		e.Step()
		g.Update(h)
		g.WaterInput(&in, h)
		st := m.Step(&in, 1e3)
		b := st.Budget
		if d := b.Rain - b.Evaporated - b.Outflow - (b.Stored - stored); math.Abs(d) > 1e-9*b.Rain {
			t.Fatalf("step %d: rain %g − evaporated %g − outflow %g − Δstored %g = %g m³",
				step, b.Rain, b.Evaporated, b.Outflow, b.Stored-stored, d)
		}
		stored = b.Stored
		wet = max(wet, st.Lakes)
		depth := m.WaterDepth(nil, &in)
		var held float64
		for _, d := range depth {
			held += float64(d) * 2500
		}
		if math.Abs(held-b.Stored) > 1e-5*b.Stored+1e-6 {
			t.Fatalf("step %d: depth raster holds %g m³; stored %g m³", step, held, b.Stored)
		}
		for k, lk := range m.Lakes() {
			pit := float64(h[lk.Root])
			if lk.Level < pit || lk.Level > lk.PassH || (lk.Full && lk.Level != lk.PassH) {
				t.Fatalf("step %d lake %d: level %g m, pit %g m, pass %g m, full %v", step, k, lk.Level, pit, lk.PassH, lk.Full)
			}
			if len(lk.Basins) == 1 && lk.Root != in.Root[lk.Basins[0]] {
				t.Fatalf("step %d lake %d: root %d; its basin's pit is %d", step, k, lk.Root, in.Root[lk.Basins[0]])
			}
		}
	}
	if wet == 0 {
		t.Fatal("no lake ever held water: the test terrain is too smooth")
	}
}

var (
	matureOnce sync.Once
	matureH    []float32
	matureE    *grid.Engine
	matureStep time.Duration // best grid step among the last 20
)

// mature returns a 1024² grid engine after 150 steps and the heights its
// last step routed, built once per test binary.
func mature(b *testing.B) (*grid.Engine, []float32) {
	matureOnce.Do(func() {
		e := newEngine(b, 1024, 1)
		matureStep = time.Hour
		for k := range 149 {
			t0 := time.Now()
			e.Step()
			if k >= 129 {
				matureStep = min(matureStep, time.Since(t0))
			}
		}
		matureH = slices.Clone(e.Heights())
		e.Step()
		matureE = e
	})
	return matureE, matureH
}

// cratered returns the mature heights with craters dug into them: bowls of
// radius 3 to 30 cells and depth 2 to 60 m, at seeded random places.
func cratered(h []float32, n, count int) []float32 {
	z := slices.Clone(h)
	rng := rand.New(rand.NewPCG(7, 7))
	for range count {
		cx, cy := rng.IntN(n), rng.IntN(n)
		r := 3 + rng.Float64()*27
		d := 2 + rng.Float64()*58
		for y := max(0, cy-int(r)); y < min(n, cy+int(r)+1); y++ {
			for x := max(0, cx-int(r)); x < min(n, cx+int(r)+1); x++ {
				q := (float64(x-cx)*float64(x-cx) + float64(y-cy)*float64(y-cy)) / (r * r)
				if q < 1 {
					z[y*n+x] -= float32(d * (1 - q))
				}
			}
		}
	}
	return z
}

// benchmarkWater times WaterInput and one water step (rain 1 m/yr,
// evaporation 0.1, dt 1e5 yr) on the basins of heights h routed on a
// 1024² grid of 50 m cells, after five steps to fill the lakes.
func benchmarkWater(b *testing.B, n int, h []float32) {
	g := flow.NewGraph(n, n, 50, flow.Edges{}, 0)
	g.Update(h)
	m, _ := water.New(water.Params{Rain: 1, Evap: 0.1})
	var in water.Input
	for range 5 {
		m.Step(g.WaterInput(&in, h), 1e5)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		m.Step(g.WaterInput(&in, h), 1e5)
	}
	b.StopTimer()
	st := m.Stats()
	b.ReportMetric(float64(len(in.Root)), "pits")
	b.ReportMetric(float64(st.Lakes), "wet")
	b.ReportMetric(float64(st.Iterations), "rounds")
}

// BenchmarkWaterStep: "mature" is a 1024² grid engine after 150 steps
// (grid-ms is its step time, best of the last 20), whose routing leaves no
// pits; "craters" digs 300 bowls into it; "rough" is simtest.Rough,
// thousands of pits of every size; "flat50k" a flat start.
func BenchmarkWaterStep(b *testing.B) {
	_, h := mature(b)
	b.Run("mature", func(b *testing.B) {
		benchmarkWater(b, 1024, h)
		b.ReportMetric(float64(matureStep.Microseconds())/1e3, "grid-ms")
	})
	b.Run("craters", func(b *testing.B) { benchmarkWater(b, 1024, cratered(h, 1024, 300)) })
	b.Run("rough", func(b *testing.B) { benchmarkWater(b, 1024, simtest.Rough(1024, 1024, 1000, 1)) })
	// A flat start: 1 m of white noise on 680² cells, about 51k pits.
	b.Run("flat50k", func(b *testing.B) { benchmarkWater(b, 680, simtest.Noisy(680, 680, 1, 1)) })
}
