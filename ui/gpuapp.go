package ui

import (
	"fmt"
	"image"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/app/amplifier"
	"orogen/app/safefile"
	"orogen/sim/engine"
	"orogen/viewer"
)

// setViews sets how the views are drawn: "shader" (by the GPU), "cpu"
// (viewer's software pictures) or anything else, auto: the shaders, unless
// their pictures prove to take more than slowShaderPicture each, which
// happens on a software OpenGL (Mesa's llvmpipe draws them on the same CPU
// cores, several times slower than viewer's own code); then the CPU. The View menu, the views script command and OROGEN_VIEWS set
// it.
func (a *App) setViews(how string) {
	a.viewsCPU, a.viewsAuto = how == "cpu", how != "cpu" && how != "shader"
	a.gpace.pictures, a.gpace.extra, a.gpace.decided, a.gpace.samples = 0, 0, false, 0
	a.terrainOf = terrainKey{} // the next 3D picture is drawn at once
}

// slowShaderPicture is the time a shaders' picture may take before auto
// turns to the CPU: the least of the pictures from the third (the first
// two compile the programs) to the autoAfter-th, each timed to its end (a
// pixel read back waits for the GPU; only these pictures wait).
const (
	slowShaderPicture = 40 * time.Millisecond
	autoAfter         = 6
)

// calibrating reports whether auto still times the shaders' pictures.
func (a *App) calibrating() bool {
	return a.viewsAuto && !a.viewsCPU && !a.gpace.decided
}

// timePicture, while auto calibrates, waits for the picture img just drawn
// (started at t0) and records how long it took.
func (a *App) timePicture(img *ebiten.Image, t0 time.Time) {
	if !a.calibrating() || img == nil {
		return
	}
	var px [4]byte
	img.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image).ReadPixels(px[:])
	a.gpace.sample(time.Since(t0))
}

// sample records one timed picture.
func (p *gpuPace) sample(d time.Duration) {
	p.samples++
	if s := d.Seconds(); p.samples == 3 || (p.samples > 3 && s < p.least) {
		p.least = s
	}
}

// autoViews turns the views to the CPU, in auto, once the shaders proved
// slow; it decides once.
func (a *App) autoViews() {
	if !a.calibrating() || a.gpace.samples < autoAfter {
		return
	}
	a.gpace.decided = true
	if d := time.Duration(a.gpace.least * float64(time.Second)); d > slowShaderPicture {
		a.viewsCPU, a.gpace.extra = true, 0
		a.pic2D, a.pic3D = picture2D{}, picture3D{}
		a.log.add(levelInfo, "the graphics driver takes %v a picture (a software OpenGL?): the views are drawn on the CPU (View → Draw the views)", d.Round(time.Millisecond))
	}
}

// shaders reports whether the shaders draw the views of s.
func (a *App) shaders(s *engine.Snapshot) bool {
	return !a.viewsCPU && a.gv != nil && a.gv.fits(s)
}

// shaderFailed turns the shaders off for the session after an error: the
// views go back to the CPU.
func (a *App) shaderFailed(err error) {
	a.log.add(levelWarn, "drawing the views with shaders: %v (drawing them on the CPU)", err)
	a.gv.err = err
	a.pic2D, a.pic3D = picture2D{}, picture3D{}
}

// gpuPace spaces the shaders' redraws for a new snapshot alone by what
// they cost: on a card a redraw takes a millisecond and every snapshot
// shows; on Mesa's llvmpipe (the CPU) a 1024² relief takes 100-200 ms
// under load and the streaming engine would leave no frame for anything
// else. Each frame's length is measured (the swap waits for the GPU); the
// frames that drew a picture, or a band of one, cost the extra over the
// others; a picture costs the sum of its frames' extras; and a new
// snapshot alone is drawn once its interval since the last has passed.
type gpuPace struct {
	last     time.Time // the start of the last frame
	drew     bool      // the last frame drew a picture or a part of one
	finished bool      // the last frame finished a picture
	plain    float64   // a frame without a picture, s (moving average)
	extra    float64   // what a drawing frame adds to its length, s (moving average)
	cur      float64   // the extras of the picture being drawn so far, s
	work     float64   // what a whole picture adds, s (moving average)
	drawnAt  time.Time // when the 2D relief was last drawn for a new snapshot
	pictures int       // frames that drew a picture since the views were set
	// samples: the pictures auto timed; least: the least time of those
	// after the first two (they compile the programs), s; decided: auto
	// has chosen.
	samples int
	least   float64
	decided bool
	most    int // the most bands: 4 on a software rasterizer, 16 on a card
}

