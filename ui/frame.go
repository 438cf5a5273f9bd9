package ui

import (
	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/hajimehoshi/ebiten/v2"
)

// Window names; the dock layout and imgui.ini refer to them.
const (
	winViewport   = "Viewport"
	winTools      = "Tools"
	winTree       = "Uplift Tree"
	winSimulation = "Simulation"
	winOverlays   = "Overlays"
	winLog        = "Log"
	// winAnalysis is opened from View → Analysis (ui/analysis.go).
)

// buildFrame builds the whole ImGui frame: menus, the docked panels, the
// dialogs, and the shortcuts.
func (a *App) buildFrame() {
	a.mainMenu()
	a.dockspace()
	a.viewportWindow()
	a.toolsWindow()
	a.tree.treeWindow(a.toolCtx())
	a.simulationWindow()
	a.overlaysWindow()
	a.geologyWindow()
	a.sectionWindow()
	a.cons.constraintsWindow(a.toolCtx())
	a.analysisWindow()
	a.logWindow()
	a.browser.draw()
	a.drawModal()
	a.newDialogWindow()
	a.helpWindows()
	a.settingsWindow()
	a.exportWindows()
	a.shortcuts()
}

// dockspace covers the main viewport under the menu bar; its central node
// lets the map show through. The first run (no imgui.ini yet) and View →
// Reset layout build the default arrangement.
func (a *App) dockspace() {
	vp := imgui.MainViewport()
	id := imgui.IDStr("orogen-dock")
	if !a.layoutDone {
		a.layoutDone = true
		if node := imgui.InternalDockBuilderGetNode(id); node.CData == nil || a.resetLayout {
			a.buildLayout(id, vp)
		}
		a.resetLayout = false
	}
	if a.winClass == nil {
		a.winClass = imgui.NewWindowClass() // cimgui-go needs one, even a default
	}
	// The dockspace's host paints WindowBg over every node that holds a
	// window, the central one too: transparent, so the map shows through
	// the Viewport window (itself without background).
	imgui.PushStyleColorVec4(imgui.ColWindowBg, imgui.Vec4{})
	imgui.DockSpaceOverViewportV(id, vp, imgui.DockNodeFlagsPassthruCentralNode, a.winClass)
	imgui.PopStyleColor()
}

func (a *App) buildLayout(id imgui.ID, vp *imgui.Viewport) {
	imgui.InternalDockBuilderRemoveNode(id)
	imgui.InternalDockBuilderAddNodeV(id, imgui.DockNodeFlags(imgui.DockNodeFlagsDockSpace))
	imgui.InternalDockBuilderSetNodeSize(id, vp.WorkSize())
	var left, rest, right, centre, bottom, top, toolsID, treeID, simID, overID imgui.ID
	imgui.InternalDockBuilderSplitNode(id, imgui.DirLeft, 0.22, &left, &rest)
	imgui.InternalDockBuilderSplitNode(rest, imgui.DirRight, 0.30, &right, &centre)
	imgui.InternalDockBuilderSplitNode(centre, imgui.DirDown, 0.18, &bottom, &top)
	imgui.InternalDockBuilderSplitNode(left, imgui.DirUp, 0.45, &toolsID, &treeID)
	imgui.InternalDockBuilderSplitNode(right, imgui.DirUp, 0.72, &simID, &overID)
	imgui.InternalDockBuilderDockWindow(winTools, toolsID)
	imgui.InternalDockBuilderDockWindow(winTree, treeID)
	imgui.InternalDockBuilderDockWindow(winSimulation, simID)
	imgui.InternalDockBuilderDockWindow(winAnalysis, simID)
	imgui.InternalDockBuilderDockWindow(winGeology, simID)
	imgui.InternalDockBuilderDockWindow(winOverlays, overID)
	imgui.InternalDockBuilderDockWindow(winConstraints, overID)
	imgui.InternalDockBuilderDockWindow(winLog, bottom)
	imgui.InternalDockBuilderDockWindow(winViewport, top)
	imgui.InternalDockBuilderFinish(id)
}

// fullscreen toggles from the View menu.
func (a *App) toggleFullscreen() { ebiten.SetFullscreen(!ebiten.IsFullscreen()) }
