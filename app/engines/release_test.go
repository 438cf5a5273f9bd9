package engines

import (
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
	"orogen/sim/grid"
)

// TestGridOnRelease: the device wrapper of the grid engine, moved to the
// CPU, lets go of the grid engine's scratch when the run's end releases
// it (it did nothing before: the wrapper had no Release), and the
// snapshot after it is the one before it; stepping on gives what a
// wrapper that never released gives.
func TestGridOnRelease(t *testing.T) {
	const n = 40
	p := engine.DefaultParams()
	cfg := grid.Config{W: n, H: n, Cell: 200, Up: enginetest.Dome(n, n, 1e-3), InitNoise: 1, Seed: 3, Params: p}
	wrap := func() *gridOn {
		e, err := grid.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return &gridOn{Engine: e, cpu: e, dev: "cpu"}
	}
	a, b := wrap(), wrap()
	for range 5 {
		a.Step()
		b.Step()
	}
	before := b.Snapshot()
	engine.Release(b)
	if b.cpu.Graph().Pos != nil {
		t.Error("the wrapper's Release left the grid engine's routing scratch (its order positions)")
	}
	after := b.Snapshot()
	if !slices.Equal(before.Height, after.Height) || !slices.Equal(before.Area, after.Area) ||
		!slices.Equal(before.Receivers, after.Receivers) || !slices.Equal(before.Water, after.Water) {
		t.Fatal("the snapshot changed with Release")
	}
	for range 3 {
		a.Step()
		b.Step()
	}
	if sa, sb := a.Snapshot(), b.Snapshot(); !slices.Equal(sa.Height, sb.Height) || !slices.Equal(sa.Water, sb.Water) {
		t.Fatal("after Release the wrapper steps to other results")
	}
}
