package brushes

import (
	"image"
	"math"
)

// span is a run of box columns (or rows) a..b, inclusive, in unwrapped
// coordinates; layer coordinate = unwrapped + off.
type span struct{ a, b, off int }

// spans splits the unwrapped range a..b into runs that are contiguous in a
// layer of n pixels: one run when the layer is not periodic (a..b is then
// already clipped), up to two when it wraps (b−a < n).
func spans(a, b, n int, periodic bool) (sp [2]span, k int) {
	switch {
	case !periodic:
		sp[0] = span{a, b, 0}
		return sp, 1
	case a < 0:
		sp[0] = span{a, -1, n}
		sp[1] = span{0, b, 0}
		return sp, 2
	case b >= n:
		sp[0] = span{a, n - 1, 0}
		sp[1] = span{n, b, -n}
		return sp, 2
	}
	sp[0] = span{a, b, 0}
	return sp, 1
}

// wrapIndex maps an unwrapped coordinate within one period of [0, n) into
// it.
func wrapIndex(v, n int) int {
	if v < 0 {
		return v + n
	}
	if v >= n {
		return v - n
	}
	return v
}

// stamp applies one stamp centred at (cx, cy) and returns the rectangle of
// layer pixels it may have changed.
func (s *Stroke) stamp(cx, cy float64) image.Rectangle {
	s.stamps++
	f := s.l.Field
	w, h := f.W, f.H
	periodic := s.l.Periodic
	cx, cy = quantize(cx), quantize(cy)
	if periodic {
		cx, cy = wrapCoord(cx, w), wrapCoord(cy, h)
	} else if cx+s.r < 0 || cx-s.r > float64(w-1) || cy+s.r < 0 || cy-s.r > float64(h-1) {
		return image.Rectangle{}
	}
	x0, x1 := int(math.Ceil(cx-s.r)), int(math.Floor(cx+s.r))
	y0, y1 := int(math.Ceil(cy-s.r)), int(math.Floor(cy+s.r))
	if !periodic {
		x0, x1 = max(x0, 0), min(x1, w-1)
		y0, y1 = max(y0, 0), min(y1, h-1)
	}
	if x0 > x1 || y0 > y1 {
		return image.Rectangle{}
	}
	xs, nx := spans(x0, x1, w, periodic)
	ys, ny := spans(y0, y1, h, periodic)
	var dirty image.Rectangle
	for _, sy := range ys[:ny] {
		for _, sx := range xs[:nx] {
			lx0, lx1 := sx.a+sx.off, sx.b+sx.off
			ly0, ly1 := sy.a+sy.off, sy.b+sy.off
			s.save(lx0, ly0, lx1, ly1)
			dirty = dirty.Union(image.Rect(lx0, ly0, lx1+1, ly1+1))
		}
	}
	if s.b.Kind == Smooth {
		s.smooth(cx, cy, x0, y0, x1, y1, xs[:nx])
	} else {
		s.pointwise(cx, cy, x0, y0, x1, y1, xs[:nx])
	}
	s.dirty = s.dirty.Union(dirty)
	return dirty
}

// save copies, before their first change, the tiles that overlap the layer
// rectangle [x0, x1] × [y0, y1] (inclusive).
func (s *Stroke) save(x0, y0, x1, y1 int) {
	f := s.l.Field
	for ty := y0 >> tileShift; ty <= y1>>tileShift; ty++ {
		for tx := x0 >> tileShift; tx <= x1>>tileShift; tx++ {
			i := ty*s.tilesX + tx
			if !s.saved[i] {
				s.saved[i] = true
				s.tiles = append(s.tiles, saveTile(f.Data, f.W, f.H, tx, ty))
			}
		}
	}
}

// rowWeights fills and returns the falloff weights of the unwrapped columns
// lo..hi of a row at squared distance dy2 from the centre row: 0 outside
// the radius. Mirror-image pixels get bit-identical weights, since the
// weight depends on dx² + dy² alone.
func (s *Stroke) rowWeights(lo, hi int, cx, dy2 float64) []float64 {
	wr := s.wrow[:hi-lo+1]
	r2, invR2, invR := s.r2, s.invR2, s.invR
	switch s.b.Falloff {
	case FalloffSmooth:
		for j := range wr {
			dx := float64(lo+j) - cx
			t := max(0, 1-(dx*dx+dy2)*invR2)
			wr[j] = t * t * t
		}
	case FalloffLinear:
		for j := range wr {
			dx := float64(lo+j) - cx
			d2 := dx*dx + dy2
			v := 0.0
			if d2 <= r2 {
				v = max(0, 1-math.Sqrt(d2)*invR)
			}
			wr[j] = v
		}
	default:
		for j := range wr {
			dx := float64(lo+j) - cx
			v := 0.0
			if dx*dx+dy2 <= r2 {
				v = 1
			}
			wr[j] = v
		}
	}
	return wr
}

