package ui

import (
	"image"
	"math"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/hajimehoshi/ebiten/v2"
)

// guiRenderer draws ImGui's draw data with Ebiten, clipping each command
// by drawing into a sub-image of the screen the size of its clip
// rectangle. The backend's own renderer clips through a full-screen mask
// image that it clears and composites for every clipped command, which
// under Mesa's software rasterizer cost 80 ms a frame (10 fps with the
// engine paused); sub-images cost nothing extra.
type guiRenderer struct {
	cache *guiTextures
	verts []ebiten.Vertex // the command list's vertices, UV in [0, 1]
	draw  []ebiten.Vertex // the same with UV in the texture's pixels
	idx   []uint16
	opt   ebiten.DrawTrianglesOptions
}

func newGUIRenderer() *guiRenderer {
	return &guiRenderer{cache: newGUITextures(), opt: ebiten.DrawTrianglesOptions{Filter: ebiten.FilterNearest}}
}

// imDrawVert is ImGui's vertex with 32-bit floats (VertexBufferLayout is
// checked against it).
type imDrawVert struct {
	X, Y, U, V float32
	Col        uint32
}

// render ends the ImGui frame and draws it on target.
func (r *guiRenderer) render(target *ebiten.Image, clipTo clipFunc) {
	imgui.Render()
	dd := imgui.CurrentDrawData()
	if !dd.Valid() {
		return
	}
	for _, tex := range dd.Textures().Slice() {
		r.cache.Update(tex)
	}
	vsize, offPos, offUV, offCol := imgui.VertexBufferLayout()
	if vsize != int(unsafe.Sizeof(imDrawVert{})) || offPos != 0 || offUV != 8 || offCol != 16 {
		panic("ui: unexpected ImGui vertex layout")
	}
	isize := imgui.IndexBufferLayout()
	if isize != 2 {
		panic("ui: unexpected ImGui index size")
	}
	bounds := target.Bounds()
	for _, cl := range dd.CommandLists() {
		vb, vlen := cl.GetVertexBuffer()
		ib, ilen := cl.GetIndexBuffer()
		nv, ni := vlen/vsize, ilen/isize
		if nv == 0 || ni == 0 {
			continue
		}
		raw := unsafe.Slice((*imDrawVert)(vb), nv)
		r.verts = r.verts[:0]
		for _, v := range raw {
			r.verts = append(r.verts, ebiten.Vertex{
				DstX: v.X, DstY: v.Y, SrcX: v.U, SrcY: v.V,
				ColorR: float32(v.Col&0xff) / 255, ColorG: float32(v.Col>>8&0xff) / 255,
				ColorB: float32(v.Col>>16&0xff) / 255, ColorA: float32(v.Col>>24) / 255,
			})
		}
		r.idx = append(r.idx[:0], unsafe.Slice((*uint16)(ib), ni)...)
		var lastTex *ebiten.Image
		for _, cmd := range cl.Commands() {
			if cmd.HasUserCallback() {
				cmd.CallUserCallback(cl)
				continue
			}
			off, n := int(cmd.IdxOffset()), int(cmd.ElemCount())
			if n == 0 || off+n > len(r.idx) {
				continue
			}
			c := cmd.ClipRect()
			clip := image.Rect(int(math.Floor(float64(c.X))), int(math.Floor(float64(c.Y))),
				int(math.Ceil(float64(c.Z))), int(math.Ceil(float64(c.W)))).Intersect(bounds)
			if clip.Empty() {
				continue
			}
			ref := cmd.TexRef()
			tex := r.cache.Get(ref.TexID())
			if tex == nil {
				continue
			}
			if tex != lastTex {
				// UVs are fractions of the texture; Ebiten wants its pixels.
				tb := tex.Bounds()
				w, h := float32(tb.Dx()), float32(tb.Dy())
				r.draw = append(r.draw[:0], r.verts...)
				for i := range r.draw {
					r.draw[i].SrcX = float32(tb.Min.X) + r.verts[i].SrcX*w
					r.draw[i].SrcY = float32(tb.Min.Y) + r.verts[i].SrcY*h
				}
				lastTex = tex
			}
			dst := target
			if clip != bounds {
				dst = clipTo(target, clip)
			}
			// Indices are 16-bit and count from the command's VtxOffset:
			// a list of more than 65 536 vertices is split into commands
			// that each start further in (BackendFlagsRendererHasVtxOffset,
			// set by newApp).
			vtx := int(cmd.VtxOffset())
			if vtx >= len(r.draw) {
				continue
			}
			dst.DrawTriangles(r.draw[vtx:], r.idx[off:off+n], tex, &r.opt)
		}
	}
}
