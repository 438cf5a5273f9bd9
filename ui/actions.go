package ui

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/session"
	"orogen/brushes"
	"orogen/sim/engine"
	"orogen/ui/script"
)

// An action is one thing a user can do. The menus, the keyboard shortcuts
// and the script commands all read the one table, actions: a menu item or
// a key runs its action with the item's arguments, a script line with the
// line's. An action run without the arguments it needs (a menu item such as
// Open...) asks for them in a dialog, which then runs the action again
// with them.
type action struct {
	name  string      // the script command
	label string      // what it does, for menus, tooltips and script help
	spec  script.Spec // the arguments a script line gives
	// run carries the action out. It reports failure as an error (shown
	// in a dialog, or failing the script) and leaves the document as it
	// was.
	run   func(a *App, args []string) error
	items []item // where the menus and keys offer it
}

// An item offers an action in a menu, on a key, or both.
type item struct {
	menu  string   // "File", "Edit", ...; "" for a key alone
	label string   // the menu label; "" means the action's
	key   key      // the shortcut; zero for none
	hint  string   // a key shown beside the label but handled elsewhere
	args  []string // the arguments it runs the action with (nil: ask)
	// sep puts a separator above the item.
	sep     bool
	enabled func(a *App) bool // nil: always
	checked func(a *App) bool // nil: not a toggle
	// labelOf names the item from the app's state (Undo's label).
	labelOf func(a *App) string
}

// key is a shortcut: a key with exactly these modifiers.
type key struct {
	k           imgui.Key
	ctrl, shift bool
	repeat      bool // held down, the key repeats the action
}

func (k key) zero() bool { return k == key{} }

// String writes the key as menus show it: "Ctrl+Shift+S".
func (k key) String() string {
	if k.zero() {
		return ""
	}
	s := keyNames[k.k]
	if k.shift {
		s = "Shift+" + s
	}
	if k.ctrl {
		s = "Ctrl+" + s
	}
	return s
}

var keyNames = map[imgui.Key]string{
	imgui.KeyN: "N", imgui.KeyO: "O", imgui.KeyS: "S", imgui.KeyQ: "Q", imgui.KeyZ: "Z", imgui.KeyY: "Y",
	imgui.KeySpace: "Space", imgui.KeyF2: "F2", imgui.KeyF3: "F3", imgui.KeyF4: "F4",
	imgui.KeyLeftBracket: "[", imgui.KeyRightBracket: "]",
}

func ctrl(k imgui.Key) key      { return key{k: k, ctrl: true} }
func ctrlShift(k imgui.Key) key { return key{k: k, ctrl: true, shift: true} }
func plain(k imgui.Key) key     { return key{k: k} }

// Argument checks of the script grammar.
var (
	noArgs    = script.Spec{}
	onePath   = script.Spec{Min: 1, Max: 1}
	oneCount  = script.Spec{Min: 1, Max: 1, Check: func(c script.Command) error { _, err := c.Count(0); return err }}
	fourNums  = script.Spec{Min: 4, Max: 4, Check: func(c script.Command) error { return c.Nums(0) }}
	choiceArg = func(what string, choices ...string) script.Spec {
		return script.Spec{Min: 1, Max: 1, Check: func(c script.Command) error { return c.Choice(0, what, choices...) }}
	}
	kindPath = func(what string, kinds ...string) script.Spec {
		return script.Spec{Min: 2, Max: 2, Check: func(c script.Command) error { return c.Choice(0, what, kinds...) }}
	}
)

// actions is the table. Menus list their items in table order.
var actions []action

