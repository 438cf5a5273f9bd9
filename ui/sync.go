package ui

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/app/engines"
	"orogen/app/safefile"
	"orogen/app/worker"
	"orogen/sim/engine"
	"orogen/viewer"
)

var (
	colBackground = color.RGBA{0x1e, 0x1f, 0x22, 0xff}
	colSky        = color.RGBA{0xa4, 0xb4, 0xc4, 0xff} // behind the 3D view (GPU path)
)

// step3DEvery bounds how often the streaming engine alone redraws the 3D
// view.
const step3DEvery = 125 * time.Millisecond

// lastField returns the part of a path's file name after its last '_'.
func lastField(path string) string {
	b := filepath.Base(path)
	if i := strings.LastIndexByte(b, '_'); i >= 0 {
		return b[i+1:]
	}
	return b
}

func encodePNG(img image.Image) []byte {
	var buf bytes.Buffer
	_ = png.Encode(&buf, img) // writing to memory cannot fail
	return buf.Bytes()
}

// syncEngine hands the document's changes to the worker: the uplift when
// it changed (a copy the worker then owns) and the engine parameters when
// they changed. Both apply at the engine's next step.
func (a *App) syncEngine() {
	if v := a.doc.UpliftVersion(); v != a.sentUplift {
		a.sentUplift = v
		a.wk.Send(worker.SetUplift{U: append([]float32(nil), a.doc.Uplift().Data...)})
	}
	if c := a.doc.Changed(); c != a.sentChanged {
		a.sentChanged = c
		if sc := a.doc.Scene(); sc.Engine != a.sentEngine || sc.Samples != a.sentSamples {
			// A new engine kind or node count: the terrain restarts.
			a.resetTerrain()
		}
		p, err := engines.Params(a.doc.Scene())
		if err != nil {
			a.log.add(levelError, "parameters not sent to the engine: %v", err)
		} else if p != a.sentParams {
			a.sentParams = p
			a.wk.Send(worker.SetParams{P: p})
		}
	}
	f := a.wk.Frame()
	if f.Err != nil && f.Err != a.lastErr {
		a.log.add(levelError, "simulation stopped: %v (Reset starts it again)", f.Err)
	}
	a.lastErr = f.Err
	if f.CmdErr != nil && f.CmdErr != a.lastCmdErr {
		a.log.add(levelError, "engine refused a change: %v", f.CmdErr)
	}
	a.lastCmdErr = f.CmdErr
	if a.lag.waiting && f.Snap.Param == a.lag.want && f.Snap.Step > f.ParamsStep {
		a.lag.waiting = false
		a.lag.steps = append(a.lag.steps, f.Snap.Step-f.ParamsStep)
	}
}

// sliderLag measures how many engine steps a slider change takes to show:
// the steps run on the new parameters by the first frame whose terrain
// they shaped.
type sliderLag struct {
	waiting bool
	want    engine.Params
	steps   []int
}

