package brushes

import (
	"image"
	"math"
	"orogen/sim/noise"
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
	f := s.l.Field
	w, h := f.W, f.H
	periodic := s.l.Periodic
	cx, cy = quantize(cx), quantize(cy)
	if s.b.Kind == Smooth {
		// Smooth stamps centre on a pixel, to use the stroke's table.
		cx, cy = math.Round(cx), math.Round(cy)
	}
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

// chord returns the columns of the row at squared distance dy2 from the
// centre row that can lie within the radius, clipped to x0..x1: one wider
// each side than the exact chord, so that rounding in the square root
// cannot drop a pixel (rowWeights gives the extra ones weight 0).
func (s *Stroke) chord(cx, dy2 float64, x0, x1 int) (a, b int) {
	half := math.Sqrt(s.r2 - dy2)
	return max(x0, int(math.Ceil(cx-half))-1), min(x1, int(math.Floor(cx+half))+1)
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
			t := 1 - (dx*dx+dy2)*invR2
			if t < 0 {
				t = 0
			}
			wr[j] = t * t * t
		}
	case FalloffLinear:
		for j := range wr {
			dx := float64(lo+j) - cx
			d2 := dx*dx + dy2
			v := 0.0
			if d2 <= r2 {
				v = 1 - math.Sqrt(d2)*invR
			}
			if v < 0 {
				v = 0
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
		a, b := s.chord(cx, dy2, x0, x1)
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
				// Walk the row tile by tile through the stroke's fBm
				// cache, computing the pieces that are not there yet.
				lx := lo + sp.off
				for j := 0; j < len(wr); {
					x := lx + j
					nr := s.noiseRow(x, ly, min(len(wr)-j, TileSize-x&tileMask))
					dr, wr := d[j:j+len(nr)], wr[j:j+len(nr)]
					s.fillNoise(nr, x, ly)
					for m, nv := range nr {
						dr[m] = float32(float64(dr[m]) + st*wr[m]*float64(nv))
					}
					j += len(nr)
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

// noiseRow returns the stroke's fBm cache for the n pixels from layer pixel
// (x, y) eastward, all within one tile, allocating the tile on first use.
// The fBm costs several times the rest of a stamp, so a stroke computes it
// once per pixel, the first time a stamp's row covers the pixel, and keeps
// it until End in 64×64 tiles, NaN marking a pixel not computed yet.
func (s *Stroke) noiseRow(x, y, n int) []float32 {
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
	k := (y&tileMask)<<tileShift | x&tileMask
	return c[k : k+n]
}

// fillNoise computes the fBm of the pixels of nr, the cache of the pixels
// from (x, y) eastward within one tile, that are not there yet: the run
// from the first to the last NaN, with the Fractal's grid path over the
// tile's column and row axes (built on first use).
func (s *Stroke) fillNoise(nr []float32, x, y int) {
	lo := 0
	for lo < len(nr) && nr[lo] == nr[lo] {
		lo++
	}
	if lo == len(nr) {
		return
	}
	hi := len(nr)
	for nr[hi-1] == nr[hi-1] {
		hi--
	}
	tx, ty := x>>tileShift, y>>tileShift
	cols := tileAxis(s.nf, s.ncols, tx, s.nf.SetX)
	rows := tileAxis(s.nf, s.nrows, ty, s.nf.SetY)
	x0, y0 := x&tileMask+lo, y&tileMask
	buf := s.nbuf[:hi-lo]
	s.nf.Grid(buf, cols, x0, x0+len(buf), rows, y0, y0+1)
	for m, v := range buf {
		nr[lo+m] = float32(v)
	}
}

// tileAxis returns the noise axis of tile column (or row) t, the pixel
// coordinates t·TileSize … t·TileSize + TileSize − 1, building it with set
// on first use.
func tileAxis(f *noise.Fractal, axes []*noise.Axis, t int, set func(*noise.Axis, []float64)) *noise.Axis {
	if a := axes[t]; a != nil {
		return a
	}
	var vs [TileSize]float64
	for i := range vs {
		vs[i] = float64(t*TileSize + i)
	}
	a := new(noise.Axis)
	set(a, vs[:])
	axes[t] = a
	return a
}
