package brushes

import (
	"fmt"
	"image"
	"math"

	"orogen/sim/noise"
)

// MaxCoord bounds the coordinates of stroke points, in pixels.
const MaxCoord = 1 << 30

// quantum is the grid, in stamps per pixel, that stamp centres snap to, so
// that rounding differences of a few ulps between two ways of splitting the
// same path do not change a single byte.
const quantum = 64

// A Stroke paints a layer with one brush along a path: Begin places a stamp
// at the start, To extends the path and places a stamp every
// Spacing·Radius pixels of arc length (counted from the start, across
// calls), End may place a last stamp at the end point and returns the undo
// record. A stroke is used by one goroutine, and nothing else may read or
// write the layer while it is painting (see doc.go).
type Stroke struct {
	l *Layer
	b Brush

	r, r2, invR, invR2 float64
	step               float64 // pixels of arc length between stamps
	target             float64 // Flatten's value

	nf           *noise.Fractal // Noise brush
	ncols, nrows []*noise.Axis  // per tile column and row, built on first use
	nbuf         []float64      // one tile row of fBm

	x, y   float64 // last path point
	length float64 // arc length from the start to (x, y)
	k      int64   // the next stamp sits at arc length k·step
	rounds int64   // rounds of To's loop so far: its cost, for tests
	last   bool    // End placed a stamp
	dirty  image.Rectangle
	ended  bool

	tilesX, tilesY int
	saved          []bool // per tile: copied into tiles
	tiles          []tile
	ncache         [][]float32 // Noise: fBm per tile, NaN where not computed yet

	wrow []float64 // one row of weights

	// Smooth: √w for a stamp centred on a pixel, and the stamp box's √w,
	// √w·h and h, padded by one pixel of zeros (see smooth).
	sw, su, sv, sh []float64
}

// Begin starts a stroke of brush b on layer l at point (x, y), in pixels,
// and places its first stamp there; Dirty then returns that stamp's
// rectangle. It returns an error for bad brush parameters or a start point
// that is not finite. It panics if l is malformed (a nil field, data that
// does not match the size, a base of another shape).
func Begin(l *Layer, b Brush, x, y float64) (*Stroke, error) {
	if err := b.Validate(); err != nil {
		return nil, err
	}
	l.check()
	if !(math.Abs(x) <= MaxCoord && math.Abs(y) <= MaxCoord) {
		return nil, fmt.Errorf("brushes: stroke start (%v, %v) out of range: want finite coordinates within ±%d pixels", x, y, MaxCoord)
	}
	f := l.Field
	if l.Periodic && int(2*b.Radius)+1 > min(f.W, f.H) {
		return nil, fmt.Errorf("brushes: radius %v too large for a periodic %d×%d layer: want 2·radius + 1 ≤ %d", b.Radius, f.W, f.H, min(f.W, f.H))
	}
	s := &Stroke{
		l: l, b: b,
		r: b.Radius, r2: b.Radius * b.Radius, invR: 1 / b.Radius, invR2: 1 / (b.Radius * b.Radius),
		step: b.Spacing * b.Radius,
		x:    x, y: y,
	}
	s.tilesX = (f.W + TileSize - 1) >> tileShift
	s.tilesY = (f.H + TileSize - 1) >> tileShift
	s.saved = make([]bool, s.tilesX*s.tilesY)
	side := int(math.Ceil(2*b.Radius)) + 3
	s.wrow = make([]float64, side)
	switch b.Kind {
	case Smooth:
		s.smoothTable()
	case Flatten:
		qx, qy := quantize(x), quantize(y)
		if l.Periodic {
			qx, qy = wrapCoord(qx, f.W), wrapCoord(qy, f.H)
		}
		s.target = f.Sample(qx, qy)
	case Noise:
		scale := b.NoiseScale
		if scale == 0 {
			scale = b.Radius
		}
		oct := b.Octaves
		if oct == 0 {
			oct = DefaultOctaves
		}
		s.nf = noise.NewFractal(noise.FractalSpec{Seed: b.Seed, Frequency: 1 / scale, Octaves: oct,
			Persistence: NoisePersistence, Lacunarity: NoiseLacunarity})
		s.ncache = make([][]float32, s.tilesX*s.tilesY)
		s.ncols, s.nrows = make([]*noise.Axis, s.tilesX), make([]*noise.Axis, s.tilesY)
		s.nbuf = make([]float64, TileSize)
	}
	s.stamp(x, y)
	s.k = 1
	return s, nil
}

