package ui

import (
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"time"

	"github.com/AllenDang/cimgui-go/backend"
	ebitenbackend "github.com/AllenDang/cimgui-go/backend/ebiten-backend"
	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/implot"
	"github.com/hajimehoshi/ebiten/v2"

	"orogen/app/compute"
	"orogen/app/doc"
	"orogen/app/prefs"
	"orogen/app/session"
	"orogen/brushes"
	"orogen/ui/picture"
	"orogen/ui/script"
	"orogen/uplifttree"
	"orogen/viewer"
)

// Options start the window.
type Options struct {
	Scene   string // preset name or scene file to open; "" = the default preset
	Project string // project file to open instead of a scene
	Script  string // drive the session from this script (package ui/script)
	Size    int    // grid cells per side for Scene; 0 = the scene's own
	Width   int    // window size in logical pixels; 0 = the last one
	Height  int
}

// Run opens the window and returns when it closes. It returns the error a
// script failed with, if any.
func Run(o Options) error {
	var cmds []script.Command
	if o.Script != "" {
		f, err := os.Open(o.Script)
		if err != nil {
			return fmt.Errorf("script: %w", err)
		}
		cmds, err = script.Parse(f, scriptSpecs())
		f.Close()
		if err != nil {
			return err
		}
	}
	a, err := newApp(o)
	if err != nil {
		return err
	}
	if o.Script != "" {
		a.script = &scriptRun{cmds: cmds}
	}
	defer a.shutdown()
	// OROGEN_CPUPROFILE=FILE profiles the session (frame-rate work).
	if p := os.Getenv("OROGEN_CPUPROFILE"); p != "" {
		if f, err := os.Create(p); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				defer func() { pprof.StopCPUProfile(); f.Close() }()
			}
		}
	}
	if err := ebiten.RunGameWithOptions(a, &ebiten.RunGameOptions{}); err != nil && !errors.Is(err, ebiten.Termination) {
		return err
	}
	if a.script != nil && a.script.err != nil {
		return a.script.err
	}
	return nil
}

// tool is what the left mouse button does in the viewport.
type tool int

const (
	toolPaint tool = iota
	toolSegment
	toolValley
	toolSelect
	toolSection // the cross-section of the strata (ui/section.go)
	toolPin     // point elevation constraints (ui/constraints.go)
	toolCurve   // curve elevation constraints
	toolRegion
	numTools
)

var toolNames = [...]string{"Paint", "Range segment", "Valley", "Select / edit", "Cross-section", "Pin a height", "Curve of heights", "Region (copy, paste)"}

