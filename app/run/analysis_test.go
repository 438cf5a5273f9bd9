package run

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"orogen/app/rasterio"
	"orogen/sim/analysis"
)

// The report's analysis is that of the written heightmap (a float32 TIFF:
// the same heights), with the run's edges, and is in the JSON.
func TestReportAnalysis(t *testing.T) {
	dir := t.TempDir()
	o := Options{Scene: "default", Size: 96, Steps: 30, Out: filepath.Join(dir, "h.tif"), Report: filepath.Join(dir, "r.json")}
	job, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fa := rep.Final.Analysis
	if fa.Hack == nil || fa.SlopeArea == nil || fa.Verdict == "" {
		t.Fatalf("final analysis %+v; want both fits and a verdict", fa)
	}
	h, err := rasterio.ReadHeights(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := analysis.Analyze(h, analysis.Options{Edges: job.Engine.Params().Edges})
	if err != nil {
		t.Fatal(err)
	}
	if *want.Hack != *fa.Hack || want.SlopeA.Exponent != fa.SlopeArea.Exponent || want.SlopeA.Ks != fa.SlopeArea.Ks {
		t.Errorf("report Hack %+v, slope–area %g, %g; the written heightmap gives %+v, %g, %g",
			*fa.Hack, fa.SlopeArea.Exponent, fa.SlopeArea.Ks, *want.Hack, want.SlopeA.Exponent, want.SlopeA.Ks)
	}
	b, err := os.ReadFile(o.Report)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Final struct {
			Analysis struct {
				Hack      map[string]float64 `json:"hack"`
				SlopeArea map[string]any     `json:"slope_area"`
			} `json:"analysis"`
			MaxDrainage *float64 `json:"max_drainage_m2"`
		} `json:"final"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	a := doc.Final.Analysis
	if a.Hack["h"] != fa.Hack.H || a.Hack["c"] == 0 || a.SlopeArea["exponent"] == nil || doc.Final.MaxDrainage == nil {
		t.Errorf("report JSON final: %+v", doc.Final)
	}
	t.Logf("%s", fa.Verdict)
}
