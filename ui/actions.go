package ui

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/engines"
	"orogen/app/project"
	"orogen/app/session"
	"orogen/brushes"
	"orogen/sim/engine"
	"orogen/ui/script"
	"orogen/uplifttree"
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
	imgui.KeyN: "N", imgui.KeyO: "O", imgui.KeyS: "S", imgui.KeyQ: "Q", imgui.KeyZ: "Z", imgui.KeyY: "Y", imgui.KeyC: "C", imgui.KeyV: "V",
	imgui.KeySpace: "Space", imgui.KeyF2: "F2", imgui.KeyF3: "F3", imgui.KeyF4: "F4",
	imgui.KeyLeftBracket: "[", imgui.KeyRightBracket: "]",
}

func ctrl(k imgui.Key) key      { return key{k: k, ctrl: true} }
func ctrlShift(k imgui.Key) key { return key{k: k, ctrl: true, shift: true} }
func plain(k imgui.Key) key     { return key{k: k} }

// Argument checks of the script grammar.
var (
	noArgs  = script.Spec{}
	newSpec = script.Spec{Max: 3, Check: func(c script.Command) error {
		if len(c.Args) > 1 {
			if _, err := c.Count(1); err != nil {
				return err
			}
		}
		return nil
	}}
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
		{name: "new", label: "New project [from PRESET [SIZE [ENGINE]]]", spec: newSpec,
			run:   (*App).newDoc,
			items: []item{{menu: "File", label: "New", key: ctrl(imgui.KeyN)}}},
		{name: "open", label: "Open a project or scene", spec: onePath, run: (*App).open,
			items: []item{{menu: "File", label: "Open...", key: ctrl(imgui.KeyO)}}},
		{name: "save", label: "Save the project", spec: onePath, run: (*App).save,
			items: []item{{menu: "File", label: "Save", key: ctrl(imgui.KeyS), sep: true}}},
		{name: "save-as", label: "Save the project as", spec: onePath, run: (*App).saveAs,
			items: []item{{menu: "File", label: "Save As...", key: ctrlShift(imgui.KeyS)}}},
		{name: "import", label: "Import an uplift image, a heightmap, or a DEM as uplift", spec: kindPath("import", "uplift", "heightmap", "dem"), run: (*App).importFile,
			items: []item{
				{menu: "File", label: "Import uplift image...", args: []string{"uplift"}, sep: true},
				{menu: "File", label: "Import heightmap...", args: []string{"heightmap"}},
				{menu: "File", label: "Import DEM as uplift...", args: []string{"dem"}}}},
		{name: "blend-with", label: "Blend with a heightmap, project, scene or preset in the uplift domain, west to east from X0 to X1 (fractions of the width; 0.4 0.6), or through the mask image MASK (0 keeps this terrain, 1 takes the other)", spec: script.Spec{Min: 1, Max: 3, Check: checkBlendWith}, run: (*App).blendWith,
			items: []item{{menu: "File", label: "Blend with..."}}},
		{name: "export", label: "Export the heightmap or the masks", spec: kindPath("export", "heightmap", "masks"), run: (*App).exportFile,
			items: []item{
				{menu: "File", label: "Export heightmap...", args: []string{"heightmap"}},
				{menu: "File", label: "Export masks...", args: []string{"masks"}}}},
		{name: "export-profile", label: "Set the export profile: a preset (unreal, unity, godot, generic) or a profile JSON file", spec: onePath, run: (*App).exportProfile,
			items: []item{{menu: "File", label: "Export profile...", sep: true}}},
		{name: "build", label: "Build the export profile into DIR (default NAME-build beside the project; a script waits)", spec: script.Spec{Min: 0, Max: 1}, run: (*App).startBuild,
			items: []item{{menu: "File", label: "Build", enabled: func(a *App) bool { return !a.exp.building }}}},
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
		{name: "amplify-preview", label: "Show a window of the map amplified (on, off or toggled); the 2D and 3D views show it when the engine has settled (a script waits for it)", spec: choiceArg("state", "on", "off", "toggle"), run: (*App).amplifyPreview,
			items: []item{{menu: "View", label: "Amplify preview", args: []string{"toggle"}, checked: func(a *App) bool { return a.s.Amplify().On }}}},
		{name: "amplify-window", label: "Move the amplify preview's window to top-left cell X Y [and make it SIZE cells a side] (a script waits for it)", spec: script.Spec{Min: 2, Max: 3, Check: checkAmplifyWindow}, run: (*App).amplifyWindow},
		{name: "amplify-factor", label: "Amplify the preview's window 2, 4 or 8 times (a script waits for it)", spec: choiceArg("factor", "2", "4", "8"), run: (*App).amplifyFactor},
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
		{name: "pan", label: "Pan the 2D map by DX DY screen pixels", spec: script.Spec{Min: 2, Max: 2, Check: func(c script.Command) error { return c.Nums(0) }},
			run: func(a *App, args []string) error { a.view = a.view.Pan(num(args, 0), num(args, 1)); return nil }},
		{name: "zoom", label: "Zoom the 2D map by a factor about the viewport's centre", spec: script.Spec{Min: 1, Max: 1, Check: func(c script.Command) error { return c.Nums(0) }},
			run: func(a *App, args []string) error {
				if f := num(args, 0); f > 0 {
					a.view = a.view.ZoomAt(float64(a.vp.w)/2, float64(a.vp.h)/2, f, float64(a.vp.w), float64(a.vp.h))
				}
				return nil
			}},
		{name: "draw3d", label: "Draw the 3D view by software fill or with OpenGL", spec: choiceArg("3D drawing", "fill", "opengl"),
			run: func(a *App, args []string) error { a.v3.gpu = args[0] == "opengl"; return nil }},
		{name: "views", label: "Draw the 2D and 3D views with shaders (the graphics card), on the CPU, or auto (shaders unless they prove slower)", spec: choiceArg("views drawing", "shader", "cpu", "auto"),
			run: func(a *App, args []string) error {
				a.setViews(args[0])
				a.prefs.Views = args[0]
				a.savePrefs()
				return nil
			},
			items: []item{
				{menu: "View", label: "Draw the views: auto", args: []string{"auto"}, sep: true, checked: func(a *App) bool { return a.viewsAuto }},
				{menu: "View", label: "Draw the views with shaders", args: []string{"shader"}, checked: func(a *App) bool { return !a.viewsAuto && !a.viewsCPU }},
				{menu: "View", label: "Draw the views on the CPU", args: []string{"cpu"}, checked: func(a *App) bool { return !a.viewsAuto && a.viewsCPU }}}},
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
		{name: "copy", label: "Copy the selected Uplift Tree node and its subtree", spec: noArgs, run: (*App).copyNode,
			items: []item{{menu: "Edit", label: "Copy node", key: ctrl(imgui.KeyC), sep: true}}},
		{name: "paste", label: "Paste the copied subtree at the cursor (or at cell X Y): a copy, or an instance that follows the original", spec: script.Spec{Min: 0, Max: 3, Check: checkPaste}, run: (*App).pasteNode,
			items: []item{
				{menu: "Edit", label: "Paste node", key: ctrl(imgui.KeyV)},
				{menu: "Edit", label: "Paste instance", key: ctrlShift(imgui.KeyV), args: []string{"instance"}}}},
		{name: "settings", label: "Open Settings, or set the compute device of the detail pass and builds (cpu, gpu, auto)", spec: settingsSpec, run: (*App).settings,
			items: []item{{menu: "Edit", label: "Settings...", sep: true}}},
		{name: "wrap", label: "Wrap the selected Uplift Tree node in an operator TYPE (the node becomes its child)", spec: choiceArg("operator", wrapTypes()...), run: (*App).wrapNode},
		{name: "copy-region", label: "Copy cells X0 Y0 to X1 Y1 (inclusive) of the paint layer", spec: fourNums, run: (*App).copyRegionAction},
		{name: "paste-region", label: "Paste the copied region centred on cell X Y [turned ANGLE degrees, scaled SCALE]", spec: script.Spec{Min: 2, Max: 4, Check: checkPasteRegion}, run: (*App).pasteRegionAction},
		// Tools
		{name: "stroke", label: "Paint a straight stroke KIND X0 Y0 X1 Y1 [RADIUS] [STRENGTH] in cells", spec: script.Spec{Min: 5, Max: 7, Check: checkStroke}, run: (*App).stroke},
		{name: "segment", label: "Place a range segment X0 Y0 X1 Y1 in cells", spec: fourNums, run: func(a *App, args []string) error { return a.placeBy(toolSegment, args) }},
		{name: "valley", label: "Place a valley X0 Y0 X1 Y1 in cells", spec: fourNums, run: func(a *App, args []string) error { return a.placeBy(toolValley, args) }},
		{name: "pin", label: "Pin a height: X Y in cells, H in metres (a point elevation constraint)", spec: script.Spec{Min: 3, Max: 3, Check: func(c script.Command) error { return c.Nums(0) }}, run: (*App).pinAction},
		{name: "curve", label: "Hold a line of heights X0 Y0 H0 X1 Y1 H1 (cells, metres): a curve elevation constraint", spec: script.Spec{Min: 6, Max: 6, Check: func(c script.Command) error { return c.Nums(0) }}, run: (*App).curveAction},
		{name: "move-pin", label: "Move vertex V of constraint N to X Y in cells", spec: fourNums, run: (*App).movePinAction},
		{name: "vertex-height", label: "Set the height of vertex V of constraint N to H metres (the map's height handle)", spec: script.Spec{Min: 3, Max: 3, Check: func(c script.Command) error { return c.Nums(0) }}, run: (*App).vertexHeightAction},
		{name: "add-vertex", label: "Add a vertex to curve N at its point nearest cell X Y", spec: script.Spec{Min: 3, Max: 3, Check: func(c script.Command) error { return c.Nums(0) }}, run: (*App).insertVertexAction},
		{name: "remove-vertex", label: "Remove vertex V of curve N", spec: script.Spec{Min: 2, Max: 2, Check: func(c script.Command) error { return c.Nums(0) }}, run: (*App).deleteVertexAction},
		{name: "unpin", label: "Delete constraint N (1 is the first)", spec: oneCount, run: (*App).unpinAction},
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
		{name: "view-picture", label: "Save the view's picture as drawn (2D: a pixel a cell; 3D: the canvas) and viewer's software picture of it beside (PATH-software.png)", spec: onePath,
			run: func(a *App, args []string) error { return a.viewPicture(args[0]) }},
		{name: "report", label: "Write the session's figures as JSON", spec: onePath, run: func(a *App, args []string) error { return a.writeReport(args[0]) }},
		{name: "expect-vertex", label: "Fail unless vertex V of constraint N stands at H metres", spec: script.Spec{Min: 3, Max: 3, Check: func(c script.Command) error { return c.Nums(0) }}, run: (*App).expectVertexAction},
		{name: "expect-log", label: "Fail unless the log holds TEXT", spec: script.Spec{Min: 1, Max: -1}, run: (*App).expectLog},
		{name: "await-log", label: "Wait until the log holds TEXT", spec: awaitLogSpec, run: (*App).awaitLog},
		{name: "await-param", label: "Wait until slider NAME reads VALUE", spec: awaitParamSpec, run: (*App).awaitParam},
		{name: "await-step", label: "Wait until the view shows engine step N or a later one of the document's terrain", spec: oneCount, run: (*App).awaitStep},
		{name: "await-relief", label: "Wait until the shaders' 2D relief shows the newest snapshot, whole", spec: noArgs, run: (*App).awaitRelief},
		{name: "await-wake", label: "Wait until the engine steps again after resting", spec: noArgs, run: (*App).awaitWake},
		{name: "await-settled", label: "Wait until the terrain has settled and the engine rests", spec: noArgs, run: (*App).awaitSettled},
		{name: "await-typing", label: "Wait until a slider's typed field (Ctrl+click) has the keyboard", spec: noArgs, run: (*App).awaitTyping},
		{name: "await-tool", label: "Wait until the tool NAME is chosen", spec: script.Spec{Min: 1, Max: -1}, run: (*App).awaitTool},
		{name: "await-section", label: "Wait until the Cross-section window shows a line's profile (drag: until a line is being dragged)", spec: script.Spec{Min: 0, Max: 1, Check: func(c script.Command) error {
			if len(c.Args) == 0 {
				return nil
			}
			return c.Choice(0, "what", "drag")
		}}, run: (*App).awaitSection},
		{name: "await-painting", label: "Wait until a paint stroke is under way", spec: noArgs, run: (*App).awaitPainting},
		{name: "await-new-dialog", label: "Wait until File → New's dialog is up", spec: noArgs, run: (*App).awaitNewDialog},
		{name: "slow-frames", label: "Make every frame take MS milliseconds more (tests low frame rates)", spec: script.Spec{Min: 1, Max: 1, Check: func(c script.Command) error { return c.Nums(0) }}, run: (*App).slowFrames},
		{name: "signal", label: "Write the window's layout (sliders, map) to PATH, a pipe the window test reads", spec: onePath, run: (*App).signal},
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
		a.showError(ac.title(), err)
	}
}

