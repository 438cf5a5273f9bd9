package splgpu

import (
	"math"
	"slices"
	"testing"

	"orogen/sim/flow"
)

// TestAreaFusedSameSteps steps two engines, one starting the drainage
// area with its first round done (AreaFused) and one running that round,
// and wants the same drainage counts, heights and rounds bit for bit:
// with deposition, creep, random routing and lakes (the erosion and the
// talus limit run the area's rounds plus the one its start did), and
// without deposition (n = 1's affine maps), on edges of every kind.
func TestAreaFusedSameSteps(t *testing.T) {
	defer func(v bool) { AreaFused = v }(AreaFused)
	dev := device(t)
	for _, tc := range []struct {
		name  string
		edges flow.Edges
		dep   bool
	}{
		{"deposition, mixed edges", flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Closed}, true},
		{"no deposition, outlets", flow.Edges{}, false},
	} {
		c := config(53, tc.edges)
		if tc.dep {
			c.Params.G, c.Params.Kappa, c.Params.CreepSc = 1.5, 0.02, 0.6
			c.Params.KNoise, c.Params.Seed, c.Params.Routing = 0.8, 3, flow.RoutingRandom
		}
		es := twoEngines(t, dev, c)
		lakes, rounds := 0, 0
		for s := 1; s <= 10; s++ {
			for k, e := range es {
				AreaFused = k == 0
				lakes += e.Step().Lakes
				if err := e.Err(); err != nil {
					t.Fatal(err)
				}
			}
			a, b := es[0], es[1]
			_, areaA := a.Receivers()
			_, areaB := b.Receivers()
			if !slices.Equal(areaA, areaB) {
				t.Fatalf("%s, step %d: the drainage areas differ with the area's start fused", tc.name, s)
			}
			ha, hb := a.Heights(), b.Heights()
			for i := range ha {
				if math.Float32bits(ha[i]) != math.Float32bits(hb[i]) {
					t.Fatalf("%s, step %d: cell %d: %g with the area's start fused; %g without", tc.name, s, i, ha[i], hb[i])
				}
			}
			if a.Rounds[1]+1 != b.Rounds[1] || a.Rounds[2] != b.Rounds[2] {
				t.Fatalf("%s, step %d: area / erosion rounds %d / %d fused, %d / %d not; want one area round fewer, the same erosion's", tc.name, s, a.Rounds[1], a.Rounds[2], b.Rounds[1], b.Rounds[2])
			}
			rounds += b.Rounds[1]
		}
		t.Logf("%s: %d lakes, %d area rounds over 10 steps without the fused start", tc.name, lakes, rounds)
		if tc.dep && lakes == 0 {
			t.Errorf("%s: no lakes in 10 steps: the test wants some", tc.name)
		}
	}
}
