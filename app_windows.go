package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

const appName = "orogen-app.exe"

// hasDisplay: a Windows session always has a desktop to draw on.
func hasDisplay() bool { return true }

// startApp runs the app as a child with this console and returns its exit
// code: Windows has no exec that replaces the process.
func startApp(app string, args []string) int {
	cmd := exec.Command(app, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "orogen: starting %s: %v\n", app, err)
		return 1
	}
	return 0
}