// title is the action's name for people: its first menu label, else its
// label without the script's notes (a parenthesis, or the arguments in
// capitals). Dialog titles and the Shortcuts window use it.
func (ac *action) title() string {
	for _, it := range ac.items {
		if it.label != "" {
			return strings.TrimSuffix(it.label, "...")
		}
	}
	return plainLabel(ac.label)
}

// plainLabel cuts a script label at its first parenthesis or argument
// name (a word in capitals): "Build the export profile into DIR (...)"
// is "Build the export profile".
func plainLabel(l string) string {
	if i := strings.Index(l, " ("); i > 0 {
		l = l[:i]
	}
	words := strings.Fields(l)
	for i, w := range words {
		if len(w) > 1 && strings.ToUpper(w) == w && strings.ToLower(w) != w {
			// "into DIR": drop the argument and the word that leads to it.
			if i > 1 && strings.ToLower(words[i-1]) == words[i-1] && len(words[i-1]) <= 4 {
				i--
			}
			return strings.Join(words[:i], " ")
		}
	}
	return l
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

// newDoc opens File → New's dialog, or with arguments makes the project:
// new PRESET [SIZE [ENGINE]] (the dialog's Create runs that too).
func (a *App) newDoc(args []string) error {
	if len(args) == 0 {
		a.guard("start a new project", a.openNew)
		return nil
	}
	size, kind := 0, engines.Default()
	if len(args) > 1 {
		size, _ = strconv.Atoi(args[1])
	}
	if len(args) > 2 {
		if err := kind.UnmarshalText([]byte(args[2])); err != nil {
			return err
		}
	}
	a.guard("start a new project", a.act("New project", func() error {
		if err := a.s.NewFrom(args[0], size, kind); err != nil {
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
	a.browser.show("Open project or scene (presets: File → New)", false, a.s.Dir(), "", session.OpenExts, func(p string) {
		if err := a.openPath(p); err != nil {
			a.showError("Open "+filepath.Base(p), err)
		}
	})
}

// openPath opens a project or scene and shows its view.
func (a *App) openPath(path string) error { return a.openRelinked(path, nil) }

// openRelinked opens a project reading the files it names from where
// relink says they are now. When a file is not where the project says
// (moved, or the project came from another machine), it asks where the
// file is now and opens again with that relink; the error is returned only
// to scripts, which have nobody to ask.
func (a *App) openRelinked(path string, relink map[string]string) error {
	err := a.s.OpenRelinked(path, relink)
	var miss *project.MissingFileError
	if errors.As(err, &miss) && a.script == nil {
		a.log.add(levelWarn, "%v", err)
		a.ask("A file has moved",
			fmt.Sprintf("%s names %s, which is not there (moved, or the project came from another machine).\n\nLocate it to relink it: the project reads it from its new place, and saving the project keeps it.", filepath.Base(path), miss.Path),
			modalButton{"Locate…", func() {
				a.browser.show("Where is "+filepath.Base(miss.Path)+"?", false, filepath.Dir(path), "", session.ImageExts, func(p string) {
					next := maps.Clone(relink)
					if next == nil {
						next = map[string]string{}
					}
					next[miss.Path] = p
					if err := a.openRelinked(path, next); err != nil {
						a.showError("Open "+filepath.Base(path), err)
					}
				})
			}},
			modalButton{"Cancel", nil})
		return nil
	}
	if err != nil {
		return err
	}
	a.docChanged()
	return nil
}

// docChanged shows a new document: its view, nothing selected.
func (a *App) docChanged() {
	a.sel = 0
	a.exp.shown = false // the profile being edited was the old document's
	a.fitView = true
	a.amp.shown, a.amp.asked = nil, nil // the old document's preview
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
		switch kind {
		case "heightmap":
			title = "Import heightmap (metres: .png/.r16 with sidecar, .tif)"
		case "dem":
			title = "Import DEM as uplift (metres: .tif, .png/.r16 with sidecar)"
		}
		a.browser.show(title, false, a.s.Dir(), "", session.ImageExts, func(p string) { a.do("import", kind, p) })
		return nil
	}
	switch kind {
	case "uplift":
		return a.s.ImportUplift(args[1])
	case "dem":
		return a.s.ImportDEM(args[1])
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
		a.browser.show("Export masks: choose a folder and a base name (BASE-drainage, BASE-rivers, ...)", true, a.s.Dir(), "masks.png", session.MaskExts,
			func(p string) {
				if _, err := a.s.ExportMasksAs(p, a.vopts.RiverThresholdM2); err != nil {
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
	a.dropLostSelection()
	return err
}

func (a *App) redo([]string) error {
	_, _, err := a.s.Redo()
	a.dropLostSelection()
	return err
}

// dropLostSelection clears the Uplift Tree selection when an undo or redo
// took the selected node away (undoing an Add or a Wrap), so the panels
// and Copy never act on a node that is not in the tree.
func (a *App) dropLostSelection() {
	if a.sel == 0 {
		return
	}
	if _, ok := a.s.Doc().Tree().Node(a.sel); !ok {
		a.sel = 0
	}
}

func (a *App) setMode(args []string) error {
	a.mode = map[string]viewMode{"2d": mode2D, "3d": mode3D, "split": modeSplit}[args[0]]
	if a.script != nil {
		a.startSpan() // the report's figures while running are this view's
	}
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
		a.startSpan()
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
	e, err := engines.Lookup(engine.Kind(c.Args[0]))
	if err != nil {
		return err
	}
	if len(c.Args) == 2 {
		if !e.Nodes {
			return fmt.Errorf("a node count applies to the %s engine only", nodeEngines())
		}
		if _, err := c.Count(1); err != nil {
			return err
		}
	}
	return nil
}

// nodeEngines names the engines that take a node count.
func nodeEngines() string {
	var ns []string
	for _, k := range engines.Kinds() {
		if engines.Must(k).Nodes {
			ns = append(ns, k.String())
		}
	}
	return strings.Join(ns, ", ")
}

func (a *App) engine(args []string) error {
	k, err := engines.Parse(args[0])
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

// checkPaste checks paste [instance] [X Y].
func checkPaste(c script.Command) error {
	i := 0
	if len(c.Args) > 0 && c.Args[0] == "instance" {
		i = 1
	}
	if n := len(c.Args) - i; n != 0 && n != 2 {
		return errors.New("want [instance] [X Y]")
	}
	return c.Nums(i)
}

// copyNode copies the selected node's subtree to the App's clipboard, or
// with the Region tool the selected cells.
func (a *App) copyNode([]string) error {
	if a.tool == toolRegion {
		return a.region.copyRegion(a.toolCtx(), a.region.state.sel)
	}
	if a.sel == 0 {
		return errors.New("select a node of the Uplift Tree to copy")
	}
	c, err := a.s.Doc().CopySubtree(a.sel)
	if err != nil {
		return err
	}
	a.clip = c
	a.log.add(levelInfo, "copied node %d (%d nodes)", a.sel, len(c.Shapes))
	return nil
}

// pasteNode pastes the clipboard under the selected operator (else the
// root), centred at the cursor over the map, cell X Y, or the view's
// centre.
func (a *App) pasteNode(args []string) error {
	if a.tool == toolRegion && len(args) == 0 {
		if a.region.state.clip == nil {
			return errors.New("no region copied: select one and copy it first (Ctrl+C)")
		}
		a.region.state.floating = true // it follows the cursor; a click commits it
		return nil
	}
	if a.clip == nil {
		return errors.New("nothing copied: select a node and copy it first (Ctrl+C)")
	}
	instance := len(args) > 0 && args[0] == "instance"
	if instance {
		args = args[1:]
	}
	mx, my := a.view.CenterX, a.view.CenterY
	if len(args) == 2 {
		mx, my = num(args, 0)+0.5, num(args, 1)+0.5
	} else if a.vp.hovered {
		mp := imgui.MousePos()
		mx, my = a.screenToMap(float64(mp.X), float64(mp.Y))
	}
	t := a.s.Doc().Tree()
	parent := t.Root()
	// Under the selected group (a node taking any number of children),
	// else the root.
	if n, ok := t.Node(a.sel); ok && a.sel != a.clip.From {
		switch n.Shape.Type() {
		case uplifttree.TypeSum, uplifttree.TypeMax, uplifttree.TypeMin, uplifttree.TypeBlend:
			parent = a.sel
		}
	}
	c := a.cell()
	id, err := a.s.Doc().PasteSubtree(a.clip, parent, mx*c, my*c, instance)
	if err != nil {
		return err
	}
	a.sel = id
	what := "a copy"
	if instance {
		what = "an instance"
	}
	a.log.add(levelInfo, "pasted %s of node %d as node %d", what, a.clip.From, id)
	return nil
}

// checkPasteRegion checks paste-region X Y [ANGLE SCALE].
func checkPasteRegion(c script.Command) error {
	if len(c.Args) == 3 {
		return errors.New("give both ANGLE and SCALE, or neither")
	}
	return c.Nums(0)
}

// checkBlendWith checks blend-with PATH [X0 X1 | mask MASK].
func checkBlendWith(c script.Command) error {
	if len(c.Args) == 3 && c.Args[1] == "mask" {
		return nil
	}
	if len(c.Args) == 2 {
		return errors.New("give both X0 and X1, or neither, or mask MASK")
	}
	return c.Nums(1)
}

// blendWith blends the document with another terrain (session.BlendWith);
// without a path it asks for one.
func (a *App) blendWith(args []string) error {
	if len(args) == 0 {
		exts := append(slices.Clone(session.ImageExts), ".json")
		a.browser.show("Blend with a heightmap (.tif, .png/.r16 with sidecar), a project (.orogen.json) or a scene (.json), in the uplift domain", false, a.s.Dir(), "", exts,
			func(p string) { a.do("blend-with", p) })
		return nil
	}
	if len(args) == 3 && args[1] == "mask" {
		return a.s.BlendWithMask(args[0], args[2])
	}
	x0, x1 := 0.4, 0.6
	if len(args) == 3 {
		x0, x1 = num(args, 1), num(args, 2)
	}
	return a.s.BlendWith(args[0], x0, x1)
}

// dialogs are the names `dialog` accepts.
var dialogs = []string{"open", "new", "save-as", "export-heightmap", "export-masks", "export-profile", "import-uplift",
	"import-heightmap", "import-dem", "unsaved", "shortcuts", "about", "close"}

// dialog opens a dialog as its menu item would (the unsaved-changes prompt
// as New would show it), or closes whatever is open.
func (a *App) dialog(args []string) error {
	switch args[0] {
	case "open":
		a.openDialog()
	case "new":
		a.openNew()
	case "save-as":
		return a.saveAs(nil)
	case "export-heightmap":
		return a.exportFile([]string{"heightmap"})
	case "export-masks":
		return a.exportFile([]string{"masks"})
	case "export-profile":
		a.openProfileEditor()
	case "import-uplift":
		return a.importFile([]string{"uplift"})
	case "import-heightmap":
		return a.importFile([]string{"heightmap"})
	case "import-dem":
		return a.importFile([]string{"dem"})
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
		a.exp.shown = false
		a.newDlg.open = false
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
	// screenshotPatience frames. Then wait until Draw has taken the shot:
	// Ebitengine runs Update up to five times before one Draw when frames
	// come late, so counting Updates would let the next commands (view 2d,
	// dialog close) change what the shot shows before it is taken.
	if a.script == nil {
		a.screenshot = args[0]
		return nil
	}
	start, want := a.frames, 0
	a.waitFor("the views to catch up and the screenshot", func() bool {
		if want == 0 {
			if a.frames > start+1 && a.rend.Idle() || a.frames > start+screenshotPatience {
				a.screenshot, want = args[0], a.shots+1
			}
			return false
		}
		return a.shots >= want
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
		// Discarded work is not offered back at the next start.
		modalButton{"Discard", func() { a.s.DiscardRecovery(); act() }},
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
	p, origin, at, ok, err := session.Recovery()
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
			if err := a.s.Recover(p, origin, at); err != nil {
				return err
			}
			a.docChanged()
			return nil
		})},
		modalButton{"Discard", a.s.DiscardRecovery})
}
