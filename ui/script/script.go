// Package script is the language of `orogen --script FILE`: a script drives
// a desktop-app session without a mouse (the real-window test and demos
// use it). Each line is one command;
// blank lines and lines starting with # are skipped. Commands go through
// the same code as the menus, panels and mouse, one per frame (waits span
// several frames):
//
//	wait N                         let N frames pass
//	stroke KIND X0 Y0 X1 Y1 [R] [S] paint a straight stroke in cell
//	                               coordinates with brush KIND (raise, lower,
//	                               smooth, flatten, set, noise, erase),
//	                               radius R cells, strength S
//	segment X0 Y0 X1 Y1            place a range segment (cell coordinates)
//	valley X0 Y0 X1 Y1             place a valley
//	brush smaller|larger           the brush size, as [ and ] do
//	set NAME VALUE                 a live slider: k m n dt talus diffusion
//	                               rain evaporation umax threshold
//	run                            run the simulation
//	pause                          pause it
//	toggle-run                     run or pause, as Space does
//	steps N                        pause, run N steps, wait until they show
//	reset                          restart the terrain from the flat start
//	engine grid|graph|roudier [NODES]
//	                               switch the engine (graph: NODES Poisson
//	                               samples, default 1 per 4 cells); the
//	                               terrain restarts
//	geology on|off|toggle          layered rock (the Geology panel's preset
//	                               stack when there is none) or uniform rock
//	load-geology PATH              a geology JSON: layers, rocks, deformations
//	detail start|run|pause|keep|discard
//	                               the hydraulic detail pass on the terrain
//	settings [cpu|gpu|auto]        open Settings, or set the compute device
//	                               of the detail pass and builds
//	undo                           undo the last edit
//	redo                           redo it
//	new [PRESET [SIZE [ENGINE]]]   a new project on a preset (File → New's
//	                               dialog without arguments)
//	open PATH                      a project or a scene
//	save PATH                      save the project as PATH
//	save-as PATH                   the same
//	export heightmap PATH          .png .r16 .tif .obj, with its sidecar
//	export masks DIR               drainage, rivers, water, slope, uplift
//	export-profile PRESET|PATH     set the project's export profile: a
//	                               preset (unreal, unity, godot, generic)
//	                               or a profile JSON file
//	build [DIR]                    build the export profile into DIR
//	                               (default NAME-build beside the project)
//	                               on a goroutine; waits until it ends
//	import uplift PATH             a normalized uplift image
//	import heightmap PATH          heights in metres into the simulation
//	copy                           copy the selected Uplift Tree subtree
//	paste [instance] [X Y]         paste it at the cursor or cell X Y: a
//	                               copy, or an instance following the
//	                               original (same project only)
//	wrap TYPE                      wrap the selected Uplift Tree node in
//	                               an operator (sum, max, min, blend, mix,
//	                               scale, transform, fold, fault,
//	                               noisewarp, clamp): the node becomes
//	                               its child
//	copy-region X0 Y0 X1 Y1        copy cells of the paint layer
//	paste-region X Y [ANGLE SCALE] paste them centred on cell X Y, turned
//	                               and scaled
//	blend-with PATH [X0 X1 | mask MASK]
//	                               blend in the uplift domain with a heightmap,
//	                               project, scene or preset, west to east from
//	                               X0 to X1 (fractions of the width; 0.4 0.6),
//	                               or through the mask image MASK (0 keeps
//	                               this terrain, 1 takes the other)
//	import dem PATH                a DEM in metres, inverted into the uplift
//	                               that holds it (the tree's base layer)
//	pin X Y H                      a point elevation constraint: cell X Y
//	                               held at H metres
//	curve X0 Y0 H0 X1 Y1 H1        a curve elevation constraint (cells,
//	                               metres)
//	move-pin N V X Y               move vertex V of constraint N to cell X Y
//	vertex-height N V H            set vertex V of constraint N to H metres
//	                               (and select it: its handle on the map)
//	add-vertex N X Y               add a vertex to curve N at its point
//	                               nearest cell X Y, height interpolated
//	remove-vertex N V              remove vertex V of curve N
//	unpin N                        delete constraint N (1 is the first)
//	view 2d|3d|split               what the Viewport shows
//	amplify-preview on|off|toggle  the Amplify preview: a window of the map
//	                               at 2, 4 or 8 times the resolution in the
//	                               2D and 3D views once the engine has
//	                               settled; on waits until it shows
//	amplify-window X Y [SIZE]      move its window to top-left cell X Y
//	                               (SIZE cells a side); waits until it shows
//	amplify-factor 2|4|8           its factor; waits until it shows
//	show rivers|lakes|arrows|plot|analysis|basins [on|off]
//	                               a layer of the view or the Analysis
//	                               panel (no on|off: toggle)
//	profile X Y                    pick the river through cell X Y for the
//	                               Analysis panel's profile; waits until
//	                               the shown terrain is analysed
//	colour height|rock             colour the 2D and 3D views by height or by
//	                               the exposed rock
//	section X0 Y0 X1 Y1            the cross-section under a line in cells
//	fit                            fit the map to the viewport
//	orbit DYAW DPITCH              turn the 3D camera, degrees
//	draw3d fill|opengl             how the 3D view is drawn on the CPU path
//	views shader|cpu|auto          draw both views with shaders, on the CPU,
//	                               or auto (shaders unless they prove slow)
//	pan DX DY                      pan the 2D map by screen pixels
//	zoom F                         zoom the 2D map about its centre
//	render PATH                    the view as a PNG (name_WxH.png: size)
//	fullscreen                     full screen on or off
//	reset-layout                   the panels back where they start
//	screenshot PATH                the whole window, as PNG
//	view-picture PATH              the view's picture as drawn (2D: a pixel
//	                               a cell; 3D: the canvas), and viewer's
//	                               software picture of it as PATH-software
//	dialog NAME                    open a dialog as its menu item does: open,
//	                               save-as, export-heightmap, export-masks,
//	                               export-profile, import-uplift,
//	                               import-heightmap, import-dem, unsaved,
//	                               shortcuts, about, new; `dialog close`
//	                               closes it
//	report PATH                    JSON: frames/s, engine steps/s, sizes
//	expect-log TEXT                fail unless the log holds TEXT
//	expect-vertex N V H            fail unless vertex V of constraint N
//	                               stands at H metres (±0.5)
//	await-log TEXT                 wait until the log holds TEXT
//	await-param NAME VALUE         wait until slider NAME reads VALUE
//	await-step N                   wait until the view shows engine step N
//	                               or a later one
//	await-relief                   wait until the shaders' 2D relief
//	                               shows the newest snapshot, whole
//	await-settled                  wait until the terrain has settled and
//	                               the engine rests (logs how long it took)
//	await-wake                     wait until the engine steps again (after
//	                               resting, an edit wakes it)
//	await-painting                 wait until a paint stroke is under way
//	await-new-dialog               wait until File → New's dialog is up
//	await-tool NAME                wait until the tool NAME is chosen
//	await-section [drag]           wait until the Cross-section window shows
//	                               a line's profile (drag: until a line is
//	                               being dragged)
//	await-typing                   wait until a slider's typed field
//	                               (Ctrl+click) has the keyboard
//	slow-frames MS                 every frame MS milliseconds longer (low
//	                               frame rates, for tests)
//	signal PATH                    write the window's layout (sliders, map,
//	                               tools, windows) to PATH, a pipe the
//	                               window test reads
//	quit                           leave (the unsaved-changes prompt is
//	                               skipped)
//
// A failing command logs the error and ends the session with exit code 1.
// Parse checks names, argument counts, numbers and choices before the
// session starts, against the Specs of the app's action table (package
// ui, actions.go), which also carries the commands out: the same table
// feeds the menus and the keyboard shortcuts (a test checks that this
// list and the table agree).
package script

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Command is one line of a script.
type Command struct {
	Line int    // 1-based line number in the file
	Name string // the command
	Args []string
}

