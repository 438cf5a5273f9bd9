// Command orogen grows terrain from tectonic uplift and fluvial erosion.
// Without arguments it opens the app; `orogen run ...` and the other
// subcommands work headless (see `orogen help`).
package main

import (
	"os"

	"orogen/app/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