func init() {
	running := func(a *App) bool { return a.s.Frame().Running }
	actions = []action{
		// File
		{name: "new", label: "New project", spec: noArgs,
			run:   (*App).newDoc,
			items: []item{{menu: "File", label: "New", key: ctrl(imgui.KeyN)}}},
		{name: "open", label: "Open a project or scene", spec: onePath, run: (*App).open,
			items: []item{{menu: "File", label: "Open...", key: ctrl(imgui.KeyO)}}},
		{name: "save", label: "Save the project", spec: onePath, run: (*App).save,
			items: []item{{menu: "File", label: "Save", key: ctrl(imgui.KeyS), sep: true}}},
		{name: "save-as", label: "Save the project as", spec: onePath, run: (*App).saveAs,
			items: []item{{menu: "File", label: "Save As...", key: ctrlShift(imgui.KeyS)}}},
		{name: "import", label: "Import an uplift image or a heightmap", spec: kindPath("import", "uplift", "heightmap"), run: (*App).importFile,
			items: []item{
				{menu: "File", label: "Import uplift image...", args: []string{"uplift"}, sep: true},
				{menu: "File", label: "Import heightmap...", args: []string{"heightmap"}}}},
		{name: "export", label: "Export the heightmap or the masks", spec: kindPath("export", "heightmap", "masks"), run: (*App).exportFile,
			items: []item{
				{menu: "File", label: "Export heightmap...", args: []string{"heightmap"}},
				{menu: "File", label: "Export masks...", args: []string{"masks"}}}},
		{name: "load-geology", label: "Import a geology (JSON: layers, rocks, deformations)", spec: onePath, run: (*App).loadGeology,
			items: []item{{menu: "File", label: "Import geology..."}}},
		{name: "quit", label: "Quit (a script skips the unsaved-changes prompt)", spec: noArgs, run: (*App).quit,
			items: []item{{menu: "File", label: "Quit", key: ctrl(imgui.KeyQ), sep: true}}},
		// Edit
		{name: "undo", label: "Undo the last edit", spec: noArgs, run: (*App).undo,
			items: []item{{menu: "Edit", label: "Undo", key: ctrl(imgui.KeyZ),
				enabled: func(a *App) bool { _, ok := a.s.Doc().CanUndo(); return ok },
				labelOf: func(a *App) string { l, _ := a.s.Doc().CanUndo(); return menuLabel("Undo", l) }}}},
		{name: "redo", label: "Redo the last undone edit", spec: noArgs, run: (*App).redo,
			items: []item{{menu: "Edit", label: "Redo", key: ctrl(imgui.KeyY),
				enabled: func(a *App) bool { _, ok := a.s.Doc().CanRedo(); return ok },
				labelOf: func(a *App) string { l, _ := a.s.Doc().CanRedo(); return menuLabel("Redo", l) }},
				{key: ctrlShift(imgui.KeyZ)}}},
		// View
		{name: "view", label: "Show the 2D map, the 3D view, or both", spec: choiceArg("view", "2d", "3d", "split"), run: (*App).setMode,
			items: []item{
				{menu: "View", label: modeNames[mode2D], key: plain(imgui.KeyF2), args: []string{"2d"}, checked: func(a *App) bool { return a.mode == mode2D }},
				{menu: "View", label: modeNames[mode3D], key: plain(imgui.KeyF3), args: []string{"3d"}, checked: func(a *App) bool { return a.mode == mode3D }},
				{menu: "View", label: modeNames[modeSplit], key: plain(imgui.KeyF4), args: []string{"split"}, checked: func(a *App) bool { return a.mode == modeSplit }}}},
		{name: "render", label: "Render the view to a PNG (name_WxH.png sets the size)", spec: onePath, run: (*App).render,
			items: []item{{menu: "View", label: "Render view to PNG..."}}},
		{name: "fit", label: "Fit the map to the viewport", spec: noArgs,
			run:   func(a *App, _ []string) error { a.fitView = true; return nil },
			items: []item{{menu: "View", label: "Fit map", hint: "F", sep: true}}},
		{name: "show", label: "Show or hide rivers, lakes, flow arrows, the plot, the Analysis panel or the basins", spec: script.Spec{Min: 1, Max: 2, Check: checkShow}, run: (*App).show,
			items: []item{
				{menu: "View", label: "Rivers", args: []string{"rivers"}, checked: func(a *App) bool { return a.vopts.Rivers }},
				{menu: "View", label: "Lakes", args: []string{"lakes"}, checked: func(a *App) bool { return a.vopts.Lakes }},
				{menu: "View", label: "Flow arrows (high zoom)", args: []string{"arrows"}, checked: func(a *App) bool { return a.arrows }},
				{menu: "View", label: "Plot", args: []string{"plot"}, checked: func(a *App) bool { return a.showPlot }},
				{menu: "View", label: "Analysis", args: []string{"analysis"}, sep: true, checked: func(a *App) bool { return a.anl.shown }},
				{menu: "View", label: "Basins", args: []string{"basins"}, checked: func(a *App) bool { return a.anl.basins }}}},
		{name: "profile", label: "Pick the river through cell X Y for the longitudinal profile (a script waits for its analysis)", spec: script.Spec{Min: 2, Max: 2, Check: func(c script.Command) error { return c.Nums(0) }}, run: (*App).profile},
		{name: "colour", label: "Colour the 2D and 3D views by height or by exposed rock", spec: choiceArg("colour", "height", "rock"),
			run: func(a *App, args []string) error { a.setRockColours(args[0] == "rock"); return nil },
			items: []item{
				{menu: "View", label: "Colour by height", args: []string{"height"}, sep: true, checked: func(a *App) bool { return !a.vopts.Rock }},
				{menu: "View", label: "Colour by rock", args: []string{"rock"}, checked: func(a *App) bool { return a.vopts.Rock }}}},
		{name: "section", label: "Show the cross-section under the line X0 Y0 X1 Y1 in cells", spec: fourNums,
			run: func(a *App, args []string) error {
				return a.setSection(num(args, 0), num(args, 1), num(args, 2), num(args, 3))
			}},
		{name: "fullscreen", label: "Full screen on or off", spec: noArgs,
			run:   func(a *App, _ []string) error { a.toggleFullscreen(); return nil },
			items: []item{{menu: "View", label: "Full screen", sep: true}}},
		{name: "reset-layout", label: "Put the panels back where they start", spec: noArgs,
			run:   func(a *App, _ []string) error { a.layoutDone, a.resetLayout = false, true; return nil },
			items: []item{{menu: "View", label: "Reset layout"}}},
		{name: "orbit", label: "Turn the 3D camera by DYAW DPITCH degrees", spec: script.Spec{Min: 2, Max: 2, Check: func(c script.Command) error { return c.Nums(0) }},
			run: func(a *App, args []string) error { a.v3.cam = a.v3.cam.Orbit(num(args, 0), num(args, 1)); return nil }},
		{name: "draw3d", label: "Draw the 3D view by software fill or with OpenGL", spec: choiceArg("3D drawing", "fill", "opengl"),
			run: func(a *App, args []string) error { a.v3.gpu = args[0] == "opengl"; return nil }},
		// Simulation
		{name: "run", label: "Run the simulation", spec: noArgs, run: (*App).run,
			items: []item{{menu: "Simulation", label: "Run", hint: "Space", checked: running, enabled: func(a *App) bool { return !running(a) }}}},
		{name: "pause", label: "Pause the simulation", spec: noArgs,
			run:   func(a *App, _ []string) error { a.s.Pause(); return nil },
			items: []item{{menu: "Simulation", label: "Pause", hint: "Space", checked: func(a *App) bool { return !running(a) }, enabled: running}}},
		{name: "toggle-run", label: "Run or pause the simulation", spec: noArgs,
			run:   func(a *App, _ []string) error { a.s.ToggleRun(); return nil },
			items: []item{{key: plain(imgui.KeySpace)}}},
		{name: "steps", label: "Pause, run N steps (a script waits until they show)", spec: oneCount, run: (*App).steps,
			items: []item{
				{menu: "Simulation", label: "Step", args: []string{"1"}},
				{menu: "Simulation", label: "Step ×10", args: []string{"10"}}}},
		{name: "reset", label: "Reset the terrain to the flat start", spec: noArgs,
			run:   func(a *App, _ []string) error { return a.s.ResetTerrain() },
			items: []item{{menu: "Simulation", label: "Reset terrain", sep: true}}},
		{name: "geology", label: "Layered rock on (a preset stack when there is none), off, or toggled", spec: choiceArg("geology", "on", "off", "toggle"), run: (*App).geologyOnOff,
			items: []item{{menu: "Simulation", label: "Layered rock", sep: true,
				args:    []string{"toggle"},
				checked: func(a *App) bool { return a.s.Geology() != nil }}}},
		{name: "engine", label: "Switch the engine (graph: NODES Poisson samples); the terrain restarts", spec: script.Spec{Min: 1, Max: 2, Check: checkEngine}, run: (*App).engine},
		{name: "detail", label: "Start, run, pause, keep or discard the hydraulic detail pass", spec: choiceArg("detail action", "start", "run", "pause", "keep", "discard"), run: (*App).detail},
		{name: "set", label: "Set a live parameter (a slider) to VALUE", spec: script.Spec{Min: 2, Max: 2, Check: checkSet}, run: (*App).set},
		// Tools
		{name: "stroke", label: "Paint a straight stroke KIND X0 Y0 X1 Y1 [RADIUS] [STRENGTH] in cells", spec: script.Spec{Min: 5, Max: 7, Check: checkStroke}, run: (*App).stroke},
		{name: "segment", label: "Place a range segment X0 Y0 X1 Y1 in cells", spec: fourNums, run: func(a *App, args []string) error { return a.placeBy(toolSegment, args) }},
		{name: "valley", label: "Place a valley X0 Y0 X1 Y1 in cells", spec: fourNums, run: func(a *App, args []string) error { return a.placeBy(toolValley, args) }},
		{name: "brush", label: "Make the brush smaller or larger", spec: choiceArg("brush size", "smaller", "larger"), run: (*App).brushSize,
			items: []item{{key: key{k: imgui.KeyLeftBracket, repeat: true}, args: []string{"smaller"}},
				{key: key{k: imgui.KeyRightBracket, repeat: true}, args: []string{"larger"}}}},
		// Help, dialogs and scripts
		{name: "dialog", label: "Open a dialog as its menu item does, or close it", spec: choiceArg("dialog", dialogs...), run: (*App).dialog,
			items: []item{
				{menu: "Help", label: "Shortcuts", args: []string{"shortcuts"}},
				{menu: "Help", label: "About Orogen", args: []string{"about"}}}},
		{name: "wait", label: "Let N frames pass", spec: oneCount, run: (*App).waitFrames},
		{name: "screenshot", label: "Save the whole window as a PNG", spec: onePath, run: (*App).screenshotTo},
		{name: "report", label: "Write the session's figures as JSON", spec: onePath, run: func(a *App, args []string) error { return a.writeReport(args[0]) }},
		{name: "expect-log", label: "Fail unless the log holds TEXT", spec: script.Spec{Min: 1, Max: -1}, run: (*App).expectLog},
	}
}

