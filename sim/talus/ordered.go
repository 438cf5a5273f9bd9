package talus

import "fmt"

// ClampOrdered is Clamp for fields laid out in drainage order, as the grid
// engine keeps them: hs[k] is the height of node k, rp[k] the position of
// its receiver (rp[k] < k, or k for a root), ds[k] the distance to it and
// cell[k] the grid cell of node k (the noise field is indexed by cell). It
// walks positions [lo, hi) and returns the number of nodes it lowered.
func (l *Limiter) ClampOrdered(hs []float32, rp []int32, ds []float32, cell []int32, lo, hi int) (clamped int) {
	return l.ClampOrderedTo(hs, hs, rp, ds, cell, lo, hi)
}

// ClampOrderedTo is ClampOrdered writing the limited heights to dst and
// leaving hs alone: for k in [lo, hi), dst[k] is hs[k] lowered to the limit
// over dst[rp[k]], the receiver's limited height (roots copy hs[k]).
// Receivers before lo must be final in dst already. dst may be hs, which
// is ClampOrdered; with separate slices a caller can limit a range right
// after computing it while later ranges still read the unlimited heights.
func (l *Limiter) ClampOrderedTo(dst, hs []float32, rp []int32, ds []float32, cell []int32, lo, hi int) (clamped int) {
	if len(rp) < hi || len(ds) < hi || len(hs) < hi || len(dst) < hi || len(cell) < hi {
		panic(fmt.Sprintf("talus: range [%d, %d) beyond the %d heights", lo, hi, min(len(hs), len(dst))))
	}
	dst, hs, rp, ds, cell = dst[:hi], hs[:hi], rp[:hi], ds[:hi], cell[:hi]
	// One loop per mode, as in Clamp.
	switch l.kind {
	case kindConstant:
		t := float64(l.tan)
		for k := lo; k < hi; k++ {
			v := hs[k]
			if r := int(rp[k]); r != k {
				if limit := float64(dst[r]) + t*float64(ds[k]); float64(v) > limit {
					v = roundDown(limit)
					clamped++
				}
			}
			dst[k] = v
		}
	case kindHeight:
		for k := lo; k < hi; k++ {
			v := hs[k]
			if r := int(rp[k]); r != k {
				hr := dst[r]
				if limit := float64(hr) + float64(l.heightTan(hr))*float64(ds[k]); float64(v) > limit {
					v = roundDown(limit)
					clamped++
				}
			}
			dst[k] = v
		}
	case kindNoise:
		for k := lo; k < hi; k++ {
			v := hs[k]
			if r := int(rp[k]); r != k {
				if limit := float64(dst[r]) + float64(l.field[cell[k]])*float64(ds[k]); float64(v) > limit {
					v = roundDown(limit)
					clamped++
				}
			}
			dst[k] = v
		}
	default:
		copy(dst[lo:hi], hs[lo:hi])
	}
	return clamped
}
