package run

import (
	"fmt"
	"runtime"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
)

// BenchmarkStepPhysics is BenchmarkStep with the physics of issue 34 on:
// nonlinear creep (S_c = 0.5 with the benchmark's κ = 0.01 m²/yr),
// deposition (G = 1), k noise (0.4), with D8 and with randomized
// hillslope routing, after the same 50 warm-up steps; it reports the
// same phase and cpu-ms metrics. Compare with BenchmarkStep at the same
// size on the same machine.
func BenchmarkStepPhysics(b *testing.B) {
	for _, routing := range []flow.Routing{flow.RoutingD8, flow.RoutingRandom} {
		for _, n := range []int{256, 1024} {
			b.Run(fmt.Sprintf("%s/%d", routing, n), func(b *testing.B) {
				benchmarkPhysics(b, n, routing)
			})
		}
	}
}

var warmedPhysics = map[[3]int]engine.Engine{}

func benchmarkPhysics(b *testing.B, n int, routing flow.Routing) {
	warmMu.Lock()
	key := [3]int{n, runtime.GOMAXPROCS(0), len(routing)}
	e, ok := warmedPhysics[key]
	if !ok {
		job, err := Prepare(Options{Scene: "default", Size: n, Diffusion: ptr(0.01)})
		if err != nil {
			b.Fatal(err)
		}
		p := job.Engine.Params()
		p.CreepSc, p.G, p.KNoise, p.Routing, p.Seed = 0.5, 1, 0.4, routing, 1
		if err := job.Engine.SetParams(p); err != nil {
			b.Fatal(err)
		}
		for range warmups {
			job.Engine.Step()
		}
		e = job.Engine
		warmedPhysics[key] = e
	}
	warmMu.Unlock()
	var phases [engine.NumPhases]float64
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for range b.N {
		st := e.Step()
		for i, d := range st.Phase {
			phases[i] += d.Seconds() * 1e3
		}
	}
	cpu := processCPU() - cpu0
	b.StopTimer()
	for i, name := range engine.PhaseNames {
		b.ReportMetric(phases[i]/float64(b.N), name+"-ms")
	}
	b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms")
}
