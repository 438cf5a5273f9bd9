package run

import (
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunWritesPreview runs a small scene with a preview and decodes it:
// one pixel per cell, opaque, and more than a handful of colours (a
// hillshade, not a blank).
func TestRunWritesPreview(t *testing.T) {
	dir := t.TempDir()
	o := Options{Scene: "default", Size: 48, Steps: 5, OutPreview: filepath.Join(dir, "p.png")}
	job, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(o.OutPreview)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != image.Rect(0, 0, 48, 48) {
		t.Fatalf("preview bounds: got %v; want 48×48", img.Bounds())
	}
	colours := map[[4]uint32]bool{}
	for y := 0; y < 48; y++ {
		for x := 0; x < 48; x++ {
			r, g, b, a := img.At(x, y).RGBA()
			if a != 0xffff {
				t.Fatalf("pixel (%d, %d): alpha %d; want opaque", x, y, a)
			}
			colours[[4]uint32{r, g, b, a}] = true
		}
	}
	if len(colours) < 100 {
		t.Errorf("preview: got %d distinct colours; want a relief (at least 100)", len(colours))
	}
}

func TestPreviewPathChecked(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		path, want string
	}{
		{filepath.Join(dir, "p.jpg"), ".png"},
		{filepath.Join(dir, "no", "p.png"), "create it first"},
	} {
		_, err := Prepare(Options{Scene: "default", Size: 16, OutPreview: tc.path})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "preview") {
			t.Errorf("Prepare(OutPreview %s): got %v; want an error about the preview mentioning %q", tc.path, err, tc.want)
		}
	}
}