// frame is called at the start of every Update.
func (p *gpuPace) frame(now time.Time) {
	if !p.last.IsZero() {
		dt := now.Sub(p.last).Seconds()
		if p.drew {
			// Not clipped at zero: a frame's length jitters either way,
			// and clipping the shorter ones would count jitter as work
			// (on a card, whose pictures cost nothing, the redraws for a
			// new snapshot came less often than every frame).
			p.pictures++
			x := dt - p.plain
			p.extra += 0.3 * (x - p.extra)
			p.cur += x
		} else {
			p.plain += 0.1 * (dt - p.plain)
		}
		if p.finished {
			// The average, not each frame's extra, is kept at zero or
			// above: a picture costs nothing on a card, never less.
			p.work = max(p.work+0.3*(p.cur-p.work), 0)
			p.cur = 0
		}
	}
	p.last, p.drew, p.finished = now, false, false
}

// interval is the least time between two redraws for a new snapshot
// alone: the redraws take at most about a third of the time.
func (p *gpuPace) interval() time.Duration {
	return min(time.Duration(max(2*p.work, 0)*float64(time.Second)), 2*time.Second)
}

// bands returns how many frames' bands a redraw for a new snapshot alone
// is split into: a band adds about a plain frame, in at most 4 bands (on
// llvmpipe each band costs about 2.5 ms of CPU of its own: a 1024² relief
// took 65 ms whole, 75 in 4 bands, 100-115 in 16); one, the whole
// picture in a frame, on a card, where a picture costs less than a
// frame. Before any picture was measured, 4. On a card (gpuPace.most 16)
// a 4096² 3D picture is about ten plain frames of work (its surface pass,
// 64 shadow steps a cell, and 1.3 M mesh indices): in 4 bands its frames
// took 31-35 ms on an H200.
func (p *gpuPace) bands() int {
	if p.work <= 0 || p.plain <= 0 {
		return 4
	}
	return min(max(int(math.Ceil(p.work/p.plain)), 1), max(p.most, 4))
}

// drawRelief draws the 2D relief of snap by the shaders into a.mapGPU: at
// once when the options or the uplift changed; for a new snapshot alone
// as gpuPace allows, over several frames (reliefJob: a band each), the
// last picture showing until the new one is whole. A frame without a new
// snapshot, options or uplift draws nothing: the picture is blitted.
func (a *App) drawRelief(snap *engine.Snapshot, o viewer.Options, upToo bool) {
	var up []float32
	if upToo {
		up = a.docUplift()
	}
	if snap.Arcs != nil {
		o.Rivers = false // as reliefImage keys it
	}
	step := reliefStep(a.view.Zoom)
	if err := a.gv.warm(snap, o, a.v3.opts, step); err != nil {
		a.shaderFailed(err)
		return
	}
	k := a.gv.reliefK
	var o3 *viewer.Options3D
	if a.mode != mode2D && a.v3.opts.UpliftAlpha > 0 {
		o3 = &a.v3.opts
	}
	onlySnap := a.mapGPU != nil && k.snap != nil && k.snap != snap && k.snap.W == snap.W && k.snap.H == snap.H && k.opts == o && k.uplift == firstOf(up) && k.step == step
	// A job drawing with these options goes on, whatever snapshot it
	// draws: a newer one gets the next job.
	if j := a.gv.job; j != nil && j.k.opts == o && j.k.uplift == firstOf(up) && j.k.step == step {
		drew, done, err := a.gv.advanceRelief()
		if err != nil {
			a.shaderFailed(err)
			return
		}
		a.gpace.drew = a.gpace.drew || drew
		if done {
			a.gpace.finished, a.gpace.drawnAt = true, time.Now()
		}
		a.mapGPU, a.mapStep = a.gv.relief, step
		return
	}
	if onlySnap && time.Since(a.gpace.drawnAt) < a.gpace.interval() {
		return // only the snapshot is new, and too soon
	}
	// A snapshot whose fields are not up yet is drawn over frames even
	// when the options changed too (a first picture): at 4096² its
	// fields alone are 192 MB, a quarter of a second in one frame.
	if (onlySnap || !a.gv.f2.loaded(snap)) && !a.calibrating() {
		a.gv.startRelief(snap, up, o, o3, step, a.gpace.bands())
		a.gpace.drew = true // the fields' upload
		return
	}
	draws, t0 := a.gv.draws, time.Now()
	img, err := a.gv.reliefImage(snap, up, o, o3, step)
	if err != nil {
		a.shaderFailed(err)
		return
	}
	if a.gv.draws != draws {
		a.timePicture(img, t0)
		a.gpace.drew, a.gpace.finished = true, true
		if k.snap != snap {
			a.gpace.drawnAt = time.Now()
		}
	}
	a.mapGPU, a.mapStep = img, step
}

