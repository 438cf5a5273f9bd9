package ui

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// The app draws at the display's rate only while something moves: input,
// the engine stepping, a picture being made, a build, a detail pass. Once
// all is still for paceGrace, it asks Ebiten for frames only on input
// (FPSModeVsyncOffMinimum: the main loop waits for window events) and
// for one frame per paceHeartbeat, which picks up work finished off the
// main goroutine (an analysis, an amplified window) and runs the
// autosave; a settled terrain then costs about no CPU. A script keeps
// the display's rate: its waits count frames.

const (
	paceGrace     = time.Second
	paceHeartbeat = time.Second
)

// pacer is the state of the frame pacing.
type pacer struct {
	idle      bool      // frames only on input and the heartbeat
	last      time.Time // when something last moved
	cx, cy    int       // the cursor at the last frame
	seen      any       // the worker and detail frames seen last,
	seenDet   any       // the Amplify preview and the analysis
	seenAmp   any
	seenAnl   any
	heartbeat *time.Timer   // schedules the idle frames
	delay     time.Duration // added to every frame (script slow-frames)
	quiet     bool          // this frame changed nothing: Draw skips it
	w, h      int           // the window's size at the last frame
}

// pace chooses the frame mode at the end of an Update.
func (a *App) pace() {
	p := &a.pacer
	if p.delay > 0 {
		time.Sleep(p.delay)
	}
	now := time.Now()
	moved := a.moving()
	if moved {
		p.last = now
	}
	idle := a.script == nil && now.Sub(p.last) >= paceGrace
	// A heartbeat frame that found nothing new draws nothing into
	// Ebitengine's offscreen screen: after a few such frames Ebitengine
	// stops presenting (the window keeps the last picture), and the
	// software rasterizer of a machine without a GPU is spared a full
	// redraw (about 45 ms of CPU a frame under Xvfb). The frames before
	// that draw the last picture again (finalscreen.go).
	p.quiet = idle && p.idle && !moved
	if idle != p.idle {
		p.idle = idle
		if idle {
			//lint:ignore SA1019 SetScreenClearedEveryFrame, its replacement, still runs Update and Draw at the display's rate
			ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum)
		} else {
			ebiten.SetVsyncEnabled(true)
		}
	}
	if idle {
		if p.heartbeat == nil {
			//lint:ignore SA1019 see above: the frame Ebiten's minimum mode draws on request
			p.heartbeat = time.AfterFunc(paceHeartbeat, ebiten.ScheduleFrame)
		} else {
			p.heartbeat.Reset(paceHeartbeat)
		}
	}
}

// moving reports whether this frame saw input, a new engine or detail
// frame, or work under way that will change the picture.
func (a *App) moving() bool {
	p := &a.pacer
	moved := false
	if x, y := ebiten.CursorPosition(); x != p.cx || y != p.cy {
		p.cx, p.cy, moved = x, y, true
	}
	if len(inpututil.AppendPressedKeys(nil)) > 0 || len(ebiten.AppendInputChars(nil)) > 0 {
		moved = true
	}
	for _, b := range []ebiten.MouseButton{ebiten.MouseButtonLeft, ebiten.MouseButtonRight, ebiten.MouseButtonMiddle} {
		if ebiten.IsMouseButtonPressed(b) || inpututil.IsMouseButtonJustReleased(b) {
			moved = true
		}
	}
	if wx, wy := ebiten.Wheel(); wx != 0 || wy != 0 {
		moved = true
	}
	if a.winW != p.w || a.winH != p.h {
		p.w, p.h, moved = a.winW, a.winH, true
	}
	if f := a.s.Frame(); f != p.seen {
		p.seen, moved = f, true
	}
	if r := a.s.Detail(); r != nil {
		if f := r.Frame(); f != p.seenDet {
			p.seenDet, moved = f, true
		}
	}
	// Results of the goroutines that work off the frame: a new one
	// moves the picture (a heartbeat frame finds it).
	if ap := a.s.AmplifyPreview(); ap != p.seenAmp {
		p.seenAmp, moved = ap, true
	}
	if a.anl.an != nil {
		if l := a.anl.an.Latest(); l != p.seenAnl {
			p.seenAnl, moved = l, true
		}
	}
	return moved || a.quitting || a.exp.building || a.s.AmplifyBusy() || (a.rend != nil && !a.rend.Idle())
}