// scriptSpecs is the script grammar: every action's arguments.
func scriptSpecs() map[string]script.Spec {
	m := make(map[string]script.Spec, len(actions))
	for _, ac := range actions {
		m[ac.name] = ac.spec
	}
	return m
}

// actionByName returns the action called name.
func actionByName(name string) (*action, bool) {
	for i := range actions {
		if actions[i].name == name {
			return &actions[i], true
		}
	}
	return nil, false
}

// do runs an action from a menu, a key or a dialog; a failure goes to an
// error dialog titled with the action's label.
func (a *App) do(name string, args ...string) {
	ac, ok := actionByName(name)
	if !ok {
		panic("ui: no action " + name)
	}
	if err := ac.run(a, args); err != nil {
		a.showError(ac.label, err)
	}
}

// act wraps a session action that returns an error for guard and the
// dialogs, which report it themselves.
func (a *App) act(title string, f func() error) func() {
	return func() {
		if err := f(); err != nil {
			a.showError(title, err)
		}
	}
}

// shortcuts runs the actions whose keys were pressed this frame. Typing in
// a text field, a dialog or the file browser takes precedence.
func (a *App) shortcuts() {
	io := imgui.CurrentIO()
	if io.WantTextInput() || a.modal.kind != modalNone || a.browser.visible {
		return
	}
	for i := range actions {
		for _, it := range actions[i].items {
			k := it.key
			if k.zero() || k.ctrl != io.KeyCtrl() || k.shift != io.KeyShift() || !imgui.IsKeyPressedBoolV(k.k, k.repeat) {
				continue
			}
			if it.enabled == nil || it.enabled(a) {
				a.do(actions[i].name, it.args...)
			}
			return
		}
	}
}

