package viewer

import (
	"image"
	"math"

	"orogen/sim/engine"
	"orogen/sim/parallel"
)

// Constants of the software rasterizer.
const (
	// subPixel is the fixed-point scale of vertex positions (8 bits below
	// the pixel, as GPUs snap them).
	subPixel = 256
	// maxRasterCoord bounds vertex coordinates, pixels, so the edge
	// functions' products stay within int64; vertices beyond it (only
	// next to the near plane) are moved onto it.
	maxRasterCoord = 1 << 22
)

// The sky: from pale at the horizon to blue at the zenith, and a haze
// below the horizon where no terrain is.
var (
	skyHorizon = rgb{0.80, 0.86, 0.93}
	skyZenith  = rgb{0.38, 0.56, 0.82}
	skyBelow   = rgb{0.62, 0.66, 0.70}
)

// Render3D renders s as the 3D view shows it through cam into dst (its
// size is the screen's) and returns dst: BuildMesh3D, Project and
// RasterizeDrawList over FillSky. It is the software path of the CLI's
// `orogen render --view 3d` and of the tests; the app draws the same draw
// list with Ebiten. It panics if dst is nil or empty.
func Render3D(dst *image.RGBA, s *engine.Snapshot, cam Camera, o Options3D) *image.RGBA {
	if dst == nil || dst.Rect.Empty() {
		panic("viewer: Render3D needs a non-empty destination image")
	}
	m := BuildMesh3D(nil, s, o)
	d := m.Project(nil, cam, dst.Rect.Dx(), dst.Rect.Dy())
	FillSky(dst, cam)
	RasterizeDrawList(dst, d)
	return dst
}

// FillSky fills dst (opaque) with the sky behind the terrain as cam sees
// it: a gradient from pale at the horizon line to blue at the zenith, and
// a grey haze below the horizon.
func FillSky(dst *image.RGBA, cam Camera) {
	if dst == nil || dst.Rect.Empty() {
		return
	}
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	c := cam.sane()
	f := c.frame(float64(w), float64(h))
	// A horizontal direction ahead projects at depth cos φ and height
	// sin φ: the horizon is focal·tan φ above the centre.
	horizon := f.cy - f.focal*math.Tan(c.Pitch*math.Pi/180)
	for y := range h {
		var col rgb
		if yc := float64(y) + 0.5; yc < horizon {
			t := min((horizon-yc)/float64(h), 1)
			col = mix(skyHorizon, skyZenith, float32(t))
		} else {
			t := min((yc-horizon)/float64(h), 1)
			col = mix(skyHorizon, skyBelow, float32(min(1, 0.5+t)))
		}
		px := [4]uint8{uint8(col[0]*255 + 0.5), uint8(col[1]*255 + 0.5), uint8(col[2]*255 + 0.5), 255}
		off := dst.PixOffset(dst.Rect.Min.X, dst.Rect.Min.Y+y)
		row := dst.Pix[off : off+4*w]
		for x := 0; x < len(row); x += 4 {
			copy(row[x:x+4], px[:])
		}
	}
}

