package ui

import (
	"os"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/sim/engine"
	"orogen/viewer"
)

// viewsOnCPU reports whether the views are drawn by the CPU (viewer's
// software path) instead of the shaders: the View menu's choice, or
// OROGEN_VIEWS=cpu.
func viewsOnCPUEnv() bool { return os.Getenv("OROGEN_VIEWS") == "cpu" }

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

// drawRelief draws the 2D relief of snap by the shaders into a.mapGPU (it
// redraws only when the snapshot, the options or the uplift changed).
func (a *App) drawRelief(snap *engine.Snapshot, o viewer.Options, upToo bool) {
	var up []float32
	if upToo {
		up = a.docUplift()
	}
	var o3 *viewer.Options3D
	if a.mode != mode2D && a.v3.opts.UpliftAlpha > 0 {
		o3 = &a.v3.opts
	}
	img, err := a.gv.reliefImage(snap, up, o, o3)
	if err != nil {
		a.shaderFailed(err)
		return
	}
	a.mapGPU = img
}

// docUplift returns the document's uplift as last copied for the views
// (strokes the engine has not seen yet included).
func (a *App) docUplift() []float32 {
	if v := a.s.Doc().UpliftVersion(); a.upCopy == nil || a.upCopyVer != v {
		a.upCopy, a.upCopyVer = append([]float32(nil), a.s.Doc().Uplift().Data...), v
	}
	return a.upCopy
}

// drawTerrain draws a projected draw list of s's mesh into the 3D canvas,
// coloured by the shaders' surface of s.
func (a *App) drawTerrain(d *viewer.DrawList, s *engine.Snapshot) {
	if d.W < 2 || d.H < 2 {
		return
	}
	var up []float32
	if a.v3.opts.UpliftAlpha > 0 && s == a.s.Snapshot() {
		up = a.docUplift()
	}
	surf, err := a.gv.surface3DImage(s, up, a.v3.opts, a.vopts)
	if err != nil {
		a.shaderFailed(err)
		return
	}
	v := &a.v3
	if v.canvas == nil || v.canvas.Bounds().Dx() != d.W || v.canvas.Bounds().Dy() != d.H {
		if v.canvas != nil {
			v.canvas.Deallocate()
		}
		v.canvas = ebiten.NewImage(d.W, d.H)
	}
	a.gv.drawTerrain(v.canvas, d, surf, s)
	v.shown = true
}
