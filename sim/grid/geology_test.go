package grid

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

func mustCompile(t testing.TB, s geology.Spec) *geology.Model {
	t.Helper()
	m, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// halves is quartzite on x < x0 and clay beyond, whatever the height: a
// 200 km fault drops everything east of x0 into the top (clay) layer.
func halves(x0 float64) geology.Spec {
	return geology.Spec{Base: -1e5,
		Stack:        []geology.Group{{Layers: []geology.Layer{{Thickness: 1.5e5, Rock: "Quartzite"}, {Thickness: 10, Rock: "Clay"}}}},
		Deformations: []geology.Deformation{{Kind: geology.Fault, Offset: x0, Throw: -2e5, Steps: 1}}}
}

func steady(t *testing.T, e *Engine, u, dt float64) int {
	t.Helper()
	steps := 0
	for ; steps < 20000 && !(steps > 10 && e.Converged(u*1e-4)); steps++ {
		e.Step()
	}
	if !e.Converged(u * 1e-4) {
		t.Fatalf("not converged after %d steps: max |Δh|/dt = %g m/yr", steps, e.Stats().MaxDh/dt)
	}
	return steps
}

// TestSteadyStatePerRock: with uniform uplift, every cell reaches the
// steady state of its own rock, s = (u/k_cell)^(1/n) A^(-m/n) with
// k_cell = k·Kd/KdRef, on two rocks.
func TestSteadyStatePerRock(t *testing.T) {
	for _, n := range []float64{1, 1.5} {
		const w, h, cell, u = 48, 40, 100.0, 5e-4
		p := engine.DefaultParams()
		p.N, p.K = n, 2e-6
		p.Talus = talus.Model{Mode: talus.ModeOff}
		e := mustNew(t, Config{W: w, H: h, Cell: cell, Up: simtest.Uniform(w, h, u), InitNoise: 1, Seed: 3, Params: p})
		m := mustCompile(t, halves(w*cell/2))
		e.SetGeology(m)
		steps := steady(t, e, u, p.Dt)
		s := e.Snapshot()
		worst := [2]float64{}
		count := [2]int{}
		for i := range s.Height {
			r := s.Receivers[i]
			if r == int32(i) {
				continue
			}
			rock := m.Rock(int(e.Eroded()[i]))
			side := 0
			if rock.Name == "Clay" {
				side = 1
			}
			if want := (i%w)*cell >= w*cell/2; want != (side == 1) {
				t.Fatalf("cell %d: rock %s on the wrong side", i, rock.Name)
			}
			kc := p.K * m.Erodibility(rock)
			slope := (float64(s.Height[i]) - float64(s.Height[r])) / float64(e.Graph().Dist[i])
			want := math.Pow(u/kc, 1/n) * math.Pow(float64(e.Area()[i]), -p.M/n)
			worst[side] = max(worst[side], math.Abs(slope-want)/want)
			count[side]++
		}
		// Converged to 1e-4 of the uplift rate: slopes within ~1e-4 of
		// steady state, as in TestSteadyStateSlope; 1 % is far outside.
		if count[0] < 500 || count[1] < 500 || worst[0] > 0.01 || worst[1] > 0.01 {
			t.Fatalf("n %g: quartzite %d cells worst error %.3g, clay %d cells worst %.3g; want ≥ 500 cells each, ≤ 1%%", n, count[0], worst[0], count[1], worst[1])
		}
		t.Logf("n %g: %d steps; worst errors quartzite %.2g clay %.2g", n, steps, worst[0], worst[1])
	}
}

// TestHardCapSteeperThanSoft: quartzite above 300 m, clay below. At steady
// state the normalized steepness s·A^(m/n) of the hard cap exceeds the soft
// rock's by (k_soft/k_hard)^(1/n) = (0.9/0.1)^(1/n).
func TestHardCapSteeperThanSoft(t *testing.T) {
	const w, h, cell, u = 64, 48, 100.0, 5e-4
	p := engine.DefaultParams()
	p.K, p.Talus = 2e-6, talus.Model{Mode: talus.ModeOff}
	e := mustNew(t, Config{W: w, H: h, Cell: cell, Up: simtest.Uniform(w, h, u), InitNoise: 1, Seed: 5, Params: p})
	m := mustCompile(t, geology.Spec{Base: -1000, Stack: []geology.Group{{Layers: []geology.Layer{
		{Name: "soft", Thickness: 1300, Rock: "Clay"}, {Name: "cap", Thickness: 1e4, Rock: "Quartzite"}}}}})
	e.SetGeology(m)
	steady(t, e, u, p.Dt)
	s := e.Snapshot()
	var sum, raw [2]float64
	var cnt [2]int
	for i := range s.Height {
		r := s.Receivers[i]
		if r == int32(i) {
			continue
		}
		// 0 soft, 1 cap: the rock the cell lies in, which set k
		// (spl.Params.Bottom: the rock at the eroded height, not at
		// the uplifted one). At the contact (300 m) k lies between
		// the two rocks', as the slope does.
		z := float64(s.Height[i])
		if math.Abs(z-300) < 0.01 {
			continue
		}
		side := 0
		if z > 300 {
			side = 1
		}
		slope := (float64(s.Height[i]) - float64(s.Height[r])) / float64(e.Graph().Dist[i])
		sum[side] += slope * math.Pow(float64(e.Area()[i]), p.M/p.N)
		raw[side] += slope
		cnt[side]++
	}
	if cnt[0] < 100 || cnt[1] < 100 {
		t.Fatalf("%d soft and %d cap cells; want both ≥ 100 (the contact should cut the relief)", cnt[0], cnt[1])
	}
	got := (sum[1] / float64(cnt[1])) / (sum[0] / float64(cnt[0]))
	want := math.Pow(geology.Clay.Kd/geology.Quartzite.Kd, 1/p.N)
	// Each cell is within ~1e-4 of its steady state (converged to 1e-4 of
	// u), so the ratio of means is too; 1 % leaves room.
	if math.Abs(got-want)/want > 0.01 {
		t.Fatalf("cap/soft normalized steepness ratio %.4g; want %.4g ± 1%%", got, want)
	}
	t.Logf("steepness ratio %.4g (law %.4g); raw mean slope cap %.3g soft %.3g (ratio %.3g)", got, want,
		raw[1]/float64(cnt[1]), raw[0]/float64(cnt[0]), (raw[1]/float64(cnt[1]))/(raw[0]/float64(cnt[0])))
}

// TestUnitGeologyIsBitIdentical: a geology whose every rock has factor 1
// gives exactly the heights of no geology.
func TestUnitGeologyIsBitIdentical(t *testing.T) {
	const w, h = 60, 50
	p := engine.DefaultParams()
	p.Kappa = 0.02
	up := simtest.Scale(simtest.Cone(w, h, 1, 1, 1.0/float64(w)), 5e-4)
	a := mustNew(t, Config{W: w, H: h, Cell: 200, Up: up, InitNoise: 1, Seed: 2, Params: p})
	b := mustNew(t, Config{W: w, H: h, Cell: 200, Up: up, InitNoise: 1, Seed: 2, Params: p})
	// River sand has alluvium's Kd: every factor, alluvium's too, is 1.
	b.SetGeology(mustCompile(t, geology.Spec{KdRef: geology.RiverSand.Kd, Stack: []geology.Group{{Layers: []geology.Layer{{Thickness: 10, Rock: "River sand"}}}}}))
	for range 30 {
		a.Step()
		b.Step()
	}
	if !slices.Equal(a.Heights(), b.Heights()) {
		t.Fatal("a unit-factor geology changed the heights")
	}
}

// TestGeologyDeterministicAcrossWorkers: with folded strata, alluvium and
// lakes, heights, exposed rock and alluvium are the same bytes for any
// GOMAXPROCS.
func TestGeologyDeterministicAcrossWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const w, h = 120, 90
	p := engine.DefaultParams()
	// Deposition lays the alluvium: the erosion no longer cuts pits
	// through hard layers that creep then filled (spl.Params.Bottom).
	p.Kappa, p.G = 0.05, 1
	up := simtest.Scale(simtest.Cone(w, h, 1, 1, 1.0/float64(w)), 5e-4)
	m := mustCompile(t, geology.Spec{Base: 0, Stack: []geology.Group{{Repeat: 8, Layers: []geology.Layer{{Thickness: 20, Rock: "Quartzite"}, {Thickness: 35, Rock: "Clay"}}}},
		Deformations: []geology.Deformation{{Kind: geology.Fold, Azimuth: 30, Wavelength: 6000, Amplitude: 60}}})
	var ref *engine.Snapshot
	for _, procs := range []int{1, 2, 5} {
		runtime.GOMAXPROCS(procs)
		e := mustNew(t, Config{W: w, H: h, Cell: 250, Up: up, Init: simtest.Noisy(w, h, 50, 2), InitNoise: 1, Seed: 4, Params: p})
		e.SetGeology(m)
		for range 40 {
			e.Step()
		}
		s := e.Snapshot()
		if ref == nil {
			ref = s
			if !slices.ContainsFunc(s.Alluvium, func(a float32) bool { return a >= geology.MinAlluvium }) {
				t.Fatal("no alluvium anywhere; want a case with deposits")
			}
			continue
		}
		if !slices.Equal(s.Height, ref.Height) || !slices.Equal(s.Rock, ref.Rock) || !slices.Equal(s.Alluvium, ref.Alluvium) {
			t.Fatalf("Mismatch concurrent: GOMAXPROCS %d differs from GOMAXPROCS 1", procs)
		}
	}
}

