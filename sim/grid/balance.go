package grid

import (
	"orogen/sim"
	"orogen/sim/flow"
	"orogen/sim/hillslope"
	"orogen/sim/parallel"
)

// Rebalanced splitting (Speth, Green, MacNamara and Strang 2013). A step
// applies the hillslope term split from the rest: an x sweep (X), a y
// sweep (Y), then the routing, uplift, stream power, talus limit and
// deposition (E), each implicit over the whole dt. Split that way (Lie
// splitting) the step's rest state is not the physics' steady state
// X + Y + E = 0: the hillslope term acts on heights the others have not
// seen, and the gap grows with dt. So each part gets a correction, a
// rate per cell: X solves ∂h/∂t = X(h) + cx, Y solves ∂h/∂t = Y(h) + cy
// and E takes the uplift u − (cx + cy). The corrections sum to zero, so
// they move material between the parts and never create or lose any.
// Each is updated from the increments the parts made in the last step
// (the rebalanced form, the stable one):
//
//	cx += (S/3 − ΔX)/dt,   cy += (S/3 − ΔY)/dt,   S = ΔX + ΔY + ΔE
//
// (E's implied correction −(cx + cy) moving by (S/3 − ΔE)/dt). At a
// fixed point S = 0 and every part's increment is S/3 = 0, so each part
// is at rest: cx = −X(h*), cy = −Y(h*) and E(h*) = X(h*) + Y(h*), the
// steady state of the unsplit physics, the same for every dt. That lets
// sim/settle lengthen dt with creep on (engine.Rebalanced). A balance is
// the corrections (state, kept across steps and dt changes) and the
// step's scratch.
type balance struct {
	cx, cy []float32 // the corrections of the x and y sweeps, m/yr
	ha, h1 []float32 // heights after the x sweep and after the y sweep (scratch)
	blk    []float64 // per-block sums
}

// SetRebalanced turns the rebalanced splitting of the hillslope term on
// or off from the next step on (engine.Rebalanced; off in a new engine:
// the steps are Lie-split, as they always were). The corrections are
// kept while it is off, for when it comes back on.
func (e *Engine) SetRebalanced(on bool) { e.rebal = on }

// Rebalanced reports whether the rebalanced splitting is on.
func (e *Engine) Rebalanced() bool { return e.rebal }

// hillslopeStep applies the hillslope term to e.hgt with the corrections
// (the X and Y parts; balance) on the cells not fixed, and returns the
// volume the corrections added, m³ (Σ dt·(cx + cy)·cell²; the uplift
// takes it back). It leaves the heights after the y sweep in e.bal.h1.
func (e *Engine) hillslopeStep() (added float64) {
	n := e.w * e.h
	if e.bal == nil {
		e.bal = &balance{}
	}
	b := e.bal
	if len(b.cx) != n {
		b.cx, b.cy = make([]float32, n), make([]float32, n)
	}
	b.ha, b.h1 = sim.Resize(b.ha, n), sim.Resize(b.h1, n)
	fixed := hillslope.Edges{
		North: e.p.Edges.North == flow.Outlet, South: e.p.Edges.South == flow.Outlet,
		East: e.p.Edges.East == flow.Outlet, West: e.p.Edges.West == flow.Outlet,
	}
	dt := e.p.Dt
	var r float64
	creep := e.p.CreepSc > 0
	if creep {
		// The factors of the heights the step starts from, as Step's.
		r = e.creep.Begin(e.hgt, e.cell, e.p.Kappa, e.p.CreepSc, dt)
	}
	sweep := func(x bool) {
		if creep {
			e.creep.Sweep(e.hgt, r, fixed, x)
			return
		}
		e.diff.Sweep(e.hgt, e.cell, e.p.Kappa, dt, fixed, x)
	}
	added = e.addSource(b.cx, nil, dt)
	sweep(true)
	added += e.addSource(b.cy, b.ha, dt)
	sweep(false)
	return added
}

// addSource keeps a copy of e.hgt in keep (unless nil), then adds
// dt·c[i] to the heights of the cells not fixed, and returns the volume
// added, m³: per cell in float64, summed per fixed block in block order
// (the same for any number of workers).
func (e *Engine) addSource(c, keep []float32, dt float64) float64 {
	b, g, h := e.bal, e.g, e.hgt
	b.blk = sim.Resize(b.blk, parallel.NumBlocks(len(h), volBlock))
	parallel.Blocks(len(h), volBlock, func(k, lo, hi int) {
		if keep != nil {
			copy(keep[lo:hi], h[lo:hi])
		}
		var s float64
		for i := lo; i < hi; i++ {
			if !g.IsFixed(i) {
				d := dt * float64(c[i])
				h[i] = float32(float64(h[i]) + d)
				s += d
			}
		}
		b.blk[k] = s
	})
	var s float64
	for _, v := range b.blk {
		s += v
	}
	return s * e.cell * e.cell
}

// rebalance updates the corrections from the step's increments (see
// balance): h0 the heights the step started from (e.prev), ha and h1
// those after the x and y sweeps, h2 the step's result (e.hgt).
func (e *Engine) rebalance() {
	b, g, dt := e.bal, e.g, e.p.Dt
	parallel.Blocks(len(e.hgt), volBlock, func(_, lo, hi int) {
		h0, ha, h1, h2 := e.prev[lo:hi], b.ha[lo:hi], b.h1[lo:hi], e.hgt[lo:hi]
		cx, cy := b.cx[lo:hi], b.cy[lo:hi]
		for k := range h2 {
			if g.IsFixed(lo + k) {
				continue
			}
			a, x, y, z := float64(h0[k]), float64(ha[k]), float64(h1[k]), float64(h2[k])
			s3 := (z - a) / 3
			cx[k] = float32(float64(cx[k]) + (s3-(x-a))/dt)
			cy[k] = float32(float64(cy[k]) + (s3-(y-x))/dt)
		}
	})
}