// menuItems draws the table's items of one menu; extra runs after the
// item labelled at, for what the table cannot hold (Open Recent).
func (a *App) menuItems(menu string, at string, extra func()) {
	first := true
	for i := range actions {
		for _, it := range actions[i].items {
			if it.menu != menu {
				continue
			}
			if it.sep && !first {
				imgui.Separator()
			}
			first = false
			label := it.label
			if it.labelOf != nil {
				label = it.labelOf(a)
			}
			shortcut := it.key.String()
			if it.hint != "" {
				shortcut = it.hint
			}
			checked := it.checked != nil && it.checked(a)
			enabled := it.enabled == nil || it.enabled(a)
			if imgui.MenuItemBoolV(label, shortcut, checked, enabled) {
				a.do(actions[i].name, it.args...)
			}
			if it.label == at && extra != nil {
				extra()
			}
		}
	}
}

// The actions' run functions, in table order.

func (a *App) newDoc([]string) error {
	a.guard("start a new project", a.act("New project", func() error {
		if err := a.s.NewDocument(); err != nil {
			return err
		}
		a.docChanged()
		return nil
	}))
	return nil
}

func (a *App) open(args []string) error {
	if len(args) == 0 {
		a.guard("open another project", a.openDialog)
		return nil
	}
	a.guard("open another project", a.act("Open "+filepath.Base(args[0]), func() error { return a.openPath(args[0]) }))
	return nil
}

