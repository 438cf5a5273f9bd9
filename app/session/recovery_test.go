package session

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
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
