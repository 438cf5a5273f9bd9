package session

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"orogen/app/doc"
	"orogen/app/engines"
	"orogen/app/export"
	"orogen/app/prefs"
	"orogen/app/project"
	"orogen/app/rasterio"
	"orogen/app/scene"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/invert"
	"orogen/uplifttree"
)

// ProjectExt is the extension of project files.
const ProjectExt = ".orogen.json"

// File name extensions the file actions read or write.
var (
	HeightExts = []string{".png", ".r16", ".tif", ".obj"}  // heightmap exports
	MaskExts   = []string{".png", ".r16", ".tif"}          // mask exports
	ImageExts  = []string{".png", ".r16", ".tif", ".tiff"} // uplift and heightmap imports
	OpenExts   = []string{ProjectExt, ".json"}             // projects and scenes
)

// ErrNoPath is Save's error for a document that has no file yet: ask for
// one and call SaveAs.
var ErrNoPath = errors.New("session: the project has no file yet: save it as")

// Load reads a project file, or a scene file (any other .json), as a
// document.
func Load(path string) (*doc.Doc, error) { return LoadRelinked(path, nil) }

// LoadRelinked is Load reading the files a project names from where relink
// says they are now (see project.LoadRelinked).
func LoadRelinked(path string, relink map[string]string) (*doc.Doc, error) {
	if isProject(path) {
		p, err := project.LoadRelinked(path, relink)
		if err != nil {
			return nil, err
		}
		return doc.New(p)
	}
	sc, err := scene.Load(path)
	if err != nil {
		return nil, err
	}
	return doc.FromScene(sc)
}

// LoadScene returns a document on a scene (a preset name or a scene file;
// "" is the default preset) at size cells a side (0: the scene's own).
func LoadScene(name string, size int) (*doc.Doc, error) {
	if name == "" {
		name = "default"
	}
	sc, err := scene.Load(name)
	if err != nil {
		return nil, err
	}
	if size != 0 {
		if size < 16 || size > 8192 {
			return nil, fmt.Errorf("grid size %d out of range: want 16 to 8192 cells per side", size)
		}
		sc.Width, sc.Height = size, size
	}
	return doc.FromScene(sc)
}

func isProject(path string) bool { return strings.HasSuffix(strings.ToLower(path), ProjectExt) }

// NewFrom replaces the document by preset (a name from scene.PresetNames)
// at size cells a side (0: the preset's own) on engine kind, untitled:
// File → New's choices. The caller has asked about unsaved work.
func (s *Session) NewFrom(preset string, size int, kind engine.Kind) error {
	if _, err := engines.Lookup(kind); err != nil {
		return err
	}
	d, err := LoadScene(preset, size)
	if err != nil {
		return err
	}
	sc := d.Scene()
	if sc.Engine != kind {
		// As the scene had asked for it (not an undoable edit).
		c := *sc
		c.Engine, c.Samples = kind, 0
		if d, err = doc.FromScene(&c); err != nil {
			return err
		}
	}
	if err := s.setDoc(d, ""); err != nil {
		return err
	}
	s.logf(Info, "new project from the %s preset, %d×%d cells, %s engine", preset, d.Scene().Width, d.Scene().Height, engines.Label(kind))
	return nil
}

// NewDocument replaces the document by the default preset, untitled. The
// caller has asked about unsaved work.
func (s *Session) NewDocument() error {
	d, err := LoadScene("", s.opt.SceneSize)
	if err != nil {
		return err
	}
	return s.setDoc(d, "")
}

// Open replaces the document by a project file, or by a scene file or
// preset name (which opens untitled, at Options.SceneSize when set). The
// caller has asked about unsaved work.
func (s *Session) Open(path string) error { return s.OpenRelinked(path, nil) }

// OpenRelinked is Open reading the files a project names from where relink
// says they are now (a *project.MissingFileError names one that is not
// where the project says). A relinked document counts as unsaved until it
// is saved: its file still names the old places.
func (s *Session) OpenRelinked(path string, relink map[string]string) error {
	var d *doc.Doc
	var err error
	if isProject(path) || path == "" {
		d, err = LoadRelinked(path, relink)
	} else {
		d, err = LoadScene(path, s.opt.SceneSize)
	}
	if err != nil {
		return err
	}
	p := ""
	if isProject(path) {
		p = path
	}
	if err := s.setDoc(d, p); err != nil {
		return err
	}
	if len(relink) > 0 {
		s.unsaved = true
		for _, old := range slices.Sorted(maps.Keys(relink)) {
			s.logf(Info, "relinked %s to %s; save the project to keep it", old, relink[old])
		}
	}
	return nil
}

