package ui

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/hajimehoshi/ebiten/v2"

	"orogen/app/project"
	"orogen/app/safefile"
	"orogen/sim/engine"
	"orogen/viewer"
)

// viewMode is what the Viewport shows.
type viewMode int

const (
	mode2D viewMode = iota
	mode3D
	modeSplit
)

var modeNames = [...]string{"2D", "3D", "Split"}

// view3D is the 3D half of the Viewport: the camera and options, and the
// newest picture of it (made by the renderer goroutine), uploaded into an
// Ebiten image that Draw shows.
type view3D struct {
	cam      viewer.Camera
	opts     viewer.Options3D
	fit      bool           // fit the camera to the next snapshot
	savedCam project.Camera // the project's camera, applied at that fit
	rect     viewport
	canvas   *ebiten.Image
	back     *ebiten.Image // the shaders' next picture, drawn over frames (terrainJob)
	shown    bool          // canvas holds a picture
	gpu      bool          // draw the triangles with Ebiten instead of viewer's fill
	white    *ebiten.Image
	triOpts  ebiten.DrawTrianglesOptions
}

// The GPU path reinterprets viewer's vertices as Ebiten's; the layouts must
// match.
var _ [unsafe.Sizeof(ebiten.Vertex{}) - unsafe.Sizeof(viewer.Vertex3D{})]byte
var _ [unsafe.Sizeof(viewer.Vertex3D{}) - unsafe.Sizeof(ebiten.Vertex{})]byte

// drawList draws a projected mesh into the canvas with Ebiten (GPU path):
// chunk by chunk in order, each with 16-bit indices, the quads back to
// front, which makes the picture right without a depth buffer.
func (v *view3D) drawList(d *viewer.DrawList) {
	if d.W < 2 || d.H < 2 {
		return
	}
	if v.canvas == nil || v.canvas.Bounds().Dx() != d.W || v.canvas.Bounds().Dy() != d.H {
		if v.canvas != nil {
			v.canvas.Deallocate()
		}
		v.canvas = ebiten.NewImage(d.W, d.H)
	}
	if v.white == nil {
		v.white = ebiten.NewImage(1, 1) // vertices sample its centre
		v.white.Fill(color.White)
	}
	v.canvas.Fill(colSky)
	for _, c := range d.Chunks {
		if len(c.Indices) == 0 {
			continue
		}
		vs := unsafe.Slice((*ebiten.Vertex)(unsafe.Pointer(unsafe.SliceData(c.Vertices))), len(c.Vertices))
		v.canvas.DrawTriangles(vs, c.Indices, v.white, &v.triOpts)
	}
	v.shown = true
}

func newView3D() view3D {
	return view3D{opts: viewer.DefaultOptions3D(), fit: true}
}

// fitTo fits the camera to s (the project's saved yaw, pitch and distance
// when there are some).
func (v *view3D) fitTo(s *engine.Snapshot) {
	yaw, pitch := float64(viewer.DefaultYawDeg), float64(viewer.DefaultPitchDeg)
	if v.savedCam.Distance > 0 {
		yaw, pitch = v.savedCam.Yaw, v.savedCam.Pitch
	}
	aspect := 1.0
	if v.rect.w > 1 && v.rect.h > 1 {
		aspect = float64(v.rect.w) / float64(v.rect.h)
	}
	v.cam = viewer.FitCameraAspect(s, v.opts.Exaggeration, yaw, pitch, aspect)
	if d := v.savedCam.Distance; d > 0 {
		v.cam = v.cam.Zoom(v.cam.Distance / (d * float64(max(s.W, s.H)) * s.Cell))
		v.savedCam.Distance = 0
	}
	v.fit = false
}

// upload takes a finished picture into the canvas (Update).
func (v *view3D) upload(img *image.RGBA) {
	b := img.Bounds()
	if v.canvas == nil || v.canvas.Bounds().Dx() != b.Dx() || v.canvas.Bounds().Dy() != b.Dy() {
		if v.canvas != nil {
			v.canvas.Deallocate()
		}
		v.canvas = ebiten.NewImage(b.Dx(), b.Dy())
	}
	v.canvas.WritePixels(img.Pix)
	v.shown = true
}

// covers returns the screen pixels draw covers with the canvas, opaque
// there (the sky fills it), none while there is no picture: the backdrop
// leaves them out.
func (v *view3D) covers() image.Rectangle {
	if !v.shown || v.rect.w < 2 || v.canvas == nil {
		return image.Rectangle{}
	}
	r := image.Rect(int(v.rect.x), int(v.rect.y), int(v.rect.x+v.rect.w), int(v.rect.y+v.rect.h))
	return inside(float64(v.rect.x), float64(v.rect.y), float64(v.rect.x+v.rect.w), float64(v.rect.y+v.rect.h)).Intersect(r)
}

// draw shows the newest 3D picture in its rectangle (Draw), scaled if the
// rectangle changed size since it was made.
func (v *view3D) draw(screen *ebiten.Image, clip clipFunc) {
	if !v.shown || v.rect.w < 2 {
		return
	}
	r := image.Rect(int(v.rect.x), int(v.rect.y), int(v.rect.x+v.rect.w), int(v.rect.y+v.rect.h))
	dst := clip(screen, r)
	b := v.canvas.Bounds()
	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterLinear}
	sx, sy := float64(v.rect.w)/float64(b.Dx()), float64(v.rect.h)/float64(b.Dy())
	if sx == 1 && sy == 1 && v.rect.x == float32(int(v.rect.x)) && v.rect.y == float32(int(v.rect.y)) {
		// Pixel for pixel: the same picture as the linear filter's, at a
		// third less of the software OpenGL's time (one texel a pixel).
		op.Filter = ebiten.FilterNearest
	}
	op.GeoM.Scale(sx, sy)
	op.GeoM.Translate(float64(v.rect.x), float64(v.rect.y))
	dst.DrawImage(v.canvas, op)
}

