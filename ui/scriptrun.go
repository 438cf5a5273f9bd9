package ui

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/app/runner"
	"orogen/app/safefile"
	"orogen/ui/script"
)

// scriptRun executes a parsed script, one command per frame; waits hold
// the script until a condition is met or a time limit passes.
type scriptRun struct {
	cmds    []script.Command
	next    int
	until   func() bool // the current wait, nil when none
	limit   time.Time
	waitFor string
	err     error
	start   time.Time
	fpsFrom int // index into fps.all where the current run/steps started
	span    cpuSpan
	// settledAfter is how long the last await-settled waited.
	settledAfter time.Duration
}

// waitLimit bounds every wait so a stuck session fails instead of hanging.
const waitLimit = 10 * time.Minute

func (s *scriptRun) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *scriptRun) wait(what string, until func() bool) {
	s.until, s.waitFor, s.limit = until, what, time.Now().Add(waitLimit)
}

func (a *App) stepScript() {
	s := a.script
	if s.start.IsZero() {
		s.start = time.Now()
	}
	if s.err != nil {
		a.quitting = true
		return
	}
	if s.until != nil {
		if !s.until() {
			if time.Now().After(s.limit) {
				s.fail(fmt.Errorf("script: timed out waiting for %s", s.waitFor))
			}
			return
		}
		s.until = nil
	}
	if s.next >= len(s.cmds) {
		a.quitting = true
		return
	}
	c := s.cmds[s.next]
	s.next++
	if err := a.runCommand(c); err != nil {
		s.fail(fmt.Errorf("script line %d (%s): %w", c.Line, c.Name, err))
		a.log.add(levelError, "%v", s.err)
	}
}

// runCommand carries out one script command through the action table:
// the same code the menus and keys run. Arguments were checked by
// script.Parse against the table.
func (a *App) runCommand(c script.Command) error {
	ac, ok := actionByName(c.Name)
	if !ok {
		return fmt.Errorf("unknown command %q", c.Name)
	}
	return ac.run(a, c.Args)
}

// waitFor holds a script until until holds (no script: nothing to hold).
func (a *App) waitFor(what string, until func() bool) {
	if a.script != nil {
		a.script.wait(what, until)
	}
}

// runSteps pauses the engine, then runs n steps and waits until the n-th
// shows.
func (a *App) runSteps(n int) {
	paused := make(chan uint64, 1)
	a.s.Worker().Send(runner.Pause{}, runner.Sync{Done: paused})
	base := -1
	a.startSpan()
	a.script.wait(fmt.Sprintf("%d engine steps", n), func() bool {
		if base < 0 {
			select {
			case <-paused:
				base = a.s.Frame().Snap.Step
				a.s.Step(n)
			default:
				return false
			}
		}
		return a.s.Frame().Snap.Step >= base+n
	})
}

