package ui

import (
	"image"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/hajimehoshi/ebiten/v2"
)

// guiTextures holds ImGui's textures (its font atlas, which ImGui 1.92
// grows and patches as it meets new glyphs and sizes, and the app's own
// thumbnails) as Ebiten images, following the texture protocol of
// ImGui's renderer backends (BackendFlagsRendererHasTextures): a texture
// that wants creating is made and uploaded once, one that wants updates
// gets only the rectangle bounding its changes, and each is marked done (status OK),
// so ImGui stops asking. The cimgui-go Ebiten backend's cache made a new
// image of the whole atlas for every update and never marked it done: a
// new 512×128 image every frame, piling up in Ebitengine's atlas until
// the atlas grew, which stalled a frame for up to half a second on an
// NVIDIA H200 (docs/GPU.md, "The views' longest frames").
type guiTextures struct {
	images map[imgui.TextureID]*ebiten.Image
	next   imgui.TextureID // the next id for a texture of ImGui's
	buf    []byte          // premultiplied pixels of one rectangle
	// made and uploads count the images made and the uploads (the
	// script report's gui_textures_made and gui_texture_uploads).
	made, uploads int
}

func newGUITextures() *guiTextures {
	return &guiTextures{images: map[imgui.TextureID]*ebiten.Image{}, next: 2}
}

// Get returns the image of id; nil if there is none.
func (c *guiTextures) Get(id imgui.TextureID) *ebiten.Image { return c.images[id] }

// Set registers an image the app made under id (ids of the app's own
// stay far above the ones ImGui's textures are given).
func (c *guiTextures) Set(id imgui.TextureID, img *ebiten.Image) { c.images[id] = img }

// Update acts on what tex asks for: its creation, its changed
// rectangles, or its destruction once no frame in flight uses it.
func (c *guiTextures) Update(tex imgui.TextureData) {
	switch tex.Status() {
	case imgui.TextureStatusWantCreate:
		w, h := int(tex.Width()), int(tex.Height())
		img := ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
		id := c.next
		c.next++
		c.made++
		c.images[id] = img
		c.upload(tex, img, image.Rect(0, 0, w, h))
		tex.SetTexID(id)
		tex.SetStatus(imgui.TextureStatusOK)
	case imgui.TextureStatusWantUpdates:
		img := c.images[tex.TexID()]
		if img == nil || img.Bounds().Dx() != int(tex.Width()) || img.Bounds().Dy() != int(tex.Height()) {
			// Not ours or resized: make it anew.
			if img != nil {
				img.Deallocate()
				delete(c.images, tex.TexID())
			}
			tex.SetStatus(imgui.TextureStatusWantCreate)
			c.Update(tex)
			return
		}
		// UpdateRect bounds every changed rectangle (cimgui-go's
		// Updates() does not index its C array: one upload of the bound).
		r := tex.UpdateRect()
		c.upload(tex, img, texRect(&r))
		tex.SetStatus(imgui.TextureStatusOK)
	case imgui.TextureStatusWantDestroy:
		if tex.UnusedFrames() == 0 {
			return // a frame may still draw with it
		}
		if img := c.images[tex.TexID()]; img != nil {
			img.Deallocate()
			delete(c.images, tex.TexID())
		}
		tex.SetTexID(0)
		tex.SetStatus(imgui.TextureStatusDestroyed)
	}
}

// texRect converts ImGui's rectangle.
func texRect(r *imgui.TextureRect) image.Rectangle {
	x, y := int(r.X()), int(r.Y())
	return image.Rect(x, y, x+int(r.W()), y+int(r.H()))
}

// upload writes rectangle r of tex's pixels into img, premultiplying the
// alpha (ImGui's pixels are straight alpha, Ebiten's premultiplied; an
// Alpha8 texture is white with that alpha).
func (c *guiTextures) upload(tex imgui.TextureData, img *ebiten.Image, r image.Rectangle) {
	r = r.Intersect(img.Bounds())
	if r.Empty() {
		return
	}
	bpp, pitch := int(tex.BytesPerPixel()), int(tex.Pitch())
	base := tex.Pixels()
	// ImGui owns the pixels; read them without keeping a pointer.
	src := unsafe.Slice((*byte)(*(*unsafe.Pointer)(unsafe.Pointer(&base))), pitch*int(tex.Height()))
	c.buf = c.buf[:0]
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := src[y*pitch+r.Min.X*bpp : y*pitch+r.Max.X*bpp]
		for x := 0; x < r.Dx(); x++ {
			if bpp == 1 {
				a := row[x]
				c.buf = append(c.buf, a, a, a, a)
				continue
			}
			p := row[4*x : 4*x+4]
			a := uint16(p[3])
			c.buf = append(c.buf,
				uint8((uint16(p[0])*a+127)/255), uint8((uint16(p[1])*a+127)/255),
				uint8((uint16(p[2])*a+127)/255), p[3])
		}
	}
	img.SubImage(r).(*ebiten.Image).WritePixels(c.buf)
	c.uploads++
}
