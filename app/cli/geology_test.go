package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/sim/geology"
)

// TestErodeGeology: orogen erode --geology sets the hardness from the
// exposed rock: clay (Kd 0.9) everywhere gives hardness 0.9 where the pass
// neither deposited nor met another rock.
func TestErodeGeology(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "h.png")
	writeHills(t, in, 32, 24)
	geo := filepath.Join(dir, "g.json")
	if err := os.WriteFile(geo, []byte(`{"base":-1000,"stack":[{"layers":[{"thickness":5000,"rock":"Clay"}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.tif")
	code, _, stderr := runCLI("erode", "--in", in, "--steps", "1", "--geology", geo, "--out-hardness", hard)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := rasterio.ReadHeights(hard)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range f.Data {
		if float64(v) == float64(float32(geology.Clay.Kd)) {
			n++
		}
	}
	// Eq. 11 lowers the hardness where the first step deposits; most
	// cells keep clay's.
	if n < len(f.Data)/2 {
		t.Fatalf("%d of %d cells at clay's hardness %g; want most", n, len(f.Data), geology.Clay.Kd)
	}
	code, _, stderr = runCLI("erode", "--in", in, "--steps", "1", "--geology", geo, "--hardness", hard)
	if code == 0 || !strings.Contains(stderr, "keep one") {
		t.Fatalf("--hardness with --geology: exit %d, %s; want an error", code, stderr)
	}
}
