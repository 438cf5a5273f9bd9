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
	"orogen/app/scene"
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

// TestOpenSceneSize: with Options.SceneSize (the command line's --size),
// scenes and presets opened later come at that size like the first one
// (a script's `open PRESET`, File → New); projects keep their own size;
// without it a preset opens at its own size.
func TestOpenSceneSize(t *testing.T) {
	t.Setenv("OROGEN_CONFIG_DIR", t.TempDir())
	const n = 48
	d, err := LoadScene("", n)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(d, "", Options{Paused: true, SceneSize: n})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	size := func(what string, want int) {
		t.Helper()
		sc := s.Doc().Scene()
		if sc.Width != want || sc.Height != want {
			t.Fatalf("%s: scene %d×%d; want %d×%d", what, sc.Width, sc.Height, want, want)
		}
		if f := settle(t, s); f.Snap.W != want || f.Snap.H != want {
			t.Fatalf("%s: engine snapshot %d×%d; want %d×%d", what, f.Snap.W, f.Snap.H, want, want)
		}
	}
	dir := t.TempDir()
	// A project saved at 32 cells a side.
	p32, _, _ := open(t, 32)
	proj := filepath.Join(dir, "p32"+ProjectExt)
	if err := p32.SaveAs(proj); err != nil {
		t.Fatal(err)
	}
	// A scene file of its own size (the lakes preset's, written out).
	sc, err := scene.Load("lakes")
	if err != nil {
		t.Fatal(err)
	}
	own := sc.Width
	if own == n {
		t.Fatalf("the lakes preset is %d cells a side already; the test needs another size", n)
	}
	b, err := scene.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	scenePath := filepath.Join(dir, "lakes.json")
	if err := os.WriteFile(scenePath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"cone", "default", scenePath} {
		if err := s.Open(name); err != nil {
			t.Fatalf("open %s: %v", name, err)
		}
		size("open "+name, n)
	}
	if err := s.Open(proj); err != nil {
		t.Fatal(err)
	}
	size("open a 32² project", 32)
	if err := s.NewDocument(); err != nil {
		t.Fatal(err)
	}
	size("new document", n)

	// Without SceneSize, a preset has its own size.
	s0, _, _ := open(t, 32)
	if err := s0.Open("lakes"); err != nil {
		t.Fatal(err)
	}
	if w := s0.Doc().Scene().Width; w != own {
		t.Fatalf("open lakes without a scene size: %d cells a side; want the preset's %d", w, own)
	}
}