// App is the desktop application: an ebiten.Game whose Update builds the
// ImGui frame and applies the user's edits to the document, and whose Draw
// only draws. The simulation runs in the worker goroutine; relief pictures
// are made by the renderer goroutine; neither is ever waited on.
type App struct {
	be    *ebitenbackend.EbitenBackend
	keys  keyInput
	gui   *guiRenderer
	prefs prefs.Prefs
	log   logBuf

	s *session.Session // the document, its simulation and every action

	// The stream graph's node count being typed (engineChooser).
	samplesEdit   int32
	samplesActive bool
	rend          *picture.Renderer
	lag           sliderLag
	pic2D         picture2D // what the 2D picture shows (renderer's last job)
	pic3D         picture3D // what the 3D picture shows
	pic3DAt       time.Time // when the 3D picture was last asked for
	mapImg        *ebiten.Image
	mapGPU        *ebiten.Image // the 2D relief drawn by the shaders (ui/gpuview.go)
	mapStep       int           // cells per side a pixel of mapGPU spans
	terrainOf     terrainKey    // what the shaders' 3D picture was last drawn from
	gv            *gpuView      // the shaders and the fields on the GPU
	gvAmp         *gpuView      // the same for the Amplify preview's fine window
	bg            backdrop      // the screen's background fill
	fin           finalScreen   // the frame drawn straight into the window (finalscreen.go)
	viewsCPU      bool          // draw the views on the CPU, not with the shaders
	viewsAuto     bool          // viewsCPU follows the shaders' measured cost
	gpace         gpuPace       // how often the shaders redraw for a new snapshot
	arcs          arcLayer      // the stream graph's arcs over the map
	det           detailUI      // the hydraulic detail pass's panel
	exp           exportUI      // the export profile editor and File → Build
	prefsUI       settingsUI    // Edit → Settings… (settings.go)
	anl           analysisUI    // the Analysis panel and its analyst
	amp           ampUI         // the Amplify preview's picture and drag
	mapW, mapH    int

	mode      viewMode
	v3        view3D
	upCopy    []float32 // the document's uplift as last handed to the renderer
	upCopyVer uint64    // its version
	view      viewer.View
	vopts     viewer.Options
	fitView   bool
	vp        viewport // the Viewport window's map area, screen pixels
	arrows    bool
	showPlot  bool

	tool    tool
	brush   brushes.Brush
	painter painting
	placing placement
	sel     uplifttree.ID
	clip    *doc.Clip // the copied subtree (Ctrl+C), kept across documents
	drag    handleDrag
	cons    constraintTool // the Pin and Curve tools (ui/constraints.go)
	region  regionTool     // the Region tool (ui/region.go)

	geo geologyUI // the Geology panel
	sec section   // the cross-section line and window

	tree     treeTool // the Uplift Tree panel (ui/tree.go)
	target   float64  // the target height helper's input, metres
	duty     float64  // the engines' share of wall time
	plotBuf  []float64
	plotSpan float64 // the share of the step plot's width its steps spanned, as last drawn (the script's report)
	help     helpState

	browser fileBrowser
	modal   modal

	script      *scriptRun
	screenshot  string // the shot Draw takes next
	shots       int    // the screenshots Draw has taken
	frames      int
	draws       int       // Draw calls (frames counts Updates)
	lastUpdate  time.Time // when the last Update ran (ImGui's clock)
	fps         fpsMeter
	ftrace      frameTracer // where the longest frames' time went (the script report)
	scale       float64     // device scale factor
	quitting    bool
	layoutDone  bool
	resetLayout bool
	inFrame     bool // between BeginFrame and EndFrame
	pacer       pacer
	winW, winH  int // the window's size at the last Layout, logical pixels
	newDlg      newDialog
	winClass    *imgui.WindowClass
}

// viewport is the screen rectangle the map is drawn in.
type viewport struct {
	x, y, w, h float32
	hovered    bool
}

