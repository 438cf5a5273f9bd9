package graph

import (
	"orogen/sim"
	"orogen/sim/water"
)

// WaterInput fills in with the pit basins of the last step for sim/water
// and returns it: the heights the step routed, the Voronoi cell areas, the
// basin of every node through Label (lake id l ≥ 1 is basin l−1; outlet
// trees are outside), each basin's pit and nodes (its stream tree before
// carving) and the candidate passes between basins (every mesh edge
// joining two, at max(h_i, h_j); a pass to an outlet tree leads Outside).
// Call it between Steps; the slices of in alias e's and stay valid until
// the next Step. in's own buffers are reused.
func (e *Engine) WaterInput(in *water.Input) *water.Input {
	in.H = e.prev // the heights route() saw
	in.Area = e.m.Area
	in.CellArea = 0
	nl := e.lakes
	in.Root = sim.Resize(in.Root, nl)
	in.Nodes = sim.Resize(in.Nodes, nl)
	in.Passes = in.Passes[:0]
	if nl == 0 || e.step == 0 {
		in.Root, in.Nodes, in.Label, in.LabelBasin = in.Root[:0], in.Nodes[:0], nil, nil
		return in
	}
	in.Label = e.lakeOf
	in.LabelBasin = sim.Resize(in.LabelBasin, nl+1)
	in.LabelBasin[0] = -1
	for l := 1; l <= nl; l++ {
		k := e.lkIdx[l]
		in.LabelBasin[l] = int32(l - 1)
		in.Root[l-1] = e.lk[k].Pit
		in.Nodes[l-1] = e.Basin(int(k))
	}
	for _, p := range e.edges {
		in.Passes = append(in.Passes, water.Pass{A: p.a - 1, B: p.b - 1, H: p.w, Node: p.ca})
	}
	return in
}