// report is what `report PATH` writes: the figures the issue asks for.
type report struct {
	Frames  int       `json:"frames"`
	Seconds float64   `json:"seconds"`
	FPS     []float64 `json:"fps_per_second"`
	FPSMean float64   `json:"fps_mean"`
	FPSMin  float64   `json:"fps_min_while_running"`
	// The mean of the one-second rates and the longest frame, ms, over the
	// same seconds as fps_min_while_running: since the last run, steps or
	// view command, leaving out its first second.
	FPSMeanRunning float64 `json:"fps_mean_while_running"`
	WorstFrameMs   float64 `json:"worst_frame_ms_while_running"`
	// Where the longest frames of those seconds went, longest first (at
	// most five).
	WorstFrames    []frameParts     `json:"worst_frames_while_running,omitempty"`
	StepsPerSec    float64          `json:"engine_steps_per_s"`
	EngineDevice   string           `json:"engine_device"`             // where the engine computes: cpu, or the GPU's report
	EngineFallback string           `json:"engine_fallback,omitempty"` // why an engine asked for on the GPU runs on the CPU
	Width          int              `json:"width"`
	Height         int              `json:"height"`
	Step           int              `json:"step"`
	RenderMs       float64          `json:"picture_ms"`
	MeshMs         float64          `json:"mesh3d_ms"`
	Picture3DMs    float64          `json:"picture3d_ms"`
	SliderLag      []int            `json:"slider_lag_steps"`
	PhaseMs        []float64        `json:"phase_ms"`
	WindowW        int              `json:"window_w"`
	WindowH        int              `json:"window_h"`
	Analysis       *analysisFigures `json:"analysis,omitempty"`
	Amplify        *amplifyFigures  `json:"amplify,omitempty"`
	ProjectPath    string           `json:"project,omitempty"`
	Unsaved        bool             `json:"unsaved"`
	UpliftVersion  uint64           `json:"uplift_version"`
	// The worker's settling: steps and stepping time since the last
	// change, and the wall time the last await-settled waited.
	SettleSteps  int     `json:"settle_steps"`
	SettleS      float64 `json:"settle_s"`
	AwaitSettleS float64 `json:"await_settled_s,omitempty"`
	// Views: "shader" (the views drawn by the GPU: picture_ms and
	// picture3d_ms are then the CPU's part only, and shader_pictures counts
	// the pictures the shaders drew) or "cpu".
	Views          string  `json:"views"`
	ViewsChoice    string  `json:"views_choice"` // the user's: auto, shader or cpu
	ShaderPictures int     `json:"shader_pictures"`
	ShaderExtraMs  float64 `json:"shader_frame_extra_ms"`
	// Keys: whether the key tap runs ("on", else why not) and how many
	// key events ImGui took from it (ui/keys.go).
	KeyTap     string `json:"key_tap"`
	KeysTapped int    `json:"key_events_tapped"`
	// The share of the step plot's width that its steps span, as last
	// drawn: near 1 while the x axis fits the engine's steps (after File →
	// New, the new engine's, not the old one's).
	PlotSpan float64 `json:"step_plot_span"`
	// ShaderPictureMs is what a whole picture adds over the frames that
	// drew it (a 2D relief for a new snapshot is drawn in bands, a band a
	// frame); ShaderBands is how many bands such a picture takes now.
	ShaderPictureMs float64 `json:"shader_picture_ms"`
	ShaderBands     int     `json:"shader_bands"`
	// ShaderPasses counts the surface passes drawn (a band counts): a
	// frame without a new snapshot, options or uplift draws none.
	ShaderPasses int `json:"shader_passes"`
	// Draws counts Draw calls, as frames counts Updates: one of each a
	// frame (ebiten.SyncWithFPS). GUITexturesMade counts the images made
	// for ImGui's textures (its font atlas: once, and again only when
	// the atlas grows), GUITextureUploads the uploads of changed parts.
	Draws             int `json:"draws"`
	GUITexturesMade   int `json:"gui_textures_made"`
	GUITextureUploads int `json:"gui_texture_uploads"`
	// Since the last run, steps or view command (its first second
	// included): the frames drawn, the engine steps shown, and the
	// process's CPU time a frame, all threads together (the engine's,
	// the app's, the rasterizer's), with the part Mesa's llvmpipe
	// threads took (0 on a card): figures the machine's load inflates
	// less than the wall time.
	SpanDraws         int     `json:"span_draws"`
	SpanSteps         int     `json:"span_engine_steps"`
	SpanCPUMsPerDraw  float64 `json:"span_cpu_ms_per_draw"`
	SpanLLVMpipeMsPer float64 `json:"span_llvmpipe_ms_per_draw"`
}

// cpuSpan is where the report's span started: the draws, the step shown
// and the CPU time then.
type cpuSpan struct {
	draws, step int
	cpu, raster time.Duration
}

