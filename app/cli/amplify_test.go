package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/app/scene/scenetest"
	"orogen/sim/simtest"
)

// orogen run --out-size amplifies the heightmap and masks 4× (checked by
// size, cell and the report's amplify section), resamples it with
// --export-size, and refuses sizes that are not 2, 4 or 8 times the grid.
func TestRunOutSize(t *testing.T) {
	simtest.SkipUnderRace(t, "numerics only")
	dir := t.TempDir()
	// The classic physics (talus 30°, no soil): a quick steady state, the
	// one the figures below were set on.
	classic := scenetest.File(t, "default")
	out, water, rivers, rep := filepath.Join(dir, "h.tif"), filepath.Join(dir, "w.tif"), filepath.Join(dir, "r.png"), filepath.Join(dir, "r.json")
	code, _, stderr := runCLI("run", "-q", "--scene", classic, "--size", "48", "--until-converged", "--out-size", "192",
		"--out", out, "--out-water", water, "--out-rivers", rivers, "--report", rep)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	h, err := rasterio.ReadHeights(out)
	if err != nil {
		t.Fatal(err)
	}
	if h.W != 192 || h.H != 192 {
		t.Fatalf("heightmap %d×%d; want 192×192", h.W, h.H)
	}
	for _, p := range []string{water, rivers} {
		f, err := rasterio.ReadHeights(p)
		if err != nil {
			t.Fatal(err)
		}
		if f.W != 192 || f.H != 192 {
			t.Errorf("%s: %d×%d; want 192×192", filepath.Base(p), f.W, f.H)
		}
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Width    int     `json:"width"`
		CellSize float64 `json:"cell_size_m"`
		Amplify  *struct {
			Factor   int     `json:"factor"`
			Width    int     `json:"width"`
			CellSize float64 `json:"cell_size_m"`
			Seconds  float64 `json:"seconds"`
			MeanErr  float64 `json:"cell_mean_error_m"`
		} `json:"amplify"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if a := doc.Amplify; a == nil || a.Factor != 4 || a.Width != 192 || a.CellSize != doc.CellSize/4 || !(a.Seconds > 0) {
		t.Errorf("report amplify %+v (grid %d cells of %g m); want factor 4, 192 cells of a quarter", a, doc.Width, doc.CellSize)
	}
	// The report's cell-mean error: measured (not 0: the beds and the
	// detail move heights) and within the 1 % of the relief.
	if lo, hi := h.MinMax(); doc.Amplify != nil && !(doc.Amplify.MeanErr > 0 && doc.Amplify.MeanErr <= 0.01*float64(hi-lo)) {
		t.Errorf("report cell_mean_error_m %g; want in (0, %g], 1 %% of the relief", doc.Amplify.MeanErr, 0.01*float64(hi-lo))
	}
	if h.Cell != doc.CellSize/4 {
		t.Errorf("heightmap cell %g m; want %g", h.Cell, doc.CellSize/4)
	}

	// --export-size resamples the amplified terrain.
	ex := filepath.Join(dir, "e.tif")
	if code, _, stderr := runCLI("run", "-q", "--scene", classic, "--size", "32", "--steps", "20", "--out-size", "128", "--export-size", "100", "--out", ex); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if e, err := rasterio.ReadHeights(ex); err != nil || e.W != 100 {
		t.Fatalf("--export-size 100 after --out-size: %v, %v", e, err)
	}

	// --strict-talus: no amplified cell off the beds steeper than the
	// talus angle (30°) towards a neighbour, a millimetre of float32
	// rounding allowed; without it the sharpened crests are steeper.
	steep := func(strict bool) int {
		p := filepath.Join(dir, fmt.Sprintf("t%v.tif", strict))
		args := []string{"run", "-q", "--scene", classic, "--size", "32", "--until-converged", "--out-size", "128", "--out", p}
		if strict {
			args = append(args, "--strict-talus")
		}
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		f, err := rasterio.ReadHeights(p)
		if err != nil {
			t.Fatal(err)
		}
		tan, n := math.Tan(math.Pi/6), 0
		for y := 1; y < f.H-1; y++ {
			for x := 1; x < f.W-1; x++ {
				for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
					dist := f.Cell * math.Hypot(float64(d[0]), float64(d[1]))
					if math.Abs(float64(f.At(x, y)-f.At(x+d[0], y+d[1]))) > tan*dist+1e-3 {
						n++
					}
				}
			}
		}
		return n
	}
	if loose, strict := steep(false), steep(true); strict != 0 || loose == 0 {
		// Beds are exempt, but a bed's sides are dry cells held to the
		// limit, and a bed falls far more gently than 30°.
		t.Errorf("pairs of cells steeper than 30°: %d with --strict-talus (want 0), %d without (want some)", strict, loose)
	}
	for _, flag := range [][]string{{"--strict-talus"}, {"--out-hydro-steps", "5"}} {
		args := append([]string{"run", "-q", "--scene", classic, "--size", "32", "--steps", "2", "--out", filepath.Join(dir, "s.tif")}, flag...)
		if code, _, stderr := runCLI(args...); code == 0 || !strings.Contains(stderr, "give --out-size") {
			t.Errorf("%v without --out-size: exit %d, %q", flag, code, stderr)
		}
	}
	// --out-hydro-steps: the finishing pass moves the terrain, and a
	// count out of range is refused.
	hp := filepath.Join(dir, "hydro.tif")
	if code, _, stderr := runCLI("run", "-q", "--scene", classic, "--size", "32", "--steps", "20", "--out-size", "128", "--out-hydro-steps", "20", "--out", hp); code != 0 {
		t.Fatalf("--out-hydro-steps: exit %d: %s", code, stderr)
	}
	plainP := filepath.Join(dir, "nohydro.tif")
	if code, _, stderr := runCLI("run", "-q", "--scene", classic, "--size", "32", "--steps", "20", "--out-size", "128", "--out", plainP); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	hf, err1 := rasterio.ReadHeights(hp)
	pf, err2 := rasterio.ReadHeights(plainP)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	moved := 0
	for i := range hf.Data {
		if math.Abs(float64(hf.Data[i]-pf.Data[i])) > 0.01 {
			moved++
		}
	}
	if moved == 0 {
		t.Error("--out-hydro-steps 20 changed no amplified height by more than 1 cm")
	}
	if code, _, stderr := runCLI("run", "-q", "--scene", classic, "--size", "32", "--steps", "2", "--out-size", "64", "--out-hydro-steps", "-1", "--out", filepath.Join(dir, "s.tif")); code == 0 || !strings.Contains(stderr, "--out-hydro-steps -1") {
		t.Errorf("--out-hydro-steps -1: exit %d, %q", code, stderr)
	}

	// The rock of a geology at the fine cells.
	rock := filepath.Join(dir, "rock.png")
	if code, _, stderr := runCLI("run", "-q", "--scene", "folded", "--size", "24", "--steps", "10", "--out-size", "96", "--out-rock", rock); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var leg struct {
		Width, Height int
	}
	if b, err := os.ReadFile(rock + ".json"); err != nil || json.Unmarshal(b, &leg) != nil || leg.Width != 96 || leg.Height != 96 {
		t.Errorf("rock legend %+v (%v); want 96×96", leg, err)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out-size", "100"}, "give 2, 4 or 8 times"},
		{[]string{"--out-size", "96"}, "give 2, 4 or 8 times"},
		{[]string{"--out-size", "16"}, "below the 32×32 simulation"},
		{[]string{"--out-size", "-5"}, "positive"},
		{[]string{"--out-size", "64", "--out-drainage", filepath.Join(dir, "d.tif")}, "--out-drainage is not amplified"},
	} {
		code, _, stderr := runCLI(append([]string{"run", "-q", "--scene", classic, "--size", "32", "--steps", "2", "--out", filepath.Join(dir, "bad.tif")}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "bad.tif")); err == nil {
			t.Errorf("%v: wrote bad.tif", c.args)
		}
	}
}
