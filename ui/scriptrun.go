package ui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/app/engines"
	"orogen/app/safefile"
	"orogen/app/worker"
	"orogen/brushes"
	"orogen/sim/engine"
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

// runCommand carries out one script command through the app's own paths.
// Arguments were checked by script.Parse.
func (a *App) runCommand(c script.Command) error {
	num := func(i int) float64 { v, _ := c.Num(i); return v }
	switch c.Name {
	case "wait":
		n, _ := c.Count(0)
		end := a.frames + n
		a.script.wait(fmt.Sprintf("%d frames", n), func() bool { return a.frames >= end })
	case "stroke":
		k, _ := brushes.ParseKind(c.Args[0])
		a.tool = toolPaint
		a.brush.Kind = k
		if len(c.Args) > 5 {
			a.brush.Radius = num(5)
		}
		if len(c.Args) > 6 {
			a.brush.Strength = num(6)
		}
		// Cell (i, j) is map point (i + 0.5, j + 0.5).
		x0, y0, x1, y1 := num(1)+0.5, num(2)+0.5, num(3)+0.5, num(4)+0.5
		a.paintBegin(x0, y0)
		if !a.painter.active {
			return fmt.Errorf("the stroke did not start")
		}
		const pieces = 16 // as a mouse would report it, in pieces
		for i := 1; i <= pieces; i++ {
			t := float64(i) / pieces
			a.paintTo(x0+t*(x1-x0), y0+t*(y1-y0))
		}
		a.paintEnd()
	case "segment", "valley":
		t := toolSegment
		if c.Name == "valley" {
			t = toolValley
		}
		before := a.doc.Tree().Len()
		a.place(t, num(0)+0.5, num(1)+0.5, num(2)+0.5, num(3)+0.5)
		if a.doc.Tree().Len() == before {
			return fmt.Errorf("nothing was placed")
		}
	case "set":
		if err := a.setSlider(c.Args[0], num(1)); err != nil {
			return err
		}
		a.doc.EndGesture()
		a.syncEngine()
		if c.Args[0] != "threshold" && c.Args[0] != "umax" {
			a.lag = sliderLag{waiting: true, want: a.sentParams, steps: a.lag.steps}
		}
		a.log.add(levelInfo, "set %s = %s", c.Args[0], c.Args[1])
	case "engine":
		st := a.doc.Settings()
		st.Engine, _ = engine.ParseKind(c.Args[0]) // checked by script.Parse
		st.Samples = 0
		if len(c.Args) == 2 {
			st.Samples, _ = c.Count(1)
		}
		if err := a.doc.SetSettings(st, ""); err != nil {
			return err
		}
		a.syncEngine()
		a.log.add(levelInfo, "engine %s", engines.Spec{Kind: st.Engine, Samples: st.Samples}.Label())
	case "detail":
		switch c.Args[0] {
		case "start":
			return a.startDetail()
		case "run", "pause":
			if a.det.run == nil {
				return fmt.Errorf("detail %s: no detail pass open", c.Args[0])
			}
			if c.Args[0] == "run" {
				a.det.run.Run()
			} else {
				a.det.run.Pause()
			}
		case "keep", "discard":
			if a.det.run == nil {
				return fmt.Errorf("detail %s: no detail pass open", c.Args[0])
			}
			a.endDetail(c.Args[0] == "keep")
		}
	case "run":
		a.wk.Send(worker.Run{})
		a.script.fpsFrom = len(a.fps.all)
	case "pause":
		a.wk.Send(worker.Pause{})
	case "steps":
		n, _ := c.Count(0)
		a.runSteps(n)
	case "undo":
		a.undo()
	case "redo":
		a.redo()
	case "new":
		a.newDoc()
	case "save":
		if !a.saveTo(c.Args[0]) {
			return fmt.Errorf("saving %s failed", c.Args[0])
		}
	case "open":
		a.openPath(c.Args[0])
	case "export":
		if c.Args[0] == "heightmap" {
			a.exportHeightmap(c.Args[1])
		} else {
			a.exportMasks(c.Args[1], ".png")
		}
	case "import":
		if c.Args[0] == "uplift" {
			a.importUplift(c.Args[1])
		} else {
			a.importHeightmap(c.Args[1])
		}
	case "screenshot":
		a.screenshot = c.Args[0]
		// Draw takes it after this Update; the next command waits a frame.
		end := a.frames + 1
		a.script.wait("the screenshot", func() bool { return a.frames > end })
	case "report":
		return a.writeReport(c.Args[0])
	case "dialog":
		a.scriptDialog(c.Args[0])
	case "view":
		a.mode = map[string]viewMode{"2d": mode2D, "3d": mode3D, "split": modeSplit}[c.Args[0]]
	case "orbit":
		a.v3.cam = a.v3.cam.Orbit(num(0), num(1))
	case "draw3d":
		a.v3.gpu = c.Args[0] == "opengl"
	case "expect-log":
		want := strings.Join(c.Args, " ")
		if !a.log.contains(want) {
			return fmt.Errorf("the log has no line with %q", want)
		}
	case "quit":
		a.quitting = true
	}
	return nil
}

