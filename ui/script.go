package ui

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"orogen/brushes"
)

// A script drives a window session without a mouse: the real-window test
// and demos run one with `orogen --script FILE`. Each line is one command;
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
//	report PATH                    JSON: frames/s, engine steps/s, sizes
//	expect-log TEXT                fail unless the log holds TEXT
//	quit                           leave (the unsaved-changes prompt is
//	                               skipped)
//
// A failing command logs the error and ends the session with exit code 1.
type command struct {
	line int
	name string
	args []string
}

// argCount gives the number of arguments each command accepts: min, max.
var argCount = map[string][2]int{
	"wait": {1, 1}, "stroke": {5, 7}, "segment": {4, 4}, "valley": {4, 4},
	"set": {2, 2}, "run": {0, 0}, "pause": {0, 0}, "steps": {1, 1},
	"undo": {0, 0}, "redo": {0, 0}, "new": {0, 0},
	"save": {1, 1}, "open": {1, 1}, "export": {2, 2}, "import": {2, 2},
	"screenshot": {1, 1}, "report": {1, 1}, "expect-log": {1, 1 << 20}, "quit": {0, 0},
}

// parseScript reads a script, checking every command's name, argument
// count and numeric arguments, so that a typo fails before the session
// starts rather than halfway.
func parseScript(r io.Reader) ([]command, error) {
	var cmds []command
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
		c := command{line: n, name: f[0], args: f[1:]}
		lim, ok := argCount[c.name]
		if !ok {
			return nil, fmt.Errorf("script line %d: unknown command %q", n, c.name)
		}
		if len(c.args) < lim[0] || len(c.args) > lim[1] {
			return nil, fmt.Errorf("script line %d: %s takes %s, got %d", n, c.name, countText(lim), len(c.args))
		}
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("script line %d: %s: %w", n, c.name, err)
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

// check validates the arguments that must be numbers or choices.
func (c command) check() error {
	switch c.name {
	case "wait", "steps":
		_, err := c.count(0)
		return err
	case "stroke":
		if _, err := brushes.ParseKind(c.args[0]); err != nil {
			return err
		}
		for i := 1; i < len(c.args); i++ {
			if _, err := c.num(i); err != nil {
				return err
			}
		}
	case "segment", "valley":
		for i := range c.args {
			if _, err := c.num(i); err != nil {
				return err
			}
		}
	case "set":
		if _, ok := sliderByName(c.args[0]); !ok {
			return fmt.Errorf("unknown slider %q: want one of %s", c.args[0], strings.Join(sliderNames(), ", "))
		}
		_, err := c.num(1)
		return err
	case "export":
		if c.args[0] != "heightmap" && c.args[0] != "masks" {
			return fmt.Errorf("unknown export %q: want heightmap or masks", c.args[0])
		}
	case "import":
		if c.args[0] != "uplift" && c.args[0] != "heightmap" {
			return fmt.Errorf("unknown import %q: want uplift or heightmap", c.args[0])
		}
	}
	return nil
}

// num parses argument i as a finite number.
func (c command) num(i int) (float64, error) {
	v, err := strconv.ParseFloat(c.args[i], 64)
	if err != nil || v != v || v > 1e300 || v < -1e300 {
		return 0, fmt.Errorf("argument %d: %q is not a finite number", i+1, c.args[i])
	}
	return v, nil
}

// count parses argument i as a count in [0, 1e7].
func (c command) count(i int) (int, error) {
	v, err := strconv.Atoi(c.args[i])
	if err != nil || v < 0 || v > 1e7 {
		return 0, fmt.Errorf("argument %d: %q is not a count in [0, 10000000]", i+1, c.args[i])
	}
	return v, nil
}
