package run

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"orogen/app/scene/scenetest"
)

// TestReportBudgetsClose: the report of a 500-step run carries a mass
// budget (uplift in = out through the outlets + stored) and, with rain, a
// water budget (rain = evaporated + outflow + stored) that close to 1e-6
// of what went through, for the grid engine with outlets on every side
// and with closed sides, and for the graph engine (whose outlets are its
// border samples). The engines' own tests measure the
// residuals (rounding of the float32 uplifted heights, ~1e-8); here the
// report must carry them through the steps and into the JSON.
func TestReportBudgetsClose(t *testing.T) {
	classic := scenetest.File(t, "default")
	for _, eng := range []string{"grid", "graph"} {
		for _, edges := range []string{"outlet", "north=closed,east=closed,west=natural"} {
			if eng == "graph" && edges != "outlet" {
				continue // the graph's outlets are its border samples: --edges does not apply
			}
			dir := t.TempDir()
			rp := filepath.Join(dir, "r.json")
			// The classic physics: no deposition, out = eroded + diffused + talus.
			o := Options{Scene: classic, Engine: eng, Size: 24, Steps: 500, Edges: edges,
				Rain: ptr(1.0), Evaporation: ptr(0.5), Report: rp}
			job, err := Prepare(o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := job.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(rp)
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				Mass  map[string]float64 `json:"mass_budget"`
				Water map[string]float64 `json:"water_budget"`
			}
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			m := r.Mass
			var mb struct{ Uplift, Eroded, Diffused, Talus, Stored, Out, Residual float64 }
			mb.Uplift, mb.Eroded, mb.Diffused, mb.Talus = m["uplift_m3"], m["eroded_m3"], m["diffused_m3"], m["talus_m3"]
			mb.Stored, mb.Out, mb.Residual = m["stored_m3"], m["out_m3"], m["residual_m3"]
			name := eng + " " + edges
			t.Logf("%s: mass %+v", name, mb)
			if !(mb.Uplift > 0 && mb.Eroded > 0) || math.Abs(mb.Out-(mb.Eroded+mb.Diffused+mb.Talus)) > 1e-12*mb.Uplift {
				t.Errorf("%s: mass budget %+v: want uplift, erosion and out = eroded + diffused + talus", name, mb)
			}
			if got := mb.Uplift - mb.Out - mb.Stored; math.Abs(got-mb.Residual) > 1e-9*mb.Uplift || math.Abs(got) > 1e-6*(mb.Uplift+mb.Out) {
				t.Errorf("%s: mass residual %g (reported %g); want <= 1e-6 of %g", name, got, mb.Residual, mb.Uplift+mb.Out)
			}
			w := r.Water
			if w == nil {
				t.Errorf("%s: no water budget with rain", name)
				continue
			}
			rain, ev, out, st := w["rain_m3"], w["evaporated_m3"], w["outflow_m3"], w["stored_m3"]
			t.Logf("%s: water %v", name, w)
			if !(rain > 0 && out > 0) || math.Abs(rain-ev-out-st) > 1e-6*rain {
				t.Errorf("%s: water budget %v: want rain and outflow, closed to 1e-6 of the rain", name, w)
			}
		}
	}
}
