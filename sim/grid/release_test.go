package grid

import (
	"fmt"
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// TestReleaseKeepsResults: an engine whose scratch buffers are released
// between steps (with lakes, their water budget and talus on; and with
// the presets' soil physics: creep, deposition, k noise, random hillslope
// routing, whose next step then reads the last area in grid order, and a
// noisy talus limit) steps on to the same heights and snapshot, bit for
// bit, as one that never released them, and a snapshot taken right after
// Release is the one before it.
func TestReleaseKeepsResults(t *testing.T) {
	for _, rain := range []float64{0.5, 0} {
		p := engine.DefaultParams()
		p.Dt = 2e4
		p.Rain, p.Evap = rain, 2
		releaseRun(t, fmt.Sprintf("rain %g", rain), p)
	}
	p := engine.DefaultParams()
	p.Dt = 2e4
	p.Kappa, p.CreepSc, p.G, p.KNoise, p.Routing, p.Seed = 0.02, 0.6, 1.5, 0.8, flow.RoutingRandom, 3
	p.ChannelArea = 20 * 200 * 200
	p.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 25, MaxDeg: 40, WavelengthM: 3000, Octaves: 4, Seed: 3}
	releaseRun(t, "soil physics", p)
}

func releaseRun(t *testing.T, name string, p engine.Params) {
	const w, h = 48, 40
	cfg := Config{W: w, H: h, Cell: 200, Up: simtest.Uniform(w, h, 5e-4), Init: simtest.Rough(w, h, 300, 4), Params: p}
	a, b := mustNew(t, cfg), mustNew(t, cfg)
	for step := range 40 {
		a.Step()
		b.Step()
		if step%7 == 3 {
			before := b.Snapshot()
			b.Release()
			if after := b.Snapshot(); !slices.Equal(before.Height, after.Height) || !slices.Equal(before.Area, after.Area) ||
				!slices.Equal(before.Receivers, after.Receivers) || !slices.Equal(before.Water, after.Water) {
				t.Fatalf("%s, step %d: the snapshot changed with Release", name, step+1)
			}
		}
	}
	sa, sb := a.Snapshot(), b.Snapshot()
	if !slices.Equal(sa.Height, sb.Height) || !slices.Equal(sa.Area, sb.Area) || !slices.Equal(sa.Water, sb.Water) {
		t.Fatalf("%s: after releases the engine steps to other results", name)
	}
	var _ engine.Releaser = a
}