// Save saves the document to its file; ErrNoPath when it has none.
func (s *Session) Save() error {
	if s.path == "" {
		return ErrNoPath
	}
	return s.SaveAs(s.path)
}

// SaveAs saves the document to path (given the project extension if it
// lacks it), atomically, and makes path the document's file.
func (s *Session) SaveAs(path string) error {
	if !isProject(path) {
		path = strings.TrimSuffix(path, filepath.Ext(path)) + ProjectExt
	}
	s.storeView()
	if err := s.doc.Project().Save(path); err != nil {
		return err
	}
	s.doc.MarkSaved()
	s.unsaved = false
	s.path = path
	if p := s.opt.Prefs; p != nil {
		p.AddRecent(path)
		p.LastProject = path
		if err := p.Save(); err != nil {
			s.logf(Warn, "settings: %v", err)
		}
	}
	// An autosave still writing would put the recovery file back after
	// the clearing.
	s.WaitAutosave()
	if err := prefs.ClearRecovery(); err != nil {
		s.logf(Warn, "recovery file: %v", err)
	}
	s.logf(Info, "saved %s", path)
	return nil
}

// storeView asks the UI for its view state before a save.
func (s *Session) storeView() {
	if err := s.storeAmplify(); err != nil {
		s.logf(Warn, "amplify preview settings not kept: %v", err)
	}
	if s.opt.StoreView == nil {
		return
	}
	if err := s.opt.StoreView(s.doc); err != nil {
		s.logf(Warn, "view settings not kept: %v", err)
	}
}

// Dir is where file dialogs start: the project's folder, or the most
// recent file's.
func (s *Session) Dir() string {
	if s.path != "" {
		return filepath.Dir(s.path)
	}
	if p := s.opt.Prefs; p != nil && len(p.Recent) > 0 {
		return filepath.Dir(p.Recent[0])
	}
	return ""
}

// ExportHeightmap writes the heights the views show (Snapshot) to path:
// .png (16-bit), .r16, .tif (float32) or .obj, with its sidecar.
func (s *Session) ExportHeightmap(path string) error {
	sn := s.Snapshot()
	if err := rasterio.Write(path, sn.Field(sn.Height)); err != nil {
		return err
	}
	s.logf(Info, "exported the heightmap of step %d to %s (+ %s)", sn.Step, path, filepath.Base(rasterio.SidecarPath(path)))
	return nil
}

// ExportMasks writes the stream-power engine's masks into dir with the
// extension ext (export.Masks; rivers above thresholdM2 of drainage), and
// the water budget's lakes.json when the budget is on. It returns the
// files written.
func (s *Session) ExportMasks(dir, ext string, thresholdM2 float64) ([]string, error) {
	return s.exportMasks(dir, "", ext, thresholdM2)
}

// ExportMasksAs is ExportMasks named after path, DIR/BASE.EXT as the Export
// masks dialog gives it: DIR/BASE-drainage.EXT and so on, and
// BASE-lakes.json.
func (s *Session) ExportMasksAs(path string, thresholdM2 float64) ([]string, error) {
	ext := filepath.Ext(path)
	return s.exportMasks(filepath.Dir(path), strings.TrimSuffix(filepath.Base(path), ext), ext, thresholdM2)
}

func (s *Session) exportMasks(dir, base, ext string, thresholdM2 float64) ([]string, error) {
	sn := s.wk.Frame().Snap
	files, err := export.MasksNamed(dir, base, ext, sn, thresholdM2)
	if err != nil {
		return files, err
	}
	if sn.WaterLakes != nil {
		// The water budget's lakes, as orogen run --out-lakes writes them.
		lakes := "lakes.json"
		if base != "" {
			lakes = base + "-" + lakes
		}
		p := filepath.Join(dir, lakes)
		if err := export.WriteLakes(p, sn); err != nil {
			return files, err
		}
		files = append(files, p)
	}
	s.logf(Info, "exported %d masks of step %d to %s", len(files), sn.Step, dir)
	return files, nil
}

// ImportUplift replaces the uplift by a normalized image (an undoable
// document edit).
func (s *Session) ImportUplift(path string) error {
	if err := s.doc.ImportUpliftImage(path); err != nil {
		return err
	}
	s.logf(Info, "imported uplift from %s (undo restores the old one)", path)
	return nil
}