// BenchmarkGeologyStep times a step at 1024² after 20 warm-up steps:
// "off" without geology; "unit" with the benchmark geology (20
// layers, 4 deformations) made of rocks whose factor is 1, so the terrain
// is bit-identical to "off" and the difference is the cost of the lookup,
// the k field and the alluvium; "on" with hard and soft layers (its
// terrain, and so its routing and lakes, differ from "off").
func BenchmarkGeologyStep(b *testing.B) {
	const n = 1024
	defs := []geology.Deformation{
		{Kind: geology.Fold, Azimuth: 20, Wavelength: 8000, Amplitude: 120},
		{Kind: geology.Fold, Azimuth: 110, Wavelength: 3000, Amplitude: 40, Lean: 15},
		{Kind: geology.Fault, Azimuth: 60, Offset: 6000, Throw: 80, Steps: 3, Spacing: 400, Width: 20},
		{Kind: geology.Tilt, Dip: 3},
	}
	for _, name := range []string{"off", "unit", "on"} {
		b.Run(name, func(b *testing.B) {
			p := engine.DefaultParams()
			p.Kappa = 0.01
			up := simtest.Scale(simtest.Cone(n, n, 1, 1, 1.0/float64(n)), 5e-4)
			e := mustNew(b, Config{W: n, H: n, Cell: 20, Up: up, InitNoise: 1, Seed: 1, Params: p})
			hard, soft, ref := "Quartzite", "Clay", 0.0
			if name == "unit" {
				hard, soft, ref = "River sand", "River sand", geology.RiverSand.Kd
			}
			if name != "off" {
				e.SetGeology(mustCompile(b, geology.Spec{Base: -400, KdRef: ref, Stack: []geology.Group{{Repeat: 10, Layers: []geology.Layer{{Thickness: 25, Rock: hard}, {Thickness: 40, Rock: soft}}}},
					Deformations: defs}))
			}
			for range 20 {
				e.Step()
			}
			var phases [engine.NumPhases]float64
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
		})
	}
}

