package flow

// Release drops the scratch buffers the graph's routing reuses from step
// to step: ConnectLakes' pass search and tree of basins (together about
// 20 bytes a cell early in a run, when every ninth cell of a noisy flat
// start is a pit; docs/MEMORY.md) and Assemble's scratch.
// The trees Order listed stay, for WaterInput's result, which aliases
// them; ReleaseTrees drops them too. Until the next Route nothing else of
// the last routing may be used (SplitTrees, OrderedDist); the next Route
// grows the buffers again.
func (g *Graph) Release() {
	g.ReleaseSearch()
	g.edges, g.weights = nil, nil
}

// ReleaseSearch drops the scratch of the last Update that nothing reads
// after it: the pass search's per block and per worker tables, the tree
// of basins' adjacency and queue, Assemble's scratch. The passes and the
// trees stay for WaterInput; the graph may be used as before. The grid
// engine calls it in every step once the routing is done, so that the
// memory goes to the erosion's buffers (docs/MEMORY.md).
func (g *Graph) ReleaseSearch() {
	g.rowTmp = nil
	g.blockEdges, g.candOff, g.cursor, g.tabs, g.kept = nil, nil, nil, nil, nil
	g.adjOff, g.adj, g.heap, g.inTree = nil, nil, nil, nil
	g.reached = nil
}

// ReleaseTrees is Release that drops the trees Order listed and the
// workers' stacks as well (another 10 bytes a cell): WaterInput's last
// result may not be used after it.
func (g *Graph) ReleaseTrees() {
	g.Release()
	g.segW, g.segOff, g.segLen = nil, nil, nil
	g.bufs, g.pars, g.stks = nil, nil, nil
}

// ReleaseLabels drops the basin labels, the donor masks and Assemble's
// per-root scratch (5 bytes a cell): what only Order, ConnectLakes,
// Assemble and WaterInput read. After it, until the next Route and Order
// (which make them again), Label is nil and WaterInput may not be called;
// the trees stay.
func (g *Graph) ReleaseLabels() {
	g.Label, g.donors = nil, nil
	g.lakeOf, g.final, g.dest, g.lakeTree = nil, nil, nil, nil
}

// ReleaseWalk is ReleaseTrees and ReleaseLabels: the graph is read as
// after ReleaseTrees, but for Label, until the next Route. The grid
// engine calls it once a step's routing is assembled when no water budget
// reads the basins (docs/MEMORY.md).
func (g *Graph) ReleaseWalk() {
	g.ReleaseTrees()
	g.ReleaseLabels()
}

// ReleaseRouting is ReleaseTrees that drops every per-cell slice of the
// last routing but its tree (Rec, Dist, Stack) and Lakes as well: Pos,
// RecPos, Label and the donor masks (another 13 bytes a cell). Until the
// next Route only Rec, Dist, Stack, Trees and Lakes may be read (Levels,
// LakesOn and WaterDepth work, Accumulate does not); Route makes the others again, and the routing it gives
// is the one it would have given without the Release (the receivers of
// the last routing, which it keeps to, stay).
func (g *Graph) ReleaseRouting() {
	g.ReleaseTrees()
	g.Pos, g.RecPos, g.Label, g.donors = nil, nil, nil, nil
	g.lakeOf, g.final, g.dest, g.lakeTree = nil, nil, nil, nil
}

// grow makes the per-cell slices a Release dropped.
func (g *Graph) grow() {
	n := g.W * g.H
	for _, s := range []*[]int32{&g.Rec, &g.Pos} { // Order makes Label, Assemble Stack and RecPos
		if len(*s) != n {
			*s = make([]int32, n)
		}
	}
	if len(g.Dist) != n {
		g.Dist = make([]float32, n)
	}
	if len(g.donors) != n {
		g.donors = make([]uint8, n)
	}
}
