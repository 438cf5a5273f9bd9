package run

import (
	"fmt"
	"runtime"
	"sync"
	"testing"

	"orogen/sim/engine"
)

var (
	warmMu  sync.Mutex
	warmed  = map[[2]int]engine.Engine{}
	warmups = 50
)

// warmEngine returns an engine on the default preset at n×n cells after 50
// warm-up steps, shared between the benchmark's calibration runs and -count
// repetitions at one GOMAXPROCS. Each -cpu setting has an engine of its own,
// so the k-th run at every -cpu value times the same steps and the ratios
// of their times measure the parallel speed-up, not the terrain's
// evolution (lakes vanish as it nears steady state). The
// hillslope term is switched on (κ = 0.01 m²/yr; the preset has it off) so
// that every phase does its work, and its pits keep the lake code busy.
func warmEngine(b *testing.B, n int) engine.Engine {
	warmMu.Lock()
	defer warmMu.Unlock()
	key := [2]int{n, runtime.GOMAXPROCS(0)}
	if e, ok := warmed[key]; ok {
		return e
	}
	job, err := Prepare(Options{Scene: "default", Size: n, Diffusion: ptr(0.01)})
	if err != nil {
		b.Fatal(err)
	}
	for range warmups {
		job.Engine.Step()
	}
	warmed[key] = job.Engine
	return job.Engine
}

func benchmarkStep(b *testing.B, n int) {
	e := warmEngine(b, n)
	var phases [engine.NumPhases]float64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		st := e.Step()
		for i, d := range st.Phase {
			phases[i] += d.Seconds() * 1e3
		}
	}
	b.StopTimer()
	for i, name := range engine.PhaseNames {
		b.ReportMetric(phases[i]/float64(b.N), name+"-ms")
	}
}

// BenchmarkStep times one whole step (every phase) of the default preset
// after 50 warm-up steps, at 256² ... 2048².
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{256, 512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkStep(b, n) })
	}
}
