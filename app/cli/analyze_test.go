package cli

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orogen/app/figure"
	"orogen/app/rasterio"
	"orogen/sim"
	"orogen/sim/simtest"
)

const (
	jacksboro  = "testdata/jacksboro.tif"  // see testdata/README.md
	bigTujunga = "testdata/bigtujunga.tif" // see testdata/README.md
)

// analyzeJSON is the part of `orogen analyze --json` the tests read.
type analyzeJSON struct {
	File string `json:"file"`
	Hack *struct {
		H, C, R2 float64
		Points   int
	} `json:"hack"`
	SlopeArea *struct {
		Exponent, Concavity, Ks, R2 float64
		Points                      int
		Bins                        []struct{ Area, Slope float64 } `json:"bins"`
	} `json:"slope_area"`
	Drainage struct {
		Pits    int     `json:"pits"`
		ToEdge  float64 `json:"fraction_to_edge"`
		Outlets int     `json:"outlets"`
		Basins  []struct {
			X, Y   int
			AreaKm float64 `json:"area_km2"`
			Cells  int     `json:"cells"`
		} `json:"largest_basins"`
	} `json:"drainage"`
	Hypsometric float64 `json:"hypsometric_integral"`
	Relief      float64 `json:"relief_m"`
	MeanSlope   float64 `json:"mean_slope_deg"`
	Base        int     `json:"base_level_cells"`
	Channels    *struct {
		Concavity, R2 float64
		Points        int
	} `json:"channel_concavity"`
	MinBasin float64 `json:"min_basin_cells"`
	Chi      *struct {
		Concavity, Q1, Q3, Misfit float64
		Basins                    []struct {
			Concavity float64 `json:"concavity"`
			Heads     int     `json:"heads"`
		} `json:"basins"`
	} `json:"chi_concavity"`
	Realism struct {
		Spike      float64 `json:"threshold_spike"`
		Planar     float64 `json:"planar_share"`
		Anisotropy float64 `json:"anisotropy"`
	} `json:"realism"`
	Verdict struct {
		Natural    bool   `json:"natural"`
		HackInside bool   `json:"hack_inside"`
		Line       string `json:"line"`
		Criteria   []struct {
			Name   string  `json:"name"`
			Value  float64 `json:"value"`
			Inside bool    `json:"inside"`
			Source string  `json:"source"`
		} `json:"criteria"`
	} `json:"verdict"`
}

