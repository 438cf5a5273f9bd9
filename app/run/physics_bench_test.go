package run

import (
	"fmt"
	"runtime"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/settle"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// BenchmarkStepPhysics is BenchmarkStep with the physics of issue 34 on:
// nonlinear creep (S_c = 0.5 with the benchmark's κ = 0.01 m²/yr),
// deposition (G = 1), k noise (0.4), with D8 and with randomized
// hillslope routing, on BenchmarkStep's base parameters (baseParams);
// and "preset", the soil physics the grid presets ship with
// (presetPhysics), after the same 50 warm-up steps; it reports the same phase and cpu-ms metrics. Compare
// with BenchmarkStep at the same size on the same machine.
func BenchmarkStepPhysics(b *testing.B) {
	for _, routing := range []flow.Routing{flow.RoutingD8, flow.RoutingRandom, "preset"} {
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
		p := baseParams(job.Engine.Params())
		p.CreepSc, p.G, p.KNoise, p.Routing, p.Seed = 0.5, 1, 0.4, routing, 1
		if routing == "preset" {
			p = presetPhysics(p)
		}
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
	cpu0 := simtest.ProcessCPU()
	for range b.N {
		st := e.Step()
		for i, d := range st.Phase {
			phases[i] += d.Seconds() * 1e3
		}
	}
	cpu := simtest.ProcessCPU() - cpu0
	b.StopTimer()
	for i, name := range engine.PhaseNames {
		b.ReportMetric(phases[i]/float64(b.N), name+"-ms")
	}
	b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms")
}

// presetPhysics returns p with the soil physics of the retuned grid
// presets (docs/REALISM.md): creep κ 0.02 m²/yr with S_c 0.6, deposition
// G 1.5, k 1.4e-6 /yr with k noise 0.8 at 3 km, random hillslope routing
// and a noisy talus limit of 25–40°.
func presetPhysics(p engine.Params) engine.Params {
	p.K, p.Kappa, p.CreepSc, p.G = 1.4e-6, 0.02, 0.6, 1.5
	p.KNoise, p.KNoiseWavelength, p.Routing = 0.8, 3000, flow.RoutingRandom
	p.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 25, MaxDeg: 40, WavelengthM: 3000, Octaves: 4, Seed: p.Seed}
	return p
}

// BenchmarkConvergePhysics is BenchmarkConverge with the physics the
// lakes presets use (creep κ 0.1 m²/yr, S_c 0.6; deposition G 0.2; k
// noise 0.8 at 3 km; random hillslope routing) and a noisy talus limit
// (25–40°) on the default preset: steps and stepping seconds from a flat
// start to settled (the scheme keeps the user's dt with κ > 0). Run it
// with -benchtime 1x. At 256² it settled in 11 189 steps (138 s of
// stepping, the 2-core machine at load 7–17), where `orogen run
// --until-converged` of a scene with these keys (the talus noise seeded
// otherwise) settled in 1 931: how long random hillslope routing takes
// to stop flipping varies a lot; BenchmarkConvergeClassic takes 233 steps
// at 1024² with the old physics, whose κ = 0 lets the scheme lengthen dt.
func BenchmarkConvergePhysics(b *testing.B) {
	for _, n := range []int{256, 512, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var steps, secs float64
			for range b.N {
				b.StopTimer()
				j, err := Prepare(Options{Scene: "default", Size: n})
				if err != nil {
					b.Fatal(err)
				}
				p := j.Engine.Params()
				p.Kappa, p.CreepSc, p.G = 0.1, 0.6, 0.2
				p.KNoise, p.KNoiseWavelength, p.Routing = 0.8, 3000, flow.RoutingRandom
				p.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 25, MaxDeg: 40, WavelengthM: 3000, Octaves: 4, Seed: p.Seed}
				if err := j.Engine.SetParams(p); err != nil {
					b.Fatal(err)
				}
				st, sec := settleTimed(b, j, n)
				steps += st
				secs += sec
			}
			b.ReportMetric(steps/float64(b.N), "steps")
			b.ReportMetric(secs/float64(b.N), "s-to-settle")
		})
	}
}

// settleTimed settles j's engine by sim/settle's scheme, timed (the
// caller stopped the timer), and returns the steps and seconds it took;
// past ConvergeCap steps the benchmark fails.
func settleTimed(b *testing.B, j *Job, n int) (steps, secs float64) {
	sch, err := settle.New(j.Engine, settle.Options{Tol: j.Tolerance})
	if err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	for !sch.Settled() {
		if sch.Step(); sch.Steps() > ConvergeCap {
			b.Fatalf("%d²: not settled after %d steps", n, sch.Steps())
		}
	}
	st, d := sch.SettledAfter()
	return float64(st), d.Seconds()
}
