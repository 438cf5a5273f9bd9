package run

import (
	"fmt"
	"testing"

	"orogen/sim/flow"
)

// BenchmarkStepPhysics is BenchmarkStep with the physics of issue 34 on:
// nonlinear creep (S_c = 0.5 with the benchmark's κ = 0.01 m²/yr),
// deposition (G = 1), k noise (0.4) and, in the "random" variant,
// randomized hillslope routing. Compare with BenchmarkStep at the same
// size on the same machine.
func BenchmarkStepPhysics(b *testing.B) {
	for _, routing := range []flow.Routing{flow.RoutingD8, flow.RoutingRandom} {
		for _, n := range []int{256, 1024} {
			b.Run(fmt.Sprintf("%s/%d", routing, n), func(b *testing.B) {
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
				b.ResetTimer()
				for range b.N {
					job.Engine.Step()
				}
			})
		}
	}
}
