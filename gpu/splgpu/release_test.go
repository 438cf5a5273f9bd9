package splgpu

import (
	"slices"
	"testing"

	"orogen/sim/flow"
)

// TestRelease: an engine with deposition whose scratch is given back
// after its third step gives, from the same snapshot on, the heights,
// receivers, area and alluvium of one that kept it, bit for bit, and its
// scratch is small until the next step.
func TestRelease(t *testing.T) {
	c := config(32, flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed})
	c.Params.G = 1
	_, a := pair(t, c)
	_, b := pair(t, c)
	same := func(when string) {
		t.Helper()
		sa, sb := a.Snapshot(), b.Snapshot()
		if !slices.Equal(sa.Height, sb.Height) || !slices.Equal(sa.Receivers, sb.Receivers) ||
			!slices.Equal(sa.Area, sb.Area) || !slices.Equal(sa.Alluvium, sb.Alluvium) {
			t.Fatalf("%s: the snapshots differ", when)
		}
	}
	for range 3 {
		a.Step()
		b.Step()
	}
	b.Release()
	for _, p := range b.scratch() {
		if (*p).Size() > 8 {
			t.Fatalf("a scratch buffer of %d bytes kept after Release", (*p).Size())
		}
	}
	same("after Release")
	for range 3 {
		a.Step()
		b.Step()
	}
	if err := b.Err(); err != nil {
		t.Fatal(err)
	}
	same("3 steps after Release")
}