func newApp(o Options) (*App, error) {
	a := &App{brush: brushes.Default(brushes.Raise), vopts: viewer.DefaultOptions(), fitView: true, showPlot: true, target: 2000, fin: newFinalScreen()}
	a.anl.cell = -1
	a.brush.Radius = 16
	a.brush.Strength = 0.25
	p, err := prefs.Load()
	if err != nil {
		a.log.add(levelWarn, "settings: %v (using defaults)", err)
	}
	a.prefs = p
	w, h := o.Width, o.Height
	if w == 0 || h == 0 {
		w, h = p.WindowW, p.WindowH
	}
	if w < 640 || h < 400 {
		w, h = 1440, 900
	}

	// The engines' GPU, opened before the window: with NVIDIA's driver an
	// EGL context made after the window's GLX context failed
	// (eglMakeCurrent, with EGL_SUCCESS) in every session on the device
	// tool's H200s, so a compute device switched to the GPU in Settings
	// left the engine on the CPU until the app was started again (which
	// opened it here, for the preferred device). Opened once and kept
	// (compute.Shared); without a GPU this is one failed probe, said when
	// an engine asks for it.
	compute.Shared(compute.GPU)

	a.be = ebitenbackend.NewEbitenBackend()
	if _, err := backend.CreateBackend(a.be); err != nil && !errors.Is(err, backend.CExposerError) {
		return nil, fmt.Errorf("ui: %w", err)
	}
	a.be.CreateWindow("Orogen", w, h)
	a.gui = newGUIRenderer()
	implot.CreateContext()
	io := imgui.CurrentIO()
	io.SetConfigFlags(io.ConfigFlags() | imgui.ConfigFlagsDockingEnable | imgui.ConfigFlagsNavEnableKeyboard)
	if err := addSymbolFont(io); err != nil {
		a.log.add(levelWarn, "font: %v (symbols show as ?)", err)
	}
	// guiRenderer draws lists of more than 65 536 vertices in parts.
	io.SetBackendFlags(io.BackendFlags() | imgui.BackendFlagsRendererHasVtxOffset)
	if dir, err := prefs.Dir(); err == nil {
		if os.MkdirAll(dir, 0o755) == nil {
			io.SetIniFilename(filepath.Join(dir, "imgui.ini"))
		}
	}
	a.scale = ebiten.Monitor().DeviceScaleFactor()
	if a.scale > 1 {
		imgui.CurrentStyle().ScaleAllSizes(float32(a.scale))
		imgui.CurrentStyle().SetFontScaleMain(float32(a.scale))
	}
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	ebiten.SetWindowClosingHandled(true)
	ebiten.SetWindowSize(w, h)
	ebiten.SetWindowTitle("Orogen")
	// One Update a frame: at Ebitengine's default 60 ticks a second a
	// frame that took 50 ms is followed by up to three Updates before the
	// next Draw, each building ImGui's frame and advancing the pictures'
	// uploads and passes that are meant to take one band a frame (a 4096²
	// snapshot's fields then went up in one frame, and the frame meter
	// counted Updates, not frames drawn). ImGui's clock follows the real
	// time between frames (Update sets the backend's rate).
	ebiten.SetTPS(ebiten.SyncWithFPS)
	ebiten.SetVsyncEnabled(true)
	ebiten.SetScreenClearedEveryFrame(false) // Draw fills it; idle frames skip drawing (pace.go)

	if err := a.openInitial(o); err != nil {
		return nil, err
	}
	a.rend = picture.New()
	a.v3 = newView3D()
	a.gv = newGPUView()
	if a.gv.err != nil {
		a.log.add(levelWarn, "the views' shaders: %v (the views are drawn on the CPU)", a.gv.err)
	}
	a.startProbe() // a card, or a software rasterizer: how the river discs are drawn (gpuView.gather)
	// The views as the user last chose them; OROGEN_VIEWS (tests, a
	// driver that misreports itself) overrides them for this run.
	views := a.prefs.Views
	if e := os.Getenv("OROGEN_VIEWS"); e != "" {
		views = e
	}
	a.setViews(views)
	a.checkRecovery()
	return a, nil
}

func (a *App) shutdown() {
	if a.exp.cancel != nil {
		a.exp.cancel() // a build under way stops at its next step or tile
	}
	if a.rend != nil {
		a.rend.Close()
	}
	if a.anl.an != nil {
		a.anl.an.Close()
	}
	a.keys.close()
	if a.script == nil {
		if dir, err := prefs.Dir(); err == nil {
			imgui.SaveIniSettingsToDisk(filepath.Join(dir, "imgui.ini"))
		}
		keepWindowSize(&a.prefs, a.winW, a.winH)
		if err := a.prefs.Save(); err != nil {
			fmt.Fprintln(os.Stderr, "orogen: saving settings:", err)
		}
	}
	a.s.Shutdown()
}

// savePrefs writes the preferences now, for a choice the user made (the
// compute device, how the views are drawn): it is kept even if the app
// does not quit cleanly. The window's size and place are kept at quit.
func (a *App) savePrefs() {
	if err := a.prefs.Save(); err != nil {
		a.log.add(levelWarn, "saving the preferences: %v (the choice holds until you quit)", err)
	}
}

// Update handles input and builds the ImGui frame (ebiten.Game).
func (a *App) Update() (err error) {
	a.frames++
	now := time.Now()
	a.imguiClock(now)
	a.ftrace.updateStarted(now, a.gv.f2.uploads+a.gv.f3.uploads, a.gv.passes, a.fps.tick(now))
	a.gpace.frame(now)
	a.gv.newFrame()
	defer a.survive()
	defer func() { a.ftrace.updateDone(time.Now()) }()
	sendModifiers(imgui.CurrentIO())
	tapped := a.keys.send(imgui.CurrentIO(), &a.log)
	a.be.BeginFrame()
	if tapped {
		imgui.CurrentIO().SetAppAcceptingEvents(true)
	}
	a.inFrame = true
	a.buildFrame()
	a.inFrame = false
	a.be.EndFrame()
	a.sync()
	a.syncPicture()
	a.ftrace.sawSnapshot(a.s.Snapshot())
	a.syncArcs()
	a.syncAnalysis()
	a.autosave()
	if a.script != nil {
		a.stepScript()
	}
	a.pace()
	if ebiten.IsWindowBeingClosed() && !a.quitting {
		a.requestQuit()
	}
	if a.quitting {
		return ebiten.Termination
	}
	return nil
}

