package cli

import (
	"flag"
	"image"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "regenerate the README's pictures under docs/img/ (the default preset runs to steady state at 512², a minute)")

// The README's pictures: the default preset's hillshade and a real DEM's,
// both from orogen render at the same scale (156 m a pixel: the preset's
// 50 km over 320 pixels, Big Tujunga's 23 km over 147). The commands are
// read from the README (its "orogen render" lines that write a
// picture under docs/img/) and run through the real binary from the
// repository's root, so the README's commands are the ones that made the
// pictures. The DEM picture needs no simulation, so it is rendered again
// and compared with the committed one (8 levels a channel: the PNG is the
// renderer's own, so any difference is a change of the 2D view); the
// preset's command runs on a small grid to check its flags, in full with
// -update-docs, which rewrites both.
func TestREADMEPictures(t *testing.T) {
	const (
		demPic     = "docs/img/bigtujunga-hillshade.png"
		defaultPic = "docs/img/default-hillshade.png"
	)
	cmds := map[string][]string{} // picture: the README's arguments before --out
	for _, l := range readmeLines(t, "orogen render ") {
		f := strings.Fields(l)
		if len(f) < 4 || f[len(f)-2] != "--out" || !strings.HasPrefix(f[len(f)-1], "docs/img/") {
			continue // the synopsis
		}
		cmds[f[len(f)-1]] = f[1 : len(f)-2]
	}
	demArgs, defArgs := cmds[demPic], cmds[defaultPic]
	if len(cmds) != 2 || demArgs == nil || defArgs == nil {
		t.Fatalf("README's orogen render lines write %v; want %s and %s", slices.Sorted(maps.Keys(cmds)), demPic, defaultPic)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	render := func(args []string, out string) {
		t.Helper()
		cmd := exec.Command(orogenBinary(t), append(slices.Clone(args), "-q", "--out", out)...)
		cmd.Dir = root
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("orogen %s --out %s: %v\n%s", strings.Join(args, " "), out, err, b)
		}
	}
	if *updateDocs {
		render(demArgs, demPic)
		render(defArgs, defaultPic)
	}
	for _, pic := range []string{demPic, defaultPic} {
		if fi, err := os.Stat(filepath.Join(root, pic)); err != nil {
			t.Fatal(err)
		} else if fi.Size() > 300<<10 {
			t.Errorf("%s: %d bytes; keep the README's pictures under 300 KiB", pic, fi.Size())
		}
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "dem.png")
	render(demArgs, out)
	got, want := decodePNG(t, out), decodePNG(t, filepath.Join(root, demPic))
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
	small := append([]string{defArgs[0]}, append([]string{"--grid", "48", "--steps", "20"}, defArgs[1:]...)...)
	render(small, filepath.Join(dir, "default.png"))
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