// pointwise applies a stamp of every kind but Smooth: each pixel moves by
// itself, by an amount that depends on its weight.
func (s *Stroke) pointwise(cx, cy float64, x0, y0, x1, y1 int, xs []span) {
	f := s.l.Field
	w, h := f.W, f.H
	data := f.Data
	var base []float32
	if s.l.Base != nil {
		base = s.l.Base.Data
	}
	st := s.b.Strength
	target := s.target
	if s.b.Kind == Set {
		target = s.b.Value
	}
	for y := y0; y <= y1; y++ {
		dy := float64(y) - cy
		dy2 := dy * dy
		if dy2 > s.r2 {
			continue
		}
		ly := wrapIndex(y, h)
		// Columns that can lie within the radius on this row, one wider
		// each side than the chord so rounding in the square root
		// cannot drop a pixel; rowWeights gives the extra ones 0.
		half := math.Sqrt(s.r2 - dy2)
		a := max(x0, int(math.Ceil(cx-half))-1)
		b := min(x1, int(math.Floor(cx+half))+1)
		for _, sp := range xs {
			lo, hi := max(a, sp.a), min(b, sp.b)
			if lo > hi {
				continue
			}
			wr := s.rowWeights(lo, hi, cx, dy2)
			i0 := ly*w + lo + sp.off
			d := data[i0 : i0+len(wr)]
			switch s.b.Kind {
			case Raise:
				for j, wt := range wr {
					d[j] = float32(float64(d[j]) + st*wt)
				}
			case Lower:
				for j, wt := range wr {
					d[j] = float32(float64(d[j]) - st*wt)
				}
			case Flatten, Set:
				for j, wt := range wr {
					d[j] = toward(d[j], target, st*wt)
				}
			case Erase:
				if base == nil {
					for j, wt := range wr {
						d[j] = toward(d[j], 0, st*wt)
					}
					break
				}
				bs := base[i0 : i0+len(wr)]
				for j, wt := range wr {
					d[j] = toward(d[j], float64(bs[j]), st*wt)
				}
			case Noise:
				lx := lo + sp.off
				for j, wt := range wr {
					if wt != 0 {
						d[j] = float32(float64(d[j]) + st*wt*s.noiseAt(lx+j, ly))
					}
				}
			}
		}
	}
}

// toward moves v a fraction t ∈ [0, 1] of the way to target; t = 1 lands on
// target exactly.
func toward(v float32, target, t float64) float32 {
	if t >= 1 {
		return float32(target)
	}
	x := float64(v)
	return float32(x + t*(target-x))
}

// noiseAt returns the noise brush's fBm at layer pixel (x, y), computing it
// on first use and keeping it for the rest of the stroke.
func (s *Stroke) noiseAt(x, y int) float64 {
	t := (y>>tileShift)*s.tilesX + x>>tileShift
	c := s.ncache[t]
	if c == nil {
		c = make([]float32, TileSize*TileSize)
		nan := float32(math.NaN())
		for i := range c {
			c[i] = nan
		}
		s.ncache[t] = c
	}
	i := (y&tileMask)<<tileShift | x&tileMask
	v := c[i]
	if v != v {
		v = float32(s.ns.FBM2(float64(x)*s.nInv, float64(y)*s.nInv, s.oct, NoisePersistence, NoiseLacunarity))
		c[i] = v
	}
	return float64(v)
}

// Coefficients of Smooth's exchange: the 9-point isotropic Laplacian
// (4·axial + diagonal − 20·centre)/6 scaled by smoothRate·strength. Its most
// negative eigenvalue is −32/6, on the checkerboard, so smoothRate = 3/16
// makes a full-strength, full-weight stamp remove the checkerboard in one
// go, and stays below the explicit stability limit 3/8.
const (
	smoothRate = 3.0 / 16
	smoothAx   = 4.0 / 6
	smoothDiag = 1.0 / 6
)

// smooth applies a Smooth stamp: every pair of neighbouring pixels p, q in
// the box (8-neighbourhood) exchanges c·a·min(w_p, w_q)·(h_q − h_p), with
// c = smoothRate·strength and a = 4/6 for side neighbours, 1/6 for
// diagonal ones, all from the values before the stamp. What p gains q loses,
// so the sum over the layer is kept up to float32 rounding of the results.
func (s *Stroke) smooth(cx, cy float64, x0, y0, x1, y1 int, xs []span) {
	f := s.l.Field
	w, h := f.W, f.H
	data := f.Data
	bw, bh := x1-x0+1, y1-y0+1
	pw := bw + 2
	n := pw * (bh + 2)
	old, wts := s.old[:n], s.wts[:n]
	clear(old[:pw])
	clear(wts[:pw])
	clear(old[n-pw:])
	clear(wts[n-pw:])
	for y := y0; y <= y1; y++ {
		dy := float64(y) - cy
		row := (y-y0+1)*pw + 1
		old[row-1], wts[row-1] = 0, 0
		old[row+bw], wts[row+bw] = 0, 0
		copy(wts[row:row+bw], s.rowWeights(x0, x1, cx, dy*dy))
		ly := wrapIndex(y, h)
		for _, sp := range xs {
			i := ly*w + sp.a + sp.off
			copy(old[row+sp.a-x0:row+sp.b-x0+1], data[i:i+sp.b-sp.a+1])
		}
	}
	c := smoothRate * s.b.Strength
	ka, kd := c*smoothAx, c*smoothDiag
	for y := y0; y <= y1; y++ {
		ly := wrapIndex(y, h)
		row := (y-y0+1)*pw + 1
		for _, sp := range xs {
			out := data[ly*w+sp.a+sp.off : ly*w+sp.b+sp.off+1]
			p0 := row + sp.a - x0
			for j := range out {
				p := p0 + j
				wp := wts[p]
				if wp == 0 {
					continue
				}
				hp := float64(old[p])
				e := func(q int) float64 { return min(wp, wts[q]) * (float64(old[q]) - hp) }
				// Grouped so that mirror images and the transpose sum
				// the same numbers in the same pairs: bit-identical.
				ax := (e(p+1) + e(p-1)) + (e(p-pw) + e(p+pw))
				dg := (e(p-pw+1) + e(p+pw-1)) + (e(p-pw-1) + e(p+pw+1))
				out[j] = float32(hp + ka*ax + kd*dg)
			}
		}
	}
}
