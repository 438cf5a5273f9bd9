package run

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/settle"
	"orogen/sim/simtest"
	"orogen/sim/talus"
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
// hillslope term is linear diffusion (κ = 0.01 m²/yr) so that every phase
// does its work, and its pits keep the lake code busy; the preset's soil
// physics (creep, deposition, k noise, random routing, noisy talus: issue
// 34) is turned off, so that the figures compare with those before it
// (BenchmarkStepPhysics times the preset as it ships).
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
	if err := job.Engine.SetParams(baseParams(job.Engine.Params())); err != nil {
		b.Fatal(err)
	}
	for range warmups {
		job.Engine.Step()
	}
	warmed[key] = job.Engine
	return job.Engine
}

// baseParams returns p with the soil physics of issue 34 off and the
// default preset's parameters from before it: k 5.61e-7 /yr, a constant
// talus of 30°, D8 routing everywhere.
func baseParams(p engine.Params) engine.Params {
	p.CreepSc, p.G, p.KNoise, p.KNoiseWavelength, p.Routing = 0, 0, 0, 0, flow.RoutingD8
	p.K = 5.61e-7
	p.Talus = talus.Model{Mode: talus.ModeConstant, AngleDeg: 30}
	return p
}

func benchmarkStep(b *testing.B, n int) {
	e := warmEngine(b, n)
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
	// The CPU time of the process per step: on a loaded machine the wall
	// times above include time other processes held the cores; with one
	// worker this does not, and with more it is the total work.
	b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms")
}

// BenchmarkStep times one whole step (every phase) of the default preset
// after 50 warm-up steps, at 256² ... 2048².
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{256, 512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkStep(b, n) })
	}
}

// BenchmarkConverge times `orogen run --scene default --until-converged`
// (the adaptive scheme of package settle) from a flat start to steady
// state at 512² and 1024², reporting seconds and steps to settle: 319 and
// 445 steps with the soil physics the preset ships with (issue 34). Run it
// with -benchtime 1x.
func BenchmarkConverge(b *testing.B) { benchmarkConverge(b, "default") }

// BenchmarkConvergeClassic is BenchmarkConverge on the classic preset,
// the default ridges with the physics from before issue 34 (D8 routing,
// no creep, deposition or k noise), on which BenchmarkConverge was first
// measured: 124 and 233 steps at 512² and 1024²; the fixed-dt runs are
// the reference (957 steps, 6.3 s at 512²; 2 351 steps, 63 s at 1024² on
// the 2-core machine).
func BenchmarkConvergeClassic(b *testing.B) { benchmarkConverge(b, "classic") }

func benchmarkConverge(b *testing.B, scene string) {
	for _, n := range []int{512, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var steps, secs float64
			for range b.N {
				b.StopTimer()
				j, err := Prepare(Options{Scene: scene, Size: n, UntilConverged: true})
				if err != nil {
					b.Fatal(err)
				}
				st, sec := convergeTimed(b, j, n)
				steps += st
				secs += sec
			}
			b.ReportMetric(steps/float64(b.N), "steps")
			b.ReportMetric(secs/float64(b.N), "s-to-settle")
		})
	}
}

// convergeTimed runs j until it has converged, timed (the caller stopped
// the timer), and returns its steps and wall seconds; a run that stops
// unconverged fails the benchmark.
func convergeTimed(b *testing.B, j *Job, n int) (steps, secs float64) {
	b.StartTimer()
	rep, err := j.Run(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	if !rep.Converged {
		b.Fatalf("%d²: not converged after %d steps", n, rep.Steps)
	}
	return float64(rep.Steps), rep.WallS
}

// BenchmarkSettleAfterStroke times what the app does after a brush stroke
// on a settled terrain: the default preset at 512² and 1024² settled once
// (not timed), then the uplift raised by up to 30 % under a round brush
// of 6 % of the map's side at a third of the way across (the worker's
// SetUplift: the scheme restarts at the user's dt), stepped until it has
// settled again. Reports steps and stepping seconds to settle.
func BenchmarkSettleAfterStroke(b *testing.B) {
	for _, n := range []int{512, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var steps, secs float64
			for range b.N {
				b.StopTimer()
				j, err := Prepare(Options{Scene: "default", Size: n})
				if err != nil {
					b.Fatal(err)
				}
				sch, err := settle.New(j.Engine, settle.Options{Tol: j.Tolerance})
				if err != nil {
					b.Fatal(err)
				}
				for !sch.Settled() {
					if sch.Step(); sch.Steps() > ConvergeCap {
						b.Fatal("the default preset did not settle")
					}
				}
				w, h, cell := j.Engine.Size()
				uf, err := j.Scene.UpliftField("", w, h, cell, j.Umax)
				if err != nil {
					b.Fatal(err)
				}
				up := uf.Data
				cx, cy, r := float64(w)/3, float64(h)/3, 0.06*float64(w)
				for y := range h {
					for x := range w {
						d2 := ((float64(x)-cx)*(float64(x)-cx) + (float64(y)-cy)*(float64(y)-cy)) / (r * r)
						if d2 < 1 {
							up[y*w+x] *= float32(1 + 0.3*(1-d2)*(1-d2))
						}
					}
				}
				if err := j.Engine.SetUplift(up); err != nil {
					b.Fatal(err)
				}
				sch.Restart()
				b.StartTimer()
				for !sch.Settled() {
					if sch.Step(); sch.Steps() > ConvergeCap {
						b.Fatal("not settled after the stroke")
					}
				}
				s, d := sch.SettledAfter()
				steps += float64(s)
				secs += d.Seconds()
			}
			b.ReportMetric(steps/float64(b.N), "steps")
			b.ReportMetric(secs/float64(b.N), "s-to-settle")
		})
	}
}
