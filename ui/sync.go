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

	"orogen/app/safefile"
	"orogen/sim/engine"
	"orogen/ui/picture"
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

// sliderLag measures how many engine steps a slider change takes to show:
// the steps run on the new parameters by the first frame whose terrain
// they shaped.
type sliderLag struct {
	waiting bool
	want    engine.Params
	steps   []int
}

// picture2D is what the 2D picture was drawn from: a new picture is asked
// for whenever the key differs.
type picture2D struct {
	snap   *engine.Snapshot
	opts   viewer.Options
	uplift uint64           // the document's uplift version, when an overlay shows it
	shown  bool             // the 2D view is shown
	amp    *engine.Snapshot // the Amplify preview's fine window (nil: none)
}

// picture3D is what the 3D picture was drawn from.
type picture3D struct {
	snap   *engine.Snapshot
	opts   viewer.Options3D
	cam    viewer.Camera
	w, h   int
	gpu    bool
	shader bool
	uplift uint64 // as picture2D's
	shown  bool
}

// syncPicture asks the renderer for new pictures when what they show
// changed, and uploads finished ones.
func (a *App) syncPicture() {
	a.autoViews()
	snap := a.s.Snapshot()
	amp := a.ampPreview()
	a.amp.on = amp != nil
	opts := a.vopts
	if a.painter.active && opts.Overlay == viewer.OverlayNone {
		opts.Overlay = viewer.OverlayUplift
		opts.OverlayAlpha = max(opts.OverlayAlpha, 0.5)
	}
	upVer := a.s.Doc().UpliftVersion()
	want2D, want3D := a.mode != mode3D, a.mode != mode2D
	snap3 := snap // what the 3D view shows: the amplified window while there is one
	if amp != nil {
		snap3 = amp.Fine
	}
	a.fitAmplified3D(amp)
	if want3D && a.v3.fit && a.v3.rect.w > 1 {
		a.v3.fitTo(snap3)
	}
	up2, up3 := opts.Overlay == viewer.OverlayUplift, want3D && a.v3.opts.UpliftAlpha > 0
	k2 := picture2D{snap: snap, opts: opts, shown: want2D}
	if amp != nil && want2D {
		k2.amp = amp.Fine
	}
	if up2 {
		k2.uplift = upVer
	}
	shader2, shader3 := a.shaders(snap), a.shaders(snap3)
	k3 := picture3D{snap: snap3, opts: a.v3.opts, cam: a.v3.cam, w: int(a.v3.rect.w), h: int(a.v3.rect.h),
		gpu: a.v3.gpu || shader3, shader: shader3, shown: want3D}
	if up3 {
		k3.uplift = upVer
	}
	// A new snapshot alone redraws the 3D view at most every step3DEvery
	// (the 2D picture every time): the 3D picture is the costly one, and
	// the UI and the engine share its cores. Anything else redraws at once.
	same3D := k3 == a.pic3D
	if !same3D && want3D {
		old := a.pic3D
		old.snap = snap3
		every := step3DEvery
		if k3.shader {
			every = max(every, a.gpace.interval()) // the shaders' own pace
		}
		if old == k3 && (time.Since(a.pic3DAt) < every || (a.gv != nil && a.gv.tjob != nil)) {
			same3D = true // only the snapshot is new, and too soon (or the last still being drawn)
		}
	}
	if shader2 && want2D {
		a.drawRelief(snap, opts, up2)
		k2 = picture2D{amp: k2.amp} // the renderer makes no 2D picture
		if amp != nil && a.shaders(amp.Fine) {
			a.drawAmpRelief(amp, ampOptions(opts, amp))
			k2.amp = nil // nor the Amplify preview's
		}
	}
	if k2 == a.pic2D && (same3D || !want3D) && want3D == a.pic3D.shown {
		a.pollPictures()
		return
	}
	j := &picture.Job{Snap: snap, Opts: opts, Pic: want2D && !shader2, Pic3D: want3D && !same3D,
		Opts3: k3.opts, Cam: k3.cam, W3: k3.w, H3: k3.h, GPU: k3.gpu, Shader: k3.shader}
	if j.Shader {
		j.Opts3 = shaderMesh(j.Opts3, j.W3, j.H3)
	}
	if amp != nil {
		j.Snap3 = amp.Fine
		if want2D && k2.amp != nil {
			j.Amp, j.AmpOpts, j.PicAmp = amp.Fine, ampOptions(opts, amp), k2.amp != a.pic2D.amp || k2.opts != a.pic2D.opts
			a.amp.asked = amp
		}
	}
	if j.Pic3D || !want3D {
		if j.Pic3D {
			a.pic3DAt = time.Now()
		}
		a.pic3D = k3
	}
	if up2 || up3 {
		// The document's uplift, strokes the engine has not seen yet
		// included.
		if a.upCopy == nil || a.upCopyVer != upVer {
			a.upCopy, a.upCopyVer = append([]float32(nil), a.s.Doc().Uplift().Data...), upVer
		}
		j.Uplift = a.upCopy
	}
	a.rend.Submit(j)
	a.pic2D = k2
	a.pollPictures()
}

// pollPictures uploads the renderer's finished pictures.
func (a *App) pollPictures() {
	a.advanceTerrain()
	if d, s, ok := a.rend.PollList(); ok {
		kept := false
		if a.pic3D.shader && a.shaders(s) {
			kept = a.drawTerrain(d, s)
		} else {
			a.dropTerrainJob()
			a.v3.drawList(d)
		}
		if !kept {
			a.rend.RecycleList(d)
		}
	}
	if img, of, ok := a.rend.PollAmp(); ok {
		a.uploadAmp(img, of)
		a.rend.Recycle(img)
	}
	if img, _, ok := a.rend.Poll3D(); ok {
		a.v3.upload(img)
		a.rend.Recycle(img)
	}
	img, ok := a.rend.Poll()
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
	a.rend.Recycle(img)
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
