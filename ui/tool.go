package ui

import (
	"fmt"
	"math"

	"orogen/app/session"
	"orogen/uplifttree"
)

// toolCtx is what a map tool may use of the app (Gio's widgets take a
// layout.Context the same way): the session (document and engine), the
// view (the map's screen rectangle, map to screen, the cell size), the
// active tool, the log and the error dialog. Tools keep their own state
// and never reach the App.
type toolCtx struct {
	s        *session.Session
	vp       viewport
	cell     float64 // metres
	toScreen func(mx, my float64) (sx, sy float64)
	tool     tool
	setTool  func(tool)
	// sel is the selected node of the Uplift Tree (shared with the Select
	// tool); centreX, centreY and viewSize are the view's centre and the
	// smaller side of the map shown, metres.
	sel                        *uplifttree.ID
	centreX, centreY, viewSize float64
	do                         func(action string, args ...string)
	logf                       func(format string, args ...any)
	fail                       func(title string, err error)
}

// toolCtx is the context the App gives its tools this frame.
func (a *App) toolCtx() toolCtx {
	return toolCtx{s: a.s, vp: a.vp, cell: a.cell(), toScreen: a.mapToScreen, tool: a.tool,
		setTool: func(t tool) { a.tool = t },
		logf:    func(format string, args ...any) { a.log.add(levelInfo, "%s", fmt.Sprintf(format, args...)) },
		fail:    a.showError, sel: &a.sel, do: a.do,
		centreX: a.view.CenterX * a.cell(), centreY: a.view.CenterY * a.cell(),
		viewSize: math.Min(float64(a.vp.w), float64(a.vp.h)) / a.view.Zoom * a.cell()}
}
