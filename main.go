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

	"orogen/app/cli"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && !isCLIFlag(args[0]) {
		os.Exit(openApp(args))
	}
	os.Exit(cli.Main(args, os.Stdout, os.Stderr))
}

// isCLIFlag reports whether a is a flag of the command line itself (help,
// version) rather than one to pass on to the app.
func isCLIFlag(a string) bool {
	switch a {
	case "-h", "--help", "-help", "-v", "--version":
		return true
	}
	return false
}

// openApp starts the desktop app, passing args on (see startApp).
func openApp(args []string) int {
	if !hasDisplay() {
		fmt.Fprintln(os.Stderr, "orogen: no display to open the app on; run a scene headless with `orogen run --scene default --out terrain.png --out-preview preview.png` (see `orogen help run`)")
		return 1
	}
	app, err := appPath()
	if err != nil {
		fmt.Fprintln(os.Stderr, "orogen:", err)
		return 1
	}
	return startApp(app, args)
}

// appPath finds orogen-app (orogen-app.exe on Windows) beside this
// binary, else on PATH.
func appPath() (string, error) {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), appName)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	if p, err := exec.LookPath(appName); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("the desktop app (orogen-app) is neither beside this binary nor on PATH; `make build` builds both into bin/")
}
