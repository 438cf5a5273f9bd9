package graph

import "orogen/sim/spl"

// erodeClamp erodes the stack positions [lo, hi) of whole trees one node
// at a time, receivers first, and limits each node to the talus angle
// above its receiver right after its erosion (the limit of
// Cordonnier et al. 2016, §5, inside the implicit solve, as sim/grid does
// with spl.ErodeClamp): every node erodes towards its receiver's final
// height. It records what the limit took at each position in e.dz and
// returns the nodes it lowered.
//
// The fixed point of erosion then limit, taken apart over the whole
// stack, depends on dt: a limited receiver's height before the limit,
// u·dt/(1 + k·dt·A^m/d) above it, is what its donors erode towards, so a
// donor below the limit settles higher the longer the step. With k noise
// on the default preset at 256² the adaptive scheme's steps of up to
// 10⁹ years left the terrain 10 m off the steady state of a 2.5·10⁵-year
// step, every 13 steps, and --until-converged never converged.
func (e *Engine) erodeClamp(us []float32, lo, hi int, sp spl.Params) (clamped int) {
	hs, dz := e.hs, e.dz
	scaled := e.ng.geo != nil && e.ng.talFac != nil
	for k := lo; k < hi; k++ {
		spl.Erode(hs, e.rp, e.ds, e.as, us, k, k+1, sp)
		before := hs[k]
		if scaled {
			clamped += e.lim.ClampOrderedScaled(hs, e.rp, e.ds, e.cs, e.ng.ts, k, k+1)
		} else {
			clamped += e.lim.ClampOrdered(hs, e.rp, e.ds, e.cs, k, k+1)
		}
		dz[k] = before - hs[k]
	}
	return clamped
}

// talusVolume returns what erodeClamp's limit took, m³: Σ dz·area over
// the stack, in fixed blocks.
func (e *Engine) talusVolume() float64 {
	area, stack, dz := e.m.Area, e.stack, e.dz
	return e.blockSum(func(lo, hi int) float64 {
		var s float64
		for k := lo; k < hi; k++ {
			if dz[k] != 0 {
				s += float64(dz[k]) * area[stack[k]]
			}
		}
		return s
	})
}