// input3D handles the mouse and keys over the 3D rectangle: left drag
// orbits, middle or right drag pans, the wheel zooms, the arrow keys orbit,
// Home fits the terrain.
func (a *App) input3D(hovered, active bool) {
	v := &a.v3
	io := imgui.CurrentIO()
	d := io.MouseDelta()
	if active && imgui.IsMouseDown(imgui.MouseButtonLeft) {
		v.cam = v.cam.Orbit(float64(d.X)*0.3, float64(d.Y)*0.3)
	}
	if active && (imgui.IsMouseDown(imgui.MouseButtonRight) || imgui.IsMouseDown(imgui.MouseButtonMiddle)) {
		mp := imgui.MousePos()
		x1, y1 := float64(mp.X-v.rect.x), float64(mp.Y-v.rect.y)
		v.cam = v.cam.PanFrom(x1-float64(d.X), y1-float64(d.Y), x1, y1, float64(v.rect.w), float64(v.rect.h))
	}
	if hovered && io.MouseWheel() != 0 {
		v.cam = v.cam.Zoom(math.Pow(1.15, float64(io.MouseWheel())))
	}
	if !hovered || io.WantTextInput() {
		return
	}
	key := func(k imgui.Key) bool { return imgui.IsKeyDown(k) }
	if key(imgui.KeyLeftArrow) {
		v.cam = v.cam.Orbit(-1.5, 0)
	}
	if key(imgui.KeyRightArrow) {
		v.cam = v.cam.Orbit(1.5, 0)
	}
	if key(imgui.KeyUpArrow) {
		v.cam = v.cam.Orbit(0, 1)
	}
	if key(imgui.KeyDownArrow) {
		v.cam = v.cam.Orbit(0, -1)
	}
	if imgui.IsKeyPressedBool(imgui.KeyHome) {
		v.fitTo(a.s.Snapshot())
	}
}

// options3DPanel edits the 3D view's settings (Overlays panel).
func (a *App) options3DPanel() {
	o := &a.v3.opts
	imgui.SeparatorText("3D view")
	c := int32(o.Color)
	if modes := viewer.ColorModeNames(); imgui.ComboStrarr("colour by", &c, modes, int32(len(modes))) {
		o.Color = viewer.ColorMode(c)
	}
	imgui.Checkbox("cast shadows", &o.Shadows)
	imgui.SameLine()
	imgui.Checkbox("wireframe", &o.Wireframe)
	sliderF64("vertical exaggeration", &o.Exaggeration, 0.1, 20, true, "%.2f", "Heights are multiplied by this in the 3D view.")
	sliderF64("uplift tint", &o.UpliftAlpha, 0, 1, false, "%.2f", "Shows the uplift as a translucent colour over the terrain (0: off).")
	sliderF64("sun elevation (°)", &o.SunElevationDeg, 5, 90, false, "%.0f", "Height of the sun above the horizon in the 3D view.")
	sliderF64("ambient", &o.Ambient, 0, 1, false, "%.2f", "Light that reaches every face, lit or not.")
	imgui.Checkbox("draw with OpenGL", &a.v3.gpu)
	if imgui.IsItemHovered() {
		tooltip("Draw the triangles with Ebiten (the graphics card) instead of Orogen's own fill on a background thread. Faster with a real GPU; much slower with software OpenGL (Mesa llvmpipe).")
	}
	mesh := int32(o.MaxMesh)
	if imgui.SliderInt("mesh (cells per side)", &mesh, 64, 1024) {
		o.MaxMesh = int(mesh)
	}
	o.SunAzimuthDeg = a.vopts.LightAzimuthDeg
	o.Rivers, o.Lakes, o.RiverThresholdM2 = a.vopts.Rivers, a.vopts.Lakes, a.vopts.RiverThresholdM2
	if imgui.Button("Fit camera (Home)") {
		a.v3.fitTo(a.s.Snapshot())
	}
}

// renderViewDialog saves the current view, 2D or 3D, as a picture of a
// chosen size.
// renderView renders the view (2D, or 3D in the 3D and split modes) to a
// PNG at path; name_WxH.png sets the size (default 1920×1080).
func (a *App) renderView(path string) error {
	w, h := 1920, 1080
	var pw, ph int
	if n, _ := fmt.Sscanf(lastField(path), "%dx%d.png", &pw, &ph); n == 2 && pw >= 16 && ph >= 16 && pw <= 8192 && ph <= 8192 {
		w, h = pw, ph
	}
	snap := a.s.Snapshot()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	if a.mode == mode2D {
		viewer.Resize(dst, viewer.Relief(nil, snap, a.vopts))
	} else {
		s3 := snap
		if p := a.ampPreview(); p != nil {
			s3 = p.Fine // the 3D view shows the amplified window
		}
		viewer.Render3D(dst, s3, a.v3.cam, a.v3.opts)
	}
	if err := safefile.WriteBytes(path, encodePNG(dst)); err != nil {
		return err
	}
	a.log.add(levelInfo, "rendered the %s view of step %d to %s (%d×%d)", modeNames[a.mode], snap.Step, path, w, h)
	return nil
}
