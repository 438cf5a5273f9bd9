package flow

// Release drops the scratch buffers the graph's routing reuses from step
// to step: ConnectLakes' pass candidates, pass
// edges and tree of basins (together about 70 bytes a cell early in a run,
// when every fifth cell of a noisy flat start is a pit; docs/MEMORY.md).
// The trees Order listed stay, for WaterInput's result, which aliases
// them; ReleaseTrees drops them too. Until the next Route nothing else of
// the last routing may be used (SplitTrees, OrderedDist); the next Route
// grows the buffers again.
func (g *Graph) Release() {
	g.rowTmp = nil
	g.blockEdges, g.candOff, g.cursor = nil, nil, nil
	g.edges, g.tabs, g.kept = nil, nil, nil
	g.adjOff, g.adj, g.heap, g.inTree = nil, nil, nil, nil
	g.weights, g.newOf, g.reached = nil, nil, nil
}

// ReleaseTrees is Release that drops the trees Order listed and the
// workers' stacks as well (another 10 bytes a cell): WaterInput's last
// result may not be used after it.
func (g *Graph) ReleaseTrees() {
	g.Release()
	g.segW, g.segOff, g.segLen = nil, nil, nil
	g.bufs, g.pars, g.stks = nil, nil, nil
}
