package wintest

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
)

// TestErodeGPUMatchesLinux: `orogen.exe erode --device gpu` under Wine,
// whose WGL runs on the host's OpenGL (Mesa's llvmpipe under Xvfb here),
// gives the Linux binary's GPU result within float32 rounding (the same
// kernels on the same driver: 1e-4 of the relief at most), and both say
// that they ran on the GPU.
func TestErodeGPUMatchesLinux(t *testing.T) {
	e := setup(t)
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no DISPLAY: Wine's WGL needs an X server (make test runs under xvfb-run)")
	}
	lin, win := mkdir(t, e.data, "gpu-linux"), mkdir(t, e.data, "gpu-windows")
	e.run(t, lin, e.linuxCLI, "run", "--scene", "default", "--size", "64", "--steps", "20", "--out", "h.tif", "-q")
	for _, f := range []string{"h.tif", "h.tif.json"} {
		b, err := os.ReadFile(filepath.Join(lin, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(win, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"erode", "--in", "h.tif", "--steps", "30", "--device", "gpu", "--out", "e.tif"}
	_, lerr, err := e.try(lin, e.linuxCLI, args...)
	if err != nil {
		t.Fatalf("linux: %v\n%s", err, lerr)
	}
	if !strings.Contains(lerr, "on the GPU") {
		t.Skipf("no GPU for the Linux binary: %s", lerr)
	}
	_, werr, err := e.try(win, e.winCLI, args...)
	if err != nil {
		t.Fatalf("windows: %v\n%s", err, werr)
	}
	if !strings.Contains(werr, "on the GPU") || !strings.Contains(werr, "WGL") {
		t.Fatalf("orogen.exe --device gpu did not run on the GPU through WGL:\n%s", werr)
	}
	a, err := rasterio.ReadHeights(filepath.Join(lin, "e.tif"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := rasterio.ReadHeights(filepath.Join(win, "e.tif"))
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := a.MinMax()
	var worst float64
	for i := range a.Data {
		worst = math.Max(worst, math.Abs(float64(a.Data[i])-float64(b.Data[i])))
	}
	if worst > 1e-4*float64(hi-lo) {
		t.Errorf("Windows GPU terrain differs from Linux's by up to %.3g m (relief %.0f m)", worst, hi-lo)
	}
	t.Logf("Linux and Wine GPU terrains differ by at most %.3g m", worst)
}