// imguiClock gives ImGui the time since the last frame (its key repeat,
// double clicks and tooltips run on it). The backend takes it as a rate
// of whole frames a second; the first frame, and frames more than a
// second apart, count as a 60th of a second.
func (a *App) imguiClock(now time.Time) {
	fps := uint(60)
	if !a.lastUpdate.IsZero() {
		if d := now.Sub(a.lastUpdate); d > 0 && d < time.Second {
			fps = uint(min(max(math.Round(float64(time.Second)/float64(d)), 1), 1000))
		}
	}
	a.lastUpdate = now
	a.be.SetTargetFPS(fps)
}

// survive turns a panic in Update (a bug, or an ImGui assertion) into an
// error message instead of a crash: the work goes to the recovery file at
// once, the frame is closed (ImGui recovers unbalanced Begin/End calls at
// the end of a frame), and the app goes on. A script session fails.
func (a *App) survive() {
	r := recover()
	if r == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "orogen: internal error: %v\n%s", r, debug.Stack())
	if a.inFrame {
		a.inFrame = false
		func() {
			defer func() { _ = recover() }()
			a.be.EndFrame()
		}()
	}
	if a.s != nil {
		if err := a.s.WriteRecovery(); err != nil {
			fmt.Fprintln(os.Stderr, "orogen: writing the recovery file:", err)
		}
	}
	a.showError("Internal error", fmt.Errorf("%v (your work was written to the recovery file; please report this)", r))
}

// Draw draws the map under the ImGui frame (ebiten.Game). It reads only
// what Update prepared. The frame is drawn straight into the window's
// framebuffer by DrawFinalScreen (finalscreen.go) where it can be; Draw
// then only marks Ebitengine's offscreen screen as changed, so that the
// frame is presented. A screenshot's frame is drawn into the offscreen
// screen, which it reads back, and copied.
func (a *App) Draw(screen *ebiten.Image) {
	a.draws++
	if a.pacer.quiet && a.screenshot == "" {
		return // nothing changed: the screen keeps the last frame (pace.go)
	}
	if a.fin.direct = a.screenshot == "" && a.fin.use(); a.fin.direct {
		a.fin.mark(screen)
		return
	}
	a.drawFrame(screen)
	if a.screenshot != "" {
		a.saveScreenshot(screen, a.screenshot)
		a.shotTaken()
	}
}

// drawFrame draws the whole frame into target: the backdrop, the map or
// the 3D view, and ImGui's draw lists over them. The map and the 3D
// picture are opaque (alpha 1) but for their outermost pixels, where a
// linear filter may read past the picture's edge: the backdrop leaves
// out the rectangles they cover a pixel in from their edges (on llvmpipe
// every pixel filled costs CPU; the pixels shown are the same).
func (a *App) drawFrame(screen *ebiten.Image) {
	a.ftrace.drawStarted(time.Now())
	defer func() { a.ftrace.drawDone(time.Now()) }()
	mapImg, step := a.mapImg, 1.0
	if a.shaders(a.s.Snapshot()) {
		mapImg, step = a.mapGPU, float64(max(a.mapStep, 1))
	}
	showMap := a.mode != mode3D && mapImg != nil && a.vp.w > 0 && a.vp.h > 0
	var holes [2]image.Rectangle
	op := &ebiten.DrawImageOptions{}
	r := image.Rect(int(a.vp.x), int(a.vp.y), int(a.vp.x+a.vp.w), int(a.vp.y+a.vp.h))
	if showMap {
		op.GeoM.Scale(a.view.Zoom*step, a.view.Zoom*step)
		ox, oy := a.mapToScreen(0, 0)
		op.GeoM.Translate(ox, oy)
		b := mapImg.Bounds()
		x1, y1 := op.GeoM.Apply(float64(b.Dx()), float64(b.Dy()))
		holes[0] = inside(ox, oy, x1, y1).Intersect(r)
	}
	if a.mode != mode2D {
		holes[1] = a.v3.covers()
	}
	a.bg.fillAround(screen, colBackground, holes[:], a.fin.clip)
	if showMap {
		dst := a.fin.clip(screen, r)
		if a.view.Zoom >= 1 {
			op.Filter = ebiten.FilterNearest
		} else {
			op.Filter = ebiten.FilterLinear
		}
		dst.DrawImage(mapImg, op)
		a.drawAmp(dst)
		a.drawBasins(dst)
		a.arcs.draw(screen, a.fin.clip)
	}
	if a.mode != mode2D {
		a.v3.draw(screen, a.fin.clip)
	}
	if os.Getenv("OROGEN_DEBUG_NOGUI") == "" {
		a.gui.render(screen, a.fin.clip)
	}
}

