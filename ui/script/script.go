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
//	set NAME VALUE                 a live slider: k m n dt talus diffusion
//	                               umax threshold
//	run | pause
//	steps N                        pause, run N steps, wait until they show
//	undo | redo | new
//	save PATH | open PATH
//	export heightmap PATH          .png .r16 .tif .obj, with its sidecar
//	export masks DIR               drainage, rivers, water, slope, uplift
//	import uplift PATH | import heightmap PATH
//	screenshot PATH                the whole window, as PNG
//	dialog NAME                    open a dialog as its menu item does: open,
//	                               save-as, export-heightmap, export-masks,
//	                               import-uplift, import-heightmap, unsaved,
//	                               shortcuts, about; `dialog close` closes it
//	view 2d|3d|split               what the Viewport shows
//	orbit DYAW DPITCH              turn the 3D camera, degrees
//	draw3d fill|opengl             how the 3D view is drawn
//	engine grid|graph [NODES]      switch the engine (graph: NODES Poisson
//	                               samples, default 1 per 4 cells); the
//	                               terrain restarts
//	detail start|run|pause|keep|discard
//	                               the hydraulic detail pass on the terrain
//	report PATH                    JSON: frames/s, engine steps/s, sizes
//	expect-log TEXT                fail unless the log holds TEXT
//	quit                           leave (the unsaved-changes prompt is
//	                               skipped)
//
// A failing command logs the error and ends the session with exit code 1.
// Parse checks names, argument counts, numbers and choices before the
// session starts; the app (package ui) carries the commands out.
package script

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"orogen/brushes"
)

// Command is one line of a script.
type Command struct {
	Line int    // 1-based line number in the file
	Name string // the command
	Args []string
}

// ArgCount gives the number of arguments each command accepts: min, max.
var ArgCount = map[string][2]int{
	"wait": {1, 1}, "stroke": {5, 7}, "segment": {4, 4}, "valley": {4, 4},
	"set": {2, 2}, "run": {0, 0}, "pause": {0, 0}, "steps": {1, 1},
	"undo": {0, 0}, "redo": {0, 0}, "new": {0, 0},
	"save": {1, 1}, "open": {1, 1}, "export": {2, 2}, "import": {2, 2},
	"screenshot": {1, 1}, "report": {1, 1}, "dialog": {1, 1}, "view": {1, 1}, "orbit": {2, 2}, "draw3d": {1, 1}, "engine": {1, 2}, "detail": {1, 1}, "expect-log": {1, 1 << 20}, "quit": {0, 0},
}

// Dialogs are the names `dialog` accepts.
var Dialogs = []string{"open", "save-as", "export-heightmap", "export-masks", "import-uplift",
	"import-heightmap", "unsaved", "shortcuts", "about", "close"}

// Parse reads a script, checking every command's name, argument count and
// arguments, so that a typo fails before the session starts rather than
// halfway. sliders are the names `set` accepts.
func Parse(r io.Reader, sliders []string) ([]Command, error) {
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
		lim, ok := ArgCount[c.Name]
		if !ok {
			return nil, fmt.Errorf("script line %d: unknown command %q", n, c.Name)
		}
		if len(c.Args) < lim[0] || len(c.Args) > lim[1] {
			return nil, fmt.Errorf("script line %d: %s takes %s, got %d", n, c.Name, countText(lim), len(c.Args))
		}
		if err := c.Check(sliders); err != nil {
			return nil, fmt.Errorf("script line %d: %s: %w", n, c.Name, err)
		}
		cmds = append(cmds, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("script: %w", err)
	}
	return cmds, nil
}

func countText(lim [2]int) string {
	switch {
	case lim[0] == lim[1]:
		return fmt.Sprintf("%d arguments", lim[0])
	case lim[1] > 100:
		return fmt.Sprintf("at least %d arguments", lim[0])
	}
	return fmt.Sprintf("%d to %d arguments", lim[0], lim[1])
}

// Check validates the arguments that must be numbers or choices; sliders
// are the names `set` accepts.
func (c Command) Check(sliders []string) error {
	switch c.Name {
	case "wait", "steps":
		_, err := c.Count(0)
		return err
	case "stroke":
		if _, err := brushes.ParseKind(c.Args[0]); err != nil {
			return err
		}
		for i := 1; i < len(c.Args); i++ {
			if _, err := c.Num(i); err != nil {
				return err
			}
		}
	case "segment", "valley":
		for i := range c.Args {
			if _, err := c.Num(i); err != nil {
				return err
			}
		}
	case "set":
		if !slices.Contains(sliders, c.Args[0]) {
			return fmt.Errorf("unknown slider %q: want one of %s", c.Args[0], strings.Join(sliders, ", "))
		}
		_, err := c.Num(1)
		return err
	case "export":
		if c.Args[0] != "heightmap" && c.Args[0] != "masks" {
			return fmt.Errorf("unknown export %q: want heightmap or masks", c.Args[0])
		}
	case "view":
		if c.Args[0] != "2d" && c.Args[0] != "3d" && c.Args[0] != "split" {
			return fmt.Errorf("unknown view %q: want 2d, 3d or split", c.Args[0])
		}
	case "engine":
		if c.Args[0] != "grid" && c.Args[0] != "graph" {
			return fmt.Errorf("unknown engine %q: want grid or graph", c.Args[0])
		}
		if len(c.Args) == 2 {
			if c.Args[0] != "graph" {
				return fmt.Errorf("a node count applies to the graph engine only")
			}
			if _, err := c.Count(1); err != nil {
				return err
			}
		}
	case "detail":
		if !slices.Contains([]string{"start", "run", "pause", "keep", "discard"}, c.Args[0]) {
			return fmt.Errorf("unknown detail action %q: want start, run, pause, keep or discard", c.Args[0])
		}
	case "draw3d":
		if c.Args[0] != "fill" && c.Args[0] != "opengl" {
			return fmt.Errorf("unknown 3D drawing %q: want fill or opengl", c.Args[0])
		}
	case "orbit":
		for i := range c.Args {
			if _, err := c.Num(i); err != nil {
				return err
			}
		}
	case "dialog":
		if !slices.Contains(Dialogs, c.Args[0]) {
			return fmt.Errorf("unknown dialog %q: want one of %s", c.Args[0], strings.Join(Dialogs, ", "))
		}
	case "import":
		if c.Args[0] != "uplift" && c.Args[0] != "heightmap" {
			return fmt.Errorf("unknown import %q: want uplift or heightmap", c.Args[0])
		}
	}
	return nil
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