// openDialog asks for a project or scene to open (the caller has asked
// about unsaved work).
func (a *App) openDialog() {
	a.browser.show("Open project or scene", false, a.s.Dir(), "", session.OpenExts, func(p string) {
		if err := a.openPath(p); err != nil {
			a.showError("Open "+filepath.Base(p), err)
		}
	})
}

// openPath opens a project or scene and shows its view.
func (a *App) openPath(path string) error {
	if err := a.s.Open(path); err != nil {
		return err
	}
	a.docChanged()
	return nil
}

// docChanged shows a new document: its view, nothing selected.
func (a *App) docChanged() {
	a.sel = 0
	a.fitView = true
	a.applyView(a.s.Doc().View())
}

func (a *App) save(args []string) error {
	if len(args) == 1 {
		return a.s.SaveAs(args[0])
	}
	err := a.s.Save()
	if errors.Is(err, session.ErrNoPath) {
		return a.saveAs(nil)
	}
	return err
}

func (a *App) saveAs(args []string) error {
	if len(args) == 1 {
		return a.s.SaveAs(args[0])
	}
	name := "untitled" + session.ProjectExt
	if p := a.s.Path(); p != "" {
		name = filepath.Base(p)
	}
	a.browser.show("Save project as", true, a.s.Dir(), name, []string{session.ProjectExt}, func(p string) { a.do("save-as", p) })
	return nil
}

