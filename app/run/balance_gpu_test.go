package run

import (
	"math"
	"testing"

	"orogen/app/compute"
	"orogen/app/engines"
	"orogen/app/scene/scenetest"
	"orogen/sim/engine"
	"orogen/sim/settle"
	"orogen/sim/simtest"
)

// TestGPUSettlesRebalancedLikeCPU settles default's ridges on the classic
// physics (scenetest: D8, no deposition, no k noise, which settle to
// several rest states 8 % apart on the two engines) with the lakes
// presets' nonlinear creep (κ 0.1 m²/yr, S_c 0.6) by sim/settle's
// scheme on both engines at 64²: the GPU engine, rebalanced through the
// registry's wrapper (engine.Rebalanced), takes steps longer than the
// user's dt as the CPU engine does, and settles to the CPU's terrain:
// mean height within 3 %, max within 5 %. Measured on llvmpipe: 304 /
// 388 steps, both up to 4096·dt, max 3 921 / 3 784 m, mean 801.8 /
// 792.9 m (GPU/CPU); at the user's dt only, 399 / 397 steps, 3 880 /
// 3 881 m and 793.7 / 792.0 m: the long steps' rest states lie within
// about 3 % of the fixed steps' on either engine.
func TestGPUSettlesRebalancedLikeCPU(t *testing.T) {
	simtest.SkipUnderRace(t, "compares settled heights, about 700 steps")
	const n = 64
	type result struct {
		steps     int
		longest   float64
		max, mean float64
	}
	run := func(d compute.Device) result {
		j, err := Prepare(Options{Scene: scenetest.File(t, "default"), Size: n, HydroDevice: d})
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := j.Engine.(interface{ Close() }); ok {
			defer c.Close()
		}
		p := j.Engine.Params()
		p.Kappa, p.CreepSc = 0.1, 0.6
		if err := j.Engine.SetParams(p); err != nil {
			t.Fatal(err)
		}
		if dev, why := engines.DeviceOf(j.Engine); d != compute.CPU && dev == "cpu" {
			t.Skip(why)
		}
		if _, ok := j.Engine.(engine.Rebalanced); !ok {
			t.Fatalf("%s: the engine is not an engine.Rebalanced", d)
		}
		sch, err := settle.New(j.Engine, settle.Options{Tol: j.Tolerance})
		if err != nil {
			t.Fatal(err)
		}
		var r result
		for !sch.Settled() {
			r.longest = math.Max(r.longest, sch.Dt()/p.Dt)
			sch.Step()
			if err := j.Engine.Err(); err != nil {
				t.Fatal(err)
			}
			if sch.Steps() > 3000 {
				t.Fatalf("%s: not settled after %d steps", d, sch.Steps())
			}
		}
		r.steps = sch.Steps()
		_, r.max, r.mean = engine.HeightFigures(j.Engine.Heights())
		return r
	}
	g, c := run(compute.GPU), run(compute.CPU)
	t.Logf("%d²: steps %d/%d, longest step %.0f/%.0f dt, max %.1f/%.1f m, mean %.2f/%.2f m (GPU/CPU)", n, g.steps, c.steps, g.longest, c.longest, g.max, c.max, g.mean, c.mean)
	if g.longest <= 1 {
		t.Errorf("the GPU engine settled at the user's dt only; the CPU's steps reached %.0f times it", c.longest)
	}
	if math.Abs(g.max-c.max) > 0.05*c.max || math.Abs(g.mean-c.mean) > 0.03*math.Abs(c.mean) {
		t.Errorf("settled max %.1f m, mean %.2f m on the GPU; the CPU's %.1f m, %.2f m; want within 5 %% and 3 %%", g.max, g.mean, c.max, c.mean)
	}
}
