package sim

import (
	"fmt"
	"math"
)

// Field is a scalar raster: W×H cells of Cell metres each, row-major.
type Field struct {
	W, H int
	Cell float64 // cell size, metres
	Data []float32
}

// NewField returns a zero field of w×h cells of the given size in metres.
func NewField(w, h int, cell float64) *Field {
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("sim: bad field size %d×%d", w, h))
	}
	return &Field{W: w, H: h, Cell: cell, Data: make([]float32, w*h)}
}

// Index returns the flat index of cell (x, y).
func (f *Field) Index(x, y int) int { return y*f.W + x }

// In reports whether (x, y) lies inside the field.
func (f *Field) In(x, y int) bool { return x >= 0 && y >= 0 && x < f.W && y < f.H }

// At returns the value of cell (x, y). It panics outside the field.
func (f *Field) At(x, y int) float32 {
	if !f.In(x, y) {
		panic(fmt.Sprintf("sim: cell (%d, %d) outside %d×%d field", x, y, f.W, f.H))
	}
	return f.Data[y*f.W+x]
}

// Set sets the value of cell (x, y). It panics outside the field.
func (f *Field) Set(x, y int, v float32) {
	if !f.In(x, y) {
		panic(fmt.Sprintf("sim: cell (%d, %d) outside %d×%d field", x, y, f.W, f.H))
	}
	f.Data[y*f.W+x] = v
}

// Clone returns a deep copy of f.
func (f *Field) Clone() *Field {
	g := *f
	g.Data = append([]float32(nil), f.Data...)
	return &g
}

// SameShape panics unless f and g have the same width and height.
func (f *Field) SameShape(g *Field) {
	if f.W != g.W || f.H != g.H {
		panic(fmt.Sprintf("sim: grid sizes differ: %d×%d and %d×%d", f.W, f.H, g.W, g.H))
	}
}

// MinMax returns the smallest and largest finite values of f. For a field
// with no finite value it returns (0, 0).
func (f *Field) MinMax() (lo, hi float32) {
	lo, hi = float32(math.Inf(1)), float32(math.Inf(-1))
	for _, v := range f.Data {
		if v != v || math.IsInf(float64(v), 0) {
			continue
		}
		lo = min(lo, v)
		hi = max(hi, v)
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}

// Sample returns the bilinear interpolation of f at continuous cell
// coordinates (x, y), where cell centres sit at integer coordinates. Points
// outside the field take the value of the nearest border cell.
func (f *Field) Sample(x, y float64) float64 {
	x = math.Max(0, math.Min(x, float64(f.W-1)))
	y = math.Max(0, math.Min(y, float64(f.H-1)))
	x0, y0 := int(x), int(y)
	x1, y1 := min(x0+1, f.W-1), min(y0+1, f.H-1)
	tx, ty := x-float64(x0), y-float64(y0)
	a := float64(f.Data[y0*f.W+x0])*(1-tx) + float64(f.Data[y0*f.W+x1])*tx
	b := float64(f.Data[y1*f.W+x0])*(1-tx) + float64(f.Data[y1*f.W+x1])*tx
	return a*(1-ty) + b*ty
}

// Resample returns f resampled bilinearly to w×h cells, keeping the same
// physical extent: the cell size scales by W/w. It returns a clone when the
// size is unchanged.
func (f *Field) Resample(w, h int) *Field {
	if w == f.W && h == f.H {
		return f.Clone()
	}
	g := NewField(w, h, f.Cell*float64(f.W)/float64(w))
	sx := float64(f.W) / float64(w)
	sy := float64(f.H) / float64(h)
	for y := 0; y < h; y++ {
		fy := (float64(y)+0.5)*sy - 0.5
		for x := 0; x < w; x++ {
			fx := (float64(x)+0.5)*sx - 0.5
			g.Data[y*w+x] = float32(f.Sample(fx, fy))
		}
	}
	return g
}
