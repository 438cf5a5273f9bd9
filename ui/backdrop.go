package ui

import (
	"image"
	"image/color"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
)

// backdrop fills the screen with one colour by a one-line shader, copied
// (no blending, no texture read): on Mesa's llvmpipe Ebiten's Fill of a
// 1280×800 screen took about 10 ms of CPU a frame, this about 4. Where the
// shader does not compile it falls back to Fill.
type backdrop struct {
	sh    *ebiten.Shader
	tried bool
}

const solidKage = `//kage:unit pixels

package main

func Fragment(dstPos vec4, srcPos vec2, color vec4) vec4 {
	return color
}
`

// fillAround fills dst with c but for the holes (empty ones count for
// nothing): the rows above, between and below them in bands, each band
// left and right of the holes it crosses.
func (b *backdrop) fillAround(dst *ebiten.Image, c color.Color, holes []image.Rectangle, clip clipFunc) {
	for _, r := range around(dst.Bounds(), holes) {
		b.fill(dst, c, r, clip)
	}
}

// around returns rectangles that tile r less the holes.
func around(r image.Rectangle, holes []image.Rectangle) []image.Rectangle {
	var hs []image.Rectangle
	ys := []int{r.Min.Y, r.Max.Y}
	for _, h := range holes {
		if h = h.Intersect(r); !h.Empty() {
			hs = append(hs, h)
			ys = append(ys, h.Min.Y, h.Max.Y)
		}
	}
	slices.Sort(ys)
	ys = slices.Compact(ys)
	var out []image.Rectangle
	for i := 0; i+1 < len(ys); i++ {
		y0, y1 := ys[i], ys[i+1]
		var xs [][2]int // the holes' spans across this band, by x
		for _, h := range hs {
			if h.Min.Y <= y0 && h.Max.Y >= y1 {
				xs = append(xs, [2]int{h.Min.X, h.Max.X})
			}
		}
		slices.SortFunc(xs, func(p, q [2]int) int { return p[0] - q[0] })
		x := r.Min.X
		for _, s := range xs {
			if s[0] > x {
				out = append(out, image.Rect(x, y0, s[0], y1))
			}
			x = max(x, s[1])
		}
		if x < r.Max.X {
			out = append(out, image.Rect(x, y0, r.Max.X, y1))
		}
	}
	return out
}

// fill fills the rectangle r of dst with c.
func (b *backdrop) fill(dst *ebiten.Image, c color.Color, r image.Rectangle, clip clipFunc) {
	if !b.tried {
		b.tried = true
		b.sh, _ = ebiten.NewShader([]byte(solidKage))
	}
	if b.sh == nil {
		clip(dst, r).Fill(c)
		return
	}
	op := &ebiten.DrawRectShaderOptions{Blend: ebiten.BlendCopy}
	op.ColorScale.ScaleWithColor(c)
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	dst.DrawRectShader(r.Dx(), r.Dy(), b.sh, op)
}
