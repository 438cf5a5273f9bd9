package invert

import (
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
)

// NotInverted names each soil term and nothing for the classic physics;
// a critical slope without diffusion is no creep.
func TestNotInverted(t *testing.T) {
	p := engine.DefaultParams()
	if got := NotInverted(p); got != nil {
		t.Errorf("classic physics: %q; want nil", got)
	}
	p.CreepSc = 0.6
	if got := NotInverted(p); got != nil {
		t.Errorf("S_c without κ: %q; want nil", got)
	}
	p.Kappa, p.G, p.KNoise, p.Routing = 0.02, 1.5, 0.8, flow.RoutingRandom
	want := []string{"creep_critical_slope 0.6", "deposition_g 1.5", "k_noise 0.8", "hillslope_routing random"}
	if got := NotInverted(p); !slices.Equal(got, want) {
		t.Errorf("soil physics: %q; want %q", got, want)
	}
}
