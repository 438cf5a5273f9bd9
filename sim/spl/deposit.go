package spl

import "math"

// DepositRelax returns the share of the new deposition rate G·Qs/A a
// step keeps for the next one, the rest being the rate the step used, for
// a deposition coefficient g > 0: min(1/2, 1/g). The rate lags one step
// behind the flux it depends on, and taken whole the lag made the flux
// and the rate alternate from step to step once G ≳ 1 (the grid engine on
// the default preset at 256² with G = 1: a two-step cycle of 90 m that
// never settled in 5 000 steps; the graph engine with G = 1.5: 5–8 % of
// the receivers and 170 m a step after 400 steps). Why, and why half is
// not enough beyond G = 2: what the rate lays is taken from the flux
// below, so near rest G·Qs/A falls by about G times what the rate rises,
// and a share a moves the rate's error by the factor 1 − a·(1 + G): −1 at
// a = 1, G = 1 (the cycle above), and −1 again at a = 1/2, G = 3, where
// the grid's TestDepositionSettles (G = 3 at 96²) kept three cells of a
// talus chain and the hillslope above them alternating 26 m a step for 3
// 000 steps, which only the two-step rule of Converged let pass. With
// min(1/2, 1/G) the factor stays within [−1/2, 1/2] for every G; for G ≤
// 2 (every preset) it is the half it always was. The rest state does not
// depend on it (rate = G·Qs/A). Every engine with deposition (sim/grid,
// sim/graph, gpu/splgpu) updates its rate so:
//
//	rate ← (1 − a)·rate + a·G·Qs/(dt·A),   a = DepositRelax(G)
func DepositRelax(g float64) float64 {
	if g > 2 {
		return 1 / g
	}
	return 0.5
}

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
// 0 its height is lowered by −V_k/ca and V_k = 0. The nodes of lake l's
// basin (lake[k] = l, −1 outside basins; the basin's positions are
// ranges[l], its pit first) pass their sediment on to the pit, and those
// below its level (lvl[k] > hs[k]) add their depth to vol[l] (m³, zero on
// entry); at the pit the lake keeps φ·vol[l] of what arrived, φ =
// min(1, V/vol[l]), stored in frac[l]: the caller
// then raises every node of the lake by φ of its depth (FillLakes), so
// lake floors rise evenly (Yuan et al. 2019 fill lakes with all the
// sediment that reaches them; spreading it by depth, as fastscapelib
// does, keeps a subsiding lake's depth bounded). The rest goes to the
// receiver; a root's leaves the map, into out[k] (the root's position),
// m³. Heights are written as float32 and the volumes accounted as
// written, so Σ yields = Σ out + Σ kept to float64 rounding (FillLakes
// rounds each node's rise to float32). qs needs hi values; on return
// qs[k] is the sediment that reached node k from its donors, m³ (Yuan's
// Qs·dt).
//
// The deposition term G·Qs/A of Yuan et al. 2019 enters the erosion as a
// source (a rate per node added to the uplift of Erode, G·qs/(dt·A) of
// the previous step): implicit in the heights, lagged by one step in the
// flux. Its rest state is Yuan's, k A^m s^n = u + G·Qs/A, and like
// Erode it is stable for any dt: the deposit is eroded within the step
// where the stream power is strong. Deposit then makes the budget exact.
func Deposit(hs, hb []float32, rp []int32, lvl []float32, lake []int32, ranges [][2]int32, vol, frac []float64, qs, out []float64, ca float64, lo, hi int) {
	hs, hb, rp, lvl, lake, qs = hs[:hi], hb[:hi], rp[:hi], lvl[:hi], lake[:hi], qs[:hi]
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
			hs[k] = nh
			h = float64(nh)
		}
		if l := lake[k]; l >= 0 {
			if lv := float64(lvl[k]); lv > h {
				vol[l] += (lv - h) * ca
			}
			if ranges[l][0] == int32(k) && v > 0 && vol[l] > 0 {
				phi := math.Min(1, v/vol[l])
				frac[l] = phi
				v -= phi * vol[l]
			}
		}
		qs[r] += v
	}
}

// FillLakes raises every node of the lakes' basins below its level by
// frac[l] of its depth (the share of the lake Deposit filled), for the
// lakes [lo, hi) of ranges (each a basin's positions [start, end) in the
// drainage order) and returns the volume it added, m³ (ca per node).
func FillLakes(hs, lvl []float32, ranges [][2]int32, frac []float64, ca float64, lo, hi int) float64 {
	var add float64
	for l := lo; l < hi; l++ {
		phi := frac[l]
		if phi <= 0 {
			continue
		}
		for k := ranges[l][0]; k < ranges[l][1]; k++ {
			h, lv := hs[k], lvl[k]
			if lv > h {
				nh := min(lv, float32(float64(h)+phi*(float64(lv)-float64(h))))
				add += (float64(nh) - float64(h)) * ca
				hs[k] = nh
			}
		}
	}
	return add
}
