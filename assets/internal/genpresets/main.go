// Command genpresets writes the uplift rasters of the embedded presets,
// presets/NAME-uplift.png, from the analytic shapes in assets/internal/shapes.
// It is run by "go generate" in the assets directory:
//
//	go generate ./assets
//
// The rasters are 16-bit grayscale PNGs of shapes.Size² pixels; a pixel of
// 65535 is an uplift of the scene's umax. The scene files presets/NAME.json
// are written by hand. TestPresetsMatchShapes in package assets fails when a
// committed raster no longer matches its shape.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"orogen/assets/internal/shapes"
)

func main() {
	dir := flag.String("dir", "presets", "directory to write the rasters to")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "genpresets:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	for _, s := range shapes.All {
		img := shapes.Render(s.F, shapes.Size, shapes.Size)
		var buf bytes.Buffer
		if err := enc.Encode(&buf, img); err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		name := filepath.Join(dir, s.Name+"-uplift.png")
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "genpresets: wrote %s (%d bytes)\n", name, buf.Len())
	}
	return nil
}
