package ui

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strconv"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/hajimehoshi/ebiten/v2"

	"orogen/app/amplifier"
	"orogen/app/session"
	"orogen/sim/engine"
	"orogen/ui/script"
	"orogen/viewer"
)

// ampUI is the Amplify preview's side of the window: the fine picture
// (made by the renderer from the session's newest preview, uploaded here),
// the window's drag on the 2D map, and what the 3D camera was fitted to.
// The amplification itself runs on app/amplifier's goroutine, owned by the
// session.
type ampUI struct {
	img    *ebiten.Image
	shown  *amplifier.Preview // the preview img shows (nil: none)
	asked  *amplifier.Preview // the preview last handed to the renderer
	on     bool               // the preview has a window to show (set by Update for Draw)
	drag   ampDrag
	fitted amplifyRegion // the region the 3D camera was last fitted to
	// gpu is the fine window's picture drawn by the shaders (gpuapp.go)
	// and gpuOf the preview it shows.
	gpu   *ebiten.Image
	gpuOf *amplifier.Preview
}

// ampDrag is the window being dragged by its tab: the offset of the
// press from the window's corner and the corner now, map coordinates.
type ampDrag struct {
	active     bool
	offX, offY float64
	x, y       float64
}

// amplifyRegion names a preview's window for the 3D camera's fit.
type amplifyRegion struct {
	on                 bool
	x, y, size, factor int
}

// ampPreview returns the preview the views show: on, amplified without
// error, of a terrain on the current grid.
func (a *App) ampPreview() *amplifier.Preview {
	if !a.s.Amplify().On {
		return nil
	}
	p := a.s.AmplifyPreview()
	if p == nil || p.Fine == nil {
		return nil
	}
	if sn := a.s.Snapshot(); sn.W != p.Req.Snap.W || sn.H != p.Req.Snap.H {
		return nil
	}
	return p
}

// ampOptions are the 2D options of the fine picture: the map's, tinted
// over the coarse terrain's height range so the window's colours match
// the map around it.
func ampOptions(o viewer.Options, p *amplifier.Preview) viewer.Options {
	if o.TintMinM == 0 && o.TintMaxM == 0 && p.TintMaxM > p.TintMinM {
		o.TintMinM, o.TintMaxM = p.TintMinM, p.TintMaxM
	}
	return o
}

// uploadAmp takes the renderer's finished fine picture (Update).
func (a *App) uploadAmp(img *image.RGBA, of *engine.Snapshot) {
	if a.amp.asked == nil || a.amp.asked.Fine != of {
		return // a picture of a preview since replaced
	}
	b := img.Bounds()
	if a.amp.img == nil || a.amp.img.Bounds().Dx() != b.Dx() || a.amp.img.Bounds().Dy() != b.Dy() {
		if a.amp.img != nil {
			a.amp.img.Deallocate()
		}
		a.amp.img = ebiten.NewImage(b.Dx(), b.Dy())
	}
	a.amp.img.WritePixels(img.Pix)
	a.amp.shown = a.amp.asked
}

// drawAmp draws the fine picture over the map at its window (Draw).
func (a *App) drawAmp(dst *ebiten.Image) {
	p, img := a.amp.shown, a.amp.img
	if a.amp.gpuOf != nil && a.shaders(a.amp.gpuOf.Fine) && a.shaders(a.s.Snapshot()) {
		p, img = a.amp.gpuOf, a.amp.gpu
	}
	if p == nil || img == nil || !a.amp.on {
		return
	}
	k := float64(p.Req.Opt.Factor)
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Scale(a.view.Zoom/k, a.view.Zoom/k)
	ox, oy := a.mapToScreen(float64(p.Req.X0), float64(p.Req.Y0))
	op.GeoM.Translate(ox, oy)
	if a.view.Zoom/k >= 1 {
		op.Filter = ebiten.FilterNearest
	} else {
		op.Filter = ebiten.FilterLinear
	}
	dst.DrawImage(img, op)
}

// ampTab is the window's tab on screen, the handle the mouse drags it
// by: above its top-left corner, or inside it when the map's top edge
// leaves no room.
func (a *App) ampTab(x, y float64) (x0, y0, x1, y1 float32, label string) {
	v := a.s.Amplify()
	label = fmt.Sprintf("amplified %d× (drag)", v.Factor)
	sz := imgui.CalcTextSize(label)
	sx, sy := a.mapToScreen(x, y)
	x0, y0 = float32(sx), float32(sy)-sz.Y-6
	if y0 < a.vp.y {
		y0 = float32(sy)
	}
	return x0, y0, x0 + sz.X + 12, y0 + sz.Y + 6, label
}