// startSpan starts the report's figures while running (a run, steps or
// view command): the frame rates from the next second, the CPU from now.
func (a *App) startSpan() {
	a.script.fpsFrom = len(a.fps.all)
	all, raster := cpuUse()
	a.script.span = cpuSpan{draws: a.draws, cpu: all, raster: raster}
	if a.s != nil {
		a.script.span.step = a.s.Frame().Snap.Step
	}
}

func (a *App) writeReport(path string) error {
	f := a.s.Frame()
	pic, mesh, proj := a.rend.Timings()
	r := report{Frames: a.frames, Seconds: time.Since(a.script.start).Seconds(), FPS: a.fps.all,
		StepsPerSec: f.StepsPerSec, Width: f.Snap.W, Height: f.Snap.H, Step: f.Snap.Step,
		RenderMs: pic, MeshMs: mesh, Picture3DMs: proj, SliderLag: a.lag.steps, PhaseMs: f.PhaseMs[:],
		ProjectPath: a.s.Path(), Unsaved: a.s.Dirty(), UpliftVersion: a.s.Doc().UpliftVersion(),
		SettleSteps: f.SettleSteps, SettleS: f.SettleTime.Seconds(), AwaitSettleS: a.script.settledAfter.Seconds()}
	r.WindowW, r.WindowH = ebiten.WindowSize()
	r.EngineDevice, r.EngineFallback = f.Device, f.Fallback
	r.KeyTap, r.KeysTapped, r.PlotSpan = a.keys.state(), a.keys.taken, a.plotSpan
	r.Draws, r.GUITexturesMade, r.GUITextureUploads = a.draws, a.gui.cache.made, a.gui.cache.uploads
	r.Views, r.ViewsChoice = "cpu", "auto"
	switch {
	case a.viewsCPU && !a.viewsAuto:
		r.ViewsChoice = "cpu"
	case !a.viewsAuto:
		r.ViewsChoice = "shader"
	}
	if a.shaders(f.Snap) {
		r.Views = "shader"
		r.RenderMs = 0 // no 2D picture on the CPU
		r.ShaderPictures, r.ShaderExtraMs = a.gv.draws, 1000*a.gpace.extra
		r.ShaderPictureMs, r.ShaderBands, r.ShaderPasses = 1000*a.gpace.work, a.gpace.bands(), a.gv.passes
	}
	if sp := a.script.span; a.draws > sp.draws {
		all, raster := cpuUse()
		n := float64(a.draws - sp.draws)
		r.SpanDraws, r.SpanSteps = a.draws-sp.draws, f.Snap.Step-sp.step
		r.SpanCPUMsPerDraw = float64(all-sp.cpu) / 1e6 / n
		r.SpanLLVMpipeMsPer = float64(raster-sp.raster) / 1e6 / n
	}
	r.Analysis = a.analysisReport()
	r.Amplify = a.amplifyReport()
	if r.Seconds > 0 {
		r.FPSMean = float64(a.frames) / r.Seconds
	}
	// The lowest one-second rate since the last run/steps command, leaving
	// out the first second (it holds the command's own work).
	r.FPSMin, r.FPSMeanRunning, r.WorstFrameMs = -1, -1, -1
	if from := a.script.fpsFrom + 1; from < len(a.fps.all) {
		r.FPSMin, r.FPSMeanRunning, r.WorstFrameMs = a.fps.all[from], 0, 0
		for i, v := range a.fps.all[from:] {
			r.FPSMin = min(r.FPSMin, v)
			r.FPSMeanRunning += v
			r.WorstFrameMs = max(r.WorstFrameMs, a.fps.longest[from+i])
		}
		r.FPSMeanRunning /= float64(len(a.fps.all) - from)
		r.WorstFrames = longestFrames(a.ftrace.longest[min(from, len(a.ftrace.longest)):], 5)
	}
	if err := safefile.WriteJSON(path, r); err != nil {
		return err
	}
	a.log.add(levelInfo, "report %s", filepath.Base(path))
	return nil
}
