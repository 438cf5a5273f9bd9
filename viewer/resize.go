package viewer

import (
	"image"
	"math"

	"orogen/sim/parallel"
)

// Resize scales src to the largest size that fits in dst's bounds with the
// same aspect ratio, centres it and fills the margins with a dark grey
// (letterboxing), and returns dst. Enlarging is bilinear; shrinking
// averages the source pixels under each output pixel (a tent filter as wide
// as the reduction) so rivers thinner than a pixel fade instead of
// breaking up. It panics if dst or src is nil or empty.
func Resize(dst, src *image.RGBA) *image.RGBA {
	if dst == nil || src == nil || dst.Rect.Empty() || src.Rect.Empty() {
		panic("viewer: Resize of a nil or empty image")
	}
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	dw, dh := dst.Rect.Dx(), dst.Rect.Dy()
	scale := min(float64(dw)/float64(sw), float64(dh)/float64(sh))
	ow := min(dw, max(1, int(math.Round(float64(sw)*scale))))
	oh := min(dh, max(1, int(math.Round(float64(sh)*scale))))
	ox, oy := (dw-ow)/2, (dh-oh)/2
	kx, ky := taps(sw, ow), taps(sh, oh)

	// Horizontal pass: src rows → tmp (ow × sh, 4 channels).
	tmp := make([]float32, 4*ow*sh)
	rows := max(1, blockPixels/ow)
	parallel.Blocks(sh, rows, func(_, y0, y1 int) {
		for y := y0; y < y1; y++ {
			off := src.PixOffset(src.Rect.Min.X, src.Rect.Min.Y+y)
			in := src.Pix[off : off+4*sw]
			out := tmp[4*ow*y : 4*ow*(y+1)]
			for x, k := range kx {
				var a [4]float32
				for j, wt := range k.w {
					p := in[4*(k.first+j):]
					for c := range 4 {
						a[c] += wt * float32(p[c])
					}
				}
				copy(out[4*x:4*x+4], a[:])
			}
		}
	})
	// Vertical pass: tmp → dst, margins filled.
	parallel.Blocks(dh, max(1, blockPixels/dw), func(_, y0, y1 int) {
		for y := y0; y < y1; y++ {
			off := dst.PixOffset(dst.Rect.Min.X, dst.Rect.Min.Y+y)
			out := dst.Pix[off : off+4*dw]
			for x := 0; x < dw; x++ {
				copy(out[4*x:4*x+4], letterboxColour[:])
			}
			if y < oy || y >= oy+oh {
				continue
			}
			k := ky[y-oy]
			for x := 0; x < ow; x++ {
				var a [4]float32
				for j, wt := range k.w {
					p := tmp[4*(ow*(k.first+j)+x):]
					for c := range 4 {
						a[c] += wt * p[c]
					}
				}
				q := out[4*(ox+x) : 4*(ox+x)+4]
				for c := range 4 {
					q[c] = uint8(min(max(a[c]+0.5, 0), 255))
				}
			}
		}
	})
	return dst
}

// tap lists the weights of the source samples first, first+1, ... that
// make one output sample.
type tap struct {
	first int
	w     []float32
}

// taps returns the tent-filter taps that resample n source samples to m,
// pixel centres aligned, edges replicated. The tent's half-width is one
// source pixel when enlarging (bilinear) and n/m when shrinking.
func taps(n, m int) []tap {
	ratio := float64(n) / float64(m)
	half := max(1, ratio)
	out := make([]tap, m)
	for i := range out {
		u := (float64(i)+0.5)*ratio - 0.5
		lo := int(math.Ceil(u - half))
		hi := int(math.Floor(u + half))
		first, last := max(lo, 0), min(hi, n-1)
		if first > last { // cannot happen for n, m >= 1; keep the nearest
			first = min(max(int(math.Round(u)), 0), n-1)
			last = first
		}
		acc := make([]float64, last-first+1)
		var sum float64
		for j := lo; j <= hi; j++ {
			wt := 1 - math.Abs(float64(j)-u)/half
			if wt <= 0 {
				continue
			}
			jj := min(max(j, first), last) // replicate the edges
			acc[jj-first] += wt
			sum += wt
		}
		if sum == 0 { // u sits exactly between taps of zero weight
			acc[min(max(int(math.Round(u)), first), last)-first] = 1
			sum = 1
		}
		w := make([]float32, len(acc))
		for k, a := range acc {
			w[k] = float32(a / sum)
		}
		out[i] = tap{first, w}
	}
	return out
}