// ampMouse drags the window by its tab with the left button; it reports
// whether the mouse is the preview's (the tools then ignore it).
func (a *App) ampMouse(pressed, leftDown bool, sx, sy, mx, my float64) bool {
	v := a.s.Amplify()
	if !v.On {
		a.amp.drag.active = false
		return false
	}
	d := &a.amp.drag
	x0, y0, x1, y1, _ := a.ampTab(float64(v.X), float64(v.Y))
	onTab := sx >= float64(x0) && sx <= float64(x1) && sy >= float64(y0) && sy <= float64(y1)
	if (onTab && a.vp.hovered) || d.active {
		imgui.SetMouseCursor(imgui.MouseCursorResizeAll)
	}
	switch {
	case pressed:
		if !onTab {
			return false
		}
		*d = ampDrag{active: true, offX: mx - float64(v.X), offY: my - float64(v.Y), x: float64(v.X), y: float64(v.Y)}
		return true
	case leftDown && d.active:
		d.x, d.y = mx-d.offX, my-d.offY
		return true
	case !leftDown && d.active:
		d.active = false
		x, y := int(math.Round(d.x)), int(math.Round(d.y))
		if x != v.X || y != v.Y {
			a.do("amplify-window", strconv.Itoa(x), strconv.Itoa(y))
		}
		return true
	}
	return false
}

// drawAmpWindow outlines the window on the 2D map (where a drag has it)
// with its tab.
func (a *App) drawAmpWindow(dl *imgui.DrawList) {
	v := a.s.Amplify()
	if !v.On {
		return
	}
	x, y := float64(v.X), float64(v.Y)
	if a.amp.drag.active {
		x, y = a.amp.drag.x, a.amp.drag.y
	}
	sx0, sy0 := a.mapToScreen(x, y)
	sx1, sy1 := a.mapToScreen(x+float64(v.Size), y+float64(v.Size))
	col := rgba(120, 230, 255, 230)
	dl.AddRectV(vec2(float32(sx0)-1, float32(sy0)-1), vec2(float32(sx1)+1, float32(sy1)+1), rgba(0, 0, 0, 160), 0, 0, 3)
	dl.AddRectV(vec2(float32(sx0), float32(sy0)), vec2(float32(sx1), float32(sy1)), col, 0, 0, 1.5)
	x0, y0, x1, y1, label := a.ampTab(x, y)
	dl.AddRectFilled(vec2(x0, y0), vec2(x1, y1), rgba(20, 60, 80, 220))
	dl.AddTextVec2(vec2(x0+6, y0+3), rgba(255, 255, 255, 255), label)
}

// amplifyPanel is the preview's section of the Overlays panel.
func (a *App) amplifyPanel() {
	imgui.SeparatorText("Amplify preview")
	v := a.s.Amplify()
	on := v.On
	if imgui.Checkbox("amplify a window", &on) {
		a.do("amplify-preview", map[bool]string{true: "on", false: "off"}[on])
	}
	if imgui.IsItemHovered() {
		tooltip("Shows a window of the map at 2, 4 or 8 times the simulation's resolution, amplified with ridges, valleys and river beds that follow the drainage, in the 2D and 3D views. It is amplified again when the engine has settled.")
	}
	for _, f := range []int{2, 4, 8} {
		imgui.SameLine()
		if imgui.RadioButtonBool(fmt.Sprintf("%d×", f), v.Factor == f) && f != v.Factor {
			a.do("amplify-factor", strconv.Itoa(f))
		}
	}
	size := int32(v.Size)
	imgui.SliderInt("window (cells)", &size, session.MinAmplifySize, int32(session.MaxAmplifyFine/max(v.Factor, 1)))
	if imgui.IsItemDeactivatedAfterEdit() && int(size) != v.Size {
		a.do("amplify-window", strconv.Itoa(v.X), strconv.Itoa(v.Y), strconv.Itoa(int(size)))
	}
	st := a.s.AmplifyStatus()
	if p := a.s.AmplifyPreview(); p != nil && p.Err != nil && !a.s.AmplifyBusy() {
		imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.45, Z: 0.45, W: 1})
		textWrapped(st)
		imgui.PopStyleColor()
	} else {
		textWrapped(st)
	}
	if v.On {
		textDisabled(fmt.Sprintf("Cells %d, %d to %d, %d. Drag the window's tab on the 2D map to move it; the 3D view shows the window.",
			v.X, v.Y, v.X+v.Size-1, v.Y+v.Size-1))
	}
}

