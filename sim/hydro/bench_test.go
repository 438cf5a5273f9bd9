package hydro

import (
	"fmt"
	"testing"

	"orogen/sim"
	"orogen/sim/noise"
)

// fractalTerrain returns n×n heights of seeded fBm spanning about amp
// metres, a terrain with ridges, valleys and closed basins.
func fractalTerrain(n int, amp float64, seed uint64) []float32 {
	fr := noise.NewFractal(noise.FractalSpec{Seed: seed, Frequency: 3, Octaves: 9, Persistence: 0.5, Lacunarity: 2})
	h := make([]float32, n*n)
	for y := range n {
		for x := range n {
			h[y*n+x] = float32(amp * (0.5 + fr.At(float64(x)/float64(n), float64(y)/float64(n))))
		}
	}
	return h
}

// benchmarkStep times steps on an n×n fractal terrain of 400 m relief at
// 30 m cells with the default parameters (hydraulic and thermal erosion),
// after 50 warm-up steps so that rivers and lakes exist.
func benchmarkStep(b *testing.B, n int) {
	const cell = 30
	e, err := New(Config{Terrain: &sim.Field{W: n, H: n, Cell: cell, Data: fractalTerrain(n, 400, 1)}, Params: DefaultParams(cell)})
	if err != nil {
		b.Fatal(err)
	}
	for range 50 {
		e.Step()
	}
	var phase [NumPhases]float64
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		st := e.Step()
		for k, d := range st.Phase {
			phase[k] += d.Seconds()
		}
	}
	for k, name := range PhaseNames {
		b.ReportMetric(phase[k]*1e3/float64(b.N), name+"-ms/op")
	}
}

func BenchmarkHydraulicStep(b *testing.B) {
	for _, n := range []int{256, 512, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkStep(b, n) })
	}
}
