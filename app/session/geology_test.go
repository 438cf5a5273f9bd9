package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeologyReachesEngine: setting a geology makes the engine's next
// snapshots carry it; undo removes it, redo restores it; a bad file is a
// clear error that changes nothing.
func TestGeologyReachesEngine(t *testing.T) {
	s, _, _ := open(t, 32)
	if err := s.SetGeology(PresetGeology(), "", ""); err != nil {
		t.Fatal(err)
	}
	f := steps(t, s, 2)
	if f.Snap.Geology == nil || len(f.Snap.Rock) != 32*32 {
		t.Fatal("no geology in the engine's snapshot after SetGeology")
	}
	if _, ok, err := s.Undo(); !ok || err != nil {
		t.Fatalf("undo: %v %v", ok, err)
	}
	if f := steps(t, s, 1); f.Snap.Geology != nil {
		t.Fatal("geology still in the engine after undo")
	}
	if _, ok, err := s.Redo(); !ok || err != nil {
		t.Fatalf("redo: %v %v", ok, err)
	}
	if f := steps(t, s, 1); f.Snap.Geology == nil {
		t.Fatal("no geology in the engine after redo")
	}
	bad := filepath.Join(t.TempDir(), "g.json")
	if err := os.WriteFile(bad, []byte(`{"stack":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	before := s.Geology()
	if err := s.LoadGeology(bad); err == nil || !strings.Contains(err.Error(), "stack is empty") {
		t.Fatalf("bad geology file: %v; want the stack error", err)
	}
	if s.Geology() != before {
		t.Fatal("a refused geology changed the document")
	}
	// Reset keeps the geology: the new engine is built with it.
	if err := s.ResetTerrain(); err != nil {
		t.Fatal(err)
	}
	if f := steps(t, s, 1); f.Snap.Geology == nil {
		t.Fatal("no geology after a reset")
	}
}

// TestDetailPassUsesGeology: the hydraulic pass on a layered terrain takes
// its hardness from the rock.
func TestDetailPassUsesGeology(t *testing.T) {
	s, _, _ := open(t, 32)
	if err := s.SetGeology(PresetGeology(), "", ""); err != nil {
		t.Fatal(err)
	}
	steps(t, s, 5)
	if err := s.StartDetail(); err != nil {
		t.Fatal(err)
	}
	if err := s.PauseDetail(); err != nil {
		t.Fatal(err)
	}
	r := s.Detail()
	s.EndDetail(false)
	snap := r.Frame().Snap
	if snap.Geology == nil || len(snap.Rock) != 32*32 || len(snap.Alluvium) != 32*32 {
		t.Fatal("the detail pass's snapshot has no geology")
	}
}
