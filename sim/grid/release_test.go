package grid

import (
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/simtest"
)

// TestReleaseKeepsResults: an engine whose scratch buffers are released
// between steps (with lakes, their water budget and talus on) steps on to
// the same heights and snapshot, bit for bit, as one that never released
// them, and a snapshot taken right after Release is the one before it.
func TestReleaseKeepsResults(t *testing.T) {
	for _, rain := range []float64{0.5, 0} {
		releaseRun(t, rain)
	}
}

func releaseRun(t *testing.T, rain float64) {
	const w, h = 48, 40
	p := engine.DefaultParams()
	p.Dt = 2e4
	p.Rain, p.Evap = rain, 2
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
				t.Fatalf("rain %g, step %d: the snapshot changed with Release", rain, step+1)
			}
		}
	}
	sa, sb := a.Snapshot(), b.Snapshot()
	if !slices.Equal(sa.Height, sb.Height) || !slices.Equal(sa.Area, sb.Area) || !slices.Equal(sa.Water, sb.Water) {
		t.Fatalf("rain %g: after releases the engine steps to other results", rain)
	}
	var _ engine.Releaser = a
}
