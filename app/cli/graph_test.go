package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/sim/simtest"
)

func TestRunGraphEngine(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "r.json")
	code, _, stderr := runCLI("run", "--engine", "graph", "--scene", "default", "--size", "128", "--steps", "30",
		"--out", filepath.Join(dir, "h.tif"), "--report", rep, "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Engine string  `json:"engine"`
		Steps  int     `json:"steps"`
		Max    float64 `json:"max_height_m"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Engine != "graph" || r.Steps != 30 || !(r.Max > 0) {
		t.Fatalf("report: engine %q, %d steps, max %g m; want graph, 30, > 0", r.Engine, r.Steps, r.Max)
	}
}

func TestRunGraphRefine(t *testing.T) {
	dir := t.TempDir()
	rep := filepath.Join(dir, "r.json")
	code, _, stderr := runCLI("run", "--engine", "graph", "--refine", "1", "--scene", "default", "--size", "64", "--steps", "10",
		"--out", filepath.Join(dir, "h.tif"), "--report", rep, "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Steps int     `json:"steps"`
		Max   float64 `json:"max_height_m"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Steps != 10 || !(r.Max > 0) {
		t.Fatalf("report: %d steps, max %g m; want 10, > 0", r.Steps, r.Max)
	}
}

func TestRunBadSamples(t *testing.T) {
	simtest.SkipUnderRace(t, "input checks only")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--engine", "graph", "--samples", "-5", "--steps", "1"}, "--samples -5"},
		{[]string{"run", "--engine", "graph", "--samples", "3", "--steps", "1"}, "at least 16"},
		{[]string{"run", "--samples", "1000", "--steps", "1"}, "--engine graph"},
		{[]string{"run", "--engine", "graph", "--samples", "x"}, "samples"},
		{[]string{"run", "--refine", "1", "--steps", "4"}, "--engine graph"},
		{[]string{"run", "--engine", "graph", "--refine", "-1", "--steps", "4"}, "--refine -1"},
		{[]string{"run", "--engine", "graph", "--refine", "2", "--steps", "2"}, "more --steps"},
		{[]string{"run", "--engine", "graph", "--refine", "x"}, "refine"},
	} {
		code, _, stderr := runCLI(c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want non-zero and %q", c.args, code, stderr, c.want)
		}
	}
}

// TestRenderGraph renders a graph run in 2D (the arcs drawn as rivers in
// the river colour) and 3D.
func TestRenderGraph(t *testing.T) {
	simtest.SkipUnderRace(t, "pictures only")
	dir := t.TempDir()
	for _, view := range []string{"2d", "3d"} {
		out := filepath.Join(dir, view+".png")
		code, _, stderr := runCLI("render", "--engine", "graph", "--samples", "4000", "--scene", "cone", "--grid", "128",
			"--steps", "40", "--view", view, "--size", "200x160", "--out", out, "-q")
		if code != 0 {
			t.Fatalf("render %s: exit %d: %s", view, code, stderr)
		}
		img := decodePNG(t, out)
		if b := img.Bounds(); b.Dx() != 200 || b.Dy() != 160 {
			t.Fatalf("render %s: %v; want 200×160", view, b)
		}
		if view == "2d" {
			// Rivers: blue well above red and green.
			blue := 0
			for y := 0; y < 160; y++ {
				for x := 0; x < 200; x++ {
					r, g, b, _ := img.At(x, y).RGBA()
					if b>>8 > r>>8+60 && b>>8 > g>>8+30 {
						blue++
					}
				}
			}
			if blue < 200 {
				t.Errorf("2d render of a graph run: %d river pixels; want the arcs (≥ 200)", blue)
			}
		}
	}
}

// TestRunGraphGaussian writes a graph run's heightmap both ways: the
// Gaussian kernel smooths (its peak is no higher and its range narrower),
// the two agree on the mean to 5 % (smoothing moves mass only locally;
// the border, where the kernel is one-sided, shifts it a little).
func TestRunGraphGaussian(t *testing.T) {
	dir := t.TempDir()
	heights := map[string][]float32{}
	for _, r := range []string{"linear", "gaussian"} {
		out := filepath.Join(dir, r+".tif")
		code, _, stderr := runCLI("run", "--engine", "graph", "--raster", r, "--scene", "cone", "--size", "96",
			"--samples", "3000", "--steps", "40", "--out", out, "-q")
		if code != 0 {
			t.Fatalf("--raster %s: exit %d: %s", r, code, stderr)
		}
		f, err := rasterio.ReadHeights(out)
		if err != nil {
			t.Fatal(err)
		}
		heights[r] = f.Data
	}
	l, g := heights["linear"], heights["gaussian"]
	mean := func(v []float32) float64 {
		s := 0.0
		for _, x := range v {
			s += float64(x)
		}
		return s / float64(len(v))
	}
	if slices.Max(g) > slices.Max(l)+1e-3 {
		t.Errorf("gaussian peak %g m above the linear %g m", slices.Max(g), slices.Max(l))
	}
	if ml, mg := mean(l), mean(g); math.Abs(ml-mg) > 0.05*ml {
		t.Errorf("mean height: linear %g m, gaussian %g m; want within 5 %%", ml, mg)
	}
	same := true
	for i := range l {
		if l[i] != g[i] {
			same = false
			break
		}
	}
	if same {
		t.Error("--raster gaussian wrote the linear heightmap")
	}
	code, _, stderr := runCLI("run", "--raster", "cubic", "--engine", "graph", "--steps", "1")
	if code == 0 || !strings.Contains(stderr, "--raster") {
		t.Errorf("--raster cubic: exit %d, %q; want an error naming --raster", code, stderr)
	}
	code, _, stderr = runCLI("run", "--raster", "gaussian", "--steps", "1")
	if code == 0 || !strings.Contains(stderr, "stream graph only") {
		t.Errorf("--raster on the grid: exit %d, %q; want an error", code, stderr)
	}
}