// scriptDialog opens a dialog as its menu item would (the unsaved-changes
// prompt as New would show it), or closes whatever is open.
func (a *App) scriptDialog(name string) {
	switch name {
	case "open":
		a.browser.show("Open project or scene", false, a.dir(), "", openExts, a.openPath)
	case "save-as":
		a.saveAsDialog()
	case "export-heightmap":
		a.exportHeightmapDialog()
	case "export-masks":
		a.exportMasksDialog()
	case "import-uplift":
		a.importUpliftDialog()
	case "import-heightmap":
		a.importHeightmapDialog()
	case "unsaved":
		a.ask("Unsaved changes", a.title()+" has unsaved changes. Save them before you start a new project?",
			modalButton{"Save", nil}, modalButton{"Discard", nil}, modalButton{"Cancel", nil})
	case "shortcuts":
		a.help.shortcuts = true
	case "about":
		a.help.about = true
	case "close":
		a.browser.visible = false
		a.modal = modal{}
		a.help = helpState{}
	}
}

// runSteps pauses the engine, then runs n steps and waits until the n-th
// shows.
func (a *App) runSteps(n int) {
	paused := make(chan uint64, 1)
	a.wk.Send(worker.Pause{}, worker.Sync{Done: paused})
	base := -1
	a.script.fpsFrom = len(a.fps.all)
	a.script.wait(fmt.Sprintf("%d engine steps", n), func() bool {
		if base < 0 {
			select {
			case <-paused:
				base = a.wk.Frame().Snap.Step
				a.wk.Send(worker.Step{N: n})
			default:
				return false
			}
		}
		return a.wk.Frame().Snap.Step >= base+n
	})
}

// report is what `report PATH` writes: the figures the issue asks for.
type report struct {
	Frames        int       `json:"frames"`
	Seconds       float64   `json:"seconds"`
	FPS           []float64 `json:"fps_per_second"`
	FPSMean       float64   `json:"fps_mean"`
	FPSMin        float64   `json:"fps_min_while_running"`
	StepsPerSec   float64   `json:"engine_steps_per_s"`
	Width         int       `json:"width"`
	Height        int       `json:"height"`
	Step          int       `json:"step"`
	RenderMs      float64   `json:"picture_ms"`
	MeshMs        float64   `json:"mesh3d_ms"`
	Picture3DMs   float64   `json:"picture3d_ms"`
	SliderLag     []int     `json:"slider_lag_steps"`
	PhaseMs       []float64 `json:"phase_ms"`
	WindowW       int       `json:"window_w"`
	WindowH       int       `json:"window_h"`
	ProjectPath   string    `json:"project,omitempty"`
	Unsaved       bool      `json:"unsaved"`
	UpliftVersion uint64    `json:"uplift_version"`
}

func (a *App) writeReport(path string) error {
	f := a.wk.Frame()
	pic, mesh, proj := a.rend.timings()
	r := report{Frames: a.frames, Seconds: time.Since(a.script.start).Seconds(), FPS: a.fps.all,
		StepsPerSec: f.StepsPerSec, Width: f.Snap.W, Height: f.Snap.H, Step: f.Snap.Step,
		RenderMs: pic, MeshMs: mesh, Picture3DMs: proj, SliderLag: a.lag.steps, PhaseMs: f.PhaseMs[:],
		ProjectPath: a.path, Unsaved: a.dirty(), UpliftVersion: a.doc.UpliftVersion()}
	r.WindowW, r.WindowH = ebiten.WindowSize()
	if r.Seconds > 0 {
		r.FPSMean = float64(a.frames) / r.Seconds
	}
	// The lowest one-second rate since the last run/steps command, leaving
	// out the first second (it holds the command's own work).
	r.FPSMin = -1
	if from := a.script.fpsFrom + 1; from < len(a.fps.all) {
		r.FPSMin = a.fps.all[from]
		for _, v := range a.fps.all[from:] {
			r.FPSMin = min(r.FPSMin, v)
		}
	}
	if err := safefile.WriteJSON(path, r); err != nil {
		return err
	}
	a.log.add(levelInfo, "report %s", filepath.Base(path))
	return nil
}
