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
	"orogen/app/scene/scenetest"
)

// sedimentScene is a massif beside a closed basin, with deposition on.
const sedimentScene = `{
  "version": 1, "width": 48, "height": 32, "domain_m": 4800, "steps": 40,
  "uplift": {"tree": {"version": 1, "root": 1, "nodes": [
    {"id": 1, "type": "sum", "children": [2, 3]},
    {"id": 2, "type": "disc", "center": [3600, 1600], "radius": 1400, "value": 1.0},
    {"id": 3, "type": "disc", "center": [1800, 1600], "radius": 700, "value": -0.3}]},
    "umax_m_per_yr": 0.001},
  "params": {"deposition_g": 1, "creep_critical_slope": 0.6, "diffusion_m2_per_yr": 0.05,
    "k_noise": 0.3, "hillslope_routing": "random",
    "edges": {"north": "closed", "south": "closed", "east": "closed", "west": "outlet"}}
}`

// TestOutSediment: orogen run --out-sediment writes the sediment's
// thickness, positive where the basin caught the massif's sediment, and
// refuses a scene without deposition with a one-line remedy.
func TestOutSediment(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "basin.json")
	if err := os.WriteFile(sc, []byte(sedimentScene), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "sed.tif")
	if code, _, stderr := runCLI("run", "-q", "--scene", sc, "--out-sediment", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := rasterio.ReadHeights(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.W != 48 || f.H != 32 || slices.Min(f.Data) < 0 || slices.Max(f.Data) <= 1 {
		t.Errorf("sediment %d×%d in [%g, %g] m; want 48×32, >= 0, some metres of fill", f.W, f.H, slices.Min(f.Data), slices.Max(f.Data))
	}
	code, _, stderr := runCLI("run", "-q", "--scene", scenetest.File(t, "cone"), "--size", "24", "--steps", "1", "--out-sediment", filepath.Join(dir, "x.tif"))
	if code == 0 || !strings.Contains(stderr, "deposition_g") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("--out-sediment without deposition: exit %d, %q; want a one-line error naming deposition_g", code, stderr)
	}
}

// TestOutSedimentGraph: the stream graph deposits too (its nodes' soil
// terms): --engine graph --out-sediment writes a thickness with fill in
// it, and the report's sediment account closes (eroded + talus =
// deposited + sediment out, to 1e-6).
func TestOutSedimentGraph(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "basin.json")
	if err := os.WriteFile(sc, []byte(sedimentScene), 0o644); err != nil {
		t.Fatal(err)
	}
	out, rep := filepath.Join(dir, "sed.tif"), filepath.Join(dir, "r.json")
	if code, _, stderr := runCLI("run", "-q", "--scene", sc, "--engine", "graph", "--out-sediment", out, "--report", rep); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := rasterio.ReadHeights(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.W != 48 || f.H != 32 || slices.Min(f.Data) < 0 || slices.Max(f.Data) <= 0 {
		t.Errorf("sediment %d×%d in [%g, %g] m; want 48×32, >= 0, some fill", f.W, f.H, slices.Min(f.Data), slices.Max(f.Data))
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Mass struct {
			Eroded   float64 `json:"eroded_m3"`
			Talus    float64 `json:"talus_m3"`
			Residual float64 `json:"sediment_residual_m3"`
			Out      float64 `json:"sediment_out_m3"`
		} `json:"mass_budget"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if m := r.Mass; !(m.Out > 0) || math.Abs(m.Residual) > 1e-6*(m.Eroded+m.Talus) {
		t.Errorf("mass budget %+v; want sediment out > 0 and a residual within 1e-6 of the eroded", m)
	}
}
