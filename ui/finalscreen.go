package ui

import (
	"image"
	"math"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
)

// finalScreen draws a frame straight into the window's framebuffer
// (Ebitengine's final screen) rather than into Ebitengine's offscreen
// screen, which Ebitengine then copies into the window: on Mesa's
// llvmpipe that copy, a textured window-sized quad blended over the
// just-cleared framebuffer, was 20-34 ms of CPU a frame at 1600×1000, a
// third of a paused 2D view's frame, more than the map, ImGui's panels
// and the backdrop together. The pixels are the same either way, but
// where a map cell's boundary falls on a pixel's centre, which either
// path may round to either cell (TestWindowRest compares the window with
// a screenshot).
//
// A frame that takes a screenshot is drawn into the offscreen screen,
// which the screenshot reads back, and copied (without blending: the
// framebuffer was just cleared).
//
// Ebitengine (v2.8) flips its projection for the OpenGL framebuffer of
// the window but not the scissor rectangle of a sub-image of it: a
// sub-image of the final screen clips to its rectangle mirrored top to
// bottom. clip mirrors the rectangle it asks for, so the scissor lands
// where the drawing is. Only with OpenGL (Linux, where the copy costs):
// other graphics libraries (DirectX, Metal) keep the copy.
type finalScreen struct {
	able   bool          // the direct path is on (newApp; Draw's first frame turns it off without OpenGL)
	asked  bool          // Draw has asked which graphics library draws
	direct bool          // the last drawn frame went straight into the window
	target *ebiten.Image // the final screen while a frame is drawn into it
	dot    *ebiten.Image
}

// newFinalScreen sets the direct path on where Ebitengine draws with
// OpenGL, unless OROGEN_FINAL_COPY=1 asks for Ebitengine's copy (the A/B
// figures of docs/GPU.md).
func newFinalScreen() finalScreen {
	return finalScreen{able: os.Getenv("OROGEN_FINAL_COPY") != "1"}
}

// openGL reports whether Ebitengine draws with OpenGL (known only once
// the game runs: Draw asks).
func openGL() bool {
	var d ebiten.DebugInfo
	ebiten.ReadDebugInfo(&d)
	return d.GraphicsLibrary == ebiten.GraphicsLibraryOpenGL
}

// use reports whether this frame may go straight into the window.
func (f *finalScreen) use() bool {
	if !f.asked {
		f.asked = true
		f.able = f.able && openGL()
	}
	return f.able
}

// mark changes one pixel of Ebitengine's offscreen screen: Ebitengine
// presents a frame only when its offscreen screen was drawn into.
func (f *finalScreen) mark(off *ebiten.Image) {
	if f.dot == nil {
		f.dot = ebiten.NewImage(1, 1)
	}
	off.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image).DrawImage(f.dot, &ebiten.DrawImageOptions{Blend: ebiten.BlendCopy})
}

// clipFunc returns dst clipped to r, in dst's coordinates.
type clipFunc func(dst *ebiten.Image, r image.Rectangle) *ebiten.Image

// clip returns dst.SubImage(r); on the final screen, r mirrored top to
// bottom (see finalScreen).
func (f *finalScreen) clip(dst *ebiten.Image, r image.Rectangle) *ebiten.Image {
	if f.target != nil && dst == f.target {
		h := dst.Bounds().Dy()
		r = image.Rect(r.Min.X, h-r.Max.Y, r.Max.X, h-r.Min.Y)
	}
	return dst.SubImage(r).(*ebiten.Image)
}

// DrawFinalScreen draws the frame into the window (ebiten.FinalScreenDrawer):
// the whole frame when Draw left it to it, else the offscreen screen
// copied. A frame that drew nothing new (pace.go) is drawn again as the
// last was: the framebuffer is cleared before every DrawFinalScreen.
func (a *App) DrawFinalScreen(screen ebiten.FinalScreen, off *ebiten.Image, geoM ebiten.GeoM) {
	if a.fin.direct {
		if im, ok := screen.(*ebiten.Image); ok && identity(geoM) && im.Bounds() == off.Bounds() {
			a.fin.target = im
			a.drawFrame(im)
			a.fin.target = nil
			return
		}
		// The offscreen screen scaled into the window (while it is being
		// resized, or on a monitor of another scale), or not an image:
		// this frame is drawn into the offscreen screen and copied.
		a.fin.direct = false
		a.drawFrame(off)
	}
	op := &ebiten.DrawImageOptions{GeoM: geoM, Blend: ebiten.BlendCopy}
	if k := geoM.Element(0, 0); k != math.Floor(k) {
		// A screen scaled by a fraction into the window (it moved to a
		// monitor of another scale): smoothed, as Ebitengine's own copy
		// smooths it.
		op.Filter = ebiten.FilterLinear
	}
	screen.DrawImage(off, op)
}

// identity reports whether m maps every point to itself.
func identity(m ebiten.GeoM) bool {
	return m.Element(0, 0) == 1 && m.Element(1, 1) == 1 && m.Element(0, 1) == 0 && m.Element(1, 0) == 0 &&
		m.Element(0, 2) == 0 && m.Element(1, 2) == 0
}
