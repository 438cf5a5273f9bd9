package grid

import "orogen/sim/flow"

// routeHeights returns the heights a step routes on (Route, Randomize,
// the lakes' passes and the water budget): with random hillslope routing
// and a hillslope term, those the step started from (e.prev, the state);
// otherwise e.hgt, which the hillslope term has moved.
//
// The hillslope term runs first and moves the heights by κ·f·dt/cell²
// times their curvature, a step's worth: at the presets' creep (κ 0.02
// m²/yr, a factor up to 5.3 near the critical slope, dt 2.5·10⁵ yr) that
// is r ≈ 2.8 at a cell of 98 m (512² over 50 km), and a crest cell with
// talus slopes around it sinks by tens of metres in the creep's sweeps,
// below neighbours that were its receivers, before the uplift and the
// talus limit bring it back. Routed on those intermediate heights, the
// receivers of a terrain at rest were not the ones its heights give: a
// random hillslope receiver (flow.Graph.Randomize, kept while downhill)
// was redrawn though still downhill of the cell, step after step, each
// switch moving the cells that drain through it by tens to hundreds of
// metres. Measured on the default preset's physics at 512² (the retuned
// default with the base-level plain, docs/REALISM.md), after 300 steps:
// 37–95 receivers changed a step, 13–41 of them hillslope cells whose
// old receiver was still downhill at the step's start (every hillslope
// one), and the terrain did not settle in 5 000 steps; routed on the
// state it settles in 319 with a last change of 0.19 m.
//
// With steepest descent everywhere (D8) the intermediate stays: routed
// on the state, a cell the hillslope term lowered below its receiver is
// raised towards it by the implicit stream power, and the Lie-split rest
// state moved further from the small-dt one (the default preset at 128²
// with κ 2 m²/yr: mean height 14 % above the value at dt/16, against
// 3.5 % below it on the intermediate). A rebalanced step (balance.go) routes on
// the intermediate too: its corrections make every part's increment
// vanish at rest, so there the intermediate is the state, and its E part,
// whose uplift takes the corrections back, is not stable on the
// receivers of other heights (TestRebalancedRestStateKeepsDt at the
// user's dt: 16 % of the receivers switching every step for 3 000
// steps). Without a hillslope term the two are the same heights.
func (e *Engine) routeHeights(balanced bool) []float32 {
	if e.p.Kappa > 0 && !balanced && e.p.Routing == flow.RoutingRandom {
		return e.prev
	}
	return e.hgt
}
