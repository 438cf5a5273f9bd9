package analysis

import (
	"slices"
	"testing"

	"orogen/sim/flow"
	"orogen/sim/simtest"
)

// TestTreeAreaIsAccumulate: Analyze sums drainage area with Tree.Area (one
// buffer) where it used Graph.Accumulate (two): both add in reverse
// drainage order, so the sums are the same bit for bit, here with a cell
// of 0.3 m, whose area 0.09 m² is not exact in binary and rounds
// differently in any other order.
func TestTreeAreaIsAccumulate(t *testing.T) {
	const w, h = 150, 110
	g := flow.NewGraph(w, h, 0.3, flow.Edges{North: flow.Natural, South: flow.Closed, East: flow.Outlet, West: flow.Closed}, 0)
	g.Update(simtest.Rough(w, h, 30, 5))
	if len(g.Lakes) == 0 {
		t.Fatal("no lakes: want a terrain whose carved basins reorder the stack")
	}
	if got, want := TreeOf(g).Area(nil), g.Accumulate(nil, 0.3*0.3); !slices.Equal(got, want) {
		t.Error("Tree.Area differs from Graph.Accumulate")
	}
}