// ImportHeightmap replaces the simulation's heights by a heightmap in
// metres (.png/.r16 with sidecar, .tif), resampled to the grid; the engine
// restarts from them at step 0. It is a document edit, saved with the
// project and undoable.
func (s *Session) ImportHeightmap(path string) error {
	f, err := rasterio.ReadHeights(path)
	if err != nil {
		return err
	}
	sc := s.doc.Scene()
	if f.W != sc.Width || f.H != sc.Height {
		f = f.Resample(sc.Width, sc.Height)
		s.logf(Info, "resampled %s to the %d×%d grid", filepath.Base(path), sc.Width, sc.Height)
	}
	if err := s.doc.SetTerrain(f, "import heights"); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	s.Sync()
	s.logf(Info, "imported heights from %s into the simulation (saved with the project; undo returns to the terrain before)", path)
	return nil
}

// Undo undoes the last edit; it reports what it undid ("" and false when
// there was nothing to undo).
func (s *Session) Undo() (string, bool, error) {
	label, ok, err := s.doc.Undo()
	if ok && err == nil {
		s.logf(Info, "undid %s", label)
	}
	return label, ok, err
}

// Redo redoes the last undone edit.
func (s *Session) Redo() (string, bool, error) {
	label, ok, err := s.doc.Redo()
	if ok && err == nil {
		s.logf(Info, "redid %s", label)
	}
	return label, ok, err
}

// Recovery returns the work a session that did not end cleanly left in the
// recovery file, the project file it was opened from or last saved to
// ("": never saved), and when it was written; ok is false when there is
// none.
func Recovery() (p *project.Project, origin string, at time.Time, ok bool, err error) {
	return prefs.ReadRecoveryFrom()
}

// Recover makes p (from Recovery) the document, unsaved, under its origin's
// name (untitled when it had none): Save writes it back there.
func (s *Session) Recover(p *project.Project, origin string, at time.Time) error {
	d, err := doc.New(p)
	if err != nil {
		return err
	}
	if err := s.setDoc(d, origin); err != nil {
		return err
	}
	s.unsaved = true
	s.logf(Info, "recovered the work autosaved at %s; save it to keep it", at.Format(time.Kitchen))
	return nil
}

// DiscardRecovery removes the recovery file.
func (s *Session) DiscardRecovery() {
	s.WaitAutosave()
	if err := prefs.ClearRecovery(); err != nil {
		s.logf(Warn, "recovery file: %v", err)
	}
}

// WriteRecovery writes the document to the recovery file now (after an
// internal error, so no work is lost).
func (s *Session) WriteRecovery() error {
	s.storeView()
	return prefs.WriteRecoveryFrom(s.doc.Project(), s.path)
}

// autosaver writes unsaved work to the recovery file on a goroutine.
type autosaver struct {
	wg     sync.WaitGroup        // the goroutine writing, if any
	saving atomic.Bool           // set while the goroutine writes
	err    atomic.Pointer[error] // the goroutine's failure, logged by the next Autosave
	saved  uint64                // doc.Changed when last written (or opened)
	last   time.Time
}

// Autosave writes unsaved work to the recovery file when every has passed
// since the last time and the document changed since, on a goroutine
// (Project returns a copy the session no longer touches). It reports
// whether it started a write.
func (s *Session) Autosave(now time.Time, every time.Duration) bool {
	a := &s.auto
	if err := a.err.Swap(nil); err != nil {
		s.logf(Error, "autosave: %v", *err)
	}
	if a.last.IsZero() {
		a.last = now
	}
	if now.Sub(a.last) < every || !s.Dirty() || s.doc.Changed() == a.saved {
		return false
	}
	if !a.saving.CompareAndSwap(false, true) {
		return false
	}
	a.last, a.saved = now, s.doc.Changed()
	s.storeView()
	p, origin := s.doc.Project(), s.path
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		defer a.saving.Store(false)
		if err := prefs.WriteRecoveryFrom(p, origin); err != nil {
			a.err.Store(&err)
		}
	}()
	return true
}

// AutosaveDone reports whether no autosave write is in progress.
func (s *Session) AutosaveDone() bool { return !s.auto.saving.Load() }

// WaitAutosave returns when no autosave write is in progress.
func (s *Session) WaitAutosave() { s.auto.wg.Wait() }

