// Command orogen grows terrain from tectonic uplift and fluvial erosion.
// Without a subcommand it opens the desktop app (the orogen-app binary
// beside it); `orogen run ...` and the other subcommands work headless
// (see `orogen help`).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"orogen/app/cli"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && !isHelp(args[0]) {
		os.Exit(openApp(args))
	}
	os.Exit(cli.Main(args, os.Stdout, os.Stderr))
}

func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "-help" }

// openApp replaces this process with the desktop app, passing args on.
func openApp(args []string) int {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		fmt.Fprintln(os.Stderr, "orogen: no display to open the app on; run a scene headless with `orogen run --scene default --out terrain.png --out-preview preview.png` (see `orogen help run`)")
		return 1
	}
	app, err := appPath()
	if err != nil {
		fmt.Fprintln(os.Stderr, "orogen:", err)
		return 1
	}
	err = syscall.Exec(app, append([]string{app}, args...), os.Environ())
	fmt.Fprintf(os.Stderr, "orogen: starting %s: %v\n", app, err)
	return 1
}

// appPath finds orogen-app beside this binary, else on PATH.
func appPath() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "orogen-app")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath("orogen-app"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the desktop app (orogen-app) is neither beside this binary nor on PATH; `make build` builds both into bin/")
}