func analyzeCLI(t *testing.T, args ...string) analyzeJSON {
	t.Helper()
	code, stdout, stderr := runCLI(append([]string{"analyze", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r analyzeJSON
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v in %s", err, stdout)
	}
	return r
}

// The real DEM reads as GDAL reads it (gdalinfo -stats, in the README;
// float32 sums: 1e-3 m on the mean), and its drainage follows Hack's law
// inside the range of real rivers, [0.45, 0.7], with either routing.
func TestAnalyzeRealDEM(t *testing.T) {
	f, err := rasterio.ReadHeights(jacksboro)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := f.MinMax()
	var sum float64
	for _, v := range f.Data {
		sum += float64(v)
	}
	if f.W != 256 || f.H != 256 || lo != 242.49691772461 || hi != 1072.1932373047 || math.Abs(sum/65536-533.76744960762) > 1e-3 {
		t.Fatalf("%d×%d, %g..%g m, mean %g; GDAL reads 256×256, 242.49691772461..1072.1932373047, mean 533.76744960762", f.W, f.H, lo, hi, sum/65536)
	}
	for _, fill := range []bool{false, true} {
		args := []string{jacksboro, "--cell", "90"}
		if fill {
			args = append(args, "--fill")
		}
		r := analyzeCLI(t, args...)
		if r.Hack == nil || r.Hack.H < 0.45 || r.Hack.H > 0.7 || !r.Verdict.HackInside {
			t.Errorf("fill=%v: Hack %+v; want h in [0.45, 0.7]", fill, r.Hack)
		}
		if r.SlopeArea == nil || r.SlopeArea.Concavity < 0.2 || r.SlopeArea.Concavity > 0.8 {
			t.Errorf("fill=%v: slope–area %+v; want a concavity of a real river, 0.2–0.8", fill, r.SlopeArea)
		}
		if r.Drainage.Pits == 0 || r.Drainage.ToEdge != 1 || r.Drainage.Outlets == 0 || len(r.Drainage.Basins) != 5 {
			t.Errorf("fill=%v: drainage %+v; a real DEM has pits, natural edges drain every cell", fill, r.Drainage)
		}
		// Against GDAL (testdata/README.md): the hypsometric integral from
		// gdalinfo's statistics, (mean − min)/(max − min), to the float32
		// rounding of the mean (1e-6); the relief exactly; the mean slope
		// from gdaldem's central differences (ZevenbergenThorne) to 0.01°:
		// GDAL extrapolates the border cells where Orogen takes one-sided
		// differences (1020 of 65536 cells).
		const gmin, gmax, gmean, gslope = 242.49691772461, 1072.1932373047, 533.76744960762, 12.987625842345
		if hi := (gmean - gmin) / (gmax - gmin); math.Abs(r.Hypsometric-hi) > 1e-6 || math.Abs(r.Relief-(gmax-gmin)) > 1e-4 || math.Abs(r.MeanSlope-gslope) > 0.01 {
			t.Errorf("fill=%v: hypsometric integral %.7f, relief %.4f m, mean slope %.4f°; GDAL gives %.7f, %.4f, %.4f",
				fill, r.Hypsometric, r.Relief, r.MeanSlope, hi, gmax-gmin, gslope)
		}
		// Against GRASS GIS (testdata/README.md): r.watershed -s (D8 with
		// A* least-cost routing through depressions) finds the same five
		// largest basins; their areas agree within 1.5 % (the largest
		// difference is 0.9 %: depressions and ties near divides are
		// routed differently).
		grass := []struct{ x, y, cells int }{{0, 143, 15945}, {255, 181, 13644}, {255, 230, 7583}, {0, 88, 6791}, {255, 92, 4963}}
		for k, g := range grass {
			b := r.Drainage.Basins[k]
			if b.X != g.x || b.Y != g.y || math.Abs(float64(b.Cells-g.cells)) > 0.015*float64(g.cells) {
				t.Errorf("fill=%v: basin %d at (%d, %d) of %d cells; GRASS finds (%d, %d) with %d", fill, k, b.X, b.Y, b.Cells, g.x, g.y, g.cells)
			}
		}
		t.Logf("fill=%v: %s", fill, r.Verdict.Line)
	}
}

// Both real DEMs read natural with either routing: every criterion of the
// verdict inside its range, each with its source; the concavity θ the
// verdict reads is the χ method's, in 0.35–0.65 (Jacksboro 0.55 routed
// through its lakes, 0.50 filled; Big Tujunga 0.38 and 0.385: the median
// of 9 and 8 basins of 1000 cells or more).
func TestAnalyzeRealDEMsNatural(t *testing.T) {
	for _, dem := range []string{jacksboro, bigTujunga} {
		for _, fill := range []bool{false, true} {
			args := []string{dem, "--cell", "90"}
			if fill {
				args = append(args, "--fill")
			}
			r := analyzeCLI(t, args...)
			if !r.Verdict.Natural || len(r.Verdict.Criteria) != 7 || r.Channels == nil {
				t.Errorf("%s fill=%v: %s; want natural on all 7 criteria", dem, fill, r.Verdict.Line)
			}
			if r.Chi == nil || r.Chi.Concavity < 0.35 || r.Chi.Concavity > 0.65 || len(r.Chi.Basins) < 5 || r.MinBasin != 1000 {
				t.Fatalf("%s fill=%v: χ concavity %+v (basins of %g cells or more); want θ in [0.35, 0.65] over 5 basins or more of 1000 cells", dem, fill, r.Chi, r.MinBasin)
			}
			if c := r.Verdict.Criteria[6]; c.Name != "concavity θ" || c.Value != r.Chi.Concavity {
				t.Errorf("%s fill=%v: verdict criterion %+v; want the χ θ %g", dem, fill, c, r.Chi.Concavity)
			}
			for _, c := range r.Verdict.Criteria {
				if c.Source == "" {
					t.Errorf("%s: criterion %s has no source", dem, c.Name)
				}
			}
			t.Logf("%s fill=%v: spike %.3f planar %.4f anisotropy %.3f θ %.3f by χ [%.3f, %.3f] over %d basins, %.3f by slope–area on the channels; %s", dem, fill,
				r.Realism.Spike, r.Realism.Planar, r.Realism.Anisotropy, r.Chi.Concavity, r.Chi.Q1, r.Chi.Q3, len(r.Chi.Basins), r.Channels.Concavity, r.Verdict.Line)
		}
	}
}

// The second real DEM reads as GDAL reads it (testdata/README.md).
func TestBigTujungaAsGDAL(t *testing.T) {
	f, err := rasterio.ReadHeights(bigTujunga)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := f.MinMax()
	if f.W != 256 || f.H != 214 || math.Abs(float64(lo)-485.55554199219) > 1e-4 || math.Abs(float64(hi)-2169.2221679688) > 1e-4 {
		t.Fatalf("%d×%d, %g..%g m; GDAL reads 256×214, 485.55554199219..2169.2221679688", f.W, f.H, lo, hi)
	}
}

func TestAnalyzeText(t *testing.T) {
	code, stdout, stderr := runCLI("analyze", jacksboro, "--cell", "90", "--min-area", "30")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"256×256 cells of 90 m", "Hack's law     h = 0.5", "slope–area     exponent = -0.", "pits before routing",
		"largest      (", "hypsometric integral 0.", "realism        ", "threshold spike 1.", "inside: Hack h 0.5",
		"(Hack 1957; Schott et al. 2022)", "concavity      θ = 0.", "by χ, the median of", "  slope–area   θ = 0.",
		"natural: all 7 criteria inside their ranges"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in\n%s", want, stdout)
		}
	}
}

