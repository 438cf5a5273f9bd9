package splgpu

import (
	"testing"

	"orogen/gpu"
	"orogen/sim/flow"
	"orogen/sim/talus"
)

// TestBytesForIsAllocated: BytesFor is what the engine holds on the
// device after steps, buffer by buffer (but the lakes' arrays, a pit's
// each), without physics and with the presets' (creep, deposition, k
// noise, a talus angle by noise), on the lean layout (the contraction in
// the erosion's buffers: leanDep) and with the contraction's slot 1 by
// cell.
func TestBytesForIsAllocated(t *testing.T) {
	defer func(c, l int) { ListCells, LabelCells = c, l }(ListCells, LabelCells)
	dev := device(t)
	for _, k := range []struct {
		name    string
		physics bool
		cells   int
		labels  int // LabelCells
	}{{"bare", false, 0, 1 << 30}, {"bare, labels in bb[1]", false, 0, 0}, {"physics, lean", true, 0, 0}, {"physics, slot 1 by cell", true, 1 << 30, 1 << 30}} {
		ListCells, LabelCells = k.cells, k.labels
		c := config(41, flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed})
		if k.physics {
			c.Params.G, c.Params.Kappa, c.Params.CreepSc = 1.5, 0.02, 0.6
			c.Params.KNoise, c.Params.Seed, c.Params.Routing = 0.8, 3, flow.RoutingRandom
			c.Params.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 20, MaxDeg: 40, WavelengthM: 3000, Octaves: 4, Seed: 5}
		}
		e, err := New(dev, c)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			e.Step()
		}
		if err := e.Err(); err != nil {
			t.Fatal(err)
		}
		pits := map[gpu.Buffer]bool{e.lkR: true, e.lkA: true, e.lkB: true, e.lkX: true, e.lkP: true, e.lkO: true}
		var got int64
		for _, b := range append(e.buffers(), e.kf) {
			if !pits[b] {
				got += int64(b.Size())
			}
		}
		want := BytesFor(c.W, c.H, c.Params)
		t.Logf("%s: %d bytes allocated, %.2f a cell", k.name, got, float64(got)/float64(c.W*c.H))
		if got != want {
			t.Errorf("%s: %d bytes allocated; BytesFor says %d", k.name, got, want)
		}
		e.Close()
	}
}
