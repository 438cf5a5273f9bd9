package amplify

import "math"

// MeanError compares fine heights with the coarse ones they amplify: the
// worst and the mean, over the coarse cells, of |the mean of a cell's
// F×F fine heights − its coarse height|, metres. fine holds fw = F·w
// columns of F·h rows (F = fw/w); the coarse grid is w×h.
func MeanError(coarse []float32, w, h int, fine []float32, fw int) (worst, mean float64) {
	if w <= 0 || h <= 0 {
		return 0, 0
	}
	f := fw / w
	for cy := range h {
		for cx := range w {
			var m float64
			for y := cy * f; y < (cy+1)*f; y++ {
				for x := cx * f; x < (cx+1)*f; x++ {
					m += float64(fine[y*fw+x])
				}
			}
			d := math.Abs(m/float64(f*f) - float64(coarse[cy*w+cx]))
			worst = max(worst, d)
			mean += d
		}
	}
	return worst, mean / float64(w*h)
}