// TestTalusByRock: with talus_by_rock, after a step no slope along a
// receiver exceeds tan(30°)·TalusScale of the rock the cell eroded in, and
// the hard side holds slopes beyond the scene's 30° that the soft side
// cannot.
func TestTalusByRock(t *testing.T) {
	const w, h, cell, u = 64, 48, 100.0, 5e-3
	p := engine.DefaultParams()
	p.K = 2e-7 // weak rivers: the talus limit shapes the slopes
	e := mustNew(t, Config{W: w, H: h, Cell: cell, Up: simtest.Uniform(w, h, u), InitNoise: 1, Seed: 3, Params: p})
	s := halves(w * cell / 2)
	s.TalusByRock = true
	m := mustCompile(t, s)
	e.SetGeology(m)
	tan := math.Tan(30 * math.Pi / 180)
	var steepest [2]float64
	for range 60 {
		e.Step()
		hs := e.Heights()
		for i, r := range e.Graph().Rec {
			if int(r) == i {
				continue
			}
			slope := (float64(hs[i]) - float64(hs[r])) / float64(e.Graph().Dist[i])
			rock := m.Rock(int(e.Eroded()[i]))
			side := 0
			if rock.Name == "Clay" {
				side = 1
			}
			// The limit is rounded down to float32 heights: 1e-4 relative
			// is far above that rounding (ulp 1.2e-7 relative) and far
			// below the scales' difference.
			if lim := tan * m.TalusScale(rock); slope > lim*(1+1e-4)+1e-6 {
				t.Fatalf("cell %d (%s): slope %.4g above its limit %.4g", i, rock.Name, slope, lim)
			}
			steepest[side] = max(steepest[side], slope)
		}
	}
	if !(steepest[0] > tan*1.2) || !(steepest[1] <= tan*m.TalusScale(geology.Clay)*(1+1e-4)) {
		t.Fatalf("steepest slope quartzite %.3g, clay %.3g; want quartzite beyond tan 30° = %.3g", steepest[0], steepest[1], tan)
	}
	t.Logf("steepest quartzite %.3g (limit %.3g), clay %.3g (limit %.3g)", steepest[0], tan*m.TalusScale(geology.Quartzite), steepest[1], tan*m.TalusScale(geology.Clay))
}

// TestThinLayersSettle: strata thinner than a step's erosion (20 m of
// quartzite between 30 m of clay, against up to 100 m of uplift a step)
// under a cone of uplift settle. With k taken from the rock exposed at
// the start of the step, a cell on clay cut through the quartzite under
// it at clay's k, and the next step, on quartzite, barely eroded: cells
// swapped rock and height every step and never settled (177 m a step
// after 20 000 steps; now 228 steps). Erode crosses the contacts within
// the step (spl.Params.Bottom).
func TestThinLayersSettle(t *testing.T) {
	const w, h, cell, u = 40, 40, 200.0, 4e-4
	p := engine.DefaultParams()
	p.K, p.Talus = 2e-6, talus.Model{Mode: talus.ModeOff}
	up := simtest.Scale(simtest.Cone(w, h, 1, 1, 1.0/float64(w)), u)
	e := mustNew(t, Config{W: w, H: h, Cell: cell, Up: up, InitNoise: 1, Seed: 3, Params: p})
	e.SetGeology(mustCompile(t, geology.Spec{Base: 0, Stack: []geology.Group{{Repeat: 40, Layers: []geology.Layer{
		{Thickness: 30, Rock: "Clay"}, {Thickness: 20, Rock: "Quartzite"}}}}}))
	steps := steady(t, e, u, p.Dt)
	t.Logf("settled in %d steps", steps)
}