// Spec is what a command accepts: between Min and Max arguments (Max < 0:
// no limit), and, if Check is set, arguments that pass it (numbers,
// choices). The app's action table gives one Spec per command.
type Spec struct {
	Min, Max int
	Check    func(c Command) error
}

// Parse reads a script, checking every command's name, argument count and
// arguments against specs, so that a typo fails before the session starts
// rather than halfway.
func Parse(r io.Reader, specs map[string]Spec) ([]Command, error) {
	var cmds []Command
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		c := Command{Line: n, Name: f[0], Args: f[1:]}
		spec, ok := specs[c.Name]
		if !ok {
			return nil, fmt.Errorf("script line %d: unknown command %q", n, c.Name)
		}
		if len(c.Args) < spec.Min || spec.Max >= 0 && len(c.Args) > spec.Max {
			return nil, fmt.Errorf("script line %d: %s takes %s, got %d", n, c.Name, countText(spec), len(c.Args))
		}
		if spec.Check != nil {
			if err := spec.Check(c); err != nil {
				return nil, fmt.Errorf("script line %d: %s: %w", n, c.Name, err)
			}
		}
		cmds = append(cmds, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	return cmds, nil
}

func countText(s Spec) string {
	switch {
	case s.Min == s.Max:
		return fmt.Sprintf("%d arguments", s.Min)
	case s.Max < 0:
		return fmt.Sprintf("at least %d arguments", s.Min)
	}
	return fmt.Sprintf("%d to %d arguments", s.Min, s.Max)
}

// Choice checks that argument i is one of choices.
func (c Command) Choice(i int, what string, choices ...string) error {
	if !slices.Contains(choices, c.Args[i]) {
		return fmt.Errorf("unknown %s %q: want %s", what, c.Args[i], orList(choices))
	}
	return nil
}

// Nums checks that the arguments from i on are finite numbers.
func (c Command) Nums(i int) error {
	for ; i < len(c.Args); i++ {
		if _, err := c.Num(i); err != nil {
			return err
		}
	}
	return nil
}

// orList writes "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// Num parses argument i as a finite number.
func (c Command) Num(i int) (float64, error) {
	v, err := strconv.ParseFloat(c.Args[i], 64)
	if err != nil || v != v || v > 1e300 || v < -1e300 {
		return 0, fmt.Errorf("argument %d: %q is not a finite number", i+1, c.Args[i])
	}
	return v, nil
}

// Count parses argument i as a count in [0, 1e7].
func (c Command) Count(i int) (int, error) {
	v, err := strconv.Atoi(c.Args[i])
	if err != nil || v < 0 || v > 1e7 {
		return 0, fmt.Errorf("argument %d: %q is not a count in [0, 10000000]", i+1, c.Args[i])
	}
	return v, nil
}
