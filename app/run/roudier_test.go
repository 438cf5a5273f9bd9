package run

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/sim/roudier"
)

// TestRoudierRun: `orogen run --engine roudier` runs Roudier's engine,
// takes the --roudier-* overrides, and its report carries the mass budget
// (out = eroded + diffused + dissolved) and the paper's account, both
// closing to 1e-6 of the rock removed (the engine keeps float64 state:
// its own test sees ~1e-14).
func TestRoudierRun(t *testing.T) {
	rp := filepath.Join(t.TempDir(), "r.json")
	dt := 1000.0
	o := Options{Scene: "default", Engine: "roudier", Size: 32, Steps: 200, Dt: &dt, Report: rp,
		Coefficients: map[string]float64{"roudier-alpha": 0.02}}
	job, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := job.Engine.(*roudier.Engine); !ok {
		t.Fatalf("engine %T; want *roudier.Engine", job.Engine)
	}
	if _, err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(rp)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Engine  string             `json:"engine"`
		Mass    map[string]float64 `json:"mass_budget"`
		Roudier roudier.Account    `json:"account"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Engine != "roudier" || r.Roudier.Params.Alpha != 0.02 || r.Roudier.Params.Rain != roudier.DefaultParams().Rain {
		t.Errorf("report engine %q, params %+v; want roudier with alpha 0.02 and the default rain", r.Engine, r.Roudier.Params)
	}
	m := r.Mass
	out := m["eroded_m3"] + m["diffused_m3"] + m["talus_m3"] + m["dissolved_m3"]
	if !(m["eroded_m3"] > 0 && m["dissolved_m3"] > 0) || math.Abs(m["out_m3"]-out) > 1e-12*out {
		t.Errorf("mass budget %v: want detritus and dissolution out, out = eroded + diffused + talus + dissolved", m)
	}
	bu := r.Roudier.Budget
	if !(bu.RockRemoved > 0) || math.Abs(bu.Residual()) > 1e-6*bu.RockRemoved || math.Abs(r.Roudier.Residual-bu.Residual()) > 1e-9*bu.RockRemoved {
		t.Errorf("roudier budget %+v, residual %g; want rock removed > 0 and closed to 1e-6", bu, r.Roudier.Residual)
	}
	if math.Abs(m["residual_m3"]) > 1e-6*(m["uplift_m3"]+out) {
		t.Errorf("mass residual %g; want <= 1e-6 of %g", m["residual_m3"], m["uplift_m3"]+out)
	}
}

// TestRoudierBadParams: a bad coefficient from the command line is an
// error naming it, before anything runs, and so is a coefficient flag of
// another engine than the run's.
func TestRoudierBadParams(t *testing.T) {
	for _, c := range []struct {
		engine string
		flags  map[string]float64
		want   string
	}{
		{"roudier", map[string]float64{"roudier-gamma": math.NaN()}, "gamma"},
		{"roudier", map[string]float64{"roudier-transport": -1}, "transport"},
		{"grid", map[string]float64{"roudier-alpha": 0.02}, "--roudier-alpha is a coefficient of Roudier's processes (engine roudier), not of the grid engine"},
		{"roudier", map[string]float64{"voxel-size": 1}, "--voxel-size: no engine"},
	} {
		o := Options{Scene: "default", Engine: c.engine, Size: 16, Steps: 1, Coefficients: c.flags}
		if _, err := Prepare(o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: got %v; want an error naming %q", c.engine, c.flags, err, c.want)
		}
	}
}

// TestFoldedPreset: the folded preset runs Roudier's engine on its
// geology (the engine's lithology is the scene's model, not the default
// strata): the snapshot carries the model and the exposed layers, and
// after 60 steps the surface cuts through at least three layers and holds
// alluvium.
func TestFoldedPreset(t *testing.T) {
	job, err := Prepare(Options{Scene: "folded", Size: 96, Steps: 60})
	if err != nil {
		t.Fatal(err)
	}
	e, ok := job.Engine.(*roudier.Engine)
	if !ok || e.Geology() == nil {
		t.Fatalf("engine %T with geology %v; want Roudier's on the scene's geology", job.Engine, ok && e.Geology() != nil)
	}
	if _, err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := e.Snapshot()
	if s.Geology == nil || len(s.Rock) != 96*96 || len(s.Alluvium) != 96*96 {
		t.Fatalf("snapshot geology %v, %d rock cells, %d alluvium cells; want the model and every cell", s.Geology != nil, len(s.Rock), len(s.Alluvium))
	}
	layers := map[uint8]bool{}
	var alluvium float64
	for i, l := range s.Rock {
		layers[l] = true
		alluvium += float64(s.Alluvium[i])
	}
	if len(layers) < 3 || !(alluvium > 0) {
		t.Errorf("exposed layers %v, alluvium %g m in all; want >= 3 layers and some alluvium", layers, alluvium)
	}
}
