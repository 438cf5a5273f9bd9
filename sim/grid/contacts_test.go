package grid

import (
	"math"
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// TestRestUnderHarderRock: a terrain at rest in clay whose highest cells
// lie just under quartzite stays at rest. The uplift carries those cells
// a quarter of a step's uplift into the quartzite each step, and the
// erosion brings them back through the contact to the clay's rest. Backward
// Euler with k at the new height has a second root there, in the
// quartzite; the solve started from the rock at the uplifted surface took
// it, and the cells jumped by most of a step's uplift onto the hard rock
// (the layered presets' cycle, spl's rise). Started from the rock at the
// cells' height before the step, the solve keeps the clay's root.
func TestRestUnderHarderRock(t *testing.T) {
	const w, h, cell, u = 24, 16, 200.0, 4e-4
	p := engine.DefaultParams()
	p.K, p.Kappa, p.Talus = 2e-6, 0, talus.Model{Mode: talus.ModeOff}
	up := simtest.Uniform(w, h, u)
	stack := func(z float64) geology.Spec {
		return geology.Spec{Base: -1e4, Stack: []geology.Group{{Layers: []geology.Layer{
			{Thickness: 1e4 + z, Rock: "Clay"}, {Thickness: 1e5, Rock: "Quartzite"}}}}}
	}
	e := mustNew(t, Config{W: w, H: h, Cell: cell, Up: up, InitNoise: 1, Seed: 3, Params: p})
	e.SetGeology(mustCompile(t, stack(1e5)))
	steady(t, e, u, p.Dt)
	rest := slices.Clone(e.Heights())
	top := float64(slices.Max(rest))
	z := top + u*p.Dt/4 // the contact: the top cells' uplifted surface lies above it
	e = mustNew(t, Config{W: w, H: h, Cell: cell, Up: up, Init: rest, Params: p})
	e.SetGeology(mustCompile(t, stack(z)))
	for s := 1; s <= 5; s++ {
		e.Step()
		var mx float64
		var at int
		for i, v := range e.Heights() {
			if d := math.Abs(float64(v - rest[i])); d > mx {
				mx, at = d, i
			}
		}
		if mx > 1e-3*u*p.Dt {
			t.Fatalf("step %d: cell %d moved %.3g m from the clay's rest (%.1f m, the contact at %.1f m, a step's uplift %g m)",
				s, at, mx, rest[at], z, u*p.Dt)
		}
	}
}
