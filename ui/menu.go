package ui

import (
	"fmt"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
)

// mainMenu draws the menu bar from the action table (actions.go).
func (a *App) mainMenu() {
	if !imgui.BeginMainMenuBar() {
		return
	}
	for _, m := range []string{"File", "Edit", "View", "Simulation", "Help"} {
		if !imgui.BeginMenu(m) {
			continue
		}
		a.menuItems(m, "Open...", a.recentMenu)
		imgui.EndMenu()
	}
	// Status on the right: project, unsaved mark, frame rate.
	name := a.s.Title()
	if a.s.Dirty() {
		name += " *"
	}
	status := fmt.Sprintf("%s   %.0f fps", name, a.fps.value)
	w := imgui.CalcTextSize(status).X
	imgui.SameLineV(imgui.WindowWidth()-w-16, 0)
	imgui.TextUnformatted(status)
	imgui.EndMainMenuBar()
}

// recentMenu lists the recent files under File → Open.
func (a *App) recentMenu() {
	if imgui.BeginMenuV("Open Recent", len(a.prefs.Recent) > 0) {
		for _, p := range a.prefs.Recent {
			if imgui.MenuItemBool(p) {
				a.do("open", p)
			}
		}
		imgui.EndMenu()
	}
}

// keyHelp lists the table's shortcuts: key, what it does.
func keyHelp() [][2]string {
	var h [][2]string
	for _, ac := range actions {
		for _, it := range ac.items {
			if it.key.zero() {
				continue
			}
			what := it.label
			if what == "" {
				what = plainLabel(ac.label)
			}
			what = strings.TrimSuffix(what, "...")
			if it.args != nil && it.label == "" {
				what += ": " + strings.Join(it.args, " ")
			}
			h = append(h, [2]string{it.key.String(), what})
		}
	}
	return h
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
			for _, s := range append(keyHelp(), [][2]string{
				{"Left drag", "paint, place a range or valley, or drag a handle (by tool)"},
				{"Middle or right drag", "pan the map"},
				{"Wheel", "zoom around the cursor"},
			}...) {
				imgui.TextUnformatted(s[0])
				imgui.SameLineV(170, 0)
				textWrapped(s[1]) // wrapped at the window's edge, not cut
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
