package flow

import (
	"orogen/sim"
	"orogen/sim/water"
)

// WaterInput fills in with the pit basins of the last routing for
// sim/water and returns it: heights h (those ConnectLakes saw), uniform
// cell areas, the basin of every cell through Label (pit p, in root
// order, is basin p−1; outlet trees are outside), each basin's pit and its
// cells (the tree before carving), and the lowest pass between each pair
// of neighbouring basins (ConnectLakes' pass edges; a pass to an outlet's
// tree or over a Natural edge leads Outside). Call it after ConnectLakes
// (Update) and before the next Route; the slices of in alias g's and stay
// valid until then. in's own buffers are reused.
func (g *Graph) WaterInput(in *water.Input, h []float32) *water.Input {
	if len(h) != g.W*g.H {
		panic("flow: heights length differs from the grid")
	}
	if g.noLabels {
		panic("flow: WaterInput after an Order that skipped the labels (PitLabels): set PitLabels only without the water budget")
	}
	np := len(g.pits)
	in.H = h
	in.Area = nil
	in.CellArea = g.Cell * g.Cell
	in.Label = g.Label
	in.LabelBasin = sim.ResizeSpare(in.LabelBasin, len(g.roots))
	for t := range g.roots {
		in.LabelBasin[t] = g.node[t] - 1 // outlets (node 0) → -1
	}
	in.Root = sim.ResizeSpare(in.Root, np)
	in.Nodes = sim.ResizeSpare(in.Nodes, np)
	for p, t := range g.pits {
		in.Root[p] = g.roots[t]
		off := g.segOff[t]
		in.Nodes[p] = g.bufs[g.segW[t]][off : off+g.segLen[t] : off+g.segLen[t]]
	}
	in.Passes = in.Passes[:0]
	if np > 0 {
		for _, e := range g.edges {
			in.Passes = append(in.Passes, water.Pass{A: e.a - 1, B: e.b - 1, H: e.w, Node: e.ca})
		}
	}
	return in
}