// reliefStep returns how many cells per side a pixel of the shaders' 2D
// relief spans at a zoom (screen pixels per cell): 1 down to half a pixel
// a cell, then 2, 4, ... so the picture has no more pixels than about
// the screen shows (a mip level of the relief; Ebiten's own mipmaps
// smooth the rest).
func reliefStep(zoom float64) int {
	st := 1
	for st < 64 && zoom*float64(2*st) <= 1 {
		st *= 2
	}
	return st
}

// drawAmpRelief draws the Amplify preview's fine window by the shaders
// (a view of their own: the fine fields are another snapshot's).
func (a *App) drawAmpRelief(p *amplifier.Preview, o viewer.Options) {
	if a.gvAmp == nil {
		a.gvAmp = newGPUView()
	}
	img, err := a.gvAmp.reliefImage(p.Fine, nil, o, nil, 1)
	if err != nil {
		a.shaderFailed(err)
		return
	}
	a.amp.gpu, a.amp.gpuOf, a.amp.shown = img, p, p
}

// docUplift returns the document's uplift as last copied for the views
// (strokes the engine has not seen yet included).
func (a *App) docUplift() []float32 {
	if v := a.s.Doc().UpliftVersion(); a.upCopy == nil || a.upCopyVer != v {
		a.upCopy, a.upCopyVer = append([]float32(nil), a.s.Doc().Uplift().Data...), v
	}
	return a.upCopy
}

// shaderMesh returns o with its mesh capped for a canvas of w×h pixels
// drawn by the shaders: about a vertex per 4 pixels of the canvas (no
// fewer than 64 per side). The shaders colour every pixel from the
// surface picture (a pixel a cell), so the mesh only gives the shape, and
// on Mesa's llvmpipe a triangle costs its setup on one thread: at 1024²
// in a 900×650 canvas a 512² mesh drew in 163 ms of CPU, the 382² this
// gives in 105 ms (its projection 51 ms against 57).
func shaderMesh(o viewer.Options3D, w, h int) viewer.Options3D {
	side := max(int(math.Sqrt(float64(w)*float64(h)/4)), 64)
	o.MaxMesh = min(o.MaxMesh, side)
	return o
}

// drawTerrain draws a projected draw list of s's mesh into the 3D canvas,
// coloured by the shaders' surface of s: at once, or, for a new snapshot
// alone (the camera, canvas and options of the picture shown), over
// frames (terrainJob, advanced by advanceTerrain). It reports whether a
// job keeps d (the caller recycles it otherwise).
func (a *App) drawTerrain(d *viewer.DrawList, s *engine.Snapshot) (kept bool) {
	a.dropTerrainJob()
	if d.W < 2 || d.H < 2 {
		return false
	}
	var up []float32
	if a.v3.opts.UpliftAlpha > 0 && s == a.s.Snapshot() {
		up = a.docUplift()
	}
	v := &a.v3
	if err := a.gv.warm(s, a.vopts, a.v3.opts, reliefStep(a.view.Zoom)); err != nil {
		a.shaderFailed(err)
		return false
	}
	last := a.terrainOf
	a.terrainOf = terrainKey{snap: s, cam: d.Camera, w: d.W, h: d.H, opts: a.v3.opts, uplift: firstOf(up)}
	onlySnap := v.shown && v.canvas != nil && last.snap != nil && last.snap != s && last.snap.W == s.W && last.snap.H == s.H &&
		last.cam == d.Camera && last.w == d.W && last.h == d.H && last.opts == a.v3.opts && last.uplift == firstOf(up)
	// As for the 2D relief: a snapshot whose fields are not up yet is
	// drawn over frames, also as a first picture.
	if (onlySnap || !a.gv.fieldsOf(s).loaded(s)) && !a.calibrating() {
		if err := a.gv.startTerrain(d, s, up, a.v3.opts, a.vopts, a.gpace.bands()); err != nil {
			a.shaderFailed(err)
			return false
		}
		return true
	}
	t0 := time.Now()
	surf, err := a.gv.surface3DImage(s, up, a.v3.opts, a.vopts)
	if err != nil {
		a.shaderFailed(err)
		return false
	}
	if v.canvas == nil || v.canvas.Bounds().Dx() != d.W || v.canvas.Bounds().Dy() != d.H {
		if v.canvas != nil {
			v.canvas.Deallocate()
		}
		v.canvas = ebiten.NewImage(d.W, d.H)
	}
	a.gv.drawTerrain(v.canvas, d, surf, s)
	a.timePicture(v.canvas, t0)
	a.gpace.drew, a.gpace.finished = true, true
	v.shown = true
	return false
}

