package cli

import (
	"flag"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "regenerate the README's pictures under docs/ (the default preset runs to steady state at 512², a minute)")

// The README's pictures: the default preset's hillshade and a real DEM's,
// both from orogen render at the same scale (156 m a pixel: the preset's
// 50 km over 320 pixels, Big Tujunga's 23 km over 147). The DEM picture
// needs no simulation, so it is rendered again and compared with the
// committed one (8 levels a channel: the PNG is the renderer's own, so any
// difference is a change of the 2D view); the preset's command runs on a
// small grid to check its flags, in full with -update-docs, which rewrites
// both.
func TestREADMEPictures(t *testing.T) {
	const (
		demPic     = "../../docs/bigtujunga-hillshade.png"
		defaultPic = "../../docs/default-hillshade.png"
	)
	demArgs := []string{"render", "--init", bigTujunga, "--cell", "90", "--grid", "147", "--rivers=false", "--lakes=false", "-q", "--out"}
	defArgs := []string{"render", "--scene", "default", "--until-converged", "--rivers=false", "--lakes=false", "--size", "320", "-q", "--out"}
	if *updateDocs {
		for _, args := range [][]string{append(demArgs, demPic), append(defArgs, defaultPic)} {
			if code, _, stderr := runCLI(args...); code != 0 {
				t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
			}
		}
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "dem.png")
	if code, _, stderr := runCLI(append(demArgs, out)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got, want := decodePNG(t, out), decodePNG(t, demPic)
	if got.Bounds() != image.Rect(0, 0, 147, 123) || got.Bounds() != want.Bounds() {
		t.Fatalf("DEM picture %v; want 147×123 as committed (%v)", got.Bounds(), want.Bounds())
	}
	bad := 0
	for y := range 123 {
		for x := range 147 {
			r0, g0, b0, _ := got.At(x, y).RGBA()
			r1, g1, b1, _ := want.At(x, y).RGBA()
			if absDiff(r0, r1) > 8<<8 || absDiff(g0, g1) > 8<<8 || absDiff(b0, b1) > 8<<8 {
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d pixels of the DEM picture differ from %s by more than 8 levels; run go test ./app/cli -run TestREADMEPictures -update-docs if the 2D view changed on purpose", bad, demPic)
	}
	if _, err := os.Stat(defaultPic); err != nil {
		t.Fatal(err)
	}
	small := append(slices.Clone(defArgs), filepath.Join(dir, "default.png"))
	small = append(small[:3], append([]string{"--grid", "48", "--steps", "20"}, small[3:]...)...)
	if code, _, stderr := runCLI(small...); code != 0 {
		t.Fatalf("%s: exit %d: %s", strings.Join(small, " "), code, stderr)
	}
	if b := decodePNG(t, filepath.Join(dir, "default.png")).Bounds(); b != image.Rect(0, 0, 320, 320) {
		t.Errorf("default picture %v; want 320×320", b)
	}
	// --init renders as it is: flags that would simulate are errors.
	if code, _, stderr := runCLI("render", "--init", bigTujunga, "--steps", "5", "--out", out); code == 0 || !strings.Contains(stderr, "--steps") {
		t.Errorf("--init with --steps: exit %d, %q; want an error naming --steps", code, stderr)
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