// --plot writes a PNG of the figure's size with every panel drawn, and the
// sidecar's cell size is used when there is one.
func TestAnalyzePlot(t *testing.T) {
	simtest.SkipUnderRace(t, "pictures only")
	dir := t.TempDir()
	in := filepath.Join(dir, "hills.png")
	f := sim.NewField(96, 80, 25)
	copy(f.Data, simtest.Rough(96, 80, 200, 7))
	if err := rasterio.Write(in, f); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "a.png")
	r := analyzeCLI(t, in, "--plot", out, "--min-area", "20", "--fill")
	if r.Hack == nil || r.File != in {
		t.Fatalf("%+v", r)
	}
	fh, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != figure.Width || b.Dy() != figure.Height {
		t.Fatalf("plot %v; want %d×%d", b, figure.Width, figure.Height)
	}
	// Non-trivial: many colours (text, scatter, band, fit), not a blank page.
	colours := map[[3]uint32]bool{}
	for y := 0; y < figure.Height; y += 2 {
		for x := 0; x < figure.Width; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
		}
	}
	if len(colours) < 20 {
		t.Errorf("%d colours in the plot; want a drawn figure", len(colours))
	}
}

func TestAnalyzeErrors(t *testing.T) {
	dir := t.TempDir()
	flat := filepath.Join(dir, "flat.tif")
	if err := rasterio.Write(flat, &sim.Field{W: 30, H: 30, Cell: 10, Data: simtest.Uniform(30, 30, 5)}); err != nil {
		t.Fatal(err)
	}
	feet := jacksboroInFeet(t, dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{}, "accepts 1 arg"},
		{[]string{feet}, "no cell size (no sidecar, and no GeoTIFF pixel size in projected metres): give --cell"},
		{[]string{jacksboro, "--cell", "-3"}, "--cell -3"},
		{[]string{jacksboro, "--cell", "90", "--min-area", "1"}, "--min-area 1"},
		{[]string{jacksboro, "--cell", "90", "--edges", "sideways"}, "--edges"},
		{[]string{jacksboro, "--cell", "90", "--plot", filepath.Join(dir, "a.jpg")}, "--plot"},
		{[]string{jacksboro, "--cell", "90", "--edges", "closed", "--fill"}, "every edge is closed"},
		{[]string{filepath.Join(dir, "missing.tif"), "--cell", "90"}, "missing.tif"},
		{[]string{flat}, "flat map has no drainage"},
	} {
		code, _, stderr := runCLI(append([]string{"analyze"}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("analyze %v: exit %d, stderr %q; want an error containing %q", c.args, code, stderr, c.want)
		}
	}
}

