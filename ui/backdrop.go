package ui

import (
	"image/color"

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

// fill fills dst with c.
func (b *backdrop) fill(dst *ebiten.Image, c color.Color) {
	if !b.tried {
		b.tried = true
		b.sh, _ = ebiten.NewShader([]byte(solidKage))
	}
	if b.sh == nil {
		dst.Fill(c)
		return
	}
	r := dst.Bounds()
	op := &ebiten.DrawRectShaderOptions{Blend: ebiten.BlendCopy}
	op.ColorScale.ScaleWithColor(c)
	op.GeoM.Translate(float64(r.Min.X), float64(r.Min.Y))
	dst.DrawRectShader(r.Dx(), r.Dy(), b.sh, op)
}
