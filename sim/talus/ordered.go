package talus

import "fmt"

// ClampOrdered is Clamp for fields laid out in drainage order, as the grid
// engine keeps them: hs[k] is the height of node k, rp[k] the position of
// its receiver (rp[k] < k, or k for a root), ds[k] the distance to it and
// cell[k] the grid cell of node k (the noise field is indexed by cell). It
// walks positions [lo, hi) and returns the number of nodes it lowered.
func (l *Limiter) ClampOrdered(hs []float32, rp []int32, ds []float32, cell []int32, lo, hi int) (clamped int) {
	if len(rp) < hi || len(ds) < hi || len(hs) < hi || len(cell) < hi {
		panic(fmt.Sprintf("talus: range [%d, %d) beyond the %d heights", lo, hi, len(hs)))
	}
	hs, rp, ds, cell = hs[:hi], rp[:hi], ds[:hi], cell[:hi]
	// One loop per mode, as in Clamp.
	switch l.kind {
	case kindConstant:
		t := float64(l.tan)
		for k := lo; k < hi; k++ {
			if r := int(rp[k]); r != k {
				if limit := float64(hs[r]) + t*float64(ds[k]); float64(hs[k]) > limit {
					hs[k] = roundDown(limit)
					clamped++
				}
			}
		}
	case kindHeight:
		for k := lo; k < hi; k++ {
			if r := int(rp[k]); r != k {
				hr := hs[r]
				if limit := float64(hr) + float64(l.heightTan(hr))*float64(ds[k]); float64(hs[k]) > limit {
					hs[k] = roundDown(limit)
					clamped++
				}
			}
		}
	case kindNoise:
		for k := lo; k < hi; k++ {
			if r := int(rp[k]); r != k {
				if limit := float64(hs[r]) + float64(l.field[cell[k]])*float64(ds[k]); float64(hs[k]) > limit {
					hs[k] = roundDown(limit)
					clamped++
				}
			}
		}
	}
	return clamped
}

// ConstantTan returns the tangent of the talus angle and true when the
// limit is one angle everywhere (ModeConstant), for callers that fuse
// ClampOrdered into another pass (spl.ErodeClamp).
func (l *Limiter) ConstantTan() (float64, bool) {
	return float64(l.tan), l.kind == kindConstant
}

// NoiseField returns the tangent of every grid cell's talus angle and
// true when the limit is a noise field (ModeNoise), for callers that fuse
// ClampOrdered into another pass (spl.ErodeLimit); the caller must not
// modify it.
func (l *Limiter) NoiseField() ([]float32, bool) {
	if l.kind != kindNoise {
		return nil, false
	}
	return l.field, true
}

// ClampOrderedScaled is ClampOrdered with the tangent of node k's angle
// multiplied by scale[k] (drainage order, finite and > 0): the rock a
// node lies in may hold steeper or gentler slopes than the model's angle
// (package geology). It returns the number of nodes it lowered.
func (l *Limiter) ClampOrderedScaled(hs []float32, rp []int32, ds []float32, cell []int32, scale []float32, lo, hi int) (clamped int) {
	if len(rp) < hi || len(ds) < hi || len(hs) < hi || len(cell) < hi || len(scale) < hi {
		panic(fmt.Sprintf("talus: range [%d, %d) beyond the %d heights", lo, hi, len(hs)))
	}
	if l.kind == kindOff {
		return 0
	}
	hs, rp, ds, cell, scale = hs[:hi], rp[:hi], ds[:hi], cell[:hi], scale[:hi]
	for k := lo; k < hi; k++ {
		r := int(rp[k])
		if r == k {
			continue
		}
		var t float64
		switch l.kind {
		case kindConstant:
			t = float64(l.tan)
		case kindHeight:
			t = float64(l.heightTan(hs[r]))
		default:
			t = float64(l.field[cell[k]])
		}
		if limit := float64(hs[r]) + t*float64(scale[k])*float64(ds[k]); float64(hs[k]) > limit {
			hs[k] = roundDown(limit)
			clamped++
		}
	}
	return clamped
}