// Shutdown ends the session as the app quits: a clean document clears the
// recovery file. It then closes the session.
func (s *Session) Shutdown() {
	s.WaitAutosave()
	if !s.Dirty() {
		if err := prefs.ClearRecovery(); err != nil {
			s.logf(Warn, "clearing the recovery file: %v", err)
		}
	}
	s.Close()
}

// ImportDEM inverts a DEM (heights in metres: .tif, or .png/.r16 with
// their sidecar) into the uplift that makes it a steady state of the
// document's parameters (package invert: Orogen's routing, lakes through
// their passes, kept by negative uplift), and makes that uplift the base
// layer of the Uplift Tree, normalized by umax, in one undoable edit. A DEM
// without a sidecar spans the project's domain. The uplift is resampled to
// the grid; it reproduces the DEM only where the project's extent is the
// DEM's, which the log says when it is not.
func (s *Session) ImportDEM(path string) error {
	f, err := s.demUplift(path)
	if err != nil {
		return err
	}
	if err := s.doc.ImportUpliftField(f, "Import DEM as uplift"); err != nil {
		return err
	}
	s.logf(Info, "imported %s as uplift: the Uplift Tree's base layer", path)
	return nil
}

// demUplift is a DEM's inverted uplift on the grid, normalized by umax,
// with the figures logged.
func (s *Session) demUplift(path string) (*sim.Field, error) {
	dem, err := rasterio.ReadHeights(path)
	if err != nil {
		return nil, err
	}
	sc := s.doc.Scene()
	span := sc.DomainM
	if dem.Cell == 0 {
		dem.Cell = span / float64(max(dem.W, dem.H))
	}
	umax := sc.Uplift.UmaxMPerYr
	if !(umax > 0) {
		return nil, fmt.Errorf("DEM %s: the uplift scale (umax) is 0: set it above 0 first; the layer holds uplift over umax", filepath.Base(path))
	}
	p, err := sc.EngineParams()
	if err != nil {
		return nil, err
	}
	res, err := invert.Uplift(dem, invert.Options{Params: p})
	if err != nil {
		return nil, fmt.Errorf("DEM %s: %w", filepath.Base(path), err)
	}
	f := res.Uplift.Resample(sc.Width, sc.Height)
	for i, v := range f.Data {
		f.Data[i] = float32(float64(v) / umax)
	}
	if not := invert.NotInverted(p); len(not) > 0 {
		s.logf(Warn, "the uplift holds the DEM under the classic physics only: this scene's %s will move it (the classic preset has none)", strings.Join(not, ", "))
	}
	lo, hi := res.Uplift.MinMax()
	s.logf(Info, "inverted %s into uplift: %d×%d cells of %g m, %.3g to %.3g m/yr; %d lakes held, %d cells cut to the talus angle (undo restores the old uplift)",
		path, dem.W, dem.H, dem.Cell, lo, hi, res.Lakes, res.Steep)
	if ext := dem.Cell * float64(max(dem.W, dem.H)); math.Abs(ext-span) > 0.01*span {
		s.logf(Warn, "the DEM spans %.4g km, the project %.4g km: drainage areas differ, so the uplift will not grow the DEM back; set the domain to %.4g km for that",
			ext/1e3, span/1e3, ext/1e3)
	}
	return f, nil
}

// BlendWith blends the document's uplift with another terrain's in the
// uplift domain (Schott et al. 2022, §4, Fig. 7): a heightmap (its
// inverted uplift, see ImportDEM), a project (its Uplift Tree over its
// layers, see projectUplift) or a scene or preset (its uplift), as a
// new layer the tree mixes in along a west-to-east gradient from x0 to x1
// (fractions of the map's width): the Uplift Tree's Mix node. One undoable
// edit.
func (s *Session) BlendWith(path string, x0, x1 float64) error {
	if !(x0 >= 0 && x0 < x1 && x1 <= 1) {
		return fmt.Errorf("blend gradient %g to %g: want 0 <= x0 < x1 <= 1 (fractions of the width)", x0, x1)
	}
	f, err := s.otherUplift(path)
	if err != nil {
		return err
	}
	sc := s.doc.Scene()
	cell := sc.DomainM / float64(max(sc.Width, sc.Height))
	W, H := float64(sc.Width)*cell, float64(sc.Height)*cell
	a := uplifttree.Point{X: x0 * W, Y: H / 2}
	b := uplifttree.Point{X: x1 * W, Y: H / 2}
	id, layer, err := s.doc.BlendWith(f, a, b, "Blend with "+filepath.Base(path))
	if err != nil {
		return err
	}
	s.logf(Info, "blended with %s in the uplift domain: layer %q under mix #%d, %.0f %% to %.0f %% of the width", path, layer, id, 100*x0, 100*x1)
	return nil
}

