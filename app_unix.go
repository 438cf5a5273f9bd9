//go:build !windows

package main

import (
	"fmt"
	"os"
	"runtime"
	"syscall"
)

const appName = "orogen-app"

// hasDisplay: X11 or Wayland on Linux and the BSDs; a macOS session
// always has its window server (and no DISPLAY).
func hasDisplay() bool {
	return runtime.GOOS == "darwin" || os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}

// startApp replaces this process with the app.
func startApp(app string, args []string) int {
	err := syscall.Exec(app, append([]string{app}, args...), os.Environ())
	fmt.Fprintf(os.Stderr, "orogen: starting %s: %v\n", app, err)
	return 1
}
