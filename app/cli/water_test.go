package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
)

// TestRunWaterBudget: --rain turns the water budget on; --out-lakes lists
// lakes in the documented shape, each with a pit and consistent figures;
// --out-rivers writes a 0/1 mask; the outputs refuse to run without rain.
// The grid engine on the GPU (--device gpu; the CPU where there is none)
// writes the same outputs.
func TestRunWaterBudget(t *testing.T) {
	dir := t.TempDir()
	lakes, rivers, depth := filepath.Join(dir, "lakes.json"), filepath.Join(dir, "rivers.png"), filepath.Join(dir, "water.tif")
	for _, engine := range []string{"grid", "graph", "grid --device gpu"} {
		args := append([]string{"run", "--engine"}, strings.Fields(engine)...)
		code, _, stderr := runCLI(append(args, "--scene", "default", "--size", "96", "--steps", "3",
			"--rain", "0.5", "--evaporation", "5", "--out-lakes", lakes, "--out-rivers", rivers, "--out-water", depth, "-q")...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", engine, code, stderr)
		}
		b, err := os.ReadFile(lakes)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Lakes []struct {
				ID       *int         `json:"id"`
				SurfaceM *float64     `json:"surface_m"`
				VolumeM3 *float64     `json:"volume_m3"`
				AreaM2   *float64     `json:"area_m2"`
				Outlet   *int         `json:"outlet"`
				Members  [][2]float64 `json:"members"`
			} `json:"lakes"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		if len(f.Lakes) == 0 {
			t.Fatalf("%s: no lakes after 3 steps from a noisy flat start", engine)
		}
		wet := 0
		for i, l := range f.Lakes {
			if l.ID == nil || *l.ID != i || l.SurfaceM == nil || l.VolumeM3 == nil || l.AreaM2 == nil {
				t.Fatalf("%s: lake %d lacks fields: %s", engine, i, b)
			}
			if len(l.Members) == 0 {
				t.Fatalf("%s: lake %d has no member pit", engine, i)
			}
			if *l.VolumeM3 < 0 || (*l.VolumeM3 > 0) != (*l.AreaM2 > 0) {
				t.Fatalf("%s: lake %d holds %g m³ over %g m²", engine, i, *l.VolumeM3, *l.AreaM2)
			}
			if l.Outlet != nil && (*l.Outlet < -1 || *l.Outlet >= len(f.Lakes)) {
				t.Fatalf("%s: lake %d spills into %d", engine, i, *l.Outlet)
			}
			if *l.VolumeM3 > 0 {
				wet++
			}
		}
		if wet == 0 {
			t.Fatalf("%s: every lake is dry with rain 0.5 m/yr", engine)
		}
		m, err := rasterio.ReadHeights(rivers)
		if err != nil {
			t.Fatal(err)
		}
		ones := 0
		for _, v := range m.Data {
			if v != 0 && v != 1 {
				t.Fatalf("%s: river mask holds %g; want 0 or 1", engine, v)
			}
			if v == 1 {
				ones++
			}
		}
		if ones == 0 || ones == len(m.Data) {
			t.Fatalf("%s: %d river cells of %d", engine, ones, len(m.Data))
		}
	}
	code, _, stderr := runCLI("run", "--steps", "1", "--out-lakes", lakes, "-q")
	if code == 0 || !strings.Contains(stderr, "--rain") {
		t.Errorf("--out-lakes without rain: exit %d, %q; want an error naming --rain", code, stderr)
	}
	code, _, stderr = runCLI("run", "--steps", "1", "--rain", "-1", "-q")
	if code == 0 || !strings.Contains(stderr, "rain") {
		t.Errorf("--rain -1: exit %d, %q; want an error", code, stderr)
	}
}