func (a *App) importFile(args []string) error {
	kind := args[0]
	if len(args) == 1 {
		title := "Import uplift image (normalized: white = uplift scale)"
		if kind == "heightmap" {
			title = "Import heightmap (metres: .png/.r16 with sidecar, .tif)"
		}
		a.browser.show(title, false, a.s.Dir(), "", session.ImageExts, func(p string) { a.do("import", kind, p) })
		return nil
	}
	if kind == "uplift" {
		return a.s.ImportUplift(args[1])
	}
	return a.s.ImportHeightmap(args[1])
}

func (a *App) exportFile(args []string) error {
	kind := args[0]
	switch {
	case len(args) == 1 && kind == "heightmap":
		a.browser.show("Export heightmap (.png 16-bit, .r16, .tif float, .obj)", true, a.s.Dir(), "heightmap.png", session.HeightExts,
			func(p string) { a.do("export", kind, p) })
	case len(args) == 1:
		// The folder of the name chosen, in the format of its extension.
		a.browser.show("Export masks: choose a folder and a base name", true, a.s.Dir(), "masks.png", session.MaskExts,
			func(p string) {
				if _, err := a.s.ExportMasks(filepath.Dir(p), filepath.Ext(p), a.vopts.RiverThresholdM2); err != nil {
					a.showError("Export masks", err)
				}
			})
	case kind == "heightmap":
		return a.s.ExportHeightmap(args[1])
	default:
		_, err := a.s.ExportMasks(args[1], ".png", a.vopts.RiverThresholdM2)
		return err
	}
	return nil
}

func (a *App) quit([]string) error {
	if a.script != nil {
		a.quitting = true
		return nil
	}
	a.requestQuit()
	return nil
}

func (a *App) undo([]string) error {
	_, _, err := a.s.Undo()
	return err
}

func (a *App) redo([]string) error {
	_, _, err := a.s.Redo()
	return err
}

func (a *App) setMode(args []string) error {
	a.mode = map[string]viewMode{"2d": mode2D, "3d": mode3D, "split": modeSplit}[args[0]]
	return nil
}

func (a *App) render(args []string) error {
	if len(args) == 0 {
		a.browser.show("Render the view to PNG (name_WxH.png sets the size, default 1920x1080)", true, a.s.Dir(), "render_1920x1080.png", []string{".png"},
			func(p string) { a.do("render", p) })
		return nil
	}
	return a.renderView(args[0])
}

var showNames = []string{"rivers", "lakes", "arrows", "plot", "analysis", "basins"}

func checkShow(c script.Command) error {
	if err := c.Choice(0, "layer", showNames...); err != nil {
		return err
	}
	if len(c.Args) == 2 {
		return c.Choice(1, "state", "on", "off")
	}
	return nil
}

// show toggles a layer of the view, or sets it on or off.
func (a *App) show(args []string) error {
	v := map[string]*bool{"rivers": &a.vopts.Rivers, "lakes": &a.vopts.Lakes, "arrows": &a.arrows, "plot": &a.showPlot,
		"analysis": &a.anl.shown, "basins": &a.anl.basins}[args[0]]
	if v == nil {
		return fmt.Errorf("unknown layer %q", args[0])
	}
	if len(args) == 2 {
		*v = args[1] == "on"
	} else {
		*v = !*v
	}
	return nil
}

func (a *App) run([]string) error {
	a.s.Run()
	if a.script != nil {
		a.script.fpsFrom = len(a.fps.all)
	}
	return nil
}

// steps pauses and runs n steps; a script waits until the n-th shows.
func (a *App) steps(args []string) error {
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return err
	}
	if a.script == nil {
		a.s.Step(n)
		return nil
	}
	a.runSteps(n)
	return nil
}

