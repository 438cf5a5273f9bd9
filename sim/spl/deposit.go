package spl

import "math"

// Deposit carries the sediment a step produced down the receivers and lays
// part of it on the way, for the nodes at positions [lo, hi) of a drainage
// order (whole trees; fields as in Erode). hb[k] is the height of node k
// before the erosion (after the uplift), hs[k] after it (and after the
// talus limit): the node produced (hb − hs)·ca sediment, m³, ca the
// area of a node, m².
// Walking donors first, the volume reaching node k is
//
//	V_k = Σ_donors V_out + (hb_k − hs_k)·ca
//
// and the node keeps
//
//	min(V_k, (L_k − hs_k)·ca)     below a lake's level L_k (lvl[k]; −Inf
//	                              outside lakes): lakes fill from where
//	                              the sediment enters, a delta, up to
//	                              their spill
//	G·V_k·ca/A_k                  elsewhere (A_k the drainage area): the
//	                              deposition term G·Qs/A of Yuan et al.
//	                              2019, with Qs = V_k/dt
//
// passing the rest to its receiver; roots pass theirs out of the map, into
// out[k] (the root's position), m³. The deposit is added to hs (rounded to
// float32 and accounted as rounded, so Σ deposits + Σ out = Σ production to
// float64 rounding). qs is scratch of at least hi values. With G ≤ A_k/ca
// (always, for G ≤ 1) a node never keeps more than reaches it, and no
// deposit raises a node above its lake's level. It returns the volume
// deposited, m³.
//
// This is one Gauss–Seidel sweep of the implicit scheme of Yuan et al.
// 2019, taken after the erosion of the step (operator splitting): the
// erosion does not see the step's own deposit, which the next step
// erodes. Its rest state is Yuan's: k A^m s^n = u + G·Qs/A.
func Deposit(hs, hb []float32, rp []int32, as []float64, lvl []float32, qs, out []float64, ca, g float64, lo, hi int) float64 {
	hs, hb, rp, as, lvl, qs = hs[:hi], hb[:hi], rp[:hi], as[:hi], lvl[:hi], qs[:hi]
	clear(qs[lo:hi])
	var dep float64
	for k := hi - 1; k >= lo; k-- {
		h := float64(hs[k])
		v := qs[k] + (float64(hb[k])-h)*ca
		r := int(rp[k])
		if r == k {
			out[k] = v
			continue
		}
		if v <= 0 {
			qs[r] += v
			continue
		}
		var d float64
		if l := float64(lvl[k]); l > h {
			d = math.Min(v, (l-h)*ca)
		} else {
			d = math.Min(v, g*v*ca/as[k])
		}
		if d > 0 {
			nh := float32(h + d/ca)
			if float64(nh) > math.Max(h, float64(lvl[k])) && float64(lvl[k]) > h {
				nh = lvl[k]
			}
			d = (float64(nh) - h) * ca
			hs[k] = nh
			dep += d
			v -= d
		}
		qs[r] += v
	}
	return dep
}
