package session

import (
	"errors"
	"math"
	"orogen/sim/graph"
	"orogen/sim/grid"
	"orogen/sim/hydro"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"orogen/app/prefs"
	"orogen/app/rasterio"
	"orogen/app/worker"
	"orogen/sim"
)

// open starts a paused session on the default preset at n cells a side,
// with its own settings folder (so the recovery file is the test's).
func open(t *testing.T, n int) (*Session, *prefs.Prefs, *[]string) {
	t.Helper()
	t.Setenv("OROGEN_CONFIG_DIR", t.TempDir())
	d, err := LoadScene("", n)
	if err != nil {
		t.Fatal(err)
	}
	p := prefs.Default()
	var log []string
	s, err := New(d, "", Options{Paused: true, Prefs: &p, Log: func(_ Level, m string) { log = append(log, m) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, &p, &log
}

// settle hands the document's changes to the worker and waits until a
// frame reflects every command sent so far.
func settle(t *testing.T, s *Session) *worker.Frame {
	t.Helper()
	s.Sync()
	f, seq := s.Worker().Await()
	if f == nil || f.Seq < seq {
		t.Fatal("the worker closed before it answered a Sync")
	}
	return f
}

// steps runs n steps and waits until they show.
func steps(t *testing.T, s *Session, n int) *worker.Frame {
	t.Helper()
	before := settle(t, s).Snap.Step
	s.Step(n)
	f := settle(t, s)
	if f.Snap.Step != before+n {
		t.Fatalf("after %d steps from %d: step %d", n, before, f.Snap.Step)
	}
	return f
}

// TestSaveOpenRoundTrip: an edited untitled document has no file (Save
// says so), SaveAs adds the extension, clears the unsaved mark and records
// the file; opening it again gives the same project, bytes for bytes.
func TestSaveOpenRoundTrip(t *testing.T) {
	s, p, _ := open(t, 32)
	if s.Dirty() {
		t.Fatal("a new document is dirty")
	}
	if err := s.SetParam("k", 2e-6); err != nil {
		t.Fatal(err)
	}
	if !s.Dirty() {
		t.Fatal("an edited document is not dirty")
	}
	if err := s.Save(); !errors.Is(err, ErrNoPath) {
		t.Fatalf("Save of an untitled document: %v; want ErrNoPath", err)
	}
	dir := t.TempDir()
	if err := s.SaveAs(filepath.Join(dir, "ridge")); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ridge"+ProjectExt)
	if s.Path() != path || s.Dirty() || s.Title() != "ridge"+ProjectExt {
		t.Fatalf("after SaveAs: path %q dirty %v title %q", s.Path(), s.Dirty(), s.Title())
	}
	if len(p.Recent) == 0 || p.Recent[0] != path || p.LastProject != path {
		t.Fatalf("prefs: recent %v last %q; want %s first", p.Recent, p.LastProject, path)
	}
	first, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	s2, _, _ := open(t, 32)
	if err := s2.Open(path); err != nil {
		t.Fatal(err)
	}
	if got := s2.Param("k"); got != 2e-6 {
		t.Fatalf("reopened k = %g; want 2e-6", got)
	}
	if s2.Dirty() || s2.Path() != path {
		t.Fatalf("reopened: dirty %v path %q", s2.Dirty(), s2.Path())
	}
	if err := s2.Save(); err != nil {
		t.Fatal(err)
	}
	second, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(first) != string(second) {
		t.Fatal("saving a reopened project changed its bytes")
	}
	// The engine runs on the file's parameters.
	if f := settle(t, s2); f.Snap.Param.K != 2e-6 {
		t.Fatalf("engine k = %g; want 2e-6", f.Snap.Param.K)
	}
}

// TestUndoRedoReachesEngine: a parameter change, its undo and its redo
// each reach the engine at the next Sync.
func TestUndoRedoReachesEngine(t *testing.T) {
	s, _, _ := open(t, 32)
	k0 := s.Param("k")
	if err := s.SetParam("k", k0*4); err != nil {
		t.Fatal(err)
	}
	s.Doc().EndGesture()
	if f := settle(t, s); f.Snap.Param.K != k0*4 {
		t.Fatalf("engine k = %g after the change; want %g", f.Snap.Param.K, k0*4)
	}
	label, ok, err := s.Undo()
	if err != nil || !ok {
		t.Fatalf("undo: %q %v %v", label, ok, err)
	}
	if got := s.Param("k"); got != k0 {
		t.Fatalf("k after undo = %g; want %g", got, k0)
	}
	if f := settle(t, s); f.Snap.Param.K != k0 {
		t.Fatalf("engine k = %g after undo; want %g", f.Snap.Param.K, k0)
	}
	if _, ok, err := s.Redo(); err != nil || !ok {
		t.Fatalf("redo: %v %v", ok, err)
	}
	if f := settle(t, s); f.Snap.Param.K != k0*4 {
		t.Fatalf("engine k = %g after redo; want %g", f.Snap.Param.K, k0*4)
	}
	if _, ok, _ := s.Redo(); ok {
		t.Fatal("a second redo did something")
	}
	// Out of range and unknown parameters change nothing.
	for _, c := range []struct {
		name string
		v    float64
	}{{"k", -1}, {"k", math.NaN()}, {"m", 99}, {"nope", 1}} {
		if err := s.SetParam(c.name, c.v); err == nil {
			t.Errorf("SetParam(%s, %g) accepted", c.name, c.v)
		}
	}
	if s.Param("k") != k0*4 {
		t.Fatal("a refused SetParam changed k")
	}
	// Zeroable parameters: the left end is off.
	if err := s.SetParam("rain", 1e-9); err != nil || s.Param("rain") != 0 {
		t.Fatalf("rain at the left end: %v, %g; want 0", err, s.Param("rain"))
	}
}

// TestExportHeightmapAndMasks: the exported heightmap reads back (float
// TIFF: exactly) as the snapshot's heights; masks are written with their
// sidecars.
func TestExportHeightmapAndMasks(t *testing.T) {
	s, _, _ := open(t, 32)
	f := steps(t, s, 5)
	dir := t.TempDir()
	path := filepath.Join(dir, "h.tif")
	if err := s.ExportHeightmap(path); err != nil {
		t.Fatal(err)
	}
	got, err := rasterio.ReadHeights(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.W != f.Snap.W || got.H != f.Snap.H || !slices.Equal(got.Data, f.Snap.Height) {
		t.Fatalf("read back %d×%d; want the snapshot's %d×%d heights exactly", got.W, got.H, f.Snap.W, f.Snap.H)
	}
	files, err := s.ExportMasks(dir, ".png", 1e6)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("masks: %v; want drainage, rivers, water and more", files)
	}
	for _, p := range files {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	if err := s.ExportHeightmap(filepath.Join(dir, "no", "such", "h.png")); err == nil {
		t.Error("export into a missing folder succeeded")
	}
	if err := s.ExportHeightmap(filepath.Join(dir, "h.bmp")); err == nil || !strings.Contains(err.Error(), ".bmp") {
		t.Errorf("export as .bmp: %v; want an error naming the extension", err)
	}
}

// TestImport: a heightmap of another size is resampled onto the grid and
// restarts the engine from it (the scene's initial noise, < 1 m, added);
// an uplift image is an undoable edit the engine receives; bad files are
// refused with the document untouched.
func TestImport(t *testing.T) {
	s, _, _ := open(t, 32)
	steps(t, s, 3)
	dir := t.TempDir()
	hm := sim.NewField(64, 64, 1000)
	for i := range hm.Data {
		hm.Data[i] = 500
	}
	hp := filepath.Join(dir, "dem.tif")
	if err := rasterio.Write(hp, hm); err != nil {
		t.Fatal(err)
	}
	if err := s.ImportHeightmap(hp); err != nil {
		t.Fatal(err)
	}
	f := settle(t, s)
	if f.Snap.Step != 0 || f.Snap.W != 32 {
		t.Fatalf("after import: step %d, %d wide; want step 0 on the 32² grid", f.Snap.Step, f.Snap.W)
	}
	lo, hi := slices.Min(f.Snap.Height), slices.Max(f.Snap.Height)
	noise := float32(s.Doc().Scene().Params.InitNoiseM)
	// Outlet edges keep the imported height; the rest gains < noise.
	if lo < 500 || hi >= 500+noise {
		t.Fatalf("imported 500 m: heights in [%g, %g]; want [500, %g)", lo, hi, 500+noise)
	}

	up := sim.NewField(16, 16, 1)
	for i := range up.Data {
		up.Data[i] = float32(i%16) / 15
	}
	upPath := filepath.Join(dir, "up.png")
	if err := rasterio.Write(upPath, up); err != nil {
		t.Fatal(err)
	}
	v := s.Doc().UpliftVersion()
	before := slices.Clone(s.Doc().Uplift().Data)
	if err := s.ImportUplift(upPath); err != nil {
		t.Fatal(err)
	}
	if s.Doc().UpliftVersion() == v {
		t.Fatal("importing an uplift did not change it")
	}
	f = settle(t, s)
	if !slices.Equal(f.Snap.Uplift, s.Doc().Uplift().Data) {
		t.Fatal("the engine's uplift is not the imported one")
	}
	if _, _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Doc().Uplift().Data, before) {
		t.Fatal("undo did not restore the uplift")
	}
	if f = settle(t, s); !slices.Equal(f.Snap.Uplift, before) {
		t.Fatal("the engine did not get the restored uplift")
	}

	bad := filepath.Join(dir, "bad.tif")
	if err := os.WriteFile(bad, []byte("II*\x00 truncated"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := s.Doc().Changed()
	for _, p := range []string{bad, filepath.Join(dir, "missing.png")} {
		if err := s.ImportHeightmap(p); err == nil {
			t.Errorf("ImportHeightmap(%s) succeeded", filepath.Base(p))
		}
		if err := s.ImportUplift(p); err == nil {
			t.Errorf("ImportUplift(%s) succeeded", filepath.Base(p))
		}
	}
	if s.Doc().Changed() != changed {
		t.Fatal("a refused import changed the document")
	}
}

// TestEngineSwitch: switching to the stream graph is an undoable edit that
// restarts the terrain on the graph with the node count asked; undo
// returns to the grid.
func TestEngineSwitch(t *testing.T) {
	s, _, _ := open(t, 48)
	steps(t, s, 2)
	if err := s.SetEngine(graph.Kind, 400); err != nil {
		t.Fatal(err)
	}
	f := settle(t, s)
	if f.Engine != graph.Kind || f.Snap.Kind != graph.Kind || f.Snap.Step != 0 {
		t.Fatalf("after the switch: engine %v snapshot %v step %d; want graph at step 0", f.Engine, f.Snap.Kind, f.Snap.Step)
	}
	// Poisson sampling gives about the count asked: 20 %, since the
	// border outlets a small domain adds (a row along each edge, about
	// 4·√400 = 80 nodes here) are not in the density's count.
	if math.Abs(float64(f.Nodes-400)) > 80 {
		t.Fatalf("graph of %d nodes; want about 400", f.Nodes)
	}
	if f = steps(t, s, 3); len(f.Snap.Arcs) == 0 {
		t.Fatal("the graph's snapshot has no stream arcs")
	}
	if s.Doc().Scene().Engine != graph.Kind || s.Doc().Scene().Samples != 400 {
		t.Fatal("the document does not record the engine")
	}
	if _, _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if f = settle(t, s); f.Engine != grid.Kind || f.Nodes != 48*48 || f.Snap.Step != 0 {
		t.Fatalf("after undo: engine %v nodes %d step %d; want the grid at step 0", f.Engine, f.Nodes, f.Snap.Step)
	}
	if err := s.SetEngine(grid.Kind, 100); err == nil {
		t.Fatal("a node count for the grid was accepted")
	}
}

// TestDetailPass: the views show the detail pass while it is open and the
// stream-power engine is paused; keeping it hands its terrain to the
// engine, discarding does not.
func TestDetailPass(t *testing.T) {
	s, _, _ := open(t, 32)
	steps(t, s, 5)
	if err := s.SetDetailParams(s.DetailParams()); err == nil {
		t.Fatal("parameters for a detail pass that is not open were accepted")
	}
	if err := s.StartDetail(); err != nil {
		t.Fatal(err)
	}
	if s.Snapshot().Kind != hydro.Kind {
		t.Fatalf("views show %v during the pass; want hydro", s.Snapshot().Kind)
	}
	s.EndDetail(false)
	if s.Detail() != nil || s.Snapshot().Kind != grid.Kind {
		t.Fatal("the pass is still shown after Discard")
	}
	if f := settle(t, s); f.Snap.Step != 5 {
		t.Fatalf("discarding restarted the engine: step %d", f.Snap.Step)
	}
	if err := s.StartDetail(); err != nil {
		t.Fatal(err)
	}
	if err := s.PauseDetail(); err != nil {
		t.Fatal(err)
	}
	r := s.Detail()
	s.EndDetail(true)
	kept := r.Frame().Snap.Height // final: the runner is closed
	f := settle(t, s)
	if f.Snap.Step != 0 {
		t.Fatalf("keeping the pass: engine at step %d; want 0 (new heights)", f.Snap.Step)
	}
	// The engine starts from the kept terrain plus the scene's initial
	// noise (< InitNoiseM, none on the outlet edges).
	noise := float32(s.Doc().Scene().Params.InitNoiseM)
	for i, h := range f.Snap.Height {
		if d := h - kept[i]; d < 0 || d >= noise {
			t.Fatalf("cell %d: engine %g m, kept %g m; want within [0, %g) above", i, h, kept[i], noise)
		}
	}
	start := slices.Clone(f.Snap.Height)

	// The kept pass is saved with the project (issue 30): a reopened
	// project starts from the same heights, bit for bit.
	path := filepath.Join(t.TempDir(), "kept"+ProjectExt)
	if err := s.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	s2, _, _ := open(t, 32)
	if err := s2.Open(path); err != nil {
		t.Fatal(err)
	}
	if g := settle(t, s2); g.Snap.Step != 0 || !slices.Equal(g.Snap.Height, start) {
		t.Fatalf("reopened: step %d, same heights %v; want step 0 on the kept terrain", g.Snap.Step, slices.Equal(g.Snap.Height, start))
	}
	// Undo returns to the terrain before the pass: the flat start.
	if label, ok, err := s2.Undo(); ok || err != nil {
		t.Fatalf("a reopened project undid %q (%v)", label, err)
	}
	if label, ok, err := s.Undo(); !ok || err != nil || label != "keep the hydraulic pass" {
		t.Fatalf("undo: %q %v %v; want the kept pass undone", label, ok, err)
	}
	if g := settle(t, s); g.Snap.Step != 0 || slices.Max(g.Snap.Height) >= noise {
		t.Fatalf("after undo: step %d, highest %g m; want step 0 on the flat start (< %g m)", g.Snap.Step, slices.Max(g.Snap.Height), noise)
	}
	if s.Doc().Terrain() != nil || !s.Dirty() {
		t.Fatal("after undo the document still holds the terrain, or counts as saved")
	}
}

// TestAutosaveAndRecovery: unsaved work goes to the recovery file, which
// Recover turns back into the same, unsaved document; a clean shutdown
// clears it.
func TestAutosaveAndRecovery(t *testing.T) {
	s, _, _ := open(t, 32)
	now := time.Now()
	if s.Autosave(now, 0) {
		t.Fatal("a clean document was autosaved")
	}
	if err := s.SetParam("m", 0.45); err != nil {
		t.Fatal(err)
	}
	if !s.Autosave(now.Add(time.Second), 0) {
		t.Fatal("a dirty document was not autosaved")
	}
	s.WaitAutosave() // the write runs on its own goroutine
	if !s.AutosaveDone() {
		t.Fatal("AutosaveDone is false after WaitAutosave")
	}
	p, origin, at, ok, err := Recovery()
	if err != nil || !ok {
		t.Fatalf("recovery file: ok %v err %v", ok, err)
	}
	if err := s.Recover(p, origin, at); err != nil {
		t.Fatal(err)
	}
	if s.Param("m") != 0.45 || !s.Dirty() || s.Path() != "" {
		t.Fatalf("recovered: m %g dirty %v path %q", s.Param("m"), s.Dirty(), s.Path())
	}
	if err := s.SaveAs(filepath.Join(t.TempDir(), "kept"+ProjectExt)); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok, _ := Recovery(); ok {
		t.Fatal("saving did not clear the recovery file")
	}
}

// TestBadFiles: opening a missing or corrupt file fails with an error
// naming it and keeps the document.
func TestBadFiles(t *testing.T) {
	s, _, _ := open(t, 32)
	d := s.Doc()
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "c"+ProjectExt)
	if err := os.WriteFile(corrupt, []byte(`{"version": 1, "scene": {`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "none"+ProjectExt), corrupt, filepath.Join(dir, "none.json")} {
		err := s.Open(p)
		if err == nil {
			t.Errorf("Open(%s) succeeded", filepath.Base(p))
			continue
		}
		if s.Doc() != d {
			t.Errorf("a failed Open(%s) replaced the document", filepath.Base(p))
		}
	}
	if err := s.SaveAs(filepath.Join(dir, "missing", "x"+ProjectExt)); err == nil {
		t.Error("saving into a missing folder succeeded")
	}
	if s.Path() != "" {
		t.Error("a failed save gave the document a path")
	}
}
