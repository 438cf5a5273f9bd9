package grid

// Release drops the scratch buffers of the steps and of the flow routing
// (engine.Releaser): the heights, distances and eroded heights in drainage
// order, the heights of two steps back (which the next step overwrites
// unread), the sediment's scratch, and the routing's donors, order
// positions, labels, trees and pass search (docs/MEMORY.md: about 60 bytes
// a cell, 100 with sediment). What a Snapshot
// reads stays: the receivers, the drainage order and area, the lakes, and
// with the lakes' water budget on, the basins its lakes are drawn from.
// The next Step grows the rest again and gives the results it would have
// given without the Release.
func (e *Engine) Release() {
	e.hs, e.ds, e.he, e.prev2 = nil, nil, nil, nil
	if e.bal != nil { // the corrections stay: they are state
		e.bal.ha, e.bal.h1 = nil, nil
	}
	// The sediment's, k's and the talus factors' scratch in drainage order.
	e.hb, e.qs, e.out, e.us, e.ks, e.ts, e.lvl, e.lake = nil, nil, nil, nil, nil, nil, nil, nil
	e.gbot, e.gtop = nil, nil
	if e.g == nil {
		return
	}
	if e.wat != nil {
		e.g.Release()
		return
	}
	e.g.ReleaseRouting()
	// Nothing reads the distances to the receivers before the next Route
	// writes them all (4 bytes a cell).
	e.g.Dist = nil
}

// releasePasses lets go of the passes between basins before Assemble
// when no water budget reads them (WaterInput): 20 bytes a pass, about 7
// bytes a cell early in a run (docs/MEMORY.md).
func (e *Engine) releasePasses() {
	if !e.waterOn() {
		e.g.Release()
	}
}

// releaseWalk lets go, once a step's routing is assembled and the water
// budget has stepped on it, of what the rest of the step does not read:
// the pass search's scratch and passes (WaterInput copied them), the
// basin labels and the donor masks, the water solver's scratch, and
// without the water budget the trees Order listed, which its basins alias
// (about 14 bytes a cell either way, docs/MEMORY.md).
func (e *Engine) releaseWalk() {
	if e.wat == nil {
		e.g.ReleaseWalk()
		return
	}
	e.g.Release()
	e.g.ReleaseLabels()
	e.win.Label = nil // read by the water budget's Step only
	e.wat.ReleaseScratch()
}
