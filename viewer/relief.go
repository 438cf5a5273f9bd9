package viewer

import (
	"encoding/binary"
	"fmt"
	"image"
	"math"
	"math/bits"
	"sync"

	"orogen/sim/engine"
	"orogen/sim/parallel"
)

// Constants of the relief picture.
const (
	// riverPxPerDecade is how much wider, in pixels, a river gets for every
	// tenfold increase of its drainage area over the threshold.
	riverPxPerDecade = 1.5
	// lakeDepthM is the depth at which a lake's colour is half way from
	// shallow to deep blue (and its opacity half way to 1).
	lakeDepthM = 30
	// lakeMinAlpha is the opacity of the shallowest water; the relief
	// underneath shows through a little, less as the lake deepens.
	lakeMinAlpha = 0.75
	// slopeMaxDeg is the slope at the top of the slope overlay's ramp.
	slopeMaxDeg = 60
	// blockPixels is about how many pixels one parallel block renders.
	blockPixels = 1 << 14
)

// Relief renders s at map resolution, one pixel per cell (s.W × s.H), into
// dst and returns it. It reuses dst when dst's bounds have that size (any
// origin) and allocates a new image otherwise (dst may be nil). Options
// that fail Validate are rendered with their default values.
//
// The picture is a Lambertian hillshade of the exaggerated heights, from
// central differences (one-sided on the edges), multiplying a hypsometric
// tint, with rivers, lakes and the overlay drawn over it in that order.
// Rivers are discs centred on the river cells, 1 px wide at the threshold;
// a disc of radius ρ covers the pixel at distance d by ρ - d + 0.5
// (clamped to [0, 1]) and a pixel takes the largest coverage of any disc.
// Lake cells are not river sources when lakes are drawn, so rivers end at
// the shore. A snapshot with stream arcs (the stream graph's) has its
// rivers drawn as arcs instead (StreamArcs), over everything else.
func Relief(dst *image.RGBA, s *engine.Snapshot, o Options) *image.RGBA {
	checkSnapshot(s)
	o = o.sanitized()
	w, h := s.W, s.H
	if dst == nil || dst.Rect.Dx() != w || dst.Rect.Dy() != h {
		dst = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	r := newRenderer(s, o)
	defer r.release()
	rows := max(1, blockPixels/w)
	if r.rad != nil {
		parallel.Blocks(h, rows, func(_, y0, y1 int) { r.riverRows(y0, y1) })
	}
	parallel.Blocks(h, rows, func(_, y0, y1 int) {
		b := rowPool.Get().(*rowBuf)
		for y := y0; y < y1; y++ {
			off := dst.PixOffset(dst.Rect.Min.X, dst.Rect.Min.Y+y)
			r.row(dst.Pix[off:off+4*w], y, b)
		}
		rowPool.Put(b)
	})
	if s.Arcs != nil && o.Rivers {
		drawArcs(dst, s, o)
	}
	return dst
}

// checkSnapshot panics on a snapshot no caller should hold.
func checkSnapshot(s *engine.Snapshot) {
	if s == nil {
		panic("viewer: nil snapshot")
	}
	if s.W <= 0 || s.H <= 0 {
		panic(fmt.Sprintf("viewer: snapshot is %d×%d cells", s.W, s.H))
	}
	if !(s.Cell > 0) || math.IsInf(s.Cell, 0) {
		panic(fmt.Sprintf("viewer: snapshot cell size %g m: must be positive and finite", s.Cell))
	}
	n := s.W * s.H
	if len(s.Height) != n {
		panic(fmt.Sprintf("viewer: snapshot is %d×%d but Height holds %d values", s.W, s.H, len(s.Height)))
	}
	for _, f := range []struct {
		name string
		n    int
		null bool
	}{
		{"Area", len(s.Area), s.Area == nil},
		{"Water", len(s.Water), s.Water == nil},
		{"Uplift", len(s.Uplift), s.Uplift == nil},
		{"Receivers", len(s.Receivers), s.Receivers == nil},
		{"Sediment", len(s.Sediment), s.Sediment == nil},
		{"Hardness", len(s.Hardness), s.Hardness == nil},
	} {
		if !f.null && f.n != n {
			panic(fmt.Sprintf("viewer: snapshot is %d×%d but %s holds %d values", s.W, s.H, f.name, f.n))
		}
	}
}

// renderer holds what every row of one Relief call needs. Rows only read
// it (and write their own pixels and row buffers).
type renderer struct {
	s    *engine.Snapshot
	o    Options
	w, h int

	// Hillshade: the unit vector toward the light (x east, y south, z up),
	// the ambient term, and exaggeration / cell size.
	lx, ly, lz float64
	amb        float32
	ex         float64
	tintLo     float64 // height at the start of the tint
	tintScale  float64 // 1 / tint range (0: flat)

	// Rivers (rad nil: none): each river cell's disc radius in pixels
	// (other cells hold garbage), a bitset of the river cells of each row (bit x%64 of word
	// y*nw + x/64), the gather radius in rows and columns, and the
	// distances dist[dy*(reach+1) + dx] of the offsets within it.
	rad   []float32
	river []uint64
	nw    int
	reach int
	dist  []float32
	buf   *scratch

	water []float32 // nil: no lakes drawn

	rock8 [][3]uint32 // layer colours in bytes when colouring by rock; nil otherwise
	mask  []bool      // ridges or streams: the cells the overlay marks

	ov        Overlay // OverlayNone when there is nothing to draw
	alpha     float32
	ovLo      float64
	ovScale   float64
	ovLUT     lut
	diverging bool
}

// scratch holds the river buffers between calls.
type scratch struct {
	rad   []float32
	river []uint64
}

// rowBuf holds one row's intermediate values, reused along a block.
type rowBuf struct {
	lit     []uint32  // light factor of each pixel, 0..256
	cov     []float32 // river coverage of each pixel (0 where untouched)
	touched []uint64  // bit x: cov[x] > 0
}

var (
	scratchPool = sync.Pool{New: func() any { return new(scratch) }}
	rowPool     = sync.Pool{New: func() any { return new(rowBuf) }}
)

func newRenderer(s *engine.Snapshot, o Options) *renderer {
	r := &renderer{s: s, o: o, w: s.W, h: s.H}
	az := o.LightAzimuthDeg * math.Pi / 180
	alt := o.LightAltitudeDeg * math.Pi / 180
	r.lx = math.Sin(az) * math.Cos(alt)
	r.ly = -math.Cos(az) * math.Cos(alt) // north is -y
	r.lz = math.Sin(alt)
	r.amb = float32(o.Ambient)
	r.ex = o.Exaggeration / s.Cell

	lo, hi := o.TintMinM, o.TintMaxM
	if lo == 0 && hi == 0 {
		lo, hi = minMax(s.Height)
	}
	r.tintLo = lo
	if hi > lo {
		r.tintScale = 1 / (hi - lo)
	}

	if o.Rivers && s.Area != nil && s.Arcs == nil {
		n := s.W * s.H
		r.nw = (s.W + 63) / 64
		r.buf = scratchPool.Get().(*scratch)
		if cap(r.buf.rad) < n || cap(r.buf.river) < r.nw*s.H {
			r.buf.rad = make([]float32, n)
			r.buf.river = make([]uint64, r.nw*s.H)
		}
		r.rad, r.river = r.buf.rad[:n], r.buf.river[:r.nw*s.H]
		// Discs reach no pixel at distance rad + 0.5 or more.
		r.reach = int(math.Ceil(o.RiverMaxPx/2+0.5)) - 1
		r.dist = make([]float32, (r.reach+1)*(r.reach+1))
		for dy := 0; dy <= r.reach; dy++ {
			for dx := 0; dx <= r.reach; dx++ {
				r.dist[dy*(r.reach+1)+dx] = float32(math.Hypot(float64(dx), float64(dy)))
			}
		}
	}
	if o.Lakes {
		r.water = s.Water
	}

	if o.Rock && s.Geology != nil && len(s.Rock) == s.W*s.H {
		for _, c := range RockPalette(s) {
			r.rock8 = append(r.rock8, [3]uint32{uint32(c.R), uint32(c.G), uint32(c.B)})
		}
	}
	r.alpha = float32(o.OverlayAlpha)
	if r.alpha > 0 {
		switch o.Overlay {
		case OverlayUplift:
			if s.Uplift != nil {
				r.ov = OverlayUplift
				lo, hi := minMax(s.Uplift)
				if lo < 0 {
					m := max(-lo, hi)
					r.diverging, r.ovLUT = true, divergingLUT
					r.ovScale = 0.5 / m
				} else {
					r.ovLUT = upliftLUT
					if hi > 0 {
						r.ovScale = 1 / hi
					}
				}
			}
		case OverlayDrainage:
			if s.Area != nil {
				r.ov, r.ovLUT = OverlayDrainage, drainageLUT
				_, hi := minMax(s.Area)
				r.ovLo = math.Log10(s.Cell * s.Cell)
				if hi := math.Log10(hi); hi > r.ovLo {
					r.ovScale = 1 / (hi - r.ovLo)
				}
			}
		case OverlaySlope:
			r.ov, r.ovLUT = OverlaySlope, slopeLUT
			r.ovScale = 1.0 / slopeMaxDeg
		case OverlaySediment:
			if s.Sediment != nil {
				r.ov, r.ovLUT = OverlaySediment, sedimentLUT
				if _, hi := minMax(s.Sediment); hi > 0 {
					r.ovScale = 1 / hi
				}
			}
		case OverlayHardness:
			if s.Hardness != nil {
				r.ov, r.ovLUT, r.ovScale = OverlayHardness, hardnessLUT, 1
			}
		case OverlayRidges:
			if len(s.Receivers) == s.W*s.H {
				r.ov, r.mask = OverlayRidges, Ridges(nil, s)
			}
		case OverlayStreams:
			if len(s.Area) == s.W*s.H {
				r.ov, r.mask = OverlayStreams, make([]bool, s.W*s.H)
				thr := float32(o.RiverThresholdM2)
				for i, a := range s.Area {
					r.mask[i] = a >= thr
				}
			}
		}
	}
	return r
}

// release returns the scratch buffers to the pool.
func (r *renderer) release() {
	if r.buf != nil {
		scratchPool.Put(r.buf)
		r.buf, r.rad, r.river = nil, nil, nil
	}
}

// riverRows fills rad and river for rows [y0, y1).
func (r *renderer) riverRows(y0, y1 int) {
	w := r.w
	thr := r.o.RiverThresholdM2
	maxPx := float32(r.o.RiverMaxPx)
	for y := y0; y < y1; y++ {
		area := r.s.Area[y*w : y*w+w]
		rad := r.rad[y*w : y*w+w]
		var water []float32
		if r.water != nil {
			water = r.water[y*w : y*w+w]
		}
		bits := r.river[y*r.nw : (y+1)*r.nw]
		clear(bits)
		// rad is only read where bits is set: no need to clear it.
		for x, a := range area {
			if !(float64(a) >= thr) || (water != nil && water[x] > 0) {
				continue
			}
			width := 1 + riverPxPerDecade*float32(math.Log10(float64(a)/thr))
			rad[x] = min(width, maxPx) / 2
			bits[x>>6] |= 1 << (x & 63)
		}
	}
}

// row renders row y into pix (4·W bytes, RGBA): the shaded tint of every
// pixel in integer arithmetic, then rivers, lakes and the overlay blended
// over the pixels they touch.
func (r *renderer) row(pix []uint8, y int, b *rowBuf) {
	w, h := r.w, r.h
	hgt := r.s.Height
	cur := hgt[y*w : y*w+w]
	// Rows above and below, one-sided on the edges (a 1-row grid has no
	// y gradient: both are the row itself).
	up, dn, fy := cur, cur, r.ex
	if y > 0 {
		up = hgt[(y-1)*w : y*w]
	}
	if y < h-1 {
		dn = hgt[(y+1)*w : (y+2)*w]
	}
	if y > 0 && y < h-1 {
		fy = r.ex / 2
	}
	if len(b.lit) != w {
		b.lit, b.cov, b.touched = make([]uint32, w), make([]float32, w), make([]uint64, (w+63)/64)
	}
	// The light each pixel gets, in 1/256, in a tight loop of its own: the
	// square root and the division pipeline better without the rest.
	lit := b.lit
	lx, ly, lz := r.lx, r.ly, r.lz
	amb, dif := 256*float64(r.amb), 256*(1-float64(r.amb))
	shade := func(gx, gy float64) uint32 {
		sh := (lz - gx*lx - gy*ly) / math.Sqrt(1+gx*gx+gy*gy)
		if !(sh > 0) { // facing away, or NaN from infinite heights
			sh = 0
		}
		return uint32(amb + dif*sh + 0.5) // sh <= 1: at most 256
	}
	if w == 1 {
		lit[0] = shade(0, (float64(dn[0])-float64(up[0]))*fy)
	} else {
		lit[0] = shade((float64(cur[1])-float64(cur[0]))*r.ex, (float64(dn[0])-float64(up[0]))*fy)
		lit[w-1] = shade((float64(cur[w-1])-float64(cur[w-2]))*r.ex, (float64(dn[w-1])-float64(up[w-1]))*fy)
		// The interior in float32, a third faster than float64 and as
		// good for a light factor in 1/256; gradients too steep for
		// float32 squares (beyond 1e15) go the float64 way.
		fx := r.ex / 2
		fx32, fy32 := float32(fx), float32(fy)
		lx32, ly32, lz32 := float32(lx), float32(ly), float32(lz)
		amb32, dif32 := float32(amb), float32(dif)
		up, dn := up[:w], dn[:w]
		for x := 1; x < w-1; x++ {
			gx := (cur[x+1] - cur[x-1]) * fx32
			gy := (dn[x] - up[x]) * fy32
			q := 1 + gx*gx + gy*gy
			if !(q <= 1e30) {
				lit[x] = shade((float64(cur[x+1])-float64(cur[x-1]))*fx, (float64(dn[x])-float64(up[x]))*fy)
				continue
			}
			sh := (lz32 - gx*lx32 - gy*ly32) / float32(math.Sqrt(float64(q)))
			if !(sh > 0) {
				sh = 0
			}
			lit[x] = uint32(amb32 + dif32*sh + 0.5) // sh <= 1: at most 256
		}
	}

	// Tint times light.
	lo, scale := r.tintLo, r.tintScale*float64(len(tint8)-1)
	top := float64(len(tint8) - 1)
	pix = pix[:4*w]
	for x, l := range lit {
		t := (float64(cur[x]) - lo) * scale
		if !(t > 0) {
			t = 0
		}
		if t > top {
			t = top
		}
		c := &tint8[int(t+0.5)]
		if r.rock8 != nil {
			c = &r.rock8[min(int(r.s.Rock[y*w+x]), len(r.rock8)-1)]
		}
		binary.LittleEndian.PutUint32(pix[4*x:],
			(c[0]*l+128)>>8|((c[1]*l+128)>>8)<<8|((c[2]*l+128)>>8)<<16|0xff<<24)
	}

	if r.rad != nil && r.gatherRivers(b, y) {
		for k, word := range b.touched {
			for word != 0 {
				x := k*64 + bits.TrailingZeros64(word)
				word &= word - 1
				blend(pix[4*x:4*x+3], riverColour, min(b.cov[x], 1))
				b.cov[x] = 0
			}
		}
		clear(b.touched)
	}
	if r.water != nil {
		for x, d := range r.water[y*w : y*w+w] {
			if d > 0 {
				// k = d / (d + lakeDepthM) in [0, 1), as an index of lake8.
				k := int(d/(d+lakeDepthM)*float32(len(lake8)-1) + 0.5)
				c := &lake8[k]
				p := pix[4*x : 4*x+3 : 4*x+3]
				a, na := c[3], 256-c[3]
				p[0] = uint8((uint32(p[0])*na + c[0]*a + 128) >> 8)
				p[1] = uint8((uint32(p[1])*na + c[1]*a + 128) >> 8)
				p[2] = uint8((uint32(p[2])*na + c[2]*a + 128) >> 8)
			}
		}
	}
	if r.mask != nil {
		c := ridgeColour
		if r.ov == OverlayStreams {
			c = streamColour
		}
		for x, on := range r.mask[y*w : y*w+w] {
			if on {
				blend(pix[4*x:4*x+3], c, r.alpha)
			}
		}
	} else if r.ov != OverlayNone {
		for x := range w {
			blend(pix[4*x:4*x+3], r.overlay(x, y), r.alpha)
		}
	}
}

// gatherRivers sets b.cov[x] to the coverage of pixel (x, y) by the river
// discs of rows y-reach ... y+reach, and bit x of b.touched where it is
// positive; it reports whether any is. It writes only row y's buffers and
// takes a maximum, which does not depend on the order of the discs: rows
// render in parallel with identical results.
func (r *renderer) gatherRivers(b *rowBuf, y int) bool {
	w, n := r.w, r.reach+1
	cov, touched := b.cov[:w], b.touched
	any := false
	for yy := max(0, y-r.reach); yy <= min(r.h-1, y+r.reach); yy++ {
		dy := yy - y
		if dy < 0 {
			dy = -dy
		}
		dist := r.dist[dy*n : dy*n+n]
		rad := r.rad[yy*w : yy*w+w]
		for k, word := range r.river[yy*r.nw : (yy+1)*r.nw] {
			for word != 0 {
				xs := k*64 + bits.TrailingZeros64(word)
				word &= word - 1
				rho := rad[xs] + 0.5
				// Columns the disc may reach: |dx| < rho.
				span := min(r.reach, int(rho))
				for x := max(0, xs-span); x <= min(w-1, xs+span); x++ {
					dx := x - xs
					if dx < 0 {
						dx = -dx
					}
					if c := rho - dist[dx]; c > cov[x] {
						cov[x] = c
						touched[x>>6] |= 1 << (x & 63)
						any = true
					}
				}
			}
		}
	}
	return any
}

// blend mixes colour c with opacity a in [0, 1] into the RGB bytes p.
func blend(p []uint8, c rgb, a float32) {
	p = p[:3]
	if a >= 1 {
		for k := range p {
			p[k] = uint8(c[k]*255 + 0.5)
		}
		return
	}
	for k := range p {
		v := float32(p[k])
		p[k] = uint8(v + (c[k]*255-v)*a + 0.5) // convex: stays in [0, 255.5)
	}
}

// overlay returns the overlay's colour at (x, y).
func (r *renderer) overlay(x, y int) rgb {
	i := y*r.w + x
	var t float64
	switch r.ov {
	case OverlayUplift:
		t = float64(r.s.Uplift[i]) * r.ovScale
		if r.diverging {
			t += 0.5
		}
	case OverlayDrainage:
		if a := float64(r.s.Area[i]); a > 0 {
			t = (math.Log10(a) - r.ovLo) * r.ovScale
		}
	case OverlaySlope:
		t = slopeDeg(r.s, x, y) * r.ovScale
	case OverlaySediment:
		t = float64(r.s.Sediment[i]) * r.ovScale
	case OverlayHardness:
		t = float64(r.s.Hardness[i])
	}
	return r.ovLUT.at(t)
}

// slopeDeg returns the steepest-descent slope at cell (x, y) in degrees:
// the largest drop per metre to any of the 8 neighbours (0 for a pit).
func slopeDeg(s *engine.Snapshot, x, y int) float64 {
	h := s.Height
	z := float64(h[y*s.W+x])
	var best float64
	for dy := -1; dy <= 1; dy++ {
		yy := y + dy
		if yy < 0 || yy >= s.H {
			continue
		}
		for dx := -1; dx <= 1; dx++ {
			xx := x + dx
			if xx < 0 || xx >= s.W || dx == 0 && dy == 0 {
				continue
			}
			d := s.Cell
			if dx != 0 && dy != 0 {
				d *= math.Sqrt2
			}
			best = max(best, (z-float64(h[yy*s.W+xx]))/d)
		}
	}
	if best != best { // infinite heights
		return 90
	}
	return math.Atan(best) * 180 / math.Pi
}

// mix returns a + (b - a)·t.
func mix(a, b rgb, t float32) rgb {
	return rgb{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}

// minMax returns the smallest and largest finite values of v, (0, 0) when
// there are none. Min and max are exact in any order, so the parallel
// reduction is deterministic.
func minMax(v []float32) (lo, hi float64) {
	const block = 1 << 16
	nb := parallel.NumBlocks(len(v), block)
	los, his := make([]float32, nb), make([]float32, nb)
	parallel.Blocks(len(v), block, func(b, i0, i1 int) {
		l, h := float32(math.Inf(1)), float32(math.Inf(-1))
		for _, x := range v[i0:i1] {
			if x-x != 0 { // NaN or ±Inf
				continue
			}
			if x < l {
				l = x
			}
			if x > h {
				h = x
			}
		}
		los[b], his[b] = l, h
	})
	l, h := float32(math.Inf(1)), float32(math.Inf(-1))
	for b := range los {
		l, h = min(l, los[b]), max(h, his[b])
	}
	if l > h {
		return 0, 0
	}
	return float64(l), float64(h)
}
