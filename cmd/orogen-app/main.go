// Command orogen-app is Orogen's desktop app: an Ebiten window with ImGui
// panels. `orogen` without a subcommand runs it; it is a binary of its own
// because Ebiten needs a display as soon as it is loaded, and the headless
// `orogen run` must work without one.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"

	"orogen/app/version"
	"orogen/ui"
)

func main() {
	fs := flag.NewFlagSet("orogen", flag.ContinueOnError)
	var o ui.Options
	fs.StringVar(&o.Scene, "scene", "", "open this preset or scene file (default: the default preset)")
	fs.IntVar(&o.Size, "size", 0, "grid cells per side for --scene (default: the scene's)")
	fs.StringVar(&o.Project, "project", "", "open this project (.orogen.json)")
	fs.StringVar(&o.Script, "script", "", "drive the session from this script (see ui/script.go)")
	fs.IntVar(&o.Width, "width", 0, "window width in pixels (default: the last one)")
	fs.IntVar(&o.Height, "height", 0, "window height in pixels")
	showVersion := fs.Bool("version", false, "print the version and quit")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	if *showVersion {
		fmt.Println("orogen-app", version.String())
		return
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "orogen: unexpected argument %q (subcommands come first: orogen run ...)\n", fs.Arg(0))
		os.Exit(2)
	}
	if err := ui.Run(o); err != nil {
		fmt.Fprintln(os.Stderr, "orogen:", err)
		os.Exit(1)
	}
}
