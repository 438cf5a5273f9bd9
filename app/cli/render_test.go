package cli

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/sim/simtest"
)

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

func TestRenderWritesLetterboxedPicture(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "map.png")
	code, stdout, stderr := runCLI("render", "--scene", "cone", "--grid", "40", "--steps", "4",
		"--view", "2d", "--size", "120x80", "--overlay", "drainage", "--out", out)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	img := decodePNG(t, out)
	if got := img.Bounds(); got != image.Rect(0, 0, 120, 80) {
		t.Fatalf("picture bounds: got %v; want 120×80", got)
	}
	// A 40×40 map in 120×80 is scaled to 80×80 and centred: bars of 20 px
	// left and right, all one colour; the map itself is not.
	bar := img.At(0, 0)
	for _, p := range []image.Point{{19, 40}, {100, 0}, {119, 79}} {
		if img.At(p.X, p.Y) != bar {
			t.Errorf("letterbox pixel %v: got %v; want %v", p, img.At(p.X, p.Y), bar)
		}
	}
	distinct := map[[4]uint32]bool{}
	for y := 0; y < 80; y++ {
		for x := 20; x < 100; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			distinct[[4]uint32{r, g, b, a}] = true
		}
	}
	if len(distinct) < 50 || distinct[func() [4]uint32 { r, g, b, a := bar.RGBA(); return [4]uint32{r, g, b, a} }()] {
		t.Errorf("map area: got %d distinct colours (letterbox among them: %v); want a relief", len(distinct), distinct)
	}
	if !strings.Contains(stderr, "cone: 40×40, 4 steps") {
		t.Errorf("summary missing from stderr: %q", stderr)
	}

	// Without --size the picture has one pixel per cell.
	out2 := filepath.Join(dir, "cells.png")
	if code, _, stderr := runCLI("render", "--scene", "cone", "--grid", "24", "--steps", "2", "-q", "--out", out2); code != 0 || stderr != "" {
		t.Fatalf("render -q: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	if got := decodePNG(t, out2).Bounds(); got != image.Rect(0, 0, 24, 24) {
		t.Fatalf("picture without --size: got %v; want 24×24", got)
	}
}

func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "p.png")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"render", "--view", "3d", "--pitch", "95", "--out", out}, "--pitch 95"},
		{[]string{"render", "--view", "3d", "--pitch", "2", "--out", out}, "[5, 89]"},
		{[]string{"render", "--view", "3d", "--yaw", "NaN", "--out", out}, "--yaw"},
		{[]string{"render", "--view", "3d", "--zoom", "0", "--out", out}, "--zoom"},
		{[]string{"render", "--view", "3d", "--color", "rainbow", "--out", out}, "rainbow"},
		{[]string{"render", "--view", "3d", "--overlay", "slope", "--out", out}, "--color slope"},
		{[]string{"render", "--view", "3d", "--exaggeration", "0", "--out", out}, "Exaggeration"},
		{[]string{"render", "--view", "3d", "--light-altitude", "0", "--out", out}, "SunElevationDeg"},
		{[]string{"render", "--view", "3d", "--size", "0x10", "--out", out}, "--size"},
		{[]string{"render", "--view", "2d", "--shadows", "--out", out}, "--shadows applies to --view 3d only"},
		{[]string{"render", "--yaw", "30", "--out", out}, "--yaw applies to --view 3d only"},
		{[]string{"render", "--view", "4d", "--out", out}, "4d"},
		{[]string{"render"}, "--out"},
		{[]string{"render", "--out", filepath.Join(dir, "p.jpg")}, ".png"},
		{[]string{"render", "--out", filepath.Join(dir, "none", "p.png")}, "create it first"},
		{[]string{"render", "--size", "12y", "--out", out}, "--size"},
		{[]string{"render", "--size", "0x10", "--out", out}, "--size"},
		{[]string{"render", "--overlay", "geology", "--out", out}, "geology"},
		{[]string{"render", "--overlay-alpha", "2", "--out", out}, "OverlayAlpha"},
		{[]string{"render", "--exaggeration", "NaN", "--out", out}, "Exaggeration"},
		{[]string{"render", "--scene", "atlantis", "--out", out}, "atlantis"},
	}
	for _, tc := range cases {
		code, stdout, stderr := runCLI(tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("orogen %v: exit %d, stderr %q, stdout %q; want non-zero and %q on stderr", tc.args, code, stderr, stdout, tc.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed render wrote its picture")
	}
}

func TestRender3DWritesPicture(t *testing.T) {
	simtest.SkipUnderRace(t, "pictures only")
	dir := t.TempDir()
	out := filepath.Join(dir, "view.png")
	code, stdout, stderr := runCLI("render", "--scene", "cone", "--grid", "32", "--steps", "3",
		"--view", "3d", "--size", "120x90", "--yaw", "45", "--pitch", "30", "--exaggeration", "3",
		"--shadows", "--wireframe", "--color", "slope", "--overlay", "uplift", "--out", out)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	img := decodePNG(t, out)
	if got := img.Bounds(); got != image.Rect(0, 0, 120, 90) {
		t.Fatalf("picture bounds: got %v; want 120×90", got)
	}
	// The fitted terrain fills the middle: many colours there, the sky
	// (one colour per row) in the top corners.
	distinct := map[[4]uint32]bool{}
	for y := 30; y < 60; y++ {
		for x := 40; x < 80; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			distinct[[4]uint32{r, g, b, a}] = true
		}
	}
	if len(distinct) < 50 {
		t.Errorf("middle of the 3d view: %d distinct colours; want a lit terrain (≥ 50)", len(distinct))
	}
	if img.At(0, 0) != img.At(119, 0) {
		t.Errorf("top corners: %v and %v; want the same sky", img.At(0, 0), img.At(119, 0))
	}
	if !strings.Contains(stderr, "(120×90, 3d)") {
		t.Errorf("summary missing from stderr: %q", stderr)
	}

	// Without --size a 3d picture is 800×600.
	out2 := filepath.Join(dir, "default.png")
	if code, _, stderr := runCLI("render", "--scene", "cone", "--grid", "16", "--steps", "1", "--view", "3d", "-q", "--out", out2); code != 0 || stderr != "" {
		t.Fatalf("render --view 3d -q: exit %d, stderr %q; want 0 and nothing", code, stderr)
	}
	if got := decodePNG(t, out2).Bounds(); got != image.Rect(0, 0, 800, 600) {
		t.Fatalf("3d picture without --size: got %v; want 800×600", got)
	}
}

