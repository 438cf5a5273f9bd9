package session

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"orogen/app/prefs"
	"orogen/app/project"
	"orogen/app/rasterio"
	"orogen/app/safefile"
	"orogen/sim"
)

// onlyFiles fails unless dir holds exactly the names given (no temporary
// or partial file beside them).
func onlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Fatalf("%s holds %q; want %q", dir, got, names)
	}
}

// TestFullDiskKeepsWork: with the disk full (an injected ENOSPC part way
// through every write), a save, an export and an autosave fail with a
// message naming the file and the cause, the previous files stay byte for
// byte with nothing beside them, the document stays unsaved and keeps its
// file, and once there is room again the save goes through.
func TestFullDiskKeepsWork(t *testing.T) {
	s, _, log := open(t, 32)
	dir := t.TempDir()
	path := filepath.Join(dir, "work"+ProjectExt)
	if err := s.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	tif := filepath.Join(dir, "h.tif")
	if err := s.ExportHeightmap(tif); err != nil {
		t.Fatal(err)
	}
	saved, _ := os.ReadFile(path)
	exported, _ := os.ReadFile(tif)
	sidecar, _ := os.ReadFile(rasterio.SidecarPath(tif))
	files := []string{"h.tif", "h.tif.json", "work" + ProjectExt}
	onlyFiles(t, dir, files...)

	// A first autosave succeeds: the recovery file to keep.
	if err := s.SetParam("m", 0.45); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if !s.Autosave(now, 0) {
		t.Fatal("a dirty document was not autosaved")
	}
	s.WaitAutosave()
	rp, err := prefs.RecoveryPath()
	if err != nil {
		t.Fatal(err)
	}
	recovery, err := os.ReadFile(rp)
	if err != nil {
		t.Fatal(err)
	}

	if err := s.SetParam("m", 0.55); err != nil {
		t.Fatal(err)
	}
	restore := safefile.FailAfter(100, syscall.ENOSPC)
	defer restore()
	err = s.Save()
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("Save on a full disk: error %v; want ENOSPC naming %s", err, path)
	}
	if !s.Dirty() || s.Path() != path {
		t.Errorf("after a failed save: dirty %v, path %q; want unsaved work still at %s", s.Dirty(), s.Path(), path)
	}
	if err := s.ExportHeightmap(tif); !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "h.tif") {
		t.Errorf("export on a full disk: error %v; want ENOSPC naming h.tif", err)
	}
	if !s.Autosave(now.Add(2*time.Second), 0) {
		t.Fatal("the changed document was not autosaved")
	}
	s.WaitAutosave()
	*log = nil
	s.Autosave(now.Add(3*time.Second), 0) // reports the last one's failure
	if !strings.Contains(strings.Join(*log, "\n"), "no space left") {
		t.Errorf("log after a failed autosave: %q; want the error", *log)
	}
	for _, f := range []struct {
		path string
		want []byte
	}{{path, saved}, {tif, exported}, {rasterio.SidecarPath(tif), sidecar}, {rp, recovery}} {
		if got, _ := os.ReadFile(f.path); !bytes.Equal(got, f.want) {
			t.Errorf("%s changed on a failed write (%d bytes; want %d)", filepath.Base(f.path), len(got), len(f.want))
		}
	}
	onlyFiles(t, dir, files...)
	onlyFiles(t, filepath.Dir(rp), "prefs.json", "recovery.json", "recovery"+ProjectExt)

	restore()
	if err := s.Save(); err != nil || s.Dirty() {
		t.Fatalf("with room again: save %v, dirty %v; want saved", err, s.Dirty())
	}
	if s.Param("m") != 0.55 {
		t.Errorf("m %g after the save; want 0.55", s.Param("m"))
	}
}

// TestOpenRelinked: a project whose uplift image moved is refused with a
// *project.MissingFileError, the document staying as it was; opened with
// the image's new place, it is the document, unsaved until saved (its
// file still names the old place), the log says what was relinked, and
// the saved file opens without a relink.
func TestOpenRelinked(t *testing.T) {
	s, _, log := open(t, 32)
	dir := t.TempDir()
	img := &sim.Field{W: 16, H: 16, Cell: 1, Data: make([]float32, 256)}
	for i := range img.Data {
		img.Data[i] = float32(i%16) / 15
	}
	moved := filepath.Join(dir, "up.png")
	if err := rasterio.Write(moved, img); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "p"+ProjectExt)
	body := `{"version": 1, "scene": {"version": 1, "name": "r", "width": 32, "height": 32, "domain_m": 3200, "uplift": {"image": "gone.png", "umax_m_per_yr": 0.0005}}}`
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	before := s.Doc()
	err := s.Open(path)
	var miss *project.MissingFileError
	if !errors.As(err, &miss) || s.Doc() != before {
		t.Fatalf("Open: %v; want a MissingFileError and the document unchanged", err)
	}
	if err := s.OpenRelinked(path, map[string]string{miss.Path: moved}); err != nil {
		t.Fatal(err)
	}
	if s.Path() != path || !s.Dirty() {
		t.Errorf("relinked: path %q dirty %v; want %s, unsaved", s.Path(), s.Dirty(), path)
	}
	if !strings.Contains(strings.Join(*log, "\n"), "relinked "+miss.Path+" to "+moved) {
		t.Errorf("log %q; want the relink", *log)
	}
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	if s.Dirty() {
		t.Error("still unsaved after Save")
	}
	if err := s.Open(path); err != nil {
		t.Errorf("the saved project does not open by itself: %v", err)
	}
}
