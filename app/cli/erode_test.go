package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/sim"
)

// writeHills writes a w×h field of hills, 30 m cells, relief of about
// 200 m, to path (with its sidecar).
func writeHills(t *testing.T, path string, w, h int) *sim.Field {
	t.Helper()
	f := sim.NewField(w, h, 30)
	for y := range h {
		for x := range w {
			f.Data[y*w+x] = float32(100 + 60*math.Sin(float64(x)/5)*math.Cos(float64(y)/7) + 2*float64(y))
		}
	}
	if err := rasterio.Write(path, f); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestErodeRoundTrip(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "h.png")
	src := writeHills(t, in, 48, 40)
	out, water, sed, rep := filepath.Join(dir, "e.tif"), filepath.Join(dir, "w.tif"), filepath.Join(dir, "s.png"), filepath.Join(dir, "r.json")
	code, stdout, stderr := runCLI("erode", "--in", in, "--steps", "25", "--source", "10,12,1.5,40",
		"--boundary", "walls", "--thermal", "0.2", "--talus", "30",
		"--out", out, "--out-water", water, "--out-sediment", sed, "--report", rep)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "48×40, 25 steps") {
		t.Errorf("summary missing from stderr: %q", stderr)
	}
	got, err := rasterio.ReadHeights(out)
	if err != nil {
		t.Fatal(err)
	}
	if got.W != 48 || got.H != 40 || got.Cell != 30 {
		t.Fatalf("eroded map %d×%d, cell %g; want 48×40, 30", got.W, got.H, got.Cell)
	}
	// The PNG input is quantized to 16 bits of its 200 m range (3 mm); the
	// erosion must have moved more than that somewhere, and not everywhere
	// by much.
	var changed int
	for i, v := range got.Data {
		if math.Abs(float64(v-src.Data[i])) > 0.01 {
			changed++
		}
	}
	if changed == 0 || changed == len(got.Data) {
		t.Errorf("%d of %d cells changed; want some", changed, len(got.Data))
	}
	w, err := rasterio.ReadHeights(water)
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := w.MinMax(); lo < 0 || hi <= 0 {
		t.Errorf("water depth in [%g, %g]; want >= 0 with some water", lo, hi)
	}
	if _, err := os.Stat(rasterio.SidecarPath(sed)); err != nil {
		t.Errorf("sediment sidecar: %v", err)
	}

	var r map[string]any
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"version": 1.0, "engine": "hydro", "width": 48.0, "height": 40.0, "cell_size_m": 30.0, "steps": 25.0} {
		if r[k] != want {
			t.Errorf("report %s = %v; want %v", k, r[k], want)
		}
	}
	for _, k := range []string{"max_height_m", "mean_height_m"} {
		if _, ok := r[k].(float64); !ok {
			t.Errorf("report %s = %v; want a number", k, r[k])
		}
	}
	for _, k := range []string{"step_ms", "max_dh_m", "max_depth_m"} {
		if a, _ := r[k].([]any); len(a) != 25 {
			t.Errorf("report %s has %d entries; want 25", k, len(a))
		}
	}
	phases, _ := r["phase_ms"].(map[string]any)
	for _, name := range []string{"flux", "erosion", "transport"} {
		if a, _ := phases[name].([]any); len(a) != 25 {
			t.Errorf("report phase_ms.%s has %d entries; want 25", name, len(a))
		}
	}
	wb, _ := r["water_budget"].(map[string]any)
	rain, _ := wb["rain_in_m3"].(float64)
	stored, _ := wb["stored_m3"].(float64)
	resid, _ := wb["residual_m3"].(float64)
	// The source gave 40 m³/s for 25 steps of the default dt (0.61 s at
	// 30 m), on top of the rain.
	if rain < 40*25*0.61 || stored <= 0 || math.Abs(resid) > 1e-4*rain {
		t.Errorf("water budget %v: want rain >= %g m³, some stored, residual within 1e-4", wb, 40*25*0.61)
	}
	params, _ := r["params"].(map[string]any)
	if params["boundary"] != "walls" || params["talus_deg"] != 30.0 || params["kt_per_s"] != 0.2 || params["ks_per_s"] != 0.3 {
		t.Errorf("report params %v: want the flags given and the defaults", params)
	}
}

