//go:build !windows

package main

import (
	"fmt"
	"os"
	"syscall"
)

const appName = "orogen-app"

func hasDisplay() bool {
	return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
}

// startApp replaces this process with the app.
func startApp(app string, args []string) int {
	err := syscall.Exec(app, append([]string{app}, args...), os.Environ())
	fmt.Fprintf(os.Stderr, "orogen: starting %s: %v\n", app, err)
	return 1
}