// RasterizeDrawList is the software fallback of the 3D view: it fills the
// triangles of d, chunk after chunk and in order within each, into dst,
// whose top-left pixel is screen pixel (0, 0). Vertex colours are
// interpolated linearly in screen space (Gouraud, as Ebiten interpolates
// them, premultiplied) and blended straight-alpha over what is there.
//
// A pixel belongs to a triangle when its centre does; vertices are
// snapped to 1/256 pixel and the edge functions are exact integers, with a
// tie rule that gives a pixel centre on an edge (or a vertex) shared by
// two triangles to exactly one of them, so a mesh has neither cracks nor
// double-blended seams. The screen is cut into bands of rows rendered in
// parallel, each drawing every triangle in order, and a pixel's value does
// not depend on the bands: the picture is the same for any GOMAXPROCS.
func RasterizeDrawList(dst *image.RGBA, d *DrawList) {
	if dst == nil || d == nil || dst.Rect.Empty() || len(d.Chunks) == 0 {
		return
	}
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	// Each chunk's vertical extent, to skip it in bands it cannot touch.
	ext := make([][2]float32, len(d.Chunks))
	parallel.Blocks(len(d.Chunks), 1, func(k, _, _ int) {
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		for i := range d.Chunks[k].Vertices {
			y := d.Chunks[k].Vertices[i].DstY
			lo, hi = min(lo, y), max(hi, y)
		}
		ext[k] = [2]float32{lo, hi}
	})
	band := max(8, (h+2*parallel.Workers()-1)/(2*parallel.Workers()))
	parallel.Blocks(h, band, func(_, y0, y1 int) {
		r := rasterBand{dst: dst, w: w, y0: y0, y1: y1}
		for k := range d.Chunks {
			// NaN extents (a vertex at NaN) do not skip: the triangles
			// are rejected one by one.
			if ext[k][1] < float32(y0)-1 || ext[k][0] > float32(y1)+1 {
				continue
			}
			c := &d.Chunks[k]
			vs, idx := c.Vertices, c.Indices
			for t := 0; t+2 < len(idx); t += 3 {
				i0, i1, i2 := int(idx[t]), int(idx[t+1]), int(idx[t+2])
				if i0 >= len(vs) || i1 >= len(vs) || i2 >= len(vs) {
					panic("viewer: draw list index out of range")
				}
				r.triangle(&vs[i0], &vs[i1], &vs[i2])
			}
		}
	})
}

// rasterBand draws into rows [y0, y1) of dst.
type rasterBand struct {
	dst    *image.RGBA
	w      int
	y0, y1 int
}

// fixed returns v in 1/subPixel pixels, clamped to ±maxRasterCoord.
func fixed(v float32) int64 {
	f := min(max(float64(v), -maxRasterCoord), maxRasterCoord)
	return int64(math.Floor(f*subPixel + 0.5))
}

// floorDiv returns ⌊a/b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// edge is one edge function of a triangle: E(p) = dx·(py - sy) - dy·(px -
// sx), positive inside; bias is 0 where the edge owns the pixel centres on
// it and 1 where it does not.
type edge struct {
	sx, sy, dx, dy, bias int64
}

func newEdge(ax, ay, bx, by int64) edge {
	e := edge{sx: ax, sy: ay, dx: bx - ax, dy: by - ay, bias: 1}
	// The tie rule: a centre on the edge is inside when it would be inside
	// after an infinitesimal move by (-1, -ε), which for every pair of
	// triangles sharing an edge picks one.
	if e.dy > 0 || (e.dy == 0 && e.dx < 0) {
		e.bias = 0
	}
	return e
}

func (e *edge) at(px, py int64) int64 { return e.dx*(py-e.sy) - e.dy*(px-e.sx) }