func checkEngine(c script.Command) error {
	k, err := engine.ParseKind(c.Args[0])
	if err != nil {
		return fmt.Errorf("unknown engine %q: want grid, graph or roudier", c.Args[0])
	}
	if len(c.Args) == 2 {
		if k != engine.Graph {
			return errors.New("a node count applies to the graph engine only")
		}
		if _, err := c.Count(1); err != nil {
			return err
		}
	}
	return nil
}

func (a *App) engine(args []string) error {
	k, err := engine.ParseKind(args[0])
	if err != nil {
		return err
	}
	n := 0
	if len(args) == 2 {
		if n, err = strconv.Atoi(args[1]); err != nil {
			return err
		}
	}
	return a.s.SetEngine(k, n)
}

func (a *App) detail(args []string) error {
	switch args[0] {
	case "start":
		return a.s.StartDetail()
	case "run":
		return a.s.RunDetail()
	case "pause":
		return a.s.PauseDetail()
	case "keep", "discard":
		if a.s.Detail() == nil {
			return fmt.Errorf("detail %s: no detail pass open", args[0])
		}
		a.s.EndDetail(args[0] == "keep")
	}
	return nil
}

func checkSet(c script.Command) error {
	if err := c.Choice(0, "slider", sliderNames()...); err != nil {
		return err
	}
	_, err := c.Num(1)
	return err
}

// set moves a live slider as a drag would, as one undo step, and hands it
// to the engine at once.
func (a *App) set(args []string) error {
	if err := a.setSlider(args[0], num(args, 1)); err != nil {
		return err
	}
	a.s.Doc().EndGesture()
	a.sync()
	if args[0] != "threshold" && args[0] != "umax" {
		a.lag = sliderLag{waiting: true, want: a.s.SentParams(), steps: a.lag.steps}
	}
	a.log.add(levelInfo, "set %s = %s", args[0], args[1])
	return nil
}

func checkStroke(c script.Command) error {
	if _, err := brushes.ParseKind(c.Args[0]); err != nil {
		return err
	}
	return c.Nums(1)
}

// stroke paints a straight stroke in cell coordinates as the mouse would,
// in pieces.
func (a *App) stroke(args []string) error {
	k, err := brushes.ParseKind(args[0])
	if err != nil {
		return err
	}
	a.tool = toolPaint
	a.brush.Kind = k
	if len(args) > 5 {
		a.brush.Radius = num(args, 5)
	}
	if len(args) > 6 {
		a.brush.Strength = num(args, 6)
	}
	// Cell (i, j) is map point (i + 0.5, j + 0.5).
	x0, y0, x1, y1 := num(args, 1)+0.5, num(args, 2)+0.5, num(args, 3)+0.5, num(args, 4)+0.5
	a.paintBegin(x0, y0)
	if !a.painter.active {
		return errors.New("the stroke did not start")
	}
	const pieces = 16
	for i := 1; i <= pieces; i++ {
		t := float64(i) / pieces
		a.paintTo(x0+t*(x1-x0), y0+t*(y1-y0))
	}
	a.paintEnd()
	return nil
}

// placeBy places a range segment or a valley by a drag between two cells.
func (a *App) placeBy(t tool, args []string) error {
	before := a.s.Doc().Tree().Len()
	a.place(t, num(args, 0)+0.5, num(args, 1)+0.5, num(args, 2)+0.5, num(args, 3)+0.5)
	if a.s.Doc().Tree().Len() == before {
		return errors.New("nothing was placed")
	}
	return nil
}

func (a *App) brushSize(args []string) error {
	if args[0] == "smaller" {
		a.brush.Radius = max(1, a.brush.Radius/1.2)
	} else {
		a.brush.Radius = min(512, a.brush.Radius*1.2)
	}
	return nil
}

// dialogs are the names `dialog` accepts.
var dialogs = []string{"open", "save-as", "export-heightmap", "export-masks", "import-uplift",
	"import-heightmap", "unsaved", "shortcuts", "about", "close"}