func TestRunWritesPreview(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "preview.png")
	code, _, stderr := runCLI("run", "--scene", "cone", "--size", "32", "--steps", "3", "-q", "--out-preview", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := decodePNG(t, out).Bounds(); got != image.Rect(0, 0, 32, 32) {
		t.Fatalf("preview bounds: got %v; want 32×32 (one pixel per cell)", got)
	}
	code, _, stderr = runCLI("run", "--scene", "cone", "--size", "32", "--steps", "1", "--out-preview", filepath.Join(dir, "p.tif"))
	if code == 0 || !strings.Contains(stderr, ".png") {
		t.Fatalf("--out-preview p.tif: exit %d, stderr %q; want an error naming .png", code, stderr)
	}
}

func TestParseSize(t *testing.T) {
	cases := []struct {
		in   string
		w, h int
		ok   bool
	}{
		{"", 0, 0, true},
		{"1600x1200", 1600, 1200, true},
		{"800X600", 800, 600, true},
		{"640×480", 640, 480, true},
		{"512", 512, 512, true},
		{" 3 x 4 ", 3, 4, true},
		{"16384x1", 16384, 1, true},
		{"16385x1", 0, 0, false},
		{"0x5", 0, 0, false},
		{"-4x5", 0, 0, false},
		{"x5", 0, 0, false},
		{"5x", 0, 0, false},
		{"5x5x5", 0, 0, false},
		{"big", 0, 0, false},
	}
	for _, tc := range cases {
		w, h, err := parseSize(tc.in)
		if (err == nil) != tc.ok || w != tc.w || h != tc.h {
			t.Errorf("parseSize(%q): got %d, %d, %v; want %d, %d, ok=%v", tc.in, w, h, err, tc.w, tc.h, tc.ok)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"", "1600x1200", "640×480", "512", "0x0", "99999x1", "x", "1x-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w, h, err := parseSize(s)
		if err != nil {
			if w != 0 || h != 0 {
				t.Fatalf("parseSize(%q): error %v with size %d×%d", s, err, w, h)
			}
			return
		}
		if s == "" {
			if w != 0 || h != 0 {
				t.Fatalf(`parseSize(""): got %d×%d; want 0×0`, w, h)
			}
			return
		}
		if w < 1 || h < 1 || w > maxPictureSide || h > maxPictureSide {
			t.Fatalf("parseSize(%q): got %d×%d outside [1, %d]", s, w, h, maxPictureSide)
		}
	})
}
