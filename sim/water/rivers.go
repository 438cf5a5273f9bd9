package water

import (
	"fmt"

	"orogen/sim"
)

// Discharge sets dst[i] to the water flowing through node i, m³/yr: the
// rain on the node and on every node upstream, Σ r_j·a_j, with r from p
// (Rain, or RainMap when set) and a_j from area (nil: cellArea for all).
// stack lists every node after its receiver (an engine's drainage order)
// and rec[i] is the receiver of node i (rec[i] == i at roots). Water held
// by lakes or evaporated is not subtracted: with an engine's lake-routed
// receivers this is the discharge of Błaszczuk et al. 2023, Fig. 6 when every
// lake spills. It returns dst.
func Discharge(dst []float64, stack, rec []int32, area []float64, cellArea float64, p Params) []float64 {
	n := len(rec)
	if len(stack) != n || (area != nil && len(area) != n) || (p.RainMap != nil && len(p.RainMap) != n) {
		panic(fmt.Sprintf("water: discharge over %d receivers, %d stack entries, %d areas, %d rain values", n, len(stack), len(area), len(p.RainMap)))
	}
	dst = sim.Resize(dst, n)
	for i := range dst {
		a := cellArea
		if area != nil {
			a = area[i]
		}
		if p.RainMap != nil {
			dst[i] = float64(p.RainMap[i]) * a
		} else {
			dst[i] = p.Rain * a
		}
	}
	for k := n - 1; k >= 0; k-- {
		if i := stack[k]; rec[i] != i {
			dst[rec[i]] += dst[i]
		}
	}
	return dst
}

// Rivers sets dst[i] to 1 where node i carries at least threshold m³/yr
// (q from Discharge) and is not under a lake (depth from WaterDepth; nil
// for no lakes), 0 elsewhere: the river threshold of Błaszczuk et al. 2023,
// Fig. 6, high to keep only the main rivers, low to keep small streams. It
// returns dst.
func Rivers(dst []uint8, q []float64, threshold float64, depth []float32) []uint8 {
	if depth != nil && len(depth) != len(q) {
		panic(fmt.Sprintf("water: %d depths for %d discharges", len(depth), len(q)))
	}
	dst = sim.Resize(dst, len(q))
	for i, v := range q {
		dst[i] = 0
		if v >= threshold && (depth == nil || depth[i] == 0) {
			dst[i] = 1
		}
	}
	return dst
}