// inside returns the pixels whose centres lie inside the rectangle from
// (x0, y0) to (x1, y1) and a pixel more from its edges: those a picture
// drawn over it covers, whatever the rasterizer's rule on the edges.
func inside(x0, y0, x1, y1 float64) image.Rectangle {
	r := image.Rect(int(math.Ceil(x0))+1, int(math.Ceil(y0))+1, int(math.Floor(x1))-1, int(math.Floor(y1))-1)
	if r.Empty() {
		return image.Rectangle{}
	}
	return r
}

// shotTaken records that Draw has taken the screenshot asked for: a
// script's screenshot command waits for it.
func (a *App) shotTaken() {
	a.screenshot = ""
	a.shots++
}

// Layout sizes the screen in device pixels, so the picture stays sharp on
// HiDPI monitors (ebiten.Game).
func (a *App) Layout(w, h int) (int, int) {
	a.winW, a.winH = w, h
	s := a.scale
	if s < 1 {
		s = 1
	}
	dw, dh := int(float64(w)*s), int(float64(h)*s)
	a.be.Layout(dw, dh)
	return dw, dh
}

// mapToScreen and screenToMap convert between map coordinates (cell i
// spans [i, i+1)) and screen pixels through the view.
func (a *App) mapToScreen(mx, my float64) (float64, float64) {
	sx, sy := a.view.ToScreen(mx, my, float64(a.vp.w), float64(a.vp.h))
	return sx + float64(a.vp.x), sy + float64(a.vp.y)
}

func (a *App) screenToMap(sx, sy float64) (float64, float64) {
	return a.view.ToMap(sx-float64(a.vp.x), sy-float64(a.vp.y), float64(a.vp.w), float64(a.vp.h))
}

// keepWindowSize records the window's size in the settings, unless it is
// not a size (once the window has closed, Ebiten reports 0×0, which the
// app used to save and warn about at the next start).
func keepWindowSize(p *prefs.Prefs, w, h int) {
	if w > 0 && h > 0 {
		p.WindowW, p.WindowH = w, h
	}
}

// fpsMeter measures frames per second over the last second, and the
// longest frame of each second.
type fpsMeter struct {
	t0, prev time.Time
	n        int
	value    float64
	all      []float64 // frames per second, a value a second
	longest  []float64 // the longest frame of each of those seconds, ms
	cur      float64   // the longest frame of the second under way, ms
}

// tick counts a frame at now and reports whether it closed a second.
func (f *fpsMeter) tick(now time.Time) (closed bool) {
	if f.t0.IsZero() {
		f.t0, f.prev = now, now
		return false
	}
	f.n++
	f.cur = max(f.cur, now.Sub(f.prev).Seconds()*1e3)
	f.prev = now
	if d := now.Sub(f.t0); d >= time.Second {
		f.value = float64(f.n) / d.Seconds()
		f.all = append(f.all, f.value)
		f.longest = append(f.longest, f.cur)
		f.t0, f.n, f.cur = now, 0, 0
		return true
	}
	return false
}
