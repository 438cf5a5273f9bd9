package splgpu

import (
	"testing"
	"unsafe"

	"orogen/gpu"
	"orogen/sim/flow"
	"orogen/sim/talus"
)

// TestLabelsAgain: the basin labels made again from the carved codes
// (relabel: the deposition's and a snapshot's, from LabelCells) are the
// label phase's, cell for cell, after every step of a young terrain with
// lakes (a pit in about nine cells at first), with and without
// deposition, and after a Release; so are those a snapshot reads from
// their own buffer (below LabelCells).
func TestLabelsAgain(t *testing.T) {
	defer func(c int) { LabelCells = c }(LabelCells)
	dev := device(t)
	for _, tc := range []struct {
		g     float64
		cells int
	}{{0, 0}, {1.5, 0}, {1.5, 1 << 30}} {
		g := tc.g
		LabelCells = tc.cells
		c := config(96, flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed})
		c.Params.G, c.Params.Kappa, c.Params.CreepSc = g, 0.02, 0.6
		c.Params.KNoise, c.Params.Seed, c.Params.Routing = 0.8, 3, flow.RoutingRandom
		c.Params.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 20, MaxDeg: 40, WavelengthM: 3000, Octaves: 4, Seed: 5}
		e, err := New(dev, c)
		if err != nil {
			t.Fatal(err)
		}
		var seen []uint32
		labelsSeen = func(c gpu.Context, e *Engine) error {
			seen = make([]uint32, e.n)
			return c.Read(e.labels(), 0, unsafe.Slice((*byte)(unsafe.Pointer(&seen[0])), 4*e.n))
		}
		lakes, carved := 0, 0
		for step := range 8 {
			st := e.Step()
			if err := e.Err(); err != nil {
				t.Fatal(err)
			}
			if st.Lakes == 0 {
				continue
			}
			lakes += st.Lakes
			codes := e.readWords(e.db, e.n)
			for _, w := range codes {
				if w&16 != 0 {
					carved++
				}
			}
			if step == 6 {
				e.Release()
			}
			got := e.readLabels()
			bad := 0
			for i := range got {
				if got[i] != seen[i] {
					if bad < 3 {
						t.Errorf("G %g, step %d, cell %d: label %d again; want %d", g, step+1, i, got[i], seen[i])
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("G %g, step %d: %d labels differ", g, step+1, bad)
			}
		}
		labelsSeen = nil
		if e.ownLab != (tc.cells > 0) {
			t.Errorf("G %g, LabelCells %d: labels of their own %v", g, tc.cells, e.ownLab)
		}
		e.Close()
		t.Logf("G %g, LabelCells %d: %d lakes, %d cells on carved paths over the steps", g, tc.cells, lakes, carved)
		if lakes == 0 || carved == 0 {
			t.Errorf("G %g: no lakes carved; the test tests nothing", g)
		}
	}
}