// syncPicture asks the renderer for a new picture when the snapshot or the
// view options changed, and uploads a finished one.
func (a *App) syncPicture() {
	snap := a.viewSnap()
	opts := a.vopts
	painting := a.painter.active
	if painting && opts.Overlay == viewer.OverlayNone {
		opts.Overlay = viewer.OverlayUplift
		opts.OverlayAlpha = max(opts.OverlayAlpha, 0.5)
	}
	upVer := a.doc.UpliftVersion()
	want2D, want3D := a.mode != mode3D, a.mode != mode2D
	o3 := a.v3.opts
	if want3D && a.v3.fit && a.v3.rect.w > 1 {
		a.v3.fitTo(snap)
	}
	w3, h3 := int(a.v3.rect.w), int(a.v3.rect.h)
	upOverlay := opts.Overlay == viewer.OverlayUplift || want3D && o3.UpliftAlpha > 0
	// A new snapshot alone redraws the 3D view at most every step3DEvery
	// (the 2D picture every time): the 3D picture is the costly one, and
	// the UI and the engine share its cores. Camera moves redraw at once.
	view3DChanged := want3D && (a.v3.cam != a.lastCam || w3 != a.lastW3 || h3 != a.lastH3 || o3 != a.lastOpts3 ||
		want3D != a.lastWant3D || a.v3.gpu != a.lastGPU)
	snap3D := want3D && snap != a.last3DSnap && time.Since(a.last3DAt) >= step3DEvery
	if snap != a.lastSnap || opts != a.lastOpts || view3DChanged || snap3D || want3D != a.lastWant3D || upOverlay && upVer != a.lastUpVer {
		pic3D := view3DChanged || snap3D || upOverlay && upVer != a.lastUpVer && want3D
		j := &renderJob{snap: snap, opts: opts, pic: want2D, pic3D: pic3D, opts3: o3, cam: a.v3.cam, w3: w3, h3: h3, gpu: a.v3.gpu}
		if pic3D {
			a.last3DSnap, a.last3DAt = snap, time.Now()
		}
		if upOverlay {
			// The document's uplift, strokes the engine has not seen yet
			// included.
			if upVer != a.lastUpVer || a.upCopy == nil {
				a.upCopy = append([]float32(nil), a.doc.Uplift().Data...)
			}
			j.uplift = a.upCopy
		}
		a.rend.submit(j)
		a.lastSnap, a.lastOpts, a.lastUpVer, a.lastOpts3, a.lastWant3D = snap, opts, upVer, o3, want3D
		a.lastCam, a.lastW3, a.lastH3, a.lastGPU = a.v3.cam, w3, h3, a.v3.gpu
	}
	if d, ok := a.rend.pollList(); ok {
		a.v3.drawList(d)
		a.rend.recycleList(d)
	}
	if img, _, ok := a.rend.poll3D(); ok {
		a.v3.upload(img)
		a.rend.recycle(img)
	}
	img, ok := a.rend.poll()
	if !ok {
		return
	}
	b := img.Bounds()
	if a.mapImg == nil || a.mapW != b.Dx() || a.mapH != b.Dy() {
		if a.mapImg != nil {
			a.mapImg.Deallocate()
		}
		a.mapImg = ebiten.NewImage(b.Dx(), b.Dy())
		a.mapW, a.mapH = b.Dx(), b.Dy()
	}
	a.mapImg.WritePixels(img.Pix)
	a.rend.recycle(img)
}

// resetTerrain restarts the engine from the flat start with the current
// document.
func (a *App) resetTerrain() {
	a.endDetail(false)
	sc := a.doc.Scene()
	spec, err := engines.FromScene(sc, copyField(a.doc.Uplift()), nil)
	if err != nil {
		a.showError("Reset", err)
		return
	}
	a.wk.Send(worker.Reset{Spec: spec})
	a.sentEngine, a.sentSamples, a.sentParams = sc.Engine, sc.Samples, spec.Params
	a.log.add(levelInfo, "terrain reset to the flat start (%s)", spec.Label())
}

// saveScreenshot writes the screen as a PNG (from Draw, after ImGui drew).
func (a *App) saveScreenshot(screen *ebiten.Image, path string) {
	b := screen.Bounds()
	img := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	screen.ReadPixels(img.Pix)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err == nil {
		err = safefile.WriteBytes(path, buf.Bytes())
		if err != nil {
			a.log.add(levelError, "screenshot: %v", err)
			if a.script != nil {
				a.script.fail(err)
			}
			return
		}
	}
	a.log.add(levelInfo, "screenshot %s (%d×%d)", path, b.Dx(), b.Dy())
}

// rectOf returns the cells a map-coordinate rectangle touches.
func rectOf(x0, y0, x1, y1 float64) image.Rectangle {
	return image.Rect(int(x0)-1, int(y0)-1, int(x1)+2, int(y1)+2)
}