// BlendWithMask is BlendWith through a mask image (PNG, R16 or TIFF;
// values read as fractions of the format's range, clamped to [0, 1]: 0
// keeps this terrain, 1 takes the other) instead of a gradient. The mask
// must have the map's proportions; it is resampled to the grid and
// becomes a layer (paintable) that the Mix reads as its third child.
func (s *Session) BlendWithMask(path, maskPath string) error {
	sc := s.doc.Scene()
	m, err := rasterio.ReadNormalized(maskPath)
	if err != nil {
		return fmt.Errorf("mask: %w", err)
	}
	if m.W*sc.Height != m.H*sc.Width {
		return fmt.Errorf("mask %s is %d×%d: the map is %d×%d cells; give a mask of the same proportions (it is resampled)", filepath.Base(maskPath), m.W, m.H, sc.Width, sc.Height)
	}
	m = m.Resample(sc.Width, sc.Height)
	for i, v := range m.Data {
		if math.IsNaN(float64(v)) {
			return fmt.Errorf("mask %s: cell (%d, %d) is not a number", filepath.Base(maskPath), i%m.W, i/m.W)
		}
		m.Data[i] = min(1, max(0, v))
	}
	f, err := s.otherUplift(path)
	if err != nil {
		return err
	}
	id, layer, err := s.doc.BlendWithMask(f, m, "Blend with "+filepath.Base(path))
	if err != nil {
		return err
	}
	s.logf(Info, "blended with %s in the uplift domain through mask %s: layer %q under mix #%d", path, filepath.Base(maskPath), layer, id)
	return nil
}

// otherUplift is the uplift of the terrain at path (a heightmap, a
// project, or a scene or preset) on the document's grid, normalized by its
// umax.
func (s *Session) otherUplift(path string) (*sim.Field, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case ext == ".tif" || ext == ".tiff" || ext == ".png" || ext == ".r16":
		return s.demUplift(path)
	case isProject(path):
		return s.projectUplift(path)
	default:
		return s.sceneUplift(path)
	}
}

// projectUplift is a project's uplift (its tree over its layers, m/yr)
// resampled onto the document's grid and normalized by the document's
// umax. Its constraints and view are not blended. A project whose map
// spans another extent is stretched onto this one (logged).
func (s *Session) projectUplift(path string) (*sim.Field, error) {
	p, err := project.Load(path)
	if err != nil {
		return nil, err
	}
	other, err := doc.New(p)
	if err != nil {
		return nil, fmt.Errorf("project %s: %w", filepath.Base(path), err)
	}
	sc := s.doc.Scene()
	umax := sc.Uplift.UmaxMPerYr
	if !(umax > 0) {
		return nil, errors.New("the uplift scale (umax) is 0: set it above 0 first")
	}
	f := other.Uplift().Resample(sc.Width, sc.Height)
	for i, v := range f.Data {
		f.Data[i] = float32(float64(v) / umax)
	}
	if osc := other.Scene(); math.Abs(osc.DomainM-sc.DomainM) > 0.01*sc.DomainM {
		s.logf(Warn, "project %s spans %.4g km, this one %.4g km: its uplift is stretched onto this map", filepath.Base(path), osc.DomainM/1e3, sc.DomainM/1e3)
	}
	return f, nil
}

// sceneUplift is a scene's or preset's uplift on the document's grid,
// normalized by the document's umax.
func (s *Session) sceneUplift(name string) (*sim.Field, error) {
	other, err := scene.Load(name)
	if err != nil {
		return nil, err
	}
	sc := s.doc.Scene()
	umax := sc.Uplift.UmaxMPerYr
	if !(umax > 0) {
		return nil, errors.New("the uplift scale (umax) is 0: set it above 0 first")
	}
	cell := sc.DomainM / float64(max(sc.Width, sc.Height))
	f, err := other.UpliftField("", sc.Width, sc.Height, cell, other.Uplift.UmaxMPerYr)
	if err != nil {
		return nil, err
	}
	if f == nil {
		return nil, fmt.Errorf("scene %s has no uplift to blend with", name)
	}
	for i, v := range f.Data {
		f.Data[i] = float32(float64(v) / umax)
	}
	return f, nil
}