// terrainKey is what the 3D picture shown (or being drawn) was drawn
// from.
type terrainKey struct {
	snap   *engine.Snapshot
	cam    viewer.Camera
	w, h   int
	opts   viewer.Options3D
	uplift *float32
}

// advanceTerrain draws this frame's part of a 3D picture being drawn over
// frames, into the back canvas, and swaps it in once whole.
func (a *App) advanceTerrain() {
	if a.gv == nil || a.gv.tjob == nil {
		return
	}
	v := &a.v3
	j := a.gv.tjob
	if a.mode == mode2D || !a.shaders(j.s) {
		a.dropTerrainJob()
		return
	}
	v.back = sizedCanvas(v.back, j.d.W, j.d.H)
	d, done, err := a.gv.advanceTerrain(v.back)
	a.gpace.drew = true
	if d != nil {
		a.rend.RecycleList(d)
	}
	if err != nil {
		a.shaderFailed(err)
		return
	}
	if done {
		v.canvas, v.back = v.back, v.canvas
		v.shown = true
		a.gpace.finished = true
	}
}

// dropTerrainJob abandons a 3D picture being drawn over frames (a newer
// list, a new camera or options supersede it).
func (a *App) dropTerrainJob() {
	if a.gv != nil && a.gv.tjob != nil {
		a.rend.RecycleList(a.gv.tjob.d)
		a.gv.tjob = nil
	}
}

// sizedCanvas returns im when it is w×h, else a new image of that size.
func sizedCanvas(im *ebiten.Image, w, h int) *ebiten.Image {
	if im != nil && im.Bounds().Dx() == w && im.Bounds().Dy() == h {
		return im
	}
	if im != nil {
		im.Deallocate()
	}
	return ebiten.NewImage(w, h)
}

// viewPicture writes the picture the view shows, as drawn (read back from
// the GPU: the 2D relief at a pixel a cell in the 2D and split modes, the
// 3D canvas in the 3D mode), to path, and viewer's software picture of the
// same snapshot (viewer.Relief; viewer.Render3D for the same camera and
// size) beside it, with "-software" before the extension: the window test
// compares them.
func (a *App) viewPicture(path string) error {
	snap := a.s.Snapshot()
	var got, want *image.RGBA
	if a.mode != mode3D {
		img := a.mapImg
		if a.shaders(snap) {
			img = a.mapGPU
			if a.mapStep > 1 {
				return fmt.Errorf("view-picture: the map is zoomed out to %d cells a pixel: zoom in to compare it cell for cell", a.mapStep)
			}
		}
		if img == nil {
			return fmt.Errorf("view-picture: the 2D view has no picture yet")
		}
		b := img.Bounds()
		got = image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		img.ReadPixels(got.Pix)
		o := a.vopts
		if snap.Arcs != nil {
			o.Rivers = false
		}
		want = viewer.Relief(nil, snap, o)
	} else {
		if !a.v3.shown || a.v3.canvas == nil {
			return fmt.Errorf("view-picture: the 3D view has no picture yet")
		}
		b := a.v3.canvas.Bounds()
		got = image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		a.v3.canvas.ReadPixels(got.Pix)
		want = viewer.Render3D(image.NewRGBA(got.Rect), snap, a.v3.cam, a.v3.opts)
	}
	for i := 3; i < len(got.Pix); i += 4 {
		got.Pix[i] = 255 // the picture is opaque; the read-back alpha is the blend's
	}
	soft := strings.TrimSuffix(path, filepath.Ext(path)) + "-software" + filepath.Ext(path)
	if err := safefile.WriteBytes(path, encodePNG(got)); err != nil {
		return err
	}
	if err := safefile.WriteBytes(soft, encodePNG(want)); err != nil {
		return err
	}
	a.log.add(levelInfo, "view picture %s and %s (%d×%d)", filepath.Base(path), filepath.Base(soft), got.Rect.Dx(), got.Rect.Dy())
	return nil
}
