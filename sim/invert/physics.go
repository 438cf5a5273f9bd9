package invert

import (
	"fmt"

	"orogen/sim/engine"
	"orogen/sim/flow"
)

// NotInverted names the parts of p's physics that Uplift does not invert,
// in scene-file words; nil when it inverts all of them. Uplift holds a
// heightmap under the classic physics (k, m, n, dt, linear diffusion,
// talus, edges); nonlinear creep, deposition, k noise and random hillslope
// routing (issue 34's soil physics) would move a heightmap it holds.
func NotInverted(p engine.Params) []string {
	var not []string
	if p.CreepSc > 0 && p.Kappa > 0 {
		not = append(not, fmt.Sprintf("creep_critical_slope %g", p.CreepSc))
	}
	if p.G > 0 {
		not = append(not, fmt.Sprintf("deposition_g %g", p.G))
	}
	if p.KNoise > 0 {
		not = append(not, fmt.Sprintf("k_noise %g", p.KNoise))
	}
	if p.Routing == flow.RoutingRandom {
		not = append(not, "hillslope_routing random")
	}
	return not
}
