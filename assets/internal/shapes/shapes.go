// Package shapes holds the analytic uplift shapes behind the preset PNGs in
// assets/presets. The generator (assets/internal/genpresets) and the test in
// package assets both render them from here, so the committed files cannot
// drift from their definitions.
//
// A shape maps unit coordinates (x, y) in [0, 1]², x growing east and y
// growing south (image row order, row 0 is the north edge), to an uplift in
// [0, 1] of the scene's umax. Rasters sample the shape at cell centres.
//
// The arithmetic uses only operations that IEEE 754 rounds exactly (+, -, *,
// /, math.Sqrt, comparisons), and every product is wrapped in an explicit
// float64 conversion: the Go spec lets a compiler fuse x*y+z into one FMA
// instruction (it does on arm64, ppc64le, s390x), which would change the last
// bit of a result and could move a pixel across a rounding or step boundary.
// A conversion forces the rounding and forbids the fusion, so every
// architecture renders the same pixels.
package shapes

import (
	"image"
	"math"
)

// Size is the width and height of the preset rasters, in pixels.
const Size = 512

// Shape is one named uplift shape.
type Shape struct {
	Name string // preset name; the raster is NAME-uplift.png
	F    func(x, y float64) float64
}

// All lists the preset shapes in name order.
var All = []Shape{
	{"cone", Cone},
	{"default", Default},
	{"gradient", Gradient},
	{"steps", Steps},
}

// Parameters of the default preset: two segment ridges crossing near the
// centre, each with a smooth radial falloff of radius RidgeRadius, over a low
// plain of height Plain.
var (
	RidgeA      = [2][2]float64{{0.15, 0.30}, {0.85, 0.70}}
	RidgeB      = [2][2]float64{{0.30, 0.85}, {0.75, 0.15}}
	RidgeRadius = 0.22
	Plain       = 0.05
)

// ConeRadius is the radius at which the cone preset reaches zero.
const ConeRadius = 0.45

// Parameters of the gradient and steps presets: a crest segment from
// CrestA to CrestB, uplift falling linearly with the distance to it and
// reaching zero at CrestFalloff; Steps quantizes that into StepCount levels.
var (
	CrestA       = [2]float64{0.30, 0.50}
	CrestB       = [2]float64{0.70, 0.50}
	CrestFalloff = 0.45
	StepCount    = 5.0
)

// Default is two ridges crossing near the centre, so that rivers drain to all
// four borders: u = max(plain, ridge(A), ridge(B)), where a ridge is
// (1 - d²/r²)³ for d < r and d is the distance to its segment.
func Default(x, y float64) float64 {
	a := ridge(x, y, RidgeA[0], RidgeA[1], RidgeRadius)
	b := ridge(x, y, RidgeB[0], RidgeB[1], RidgeRadius)
	return math.Max(Plain, math.Max(a, b))
}

// Cone is a single cone at the centre: u = max(0, 1 - d/ConeRadius).
func Cone(x, y float64) float64 {
	d := math.Sqrt(dist2(x, y, 0.5, 0.5))
	return math.Max(0, 1-d/ConeRadius)
}

// Gradient is a broad range whose uplift decreases slowly and linearly from
// a crest line toward the borders (the "slowly decreasing gradient" of
// Cordonnier et al. 2016, §6.4, Fig. 13): u = max(0, 1 - d/CrestFalloff), d
// the distance to the crest segment.
func Gradient(x, y float64) float64 {
	d := math.Sqrt(segDist2(x, y, CrestA, CrestB))
	return math.Max(0, 1-d/CrestFalloff)
}

// Steps is Gradient quantized into StepCount constant levels (the "set of
// steps of constant values" of Cordonnier et al. 2016, §6.4, Fig. 13): every
// positive uplift is rounded up to the next multiple of 1/StepCount, so the
// levels are 0.2, 0.4, 0.6, 0.8 and 1 and zero stays zero.
func Steps(x, y float64) float64 {
	u := Gradient(x, y)
	if u <= 0 {
		return 0
	}
	return math.Ceil(float64(u*StepCount)) / StepCount
}

// ridge is (1 - d²/r²)³ for d < r and 0 beyond, d the distance from (x, y)
// to the segment ab.
func ridge(x, y float64, a, b [2]float64, r float64) float64 {
	d2 := segDist2(x, y, a, b)
	r2 := float64(r * r)
	if d2 >= r2 {
		return 0
	}
	t := 1 - d2/r2
	return float64(float64(t*t) * t)
}

// segDist2 is the squared distance from (x, y) to the segment ab.
func segDist2(x, y float64, a, b [2]float64) float64 {
	ex, ey := b[0]-a[0], b[1]-a[1]
	px, py := x-a[0], y-a[1]
	t := (float64(px*ex) + float64(py*ey)) / (float64(ex*ex) + float64(ey*ey))
	t = math.Max(0, math.Min(1, t))
	cx, cy := a[0]+float64(t*ex), a[1]+float64(t*ey)
	return dist2(x, y, cx, cy)
}

// dist2 is the squared distance between (x0, y0) and (x1, y1).
func dist2(x0, y0, x1, y1 float64) float64 {
	dx, dy := x1-x0, y1-y0
	return float64(dx*dx) + float64(dy*dy)
}

// Render samples f at the cell centres of a w×h raster and stores it as
// 16-bit gray: 0..1 maps to 0..65535, values outside are clamped.
func Render(f func(x, y float64) float64, w, h int) *image.Gray16 {
	img := image.NewGray16(image.Rect(0, 0, w, h))
	for j := range h {
		y := (float64(j) + 0.5) / float64(h)
		for i := range w {
			x := (float64(i) + 0.5) / float64(w)
			v := Quantize(f(x, y))
			o := j*img.Stride + 2*i
			img.Pix[o] = uint8(v >> 8)
			img.Pix[o+1] = uint8(v)
		}
	}
	return img
}

// Quantize maps u in [0, 1] to 0..65535, rounding to nearest and clamping
// values outside (NaN maps to 0).
func Quantize(u float64) uint16 {
	if !(u > 0) {
		return 0
	}
	if u >= 1 {
		return 65535
	}
	return uint16(math.Round(u * 65535))
}
