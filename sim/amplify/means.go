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

// Imprint measures how much the coarse grid shows in fine heights: the
// mean |Δh| between 4-neighbour fine cells that lie in different coarse
// cells (across a coarse-cell boundary) and between those in the same
// coarse cell (inside), metres. fine holds fw×fh cells, f fine cells a
// coarse cell per axis. A terrain with no grid imprint has the two about
// equal; a ratio across/inside above 1 shows the coarse cells' edges.
func Imprint(fine []float32, fw, fh, f int) (across, inside float64) {
	var sa, si float64
	var na, ni int
	add := func(a, b float32, cross bool) {
		d := math.Abs(float64(a) - float64(b))
		if cross {
			sa += d
			na++
		} else {
			si += d
			ni++
		}
	}
	for y := range fh {
		row := fine[y*fw : (y+1)*fw]
		for x := 0; x+1 < fw; x++ {
			add(row[x], row[x+1], (x+1)%f == 0)
		}
		if y+1 < fh {
			next := fine[(y+1)*fw : (y+2)*fw]
			cross := (y+1)%f == 0
			for x := range fw {
				add(row[x], next[x], cross)
			}
		}
	}
	if na > 0 {
		across = sa / float64(na)
	}
	if ni > 0 {
		inside = si / float64(ni)
	}
	return across, inside
}