// triangle fills one triangle.
func (r *rasterBand) triangle(a, b, c *Vertex3D) {
	// Cheap rejection in float (NaN fails every comparison).
	lo, hi := min(a.DstY, b.DstY, c.DstY), max(a.DstY, b.DstY, c.DstY)
	if !(hi >= float32(r.y0)+0.49 && lo <= float32(r.y1)-0.49) {
		return
	}
	lx, hx := min(a.DstX, b.DstX, c.DstX), max(a.DstX, b.DstX, c.DstX)
	if !(hx >= 0.49 && lx <= float32(r.w)-0.49) {
		return
	}
	// Most triangles of a fine mesh cover no pixel centre: find out in
	// float, with a margin for the snapping (1/512 pixel at most).
	const eps = 1.0 / 128
	if math.Floor(float64(hx)-0.5+eps) < math.Ceil(float64(lx)-0.5-eps) ||
		math.Floor(float64(hi)-0.5+eps) < math.Ceil(float64(lo)-0.5-eps) {
		return
	}
	ax, ay, bx, by, cx, cy := fixed(a.DstX), fixed(a.DstY), fixed(b.DstX), fixed(b.DstY), fixed(c.DstX), fixed(c.DstY)
	area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
	if area == 0 {
		return
	}
	if area < 0 {
		b, c = c, b
		bx, by, cx, cy = cx, cy, bx, by
		area = -area
	}
	// Pixel centres (p + 1/2) inside the bounding box and the band.
	const half = subPixel / 2
	y0 := max(int64(r.y0), -floorDiv(-(min(ay, by, cy)-half), subPixel))
	y1 := min(int64(r.y1-1), floorDiv(max(ay, by, cy)-half, subPixel))
	x0 := max(0, -floorDiv(-(min(ax, bx, cx)-half), subPixel))
	x1 := min(int64(r.w-1), floorDiv(max(ax, bx, cx)-half, subPixel))
	if y0 > y1 || x0 > x1 {
		return
	}
	// eA is opposite A (its value / area is A's weight), and so on.
	es := [3]edge{newEdge(bx, by, cx, cy), newEdge(cx, cy, ax, ay), newEdge(ax, ay, bx, by)}

	// Premultiplied colours; a flat triangle skips the interpolation.
	pa := [4]float64{float64(a.ColorR * a.ColorA), float64(a.ColorG * a.ColorA), float64(a.ColorB * a.ColorA), float64(a.ColorA)}
	pb := [4]float64{float64(b.ColorR * b.ColorA), float64(b.ColorG * b.ColorA), float64(b.ColorB * b.ColorA), float64(b.ColorA)}
	pc := [4]float64{float64(c.ColorR * c.ColorA), float64(c.ColorG * c.ColorA), float64(c.ColorB * c.ColorA), float64(c.ColorA)}
	flat := pa == pb && pa == pc
	var db, dc [4]float64
	for k := range 4 {
		db[k], dc[k] = pb[k]-pa[k], pc[k]-pa[k]
	}
	inv := 1 / float64(area)

	dst := r.dst
	px0 := x0*subPixel + half
	for y := y0; y <= y1; y++ {
		py := y*subPixel + half
		// The span of the row: every edge function >= its bias.
		xa, xb := x0, x1
		var e0 [3]int64
		for k := range es {
			e := &es[k]
			v := e.at(px0, py)
			e0[k] = v
			step := -e.dy * subPixel // change per pixel to the right
			switch {
			case step > 0:
				xa = max(xa, x0-floorDiv(-(e.bias-v), step)) // x0 + ⌈(bias - v)/step⌉
			case step < 0:
				xb = min(xb, x0+floorDiv(v-e.bias, -step))
			default:
				if v < e.bias {
					xa = x1 + 1
				}
			}
		}
		if xa > xb {
			continue
		}
		off := dst.PixOffset(dst.Rect.Min.X+int(xa), dst.Rect.Min.Y+int(y))
		pix := dst.Pix[off : off+4*int(xb-xa+1)]
		var col [4]float64
		if flat {
			col = pa
		}
		for x := xa; x <= xb; x++ {
			if !flat {
				// Weights of B and C at this pixel.
				wb := float64(e0[1]-es[1].dy*subPixel*(x-x0)) * inv
				wc := float64(e0[2]-es[2].dy*subPixel*(x-x0)) * inv
				for k := range 4 {
					col[k] = pa[k] + db[k]*wb + dc[k]*wc
				}
			}
			p := pix[4*(x-xa) : 4*(x-xa)+4 : 4*(x-xa)+4]
			al := min(max(col[3], 0), 1)
			if al >= 1 {
				for k := range 3 {
					p[k] = uint8(min(max(col[k], 0), 1)*255 + 0.5)
				}
				p[3] = 255
				continue
			}
			na := 1 - al
			for k := range 3 {
				p[k] = uint8(min(max(col[k]*255+float64(p[k])*na, 0), 255) + 0.5)
			}
			p[3] = uint8(min(al*255+float64(p[3])*na, 255) + 0.5)
		}
	}
}