// TestErodeMassBudget: with open edges the report's mass budget closes,
// and the sediment that left through the edges is counted in m³ (it was
// once summed in metres of height, 1/900 of the volume at 30 m cells, so
// nearly all the rock the land lost seemed to vanish). Tolerance 1e-6 of
// the rock eroded: terrain and water exchange rock exactly, and the
// residual is float32 rounding of the sediment (sim/hydro's
// TestMassBudgetCloses).
func TestErodeMassBudget(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "h.tif")
	writeHills(t, in, 40, 40)
	rep := filepath.Join(dir, "r.json")
	code, _, stderr := runCLI("erode", "-q", "--in", in, "--steps", "200", "--boundary", "open",
		"--source", "20,20,2,40", "--out", filepath.Join(dir, "o.tif"), "--report", rep)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Mass struct {
			Eroded      float64 `json:"eroded_m3"`
			Deposited   float64 `json:"deposited_m3"`
			RockLost    float64 `json:"rock_lost_m3"`
			Suspended   float64 `json:"suspended_m3"`
			SedimentOut float64 `json:"sediment_out_m3"`
			Residual    float64 `json:"residual_m3"`
		} `json:"mass_budget"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	m := r.Mass
	if m.Eroded <= 0 || m.SedimentOut <= 0 {
		t.Fatalf("mass budget %+v: want erosion and sediment out through the open edges", m)
	}
	if d := m.Eroded - m.Deposited - m.RockLost; math.Abs(d) > 1e-9*m.Eroded {
		t.Errorf("eroded − deposited = %g; rock lost %g", m.Eroded-m.Deposited, m.RockLost)
	}
	if got := m.RockLost - m.Suspended - m.SedimentOut; math.Abs(got-m.Residual) > 1e-9*m.Eroded {
		t.Errorf("residual %g; the terms give %g", m.Residual, got)
	}
	if math.Abs(m.Residual) > 1e-6*m.Eroded {
		t.Errorf("mass budget %+v: residual beyond 1e-6 of the rock eroded", m)
	}
}

func TestErodeBadInputs(t *testing.T) {
	dir := t.TempDir()
	png := filepath.Join(dir, "h.png")
	writeHills(t, png, 16, 12)
	bare := filepath.Join(dir, "bare.png")
	b, _ := os.ReadFile(png)
	if err := os.WriteFile(bare, b, 0o644); err != nil {
		t.Fatal(err)
	}
	tif := filepath.Join(dir, "t.tif")
	writeHills(t, tif, 16, 12)
	if err := os.Remove(rasterio.SidecarPath(tif)); err != nil {
		t.Fatal(err)
	}
	// A plain TIFF: the GeoTIFF pixel scale renamed to a private tag, so
	// nothing gives the cell size.
	tb, _ := os.ReadFile(tif)
	tb = bytes.Replace(tb, []byte{0x0e, 0x83, 12, 0}, []byte{0xe8, 0xfd, 12, 0}, 1)
	if err := os.WriteFile(tif, tb, 0o644); err != nil {
		t.Fatal(err)
	}
	small := filepath.Join(dir, "small.png")
	writeHills(t, small, 8, 8)
	out := filepath.Join(dir, "o.tif")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--steps", "3"}, "--in is required"},
		{[]string{"--in", filepath.Join(dir, "none.png"), "--steps", "3"}, "none.png"},
		{[]string{"--in", bare, "--steps", "3"}, "sidecar"},
		{[]string{"--in", tif, "--steps", "3"}, "--cell"},
		{[]string{"--in", png, "--steps", "0"}, "--steps 0"},
		{[]string{"--in", png, "--steps", "3", "--dt", "NaN"}, "dt = NaN"},
		{[]string{"--in", png, "--steps", "3", "--dissolve", "-1"}, "Ks (dissolving) = -1"},
		{[]string{"--in", png, "--steps", "3", "--talus", "95"}, "talus angle = 95"},
		{[]string{"--in", png, "--steps", "3", "--boundary", "sea"}, "unknown boundary"},
		{[]string{"--in", png, "--steps", "3", "--source", "1,2,3"}, "x,y,radius,rate"},
		{[]string{"--in", png, "--steps", "3", "--source", "1,2,x,3"}, "not a finite number"},
		{[]string{"--in", png, "--steps", "3", "--source", "100,2,1,3"}, "outside the 16×12 map"},
		{[]string{"--in", png, "--steps", "3", "--rain-map", small}, "8×8, the heightmap 16×12"},
		{[]string{"--in", png, "--steps", "3", "--out", filepath.Join(dir, "o.bmp")}, "unknown extension"},
		{[]string{"--in", png, "--steps", "3", "--out", filepath.Join(dir, "no", "o.tif")}, "no"},
	} {
		code, stdout, stderr := runCLI(append([]string{"erode", "-q"}, c.args...)...)
		if code == 0 || stdout != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want an error containing %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run wrote an output")
	}
	// A .tif without sidecar works with --cell, and a dt above the stable
	// step runs with a warning.
	code, _, stderr := runCLI("erode", "--in", tif, "--cell", "30", "--steps", "2", "--dt", "5", "--out", out)
	if code != 0 || !strings.Contains(stderr, "warning") || !strings.Contains(stderr, "exceeds the stable") {
		t.Errorf("tif with --cell and dt 5: exit %d, stderr %q; want success with a warning", code, stderr)
	}
}
