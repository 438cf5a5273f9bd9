package spl

import "math"

// Deposit carries the sediment of a step down the receivers, for the
// nodes at positions [lo, hi) of a drainage order (whole trees; fields as
// in Erode). hb[k] is the height of node k before the erosion (after the
// uplift), hs[k] after it (and after the talus limit), the erosion having
// included the deposition term of Yuan et al. 2019 (see below): the node's
// net yield is (hb − hs)·ca m³, ca the area of a node, m² (negative where
// the node gained). Walking donors first, with qs[k] the sediment reaching
// node k from its donors,
//
//	V_k = qs_k + (hb_k − hs_k)·ca
//
// is what leaves it. A node cannot keep more than reaches it: where V_k <
// 0 its height is lowered by −V_k/ca and V_k = 0. Below a lake's level
// L_k (lvl[k]; −Inf outside lakes) the node then keeps min(V_k, (L_k −
// hs_k)·ca): lakes fill from where the sediment enters, a delta, up to
// their spill. The rest goes to the receiver; a root's leaves the map, into
// out[k] (the root's position), m³. Heights are written as float32 and the
// volumes accounted as written, so Σ yields = Σ out to float64 rounding.
// qs needs hi values; on return qs[k] is the sediment that reached node k
// from its donors, m³ (Yuan's Qs·dt).
//
// The deposition term G·Qs/A of Yuan et al. 2019 enters the erosion as a
// source (a rate per node added to the uplift of Erode, G·qs/(dt·A) of
// the previous step): implicit in the heights, lagged by one step in the
// flux. Its rest state is Yuan's, k A^m s^n = u + G·Qs/A, and like
// Erode it is stable for any dt: the deposit is eroded within the step
// where the stream power is strong. Deposit then makes the budget exact.
func Deposit(hs, hb []float32, rp []int32, lvl []float32, qs, out []float64, ca float64, lo, hi int) {
	hs, hb, rp, lvl, qs = hs[:hi], hb[:hi], rp[:hi], lvl[:hi], qs[:hi]
	clear(qs[lo:hi])
	for k := hi - 1; k >= lo; k-- {
		h := float64(hs[k])
		v := qs[k] + (float64(hb[k])-h)*ca
		r := int(rp[k])
		if r == k {
			out[k] = v
			continue
		}
		if v < 0 {
			// More deposited than arrived: take the excess back.
			nh := float32(h + v/ca)
			v += (h - float64(nh)) * ca
			h = float64(nh)
			hs[k] = nh
		}
		if l := float64(lvl[k]); l > h && v > 0 {
			nh := float32(h + math.Min(v, (l-h)*ca)/ca)
			nh = min(nh, lvl[k])
			v -= (float64(nh) - h) * ca
			hs[k] = nh
		}
		qs[r] += v
	}
}
