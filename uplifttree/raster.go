package uplifttree

import (
	"fmt"
	"image"
	"math"
	"sync"

	"orogen/sim"
	"orogen/sim/parallel"
)

var workPool = sync.Pool{New: func() any { return new(work) }}

func getWork(l Layers) *work {
	w := workPool.Get().(*work)
	w.layers = l
	return w
}

func putWork(w *work) {
	w.layers = nil
	workPool.Put(w)
}

// Eval returns the tree's value at the world point (x, y), sampling the
// layers bound with SetLayers. It gives the same bits as Rasterize at a
// cell centre.
func (t *Tree) Eval(x, y float64) float64 {
	an := t.analysis()
	w := getWork(t.layers)
	v := at(w, an.root, x, y)
	putWork(w)
	return v + 0 // +0 turns a −0 into 0
}

// Domain returns the world rectangle the convention places a field on:
// [0, W·Cell] × [0, H·Cell], origin at the north-west corner.
func Domain(f *sim.Field) Rect {
	return Rect{0, 0, float64(f.W) * f.Cell, float64(f.H) * f.Cell}
}

// checkGrid panics unless dst and domain make a usable grid.
func checkGrid(dst *sim.Field, domain Rect) {
	if dst == nil || dst.W <= 0 || dst.H <= 0 || len(dst.Data) != dst.W*dst.H {
		panic("uplifttree: destination field is empty or its Data does not hold W×H cells")
	}
	if !domain.finite() || !(domain.X0 < domain.X1 && domain.Y0 < domain.Y1) {
		panic(fmt.Sprintf("uplifttree: bad domain %v", domain))
	}
}

// Rasterize writes the tree's value at every cell centre of dst and
// returns dst. dst covers the world rectangle domain: cell (i, j) is
// sampled at (domain.X0 + (i+0.5)·dx, domain.Y0 + (j+0.5)·dy) with
// dx = (domain.X1 − domain.X0)/W and dy likewise (dst.Cell is not read;
// Domain(dst) gives the usual domain). Raster nodes sample layers, or the
// layers bound with SetLayers when layers is nil. The 32×32 tiles of the
// grid run in parallel; every cell is computed on its own, so the result
// does not depend on GOMAXPROCS.
func (t *Tree) Rasterize(dst *sim.Field, domain Rect, layers Layers) *sim.Field {
	return t.RasterizeRect(dst, domain, image.Rect(0, 0, dst.W, dst.H), layers)
}

// RasterizeRect is Rasterize restricted to the cells of r (clipped to dst):
// cells outside r are left alone, and cells inside get exactly the bytes a
// full Rasterize would give them.
func (t *Tree) RasterizeRect(dst *sim.Field, domain Rect, r image.Rectangle, layers Layers) *sim.Field {
	checkGrid(dst, domain)
	r = r.Intersect(image.Rect(0, 0, dst.W, dst.H))
	if r.Empty() {
		return dst
	}
	if layers == nil {
		layers = t.layers
	}
	root := t.analysis().root
	dx := (domain.X1 - domain.X0) / float64(dst.W)
	dy := (domain.Y1 - domain.Y0) / float64(dst.H)
	ty0 := r.Min.Y / tileSize
	ty1 := (r.Max.Y + tileSize - 1) / tileSize
	tx0 := r.Min.X / tileSize
	tx1 := (r.Max.X + tileSize - 1) / tileSize
	ntx := tx1 - tx0
	parallel.Blocks((ty1-ty0)*ntx, 1, func(_, lo, hi int) {
		w := getWork(layers)
		xs, ys, out := w.get(spanMax), w.get(spanMax), w.get(spanMax)
		for k := lo; k < hi; k++ {
			ty, tx := ty0+k/ntx, tx0+k%ntx
			y0, y1 := max(ty*tileSize, r.Min.Y), min((ty+1)*tileSize, r.Max.Y)
			x0, x1 := max(tx*tileSize, r.Min.X), min((tx+1)*tileSize, r.Max.X)
			n := 0
			for j := y0; j < y1; j++ {
				y := domain.Y0 + (float64(j)+0.5)*dy
				for i := x0; i < x1; i++ {
					xs[n] = domain.X0 + (float64(i)+0.5)*dx
					ys[n] = y
					n++
				}
			}
			b := Rect{xs[0], ys[0], xs[x1-x0-1], ys[n-1]}
			evalAll(w, root, xs[:n], ys[:n], b, out[:n])
			n = 0
			for j := y0; j < y1; j++ {
				row := dst.Data[j*dst.W+x0 : j*dst.W+x1]
				for i := range row {
					row[i] = float32(out[n] + 0)
					n++
				}
			}
		}
		w.put(out)
		w.put(ys)
		w.put(xs)
		putWork(w)
	})
	return dst
}

// CellRect returns the cells of dst (placed on domain as in Rasterize)
// whose centres may lie in the world rectangle r, with a margin of one
// cell against rounding: the cells to re-rasterize after an edit whose
// dirty rectangle is r. An unbounded or NaN r gives every cell.
func CellRect(dst *sim.Field, domain Rect, r Rect) image.Rectangle {
	checkGrid(dst, domain)
	full := image.Rect(0, 0, dst.W, dst.H)
	if math.IsNaN(r.X0) || math.IsNaN(r.Y0) || math.IsNaN(r.X1) || math.IsNaN(r.Y1) {
		return full
	}
	if r.IsEmpty() {
		return image.Rectangle{}
	}
	dx := (domain.X1 - domain.X0) / float64(dst.W)
	dy := (domain.Y1 - domain.Y0) / float64(dst.H)
	cell := func(v, o, d float64, n int, up bool) int {
		f := (v - o) / d
		switch {
		case up:
			f = math.Ceil(f) + 1
		default:
			f = math.Floor(f) - 1
		}
		return int(max(0, min(float64(n), f)))
	}
	c := image.Rect(cell(r.X0, domain.X0, dx, dst.W, false), cell(r.Y0, domain.Y0, dy, dst.H, false),
		cell(r.X1, domain.X0, dx, dst.W, true), cell(r.Y1, domain.Y0, dy, dst.H, true))
	return c.Intersect(full)
}