// The preview's actions (ui/actions.go's table).

func checkAmplifyWindow(c script.Command) error {
	for i := range c.Args {
		if _, err := c.Count(i); err != nil {
			return err
		}
	}
	return nil
}

// amplifyPreview turns the preview on, off or over; a script waits for
// the preview when it turns on.
func (a *App) amplifyPreview(args []string) error {
	v := a.s.Amplify()
	switch args[0] {
	case "on":
		v.On = true
	case "off":
		v.On = false
	default:
		v.On = !v.On
	}
	if err := a.s.SetAmplify(v); err != nil {
		return err
	}
	if !v.On {
		a.amp.shown, a.amp.asked = nil, nil
	}
	a.waitAmplified()
	return nil
}

// amplifyWindow moves the window to top-left cell X Y (and sizes it SIZE
// cells); a script waits for its preview.
func (a *App) amplifyWindow(args []string) error {
	v := a.s.Amplify()
	v.X, v.Y = int(num(args, 0)), int(num(args, 1))
	if len(args) == 3 {
		v.Size = int(num(args, 2))
	}
	if err := a.s.SetAmplify(v); err != nil {
		return err
	}
	a.waitAmplified()
	return nil
}

// amplifyFactor sets the factor; a script waits for the preview.
func (a *App) amplifyFactor(args []string) error {
	v := a.s.Amplify()
	v.Factor, _ = strconv.Atoi(args[0])
	if err := a.s.SetAmplify(v); err != nil {
		return err
	}
	a.waitAmplified()
	return nil
}

// waitAmplified holds a script, while the preview is on, until the
// preview of the newest settings is amplified and its picture shows (the
// 2D one when the 2D map is shown), or fails it with the preview's error.
func (a *App) waitAmplified() {
	if a.script == nil || !a.s.Amplify().On {
		return
	}
	a.waitFor("the amplify preview (it waits for the engine to settle)", func() bool {
		if !a.s.AmplifyCurrent() {
			return false
		}
		p := a.s.AmplifyPreview()
		if p.Err != nil {
			a.script.fail(fmt.Errorf("amplify preview: %w", p.Err))
			return true
		}
		return a.mode == mode3D || a.amp.shown == p
	})
}

// errNoAmplify is the report's note when the preview shows nothing.
var errNoAmplify = errors.New("no amplified window shown")

// amplifyFigures is the preview's part of the script's report.
type amplifyFigures struct {
	Status  string  `json:"status"`
	X       int     `json:"x"`
	Y       int     `json:"y"`
	Size    int     `json:"size"`
	Factor  int     `json:"factor"`
	FineW   int     `json:"fine_w"`
	FineH   int     `json:"fine_h"`
	Step    int     `json:"step"`
	Seconds float64 `json:"seconds"`
	// Screen is the window's rectangle on the screen, device pixels: x0
	// y0 x1 y1 (the 2D map's).
	Screen [4]float64 `json:"screen"`
	Error  string     `json:"error,omitempty"`
}

func (a *App) amplifyReport() *amplifyFigures {
	v := a.s.Amplify()
	if !v.On {
		return nil
	}
	r := &amplifyFigures{Status: a.s.AmplifyStatus(), X: v.X, Y: v.Y, Size: v.Size, Factor: v.Factor}
	r.Screen[0], r.Screen[1] = a.mapToScreen(float64(v.X), float64(v.Y))
	r.Screen[2], r.Screen[3] = a.mapToScreen(float64(v.X+v.Size), float64(v.Y+v.Size))
	p := a.ampPreview()
	if p == nil {
		r.Error = errNoAmplify.Error()
		if q := a.s.AmplifyPreview(); q != nil && q.Err != nil {
			r.Error = q.Err.Error()
		}
		return r
	}
	r.FineW, r.FineH, r.Step, r.Seconds = p.Fine.W, p.Fine.H, p.Req.Snap.Step, p.Took.Seconds()
	return r
}

// fitAmplified3D fits the 3D camera to the amplified window when the
// region shown changes (a new window or factor, the preview on or off),
// not when the same window is amplified again.
func (a *App) fitAmplified3D(p *amplifier.Preview) {
	var r amplifyRegion
	if p != nil {
		r = amplifyRegion{on: true, x: p.Req.X0, y: p.Req.Y0, size: p.Req.W, factor: p.Req.Opt.Factor}
	}
	if r != a.amp.fitted {
		a.amp.fitted = r
		a.v3.fit = true
	}
}