// dialog opens a dialog as its menu item would (the unsaved-changes prompt
// as New would show it), or closes whatever is open.
func (a *App) dialog(args []string) error {
	switch args[0] {
	case "open":
		a.openDialog()
	case "save-as":
		return a.saveAs(nil)
	case "export-heightmap":
		return a.exportFile([]string{"heightmap"})
	case "export-masks":
		return a.exportFile([]string{"masks"})
	case "import-uplift":
		return a.importFile([]string{"uplift"})
	case "import-heightmap":
		return a.importFile([]string{"heightmap"})
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
	return nil
}

func (a *App) waitFrames(args []string) error {
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return err
	}
	end := a.frames + n
	a.waitFor(fmt.Sprintf("%d frames", n), func() bool { return a.frames >= end })
	return nil
}

// screenshotPatience bounds how many frames a screenshot waits for the
// views to catch up.
const screenshotPatience = 600

func (a *App) screenshotTo(args []string) error {
	// Wait until the views show what they were last asked for (the
	// renderer idle, its pictures uploaded): under load a 3D picture can
	// take many frames. A running engine may keep it busy, so at most
	// screenshotPatience frames. Then Draw takes the shot after that
	// Update, and the script's next command waits a frame.
	if a.script == nil {
		a.screenshot = args[0]
		return nil
	}
	start, shot := a.frames, 0
	a.waitFor("the views to catch up and the screenshot", func() bool {
		if shot == 0 {
			if a.frames > start+1 && a.rend.idle() || a.frames > start+screenshotPatience {
				a.screenshot, shot = args[0], a.frames+1
			}
			return false
		}
		return a.frames > shot
	})
	return nil
}

func (a *App) expectLog(args []string) error {
	want := strings.Join(args, " ")
	if !a.log.contains(want) {
		return fmt.Errorf("the log has no line with %q", want)
	}
	return nil
}

// num is argument i as a number (checked by the script grammar).
func num(args []string, i int) float64 {
	v, _ := strconv.ParseFloat(args[i], 64)
	return v
}

// guard runs act now, or after the unsaved-changes prompt when there is
// unsaved work.
func (a *App) guard(what string, act func()) {
	if !a.s.Dirty() || a.script != nil {
		act()
		return
	}
	a.ask("Unsaved changes", fmt.Sprintf("%s has unsaved changes. Save them before you %s?", a.title(), what),
		modalButton{"Save", func() {
			err := a.s.Save()
			switch {
			case errors.Is(err, session.ErrNoPath):
				a.browser.show("Save project as", true, a.s.Dir(), "untitled"+session.ProjectExt, []string{session.ProjectExt}, func(p string) {
					if err := a.s.SaveAs(p); err != nil {
						a.showError("Save", err)
						return
					}
					act()
				})
			case err != nil:
				a.showError("Save", err)
			default:
				act()
			}
		}},
		modalButton{"Discard", act},
		modalButton{"Cancel", nil})
}

// title names the document in questions.
func (a *App) title() string {
	if a.s.Path() == "" {
		return "The untitled project"
	}
	return a.s.Title()
}

func (a *App) requestQuit() {
	if a.modal.kind == modalAsk {
		return // the prompt is already up
	}
	a.guard("quit", func() { a.quitting = true })
}

// checkRecovery offers autosaved work left by a session that did not end
// cleanly.
func (a *App) checkRecovery() {
	p, at, ok, err := session.Recovery()
	if err != nil {
		a.log.add(levelWarn, "recovery file: %v", err)
		return
	}
	if !ok || a.script != nil {
		return
	}
	a.ask("Recover unsaved work?",
		fmt.Sprintf("Orogen did not close cleanly last time. Work autosaved at %s can be restored.", at.Format("2006-01-02 15:04")),
		modalButton{"Recover", a.act("Recover", func() error {
			if err := a.s.Recover(p, at); err != nil {
				return err
			}
			a.docChanged()
			return nil
		})},
		modalButton{"Discard", a.s.DiscardRecovery})
}
