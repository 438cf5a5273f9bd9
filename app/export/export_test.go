package export

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/sim/engine"
)

// ramp is a 4×3 snapshot: heights rise eastward by 10 m a 100 m cell, every
// cell drains to its west neighbour, column 0 are outlets.
func ramp() *engine.Snapshot {
	w, h := 4, 3
	s := &engine.Snapshot{W: w, H: h, Cell: 100, Height: make([]float32, w*h), Area: make([]float32, w*h),
		Receivers: make([]int32, w*h), Water: make([]float32, w*h), Uplift: make([]float32, w*h)}
	for y := range h {
		for x := range w {
			i := y*w + x
			s.Height[i] = float32(10 * x)
			s.Area[i] = float32(1e4 * (w - x))
			s.Receivers[i] = int32(i)
			if x > 0 {
				s.Receivers[i] = int32(i - 1)
			}
			s.Uplift[i] = 1e-4
		}
	}
	s.Water[5] = 2.5
	return s
}

func TestMaskValues(t *testing.T) {
	s := ramp()
	// Slope: atan(10/100) everywhere but the outlets; float32 storage
	// limits agreement to ~1e-5 degrees.
	want := math.Atan(0.1) * 180 / math.Pi
	sl := Mask("slope", s, 1)
	for i, v := range sl {
		w := want
		if i%4 == 0 {
			w = 0
		}
		if math.Abs(float64(v)-w) > 1e-4 {
			t.Errorf("slope[%d] = %v; want %v", i, v, w)
		}
	}
	// Rivers: area ≥ 2e4 m² is columns 0..2.
	rv := Mask("rivers", s, 2e4)
	for i, v := range rv {
		w := float32(0)
		if i%4 <= 2 {
			w = 1
		}
		if v != w {
			t.Errorf("rivers[%d] = %v; want %v", i, v, w)
		}
	}
	if got := Mask("water", s, 1)[5]; got != 2.5 {
		t.Errorf("water[5] = %v; want 2.5", got)
	}
	s.Uplift = nil
	if Mask("uplift", s, 1) != nil {
		t.Error("uplift mask without uplift: got data; want nil")
	}
}

func TestMasksWriteAndRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := ramp()
	files, err := Masks(dir, ".tif", s, 2e4)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(Names) {
		t.Fatalf("wrote %d files; want %d", len(files), len(Names))
	}
	// Float TIFF round-trips exactly.
	f, err := rasterio.ReadHeights(filepath.Join(dir, "drainage.tif"))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range f.Data {
		if v != s.Area[i] {
			t.Fatalf("drainage[%d] read back %v; want %v", i, v, s.Area[i])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "rivers.tif.json")); err != nil {
		t.Errorf("no sidecar for rivers: %v", err)
	}
}

func TestMasksBadInput(t *testing.T) {
	s := ramp()
	dir := t.TempDir()
	for _, c := range []struct {
		dir, ext string
		thr      float64
		want     string
	}{
		{dir, ".jpg", 1, "mask format"},
		{dir, ".png", 0, "river threshold"},
		{dir, ".png", math.NaN(), "river threshold"},
		{filepath.Join(dir, "missing"), ".png", 1, "masks folder"},
	} {
		_, err := Masks(c.dir, c.ext, s, c.thr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Masks(%q, %q, %v): got %v; want an error about %s", c.dir, c.ext, c.thr, err, c.want)
		}
	}
}
