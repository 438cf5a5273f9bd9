package ui

import (
	"fmt"
	"path/filepath"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/worker"
)

func (a *App) mainMenu() {
	if !imgui.BeginMainMenuBar() {
		return
	}
	if imgui.BeginMenu("File") {
		if imgui.MenuItemBoolV("New", "Ctrl+N", false, true) {
			a.newDoc()
		}
		if imgui.MenuItemBoolV("Open...", "Ctrl+O", false, true) {
			a.openDialog()
		}
		if imgui.BeginMenuV("Open Recent", len(a.prefs.Recent) > 0) {
			for _, p := range a.prefs.Recent {
				if imgui.MenuItemBool(p) {
					a.guard("open another project", func() { a.openPath(p) })
				}
			}
			imgui.EndMenu()
		}
		imgui.Separator()
		if imgui.MenuItemBoolV("Save", "Ctrl+S", false, true) {
			a.save()
		}
		if imgui.MenuItemBoolV("Save As...", "Ctrl+Shift+S", false, true) {
			a.saveAsDialog()
		}
		imgui.Separator()
		if imgui.MenuItemBool("Import uplift image...") {
			a.importUpliftDialog()
		}
		if imgui.MenuItemBool("Import heightmap...") {
			a.importHeightmapDialog()
		}
		if imgui.MenuItemBool("Export heightmap...") {
			a.exportHeightmapDialog()
		}
		if imgui.MenuItemBool("Export masks...") {
			a.exportMasksDialog()
		}
		imgui.Separator()
		if imgui.MenuItemBoolV("Quit", "Ctrl+Q", false, true) {
			a.requestQuit()
		}
		imgui.EndMenu()
	}
	if imgui.BeginMenu("Edit") {
		ul, uok := a.doc.CanUndo()
		rl, rok := a.doc.CanRedo()
		if imgui.MenuItemBoolV(menuLabel("Undo", ul), "Ctrl+Z", false, uok) {
			a.undo()
		}
		if imgui.MenuItemBoolV(menuLabel("Redo", rl), "Ctrl+Y", false, rok) {
			a.redo()
		}
		imgui.EndMenu()
	}
	if imgui.BeginMenu("View") {
		for m := mode2D; m <= modeSplit; m++ {
			if imgui.MenuItemBoolV(modeNames[m], []string{"F2", "F3", "F4"}[m], a.mode == m, true) {
				a.mode = m
			}
		}
		if imgui.MenuItemBool("Render view to PNG...") {
			a.renderViewDialog()
		}
		imgui.Separator()
		if imgui.MenuItemBoolV("Fit map", "F", false, true) {
			a.fitView = true
		}
		if imgui.MenuItemBoolV("Rivers", "", a.vopts.Rivers, true) {
			a.vopts.Rivers = !a.vopts.Rivers
		}
		if imgui.MenuItemBoolV("Lakes", "", a.vopts.Lakes, true) {
			a.vopts.Lakes = !a.vopts.Lakes
		}
		if imgui.MenuItemBoolV("Flow arrows (high zoom)", "", a.arrows, true) {
			a.arrows = !a.arrows
		}
		if imgui.MenuItemBoolV("Plot", "", a.showPlot, true) {
			a.showPlot = !a.showPlot
		}
		imgui.Separator()
		if imgui.MenuItemBool("Full screen") {
			a.toggleFullscreen()
		}
		if imgui.MenuItemBool("Reset layout") {
			a.layoutDone, a.resetLayout = false, true
		}
		imgui.EndMenu()
	}
	if imgui.BeginMenu("Simulation") {
		f := a.wk.Frame()
		if imgui.MenuItemBoolV("Run", "Space", f.Running, !f.Running) {
			a.wk.Send(worker.Run{})
		}
		if imgui.MenuItemBoolV("Pause", "Space", !f.Running, f.Running) {
			a.wk.Send(worker.Pause{})
		}
		if imgui.MenuItemBool("Step") {
			a.wk.Send(worker.Pause{}, worker.Step{N: 1})
		}
		if imgui.MenuItemBool("Step ×10") {
			a.wk.Send(worker.Pause{}, worker.Step{N: 10})
		}
		imgui.Separator()
		if imgui.MenuItemBool("Reset terrain") {
			a.resetTerrain()
		}
		imgui.EndMenu()
	}
	if imgui.BeginMenu("Help") {
		if imgui.MenuItemBool("Shortcuts") {
			a.help.shortcuts = true
		}
		if imgui.MenuItemBool("About Orogen") {
			a.help.about = true
		}
		imgui.EndMenu()
	}
	// Status on the right: project, unsaved mark, frame rate.
	name := "untitled"
	if a.path != "" {
		name = filepath.Base(a.path)
	}
	if a.dirty() {
		name += " *"
	}
	status := fmt.Sprintf("%s   %.0f fps", name, a.fps.value)
	w := imgui.CalcTextSize(status).X
	imgui.SameLineV(imgui.WindowWidth()-w-16, 0)
	imgui.TextUnformatted(status)
	imgui.EndMainMenuBar()
}

func menuLabel(verb, what string) string {
	if what == "" {
		return verb
	}
	return verb + " " + what
}

type helpState struct{ shortcuts, about bool }

func (a *App) helpWindows() {
	if a.help.shortcuts {
		imgui.SetNextWindowSizeV(vec2(420, 0), imgui.CondAppearing)
		if imgui.BeginV("Shortcuts", &a.help.shortcuts, imgui.WindowFlagsNoDocking) {
			for _, s := range [][2]string{
				{"Ctrl+N / Ctrl+O", "new / open project"},
				{"Ctrl+S / Ctrl+Shift+S", "save / save as"},
				{"Ctrl+Z / Ctrl+Y", "undo / redo (strokes, tree edits, parameters)"},
				{"Space", "run or pause the simulation"},
				{"[ and ]", "brush smaller / larger"},
				{"Left drag", "paint, place a range or valley, or drag a handle (by tool)"},
				{"Middle or right drag", "pan the map"},
				{"Wheel", "zoom around the cursor"},
			} {
				imgui.TextUnformatted(s[0])
				imgui.SameLineV(170, 0)
				imgui.TextUnformatted(s[1])
			}
		}
		imgui.End()
	}
	if a.help.about {
		if imgui.BeginV("About Orogen", &a.help.about, imgui.WindowFlagsNoDocking|imgui.WindowFlagsAlwaysAutoResize) {
			imgui.TextUnformatted("Orogen - terrain from tectonic uplift and erosion.")
			imgui.TextUnformatted("Paint uplift or build an Uplift Tree; stream power, lakes and")
			imgui.TextUnformatted("hillslope processes carve it while you watch.")
		}
		imgui.End()
	}
}
