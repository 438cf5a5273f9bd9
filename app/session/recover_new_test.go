package session

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"orogen/sim/graph"
	"orogen/sim/grid"
	"orogen/sim/hydro"
)

// TestRecoveryKeepsOrigin: work autosaved from a saved project comes back
// under that project's path (it came back "untitled"), unsaved; and
// discarded work is not offered again.
func TestRecoveryKeepsOrigin(t *testing.T) {
	s, _, _ := open(t, 32)
	path := filepath.Join(t.TempDir(), "ridge"+ProjectExt)
	if err := s.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	if err := s.SetParam("m", 0.45); err != nil {
		t.Fatal(err)
	}
	if !s.Autosave(time.Now().Add(time.Hour), 0) {
		t.Fatal("a dirty document was not autosaved")
	}
	s.WaitAutosave()
	p, origin, at, ok, err := Recovery()
	if err != nil || !ok || origin != path {
		t.Fatalf("recovery file: ok %v, err %v, origin %q; want %q", ok, err, origin, path)
	}
	// Another document, untitled, as after a restart.
	r := s
	if err := r.NewDocument(); err != nil || r.Path() != "" {
		t.Fatalf("new document: %v, path %q", err, r.Path())
	}
	if err := r.Recover(p, origin, at); err != nil {
		t.Fatal(err)
	}
	if r.Path() != path || !r.Dirty() || r.Param("m") != 0.45 {
		t.Fatalf("recovered: path %q, dirty %v, m %g; want %q, true, 0.45", r.Path(), r.Dirty(), r.Param("m"), path)
	}
	r.DiscardRecovery() // the UI's Discard on quit
	if _, _, _, ok, _ := Recovery(); ok {
		t.Fatal("discarded work is offered again")
	}
}

// TestExportMasksAs: the Export masks dialog's DIR/BASE.EXT names every
// file BASE-NAME.EXT in DIR.
func TestExportMasksAs(t *testing.T) {
	s, _, _ := open(t, 32)
	steps(t, s, 2)
	dir := t.TempDir()
	files, err := s.ExportMasksAs(filepath.Join(dir, "valley.png"), 1e6)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("masks: %v", files)
	}
	for _, p := range files {
		if filepath.Dir(p) != dir || !strings.HasPrefix(filepath.Base(p), "valley-") {
			t.Errorf("mask %s; want valley-NAME in %s", p, dir)
		}
	}
}

// TestNewFrom: File → New's choices (a preset, a size, an engine) make an
// untitled document that the worker runs; bad choices are refused with
// the document kept.
func TestNewFrom(t *testing.T) {
	s, _, _ := open(t, 32)
	if err := s.NewFrom("cone", 48, graph.Kind); err != nil {
		t.Fatal(err)
	}
	sc := s.Doc().Scene()
	if sc.Width != 48 || sc.Height != 48 || sc.Engine != graph.Kind || s.Path() != "" {
		t.Fatalf("new: %d×%d %v, path %q; want 48×48 graph, untitled", sc.Width, sc.Height, sc.Engine, s.Path())
	}
	if f := settle(t, s); f.Engine != graph.Kind || f.Snap.W != 48 {
		t.Fatalf("worker runs %v on %d cells a side; want graph on 48", f.Engine, f.Snap.W)
	}
	if err := s.NewFrom("no-such-preset", 48, grid.Kind); err == nil || !strings.Contains(err.Error(), "presets:") {
		t.Errorf("unknown preset: %v; want an error listing the presets", err)
	}
	if err := s.NewFrom("cone", 48, hydro.Kind); err == nil {
		t.Error("the hydraulic engine as a scene engine: accepted")
	}
	if s.Doc().Scene().Engine != graph.Kind {
		t.Error("a refused New changed the document")
	}
}
