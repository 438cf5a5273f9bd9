package session

import (
	"orogen/app/engines"
	"orogen/sim/grid"
	"orogen/sim/roudier"
	"path/filepath"
	"testing"
)

// TestRoudierLive: switching to Roudier's engine restarts the terrain on
// it; its sliders reach it between steps without a restart (with neither
// rain nor creep nothing leaves the map; with rain again detritus and
// dissolved rock do), undo takes them back, and they apply to it only.
func TestRoudierLive(t *testing.T) {
	s, _, _ := open(t, 32)
	if err := s.SetParam("dt", 1000); err != nil {
		t.Fatal(err)
	}
	if err := s.SetEngine(roudier.Kind, 0); err != nil {
		t.Fatal(err)
	}
	f := settle(t, s)
	if f.Engine != roudier.Kind || f.Snap.Kind != roudier.Kind || f.Snap.Step != 0 || f.Snap.Alluvium == nil {
		t.Fatalf("after the switch: engine %v snapshot %v step %d alluvium %v; want Roudier's at step 0", f.Engine, f.Snap.Kind, f.Snap.Step, f.Snap.Alluvium != nil)
	}
	steps(t, s, 5)
	for _, name := range []string{"roudier-rain", "creep"} {
		p, _ := ParamByName(name)
		if err := s.SetParam(name, p.Min); err != nil { // the left end: 0
			t.Fatal(err)
		}
	}
	f = steps(t, s, 2)
	if m := f.Snap.Stats.Mass; m.Eroded != 0 || m.Diffused != 0 || m.Dissolved != 0 || f.Snap.Step != 7 {
		t.Fatalf("no rain, no creep, step %d: mass %+v; want nothing out at step 7 (no restart)", f.Snap.Step, m)
	}
	if err := s.SetParam("roudier-rain", 2); err != nil {
		t.Fatal(err)
	}
	f = steps(t, s, 2)
	if m := f.Snap.Stats.Mass; !(m.Eroded > 0 && m.Dissolved > 0) {
		t.Fatalf("rain again: mass %+v; want detritus and dissolution out", m)
	}
	for _, p := range Params {
		// Roudier's engine reads its own group and the parameters of
		// every engine (""); the stream power's groups (k, creep,
		// deposition, k noise, routing) are not its.
		want := p.Group == "" || p.Group == engines.Roudier
		if got := p.AppliesTo(roudier.Kind); got != want {
			t.Errorf("%s applies to Roudier's engine: %v; want %v", p.Name, got, want)
		}
		if p.Group == engines.Roudier && p.AppliesTo(grid.Kind) {
			t.Errorf("%s applies to the grid", p.Name)
		}
	}
	if _, _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := s.Param("roudier-rain"); got != 0 {
		t.Errorf("rain after undo %g; want 0", got)
	}
}

// TestRoudierSaved: the engine choice and Roudier's coefficients are saved
// with the project and come back with it, the engine built on them.
func TestRoudierSaved(t *testing.T) {
	s, _, _ := open(t, 24)
	if err := s.SetEngine(roudier.Kind, 0); err != nil {
		t.Fatal(err)
	}
	if err := s.SetParam("gamma", 0.123); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "r"+ProjectExt)
	if err := s.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	s2, _, _ := open(t, 24)
	if err := s2.Open(path); err != nil {
		t.Fatal(err)
	}
	if got := s2.Param("gamma"); got != 0.123 || s2.Doc().Scene().Engine != roudier.Kind {
		t.Fatalf("reopened: gamma %g, engine %v; want 0.123 on Roudier's engine", got, s2.Doc().Scene().Engine)
	}
	if f := settle(t, s2); f.Engine != roudier.Kind {
		t.Fatalf("reopened project runs %v; want Roudier's engine", f.Engine)
	}
}

// TestRoudierGeology: on Roudier's engine a geology set in the document
// reaches the engine live (its snapshots carry the model and the exposed
// layers, without a restart), and undo returns it to the default strata.
func TestRoudierGeology(t *testing.T) {
	s, _, _ := open(t, 32)
	if err := s.SetParam("dt", 1000); err != nil {
		t.Fatal(err)
	}
	if err := s.SetEngine(roudier.Kind, 0); err != nil {
		t.Fatal(err)
	}
	f := steps(t, s, 2)
	if f.Snap.Geology != nil || f.Snap.Rock != nil {
		t.Fatal("a geology in the snapshot before any was set")
	}
	if err := s.SetGeology(PresetGeology(), "", ""); err != nil {
		t.Fatal(err)
	}
	f = steps(t, s, 2)
	if f.Engine != roudier.Kind || f.Snap.Step != 4 || f.Snap.Geology == nil || len(f.Snap.Rock) != 32*32 {
		t.Fatalf("after SetGeology: engine %v step %d geology %v; want Roudier's at step 4 with the geology", f.Engine, f.Snap.Step, f.Snap.Geology != nil)
	}
	if _, ok, err := s.Undo(); !ok || err != nil {
		t.Fatalf("undo: %v %v", ok, err)
	}
	if f := steps(t, s, 1); f.Snap.Geology != nil {
		t.Fatal("geology still in the engine after undo")
	}
}