// To extends the stroke in a straight line to (x, y), places the stamps that
// fall on the new piece of path, and returns the union of their rectangles
// (empty if none fell on it or all missed the layer). Where the stamps fall
// depends only on the whole path, not on how it is split into calls. To
// panics after End, or if a coordinate is not finite or beyond ±MaxCoord.
func (s *Stroke) To(x, y float64) image.Rectangle {
	if s.ended {
		panic("brushes: To on an ended stroke")
	}
	if !(math.Abs(x) <= MaxCoord && math.Abs(y) <= MaxCoord) {
		panic(fmt.Sprintf("brushes: stroke point (%v, %v) out of range: want finite coordinates within ±%d pixels", x, y, MaxCoord))
	}
	dx, dy := x-s.x, y-s.y
	seg := math.Hypot(dx, dy)
	if seg == 0 {
		return image.Rectangle{}
	}
	l0 := s.length
	l1 := l0 + seg
	// Stamps whose centre lies outside the layer grown by the radius
	// change nothing; skip them in one jump so that a wild move far off the
	// layer costs nothing. The margin of 2 pixels keeps rounding in the
	// clip from skipping a stamp that would paint.
	tmin, tmax := 0.0, 1.0
	if !s.l.Periodic {
		f := s.l.Field
		m := s.r + 2
		var ok bool
		tmin, tmax, ok = clipSegment(s.x, s.y, dx, dy, -m, -m, float64(f.W-1)+m, float64(f.H-1)+m)
		if !ok {
			tmin, tmax = 1, 0
		}
	}
	var dirty image.Rectangle
	for {
		s.rounds++
		at := float64(s.k) * s.step
		if at > l1 {
			break
		}
		t := (at - l0) / seg
		if t > tmax {
			if k := int64(l1/s.step) - 1; k > s.k {
				s.k = k
			}
			for float64(s.k)*s.step <= l1 {
				s.k++
			}
			break
		}
		if t < tmin {
			if k := int64((l0+tmin*seg)/s.step) - 1; k > s.k {
				s.k = k
				continue
			}
		}
		dirty = dirty.Union(s.stamp(s.x+t*dx, s.y+t*dy))
		s.k++
	}
	s.x, s.y, s.length = x, y, l1
	return dirty
}

// End finishes the stroke. If the path goes on more than a thousandth of
// the spacing past the last stamp, End places one more stamp at its end
// point and returns that stamp's rectangle. It returns the stroke's undo
// record, already done. It panics if called twice.
func (s *Stroke) End() (*Edit, image.Rectangle) {
	if s.ended {
		panic("brushes: End on an ended stroke")
	}
	var r image.Rectangle
	if s.length-float64(s.k-1)*s.step > 1e-3*s.step {
		r = s.stamp(s.x, s.y)
		s.last = true
	}
	s.ended = true
	f := s.l.Field
	e := &Edit{layer: s.l, w: f.W, h: f.H, tiles: s.tiles, bounds: s.dirty}
	s.tiles, s.saved, s.ncache, s.wrow = nil, nil, nil, nil
	s.nf, s.ncols, s.nrows, s.nbuf = nil, nil, nil, nil
	s.sw, s.su, s.sv, s.sh = nil, nil, nil, nil
	return e, r
}

// Dirty returns the union of the rectangles of all stamps placed so far,
// clipped to the layer.
func (s *Stroke) Dirty() image.Rectangle { return s.dirty }

// Stamps returns the number of stamps placed so far, counting those that
// missed the layer: one every spacing along the path, and End's.
func (s *Stroke) Stamps() int {
	if s.last {
		return int(s.k) + 1
	}
	return int(s.k)
}

// Brush returns the stroke's brush.
func (s *Stroke) Brush() Brush { return s.b }

// quantize snaps a coordinate to the stamp grid.
func quantize(v float64) float64 { return math.Round(v*quantum) / quantum }

// wrapCoord maps v into [0, n).
func wrapCoord(v float64, n int) float64 {
	v -= float64(n) * math.Floor(v/float64(n))
	if v >= float64(n) { // v was a tiny negative number
		v = 0
	}
	return v
}

// clipSegment returns the range [t0, t1] ⊂ [0, 1] of the parameter t for
// which (x + t·dx, y + t·dy) lies in the box [xmin, xmax] × [ymin, ymax]
// (Liang–Barsky), and false if there is none.
func clipSegment(x, y, dx, dy, xmin, ymin, xmax, ymax float64) (t0, t1 float64, ok bool) {
	t0, t1 = 0, 1
	for _, pq := range [4][2]float64{{-dx, x - xmin}, {dx, xmax - x}, {-dy, y - ymin}, {dy, ymax - y}} {
		p, q := pq[0], pq[1]
		if p == 0 {
			if q < 0 {
				return 0, 0, false
			}
			continue
		}
		r := q / p
		if p < 0 {
			if r > t1 {
				return 0, 0, false
			}
			t0 = max(t0, r)
		} else {
			if r < t0 {
				return 0, 0, false
			}
			t1 = min(t1, r)
		}
	}
	return t0, t1, true
}
