package run

import (
	"context"
	"math"
	"testing"

	"orogen/app/compute"
	"orogen/app/engines"
	"orogen/sim/engine"
)

// TestGPULakesRainLikeCPU runs the lakes preset as it is, rain and soil
// physics, on both engines through the registry (the GPU engine must not
// fall back: the water budget runs with it), 64², 30 steps: the run's
// water account closed on both (rain = evaporation + outflow + stored,
// to 1e-9 of the rain), the water stored and evaporated within 10 %, as
// many lakes holding more than 1 % of the water within 25 % and the area
// flooded within 10 %, the deepest routed lake within 10 %, max height
// within 3 % and mean within 1 % of the max; the GPU snapshot's water
// adds up to what its budget stores (with creep and random routing the
// routing saw the step's start, and the snapshot measures the water
// over those heights, as sim/grid's), and it has the discharge and the
// lakes' pits. Measured on llvmpipe (GPU / CPU): stored 2.605e10 /
// 2.619e10 m³ (0.5 %), evaporated 2.569e10 / 2.584e10 m³, 3 / 3 lakes
// over 9.52e7 / 9.16e7 m² (4 %; 9 / 7 lakes hold any water), deepest
// routed lake 1 468.9 / 1 469.4 m, max 2 031.0 / 2 030.8 m.
func TestGPULakesRainLikeCPU(t *testing.T) {
	type result struct {
		rep  *Report
		snap *engine.Snapshot
	}
	run := func(d compute.Device) result {
		j, err := Prepare(Options{Scene: "lakes", Size: 64, Steps: 30, HydroDevice: d})
		if err != nil {
			t.Fatal(err)
		}
		if p := j.Engine.Params(); p.Rain == 0 || p.G == 0 {
			t.Fatalf("the lakes preset has no rain or no deposition (%+v): the test needs both", p)
		}
		if dev, why := engines.DeviceOf(j.Engine); d != compute.CPU && dev == "cpu" {
			if dev, _ := compute.Shared(compute.GPU); dev == nil {
				t.Skip(why) // no OpenGL 4.3 device here
			}
			t.Fatalf("the GPU engine fell back: %s", why)
		}
		rep, err := j.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := j.Engine.(interface{ Close() }); ok {
			defer c.Close()
		}
		return result{rep, j.Engine.Snapshot()}
	}
	g, c := run(compute.GPU), run(compute.CPU)
	gw, cw := g.rep.Water, c.rep.Water
	if gw == nil || cw == nil {
		t.Fatalf("water budgets %v (GPU), %v (CPU): want both", gw, cw)
	}
	// The lakes holding more than 1 % of the water (a few small ones
	// hold a little on one engine, none on the other), and the area
	// flooded.
	wet := func(s *engine.Snapshot) int {
		var all float64
		for _, lk := range s.WaterLakes {
			all += lk.Volume
		}
		n := 0
		for _, lk := range s.WaterLakes {
			if lk.Volume > 0.01*all {
				n++
			}
		}
		return n
	}
	flooded := func(s *engine.Snapshot) float64 {
		var a float64
		for _, lk := range s.WaterLakes {
			a += lk.Area
		}
		return a
	}
	t.Logf("stored %.4g/%.4g m³, evaporated %.4g/%.4g, outflow %.4g/%.4g, lakes with water %d/%d over %.4g/%.4g m², deepest routed lake %.1f/%.1f m, max %.1f/%.1f m, mean %.2f/%.2f m (GPU/CPU)",
		gw.Stored, cw.Stored, gw.Evaporated, cw.Evaporated, gw.Outflow, cw.Outflow, wet(g.snap), wet(c.snap), flooded(g.snap), flooded(c.snap),
		g.rep.Final.MaxLakeDepth, c.rep.Final.MaxLakeDepth, g.rep.MaxHeight, c.rep.MaxHeight, g.rep.MeanHeight, c.rep.MeanHeight)
	for name, w := range map[string]*WaterBudget{"GPU": gw, "CPU": cw} {
		if math.Abs(w.Residual) > 1e-9*w.Rain {
			t.Errorf("%s: the water account is off by %g m³ (%+v)", name, w.Residual, w)
		}
	}
	if cw.Stored == 0 || wet(c.snap) == 0 {
		t.Fatal("the CPU engine stored no water: the test needs lakes")
	}
	rel := func(a, b float64) float64 { return math.Abs(a-b) / math.Abs(b) }
	if rel(gw.Stored, cw.Stored) > 0.1 || rel(gw.Evaporated, cw.Evaporated) > 0.1 || rel(float64(wet(g.snap)), float64(wet(c.snap))) > 0.25 ||
		rel(flooded(g.snap), flooded(c.snap)) > 0.1 ||
		rel(g.rep.Final.MaxLakeDepth, c.rep.Final.MaxLakeDepth) > 0.1 || rel(g.rep.MaxHeight, c.rep.MaxHeight) > 0.03 ||
		math.Abs(g.rep.MeanHeight-c.rep.MeanHeight) > 0.01*c.rep.MaxHeight {
		t.Errorf("the GPU's water, lakes or heights differ from the CPU's beyond the tolerances")
	}
	s := g.snap
	var vol float64
	for _, d := range s.Water {
		vol += float64(d) * s.Cell * s.Cell
	}
	if rel(vol, gw.Stored) > 1e-3 {
		t.Errorf("the GPU snapshot's water adds up to %.6g m³; the budget stores %.6g", vol, gw.Stored)
	}
	if s.Discharge == nil || len(s.WaterPits) == 0 {
		t.Error("the GPU snapshot has no discharge or no lakes' pits")
	}
}
