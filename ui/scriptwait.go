package ui

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/ui/script"
)

// Script commands that wait for what real input did: the window test
// drives the window with X key and mouse events (xdotool) and the script
// waits for their effects, telling the test through `signal` when to send
// the next ones.

var (
	awaitParamSpec = script.Spec{Min: 2, Max: 2, Check: func(c script.Command) error { return c.Nums(1) }}
	awaitLogSpec   = script.Spec{Min: 1, Max: -1}
)

// signalFile is what `signal` writes: where the test's events must go.
type signalFile struct {
	Sliders map[string][4]float32 `json:"sliders"` // label: x0, y0, x1, y1, window pixels
	Map     [4]float32            `json:"map"`     // the 2D view's rectangle
	// A map point (x, y) (cell i spans [i, i+1)) is at window pixel
	// (MapX0 + Zoom·x, MapY0 + Zoom·y).
	MapX0, MapY0, Zoom float64
	Frames             int `json:"frames"`
	// Items are the rectangles of the tools' radio buttons (by tool
	// name) and of windows (by window name), as last drawn.
	Items map[string][4]float32 `json:"items"`
}

// signal writes the window's layout to path (a named pipe the test
// reads, or a file). It blocks until a reader opens a pipe.
func (a *App) signal(args []string) error {
	ox, oy := a.mapToScreen(0, 0)
	s := signalFile{Sliders: sliderRects, Map: [4]float32{a.vp.x, a.vp.y, a.vp.x + a.vp.w, a.vp.y + a.vp.h},
		MapX0: ox, MapY0: oy, Zoom: a.view.Zoom, Frames: a.frames, Items: itemRects}
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return os.WriteFile(args[0], b, 0o644)
}

// awaitTool holds the script until the tool of that name is chosen.
func (a *App) awaitTool(args []string) error {
	want := strings.Join(args, " ")
	if !slices.Contains(toolNames[:], want) {
		return fmt.Errorf("no tool %q (tools: %s)", want, strings.Join(toolNames[:], ", "))
	}
	a.waitFor("the "+want+" tool", func() bool { return toolNames[a.tool] == want })
	return nil
}

// awaitSection holds the script until the Cross-section window has drawn
// a line's profile, or with "drag", until a line is being dragged.
func (a *App) awaitSection(args []string) error {
	if len(args) > 0 {
		a.waitFor("a cross-section line being dragged", func() bool { return a.sec.dragging })
		return nil
	}
	a.waitFor("the cross-section", func() bool { return a.sec.set && a.sec.drawn > 0 })
	return nil
}

// awaitLog holds the script until the log holds the text.
func (a *App) awaitLog(args []string) error {
	want := strings.Join(args, " ")
	a.waitFor(fmt.Sprintf("the log to hold %q", want), func() bool { return a.log.contains(want) })
	return nil
}

// awaitParam holds the script until a live parameter reads the value
// (to 1e-9 of it).
func (a *App) awaitParam(args []string) error {
	if _, ok := findSlider(args[0]); !ok {
		return fmt.Errorf("no slider %q (sliders: %s)", args[0], strings.Join(sliderNames(), ", "))
	}
	want := num(args, 1)
	a.waitFor(fmt.Sprintf("%s = %g", args[0], want), func() bool {
		return math.Abs(a.sliderValue(args[0])-want) <= 1e-9*math.Abs(want)
	})
	return nil
}

// awaitSettled holds the script until the engine has settled and rests;
// it logs how long that took from the command.
func (a *App) awaitSettled([]string) error {
	t0 := time.Now()
	a.waitFor("the terrain to settle", func() bool {
		f := a.s.Frame()
		if !f.Resting {
			return false
		}
		a.script.settledAfter = time.Since(t0)
		a.log.add(levelInfo, "settled and resting at step %d, %.1f s after await-settled", f.Snap.Step, a.script.settledAfter.Seconds())
		return true
	})
	return nil
}

// awaitWake holds the script until the engine takes a step past the one
// it shows now: after await-settled, until an edit (a real click in the
// window test) wakes the resting engine.
func (a *App) awaitWake([]string) error {
	base := a.s.Frame().Snap.Step
	a.waitFor("the engine to step again", func() bool { return a.s.Frame().Snap.Step > base })
	return nil
}

// awaitTyping holds the script until a slider's typed field has the
// keyboard (after a Ctrl+click), so the test types into it.
func (a *App) awaitTyping([]string) error {
	a.waitFor("a slider's typed field", func() bool {
		return sliderTyping.id != 0 && !sliderTyping.focus && imgui.CurrentIO().WantTextInput()
	})
	return nil
}

// awaitPainting holds the script until a paint stroke is under way (the
// mouse button went down on the map).
func (a *App) awaitPainting([]string) error {
	a.waitFor("a paint stroke", func() bool { return a.painter.active })
	return nil
}

// awaitNewDialog holds the script until File → New's dialog is up.
func (a *App) awaitNewDialog([]string) error {
	a.waitFor("File → New's dialog", func() bool { return a.newDlg.open && a.newDlg.opened })
	return nil
}

// slowFrames makes every frame take at least the given milliseconds
// more, as a heavy 3D picture does: the window test checks that input
// between frames is kept.
func (a *App) slowFrames(args []string) error {
	a.pacer.delay = time.Duration(num(args, 0) * float64(time.Millisecond))
	return nil
}

// findSlider returns the slider called name.
func findSlider(name string) (int, bool) {
	for i, s := range sliders {
		if s.Name == name {
			return i, true
		}
	}
	return 0, false
}

// awaitStep holds the script until the view shows step N of the engine
// or a later one, so what a screenshot holds does not hang on the
// machine's speed.
// awaitRelief waits until the shaders' 2D relief is the newest
// snapshot's, whole (a redraw for a new snapshot alone takes several
// frames, reliefJob).
func (a *App) awaitRelief([]string) error {
	if !a.shaders(a.s.Snapshot()) || a.mode == mode3D {
		return fmt.Errorf("await-relief: the shaders draw no 2D relief now (views shader, view 2d or split)")
	}
	a.waitFor("the 2D relief of the newest snapshot", func() bool {
		return a.gv.reliefK.snap == a.s.Snapshot() && a.gv.job == nil
	})
	return nil
}

func (a *App) awaitStep(args []string) error {
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return err
	}
	// The terrain's size must be the document's: after New or Open the
	// old engine's frames show until the new engine's first.
	a.waitFor(fmt.Sprintf("step %d", n), func() bool {
		f, sc := a.s.Frame(), a.s.Doc().Scene()
		return f.Snap.Step >= n && f.Snap.W == sc.Width && f.Snap.H == sc.Height
	})
	return nil
}
