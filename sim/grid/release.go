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
	if e.g == nil {
		return
	}
	if e.wat != nil {
		e.g.Release()
		return
	}
	e.g.ReleaseRouting()
}