// --talus sets the angle the spike is measured at, --channel-area the
// channel threshold; out-of-range values are one-line errors naming the flag.
func TestAnalyzeTalusFlags(t *testing.T) {
	code, stdout, stderr := runCLI("analyze", jacksboro, "--cell", "90", "--talus", "30", "--channel-area", "100", "--min-basin", "800", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		ChannelArea float64 `json:"channel_area_cells"`
		MinBasin    float64 `json:"min_basin_cells"`
		Chi         *struct {
			Basins []struct {
				Cells float64 `json:"cells"`
			} `json:"basins"`
		} `json:"chi_concavity"`
		Realism struct {
			Talus float64 `json:"talus_deg"`
			Mode  bool    `json:"talus_from_mode"`
			Spike float64 `json:"threshold_spike"`
		} `json:"realism"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	// Jacksboro's slopes near 30° are few and spread: no spike there.
	if r.Realism.Talus != 30 || r.Realism.Mode || r.ChannelArea != 100 || r.Realism.Spike > 3 {
		t.Errorf("talus %g (from the mode %v), channel area %g, spike %g; want 30, false, 100 and no spike", r.Realism.Talus, r.Realism.Mode, r.ChannelArea, r.Realism.Spike)
	}
	if r.MinBasin != 800 || r.Chi == nil || len(r.Chi.Basins) == 0 || slices.ContainsFunc(r.Chi.Basins, func(b struct {
		Cells float64 `json:"cells"`
	}) bool {
		return b.Cells < 800
	}) {
		t.Errorf("smallest basin %g cells, χ fit %+v; want 800 and every basin at least that", r.MinBasin, r.Chi)
	}
	for _, c := range []struct{ flag, val string }{{"--talus", "95"}, {"--talus", "-1"}, {"--channel-area", "1"}, {"--min-basin", "150"}} {
		code, _, stderr := runCLI("analyze", jacksboro, "--cell", "90", c.flag, c.val)
		if code == 0 || !strings.Contains(stderr, c.flag) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%s %s: exit %d, stderr %q; want a one-line error naming the flag", c.flag, c.val, code, stderr)
		}
	}
}

// jacksboroInFeet writes into dir the Jacksboro DEM with its linear unit
// turned from metres (GeoKey 3076 = 9001) to feet (9002): a GeoTIFF whose
// pixel size is not in metres, so commands ask for --cell.
func jacksboroInFeet(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(jacksboro)
	if err != nil {
		t.Fatal(err)
	}
	metres := []byte{0x04, 0x0c, 0, 0, 1, 0, 0x29, 0x23} // key 3076, inline, count 1, 9001
	if bytes.Count(b, metres) != 1 {
		t.Fatal("the Jacksboro DEM does not name its linear unit once")
	}
	feet := filepath.Join(dir, "feet.tif")
	if err := os.WriteFile(feet, bytes.Replace(b, metres, []byte{0x04, 0x0c, 0, 0, 1, 0, 0x2a, 0x23}, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	return feet
}
