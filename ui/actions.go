package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"orogen/app/doc"
	"orogen/app/engines"
	"orogen/app/export"
	"orogen/app/prefs"
	"orogen/app/project"
	"orogen/app/rasterio"
	"orogen/app/run"
	"orogen/app/scene"
	"orogen/app/worker"
	"orogen/sim"
)

// The actions behind menus, shortcuts and script commands. Each reports
// failures through showError and leaves the document as it was.

const projectExt = ".orogen.json"

var (
	heightExts = []string{".png", ".r16", ".tif", ".obj"}
	imageExts  = []string{".png", ".r16", ".tif", ".tiff"}
	openExts   = []string{projectExt, ".json"}
)

// engineDuty is the share of wall time the engine may step (worker.Options
// Duty): the rest keeps the window drawing at full rate on two cores.
// OROGEN_ENGINE_DUTY overrides it (1 = no limit).
func engineDuty() float64 {
	if v, err := strconv.ParseFloat(os.Getenv("OROGEN_ENGINE_DUTY"), 64); err == nil && v > 0 && v <= 1 {
		return v
	}
	return defaultDuty
}

const defaultDuty = 0.8

// autosaveEvery is how often unsaved work goes to the recovery file, unless
// the settings say otherwise.
const autosaveEvery = 2 * time.Minute

func (a *App) autosavePeriod() time.Duration {
	if s := a.prefs.AutosaveSeconds; s > 0 {
		return time.Duration(s) * time.Second
	}
	return autosaveEvery
}

func (a *App) openInitial(o Options) error {
	var d *doc.Doc
	var err error
	switch {
	case o.Project != "":
		d, err = loadDoc(o.Project)
		if err == nil {
			a.path = o.Project
		}
	case o.Scene == "" && o.Script == "" && a.prefs.OpenLast && a.prefs.LastProject != "":
		d, err = loadDoc(a.prefs.LastProject)
		if err == nil {
			a.path = a.prefs.LastProject
			break
		}
		a.log.add(levelWarn, "could not reopen the last project %s: %v", a.prefs.LastProject, err)
		fallthrough
	default:
		name := o.Scene
		if name == "" {
			name = "default"
		}
		var sc *scene.Scene
		sc, err = scene.Load(name)
		if err == nil && o.Size != 0 {
			if o.Size < 16 || o.Size > 8192 {
				return fmt.Errorf("grid size %d out of range: want 16 to 8192 cells per side", o.Size)
			}
			sc.Width, sc.Height = o.Size, o.Size
		}
		if err == nil {
			d, err = doc.FromScene(sc)
		}
	}
	if err != nil {
		return err
	}
	return a.setDoc(d, a.path)
}

// loadDoc opens a project file, or a scene file (any other .json).
func loadDoc(path string) (*doc.Doc, error) {
	if strings.HasSuffix(strings.ToLower(path), projectExt) {
		p, err := project.Load(path)
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

// setDoc makes d the document and restarts the engine on it.
func (a *App) setDoc(d *doc.Doc, path string) error {
	a.endDetail(false)
	sc := d.Scene()
	spec, err := engines.FromScene(sc, copyField(d.Uplift()), nil)
	if err != nil {
		return err
	}
	if a.wk == nil {
		a.duty = engineDuty()
		w, err := worker.NewWith(spec, worker.Options{Duty: a.duty})
		if err != nil {
			return err
		}
		a.wk = w
	} else {
		a.wk.Send(worker.Reset{Spec: spec})
	}
	a.sentEngine, a.sentSamples, a.sentParams = sc.Engine, sc.Samples, spec.Params
	a.doc, a.path = d, path
	a.sentUplift, a.sentChanged = d.UpliftVersion(), d.Changed()
	a.sel = 0
	a.fitView = true
	a.recovered = false
	a.applyView(d.View())
	if path != "" {
		a.prefs.AddRecent(path)
		a.prefs.LastProject = path
		a.prefs.LastDir = filepath.Dir(path)
	}
	title := "untitled"
	if path != "" {
		title = filepath.Base(path)
	}
	a.log.add(levelInfo, "opened %s (%d×%d cells, %.0f m each)", title, d.Scene().Width, d.Scene().Height,
		d.Scene().DomainM/float64(max(d.Scene().Width, d.Scene().Height)))
	return nil
}

func copyField(f *sim.Field) *sim.Field {
	if f == nil {
		return nil
	}
	c := *f
	c.Data = append([]float32(nil), f.Data...)
	return &c
}

// guard runs act now, or after the unsaved-changes prompt when there is
// unsaved work.
func (a *App) guard(what string, act func()) {
	if !a.dirty() || a.script != nil {
		act()
		return
	}
	a.ask("Unsaved changes", fmt.Sprintf("%s has unsaved changes. Save them before you %s?", a.title(), what),
		modalButton{"Save", func() {
			if a.save() {
				act()
			}
		}},
		modalButton{"Discard", act},
		modalButton{"Cancel", nil})
}

func (a *App) dirty() bool { return a.doc.Dirty() || a.recovered }

func (a *App) title() string {
	if a.path == "" {
		return "The untitled project"
	}
	return filepath.Base(a.path)
}

func (a *App) newDoc() {
	a.guard("start a new project", func() {
		sc, err := scene.Load("default")
		if err == nil {
			var d *doc.Doc
			if d, err = doc.FromScene(sc); err == nil {
				err = a.setDoc(d, "")
			}
		}
		if err != nil {
			a.showError("New project", err)
		}
	})
}

func (a *App) openDialog() {
	a.guard("open another project", func() {
		a.browser.show("Open project or scene", false, a.dir(), "", openExts, a.openPath)
	})
}

// openPath opens a project or scene file without asking (the caller has).
func (a *App) openPath(path string) {
	d, err := loadDoc(path)
	if err == nil {
		p := ""
		if strings.HasSuffix(strings.ToLower(path), projectExt) {
			p = path
		}
		err = a.setDoc(d, p)
	}
	if err != nil {
		a.showError("Open "+filepath.Base(path), err)
	}
}

func (a *App) dir() string {
	if a.path != "" {
		return filepath.Dir(a.path)
	}
	if len(a.prefs.Recent) > 0 {
		return filepath.Dir(a.prefs.Recent[0])
	}
	return ""
}

// save saves to the current path, or asks for one; it reports whether the
// document was saved (false also while the dialog is up).
func (a *App) save() bool {
	if a.path == "" {
		a.saveAsDialog()
		return false
	}
	return a.saveTo(a.path)
}

func (a *App) saveAsDialog() {
	name := "untitled" + projectExt
	if a.path != "" {
		name = filepath.Base(a.path)
	}
	a.browser.show("Save project as", true, a.dir(), name, []string{projectExt}, func(p string) { a.saveTo(p) })
}

func (a *App) saveTo(path string) bool {
	if !strings.HasSuffix(strings.ToLower(path), projectExt) {
		path = strings.TrimSuffix(path, filepath.Ext(path)) + projectExt
	}
	a.storeView()
	if err := a.doc.Project().Save(path); err != nil {
		a.showError("Save "+filepath.Base(path), err)
		return false
	}
	a.doc.MarkSaved()
	a.recovered = false
	a.path = path
	a.prefs.AddRecent(path)
	a.prefs.LastProject = path
	if err := a.prefs.Save(); err != nil {
		a.log.add(levelWarn, "settings: %v", err)
	}
	if err := prefs.ClearRecovery(); err != nil {
		a.log.add(levelWarn, "recovery file: %v", err)
	}
	a.log.add(levelInfo, "saved %s", path)
	return true
}

func (a *App) exportHeightmapDialog() {
	a.browser.show("Export heightmap (.png 16-bit, .r16, .tif float, .obj)", true, a.dir(), "heightmap.png", heightExts, a.exportHeightmap)
}

func (a *App) exportHeightmap(path string) {
	s := a.viewSnap()
	if err := rasterio.Write(path, s.Field(s.Height)); err != nil {
		a.showError("Export heightmap", err)
		return
	}
	a.log.add(levelInfo, "exported the heightmap of step %d to %s (+ %s)", s.Step, path, filepath.Base(rasterio.SidecarPath(path)))
}

func (a *App) exportMasksDialog() {
	a.browser.show("Export masks: choose a folder and a base name", true, a.dir(), "masks.png", []string{".png", ".r16", ".tif"}, func(p string) {
		a.exportMasks(filepath.Dir(p), filepath.Ext(p))
	})
}

func (a *App) exportMasks(dir, ext string) {
	f := a.wk.Frame()
	files, err := export.Masks(dir, ext, f.Snap, a.vopts.RiverThresholdM2)
	if err != nil {
		a.showError("Export masks", err)
		return
	}
	if f.Snap.WaterLakes != nil {
		// The water budget's lakes, as orogen run --out-lakes writes them.
		p := filepath.Join(dir, "lakes.json")
		if err := run.WriteLakes(p, f.Snap); err != nil {
			a.showError("Export masks", err)
			return
		}
		files = append(files, p)
	}
	a.log.add(levelInfo, "exported %d masks of step %d to %s", len(files), f.Snap.Step, dir)
}

func (a *App) importUpliftDialog() {
	a.browser.show("Import uplift image (normalized: white = uplift scale)", false, a.dir(), "", imageExts, a.importUplift)
}

func (a *App) importUplift(path string) {
	if err := a.doc.ImportUpliftImage(path); err != nil {
		a.showError("Import uplift", err)
		return
	}
	a.log.add(levelInfo, "imported uplift from %s (undo restores the old one)", path)
}

func (a *App) importHeightmapDialog() {
	a.browser.show("Import heightmap (metres: .png/.r16 with sidecar, .tif)", false, a.dir(), "", imageExts, a.importHeightmap)
}

func (a *App) importHeightmap(path string) {
	f, err := rasterio.ReadHeights(path)
	if err != nil {
		a.showError("Import heightmap", err)
		return
	}
	sc := a.doc.Scene()
	if f.W != sc.Width || f.H != sc.Height {
		f = f.Resample(sc.Width, sc.Height)
		a.log.add(levelInfo, "resampled %s to the %d×%d grid", filepath.Base(path), sc.Width, sc.Height)
	}
	a.wk.Send(worker.SetHeights{H: f.Data})
	a.log.add(levelInfo, "imported heights from %s into the simulation", path)
}

func (a *App) undo() {
	label, ok, err := a.doc.Undo()
	switch {
	case err != nil:
		a.showError("Undo", err)
	case ok:
		a.log.add(levelInfo, "undid %s", label)
	}
}

func (a *App) redo() {
	label, ok, err := a.doc.Redo()
	switch {
	case err != nil:
		a.showError("Redo", err)
	case ok:
		a.log.add(levelInfo, "redid %s", label)
	}
}

func (a *App) requestQuit() {
	if a.modal.kind == modalAsk {
		return // the prompt is already up
	}
	a.guard("quit", func() { a.quitting = true })
}

// checkRecovery offers autosaved work left by a session that did not end
// cleanly.
func (a *App) checkRecovery() {
	p, at, ok, err := prefs.ReadRecovery()
	if err != nil {
		a.log.add(levelWarn, "recovery file: %v", err)
		return
	}
	if !ok || a.script != nil {
		return
	}
	a.ask("Recover unsaved work?",
		fmt.Sprintf("Orogen did not close cleanly last time. Work autosaved at %s can be restored.", at.Format("2006-01-02 15:04")),
		modalButton{"Recover", func() {
			d, err := doc.New(p)
			if err == nil {
				err = a.setDoc(d, "")
			}
			if err != nil {
				a.showError("Recover", err)
				return
			}
			a.recovered = true
			a.log.add(levelInfo, "recovered the work autosaved at %s; save it to keep it", at.Format(time.Kitchen))
		}},
		modalButton{"Discard", func() {
			if err := prefs.ClearRecovery(); err != nil {
				a.log.add(levelWarn, "recovery file: %v", err)
			}
		}})
}

// autosave writes unsaved work to the recovery file every few minutes, on
// a goroutine (Project returns a copy the UI no longer touches).
func (a *App) autosave() {
	if time.Since(a.lastSave) < a.autosavePeriod() || !a.dirty() || a.doc.Changed() == a.autosaved {
		return
	}
	if !a.saving.CompareAndSwap(false, true) {
		return
	}
	a.lastSave = time.Now()
	a.autosaved = a.doc.Changed()
	a.storeView()
	p := a.doc.Project()
	go func() {
		defer a.saving.Store(false)
		if err := prefs.WriteRecovery(p); err != nil {
			fmt.Fprintln(os.Stderr, "orogen: autosave:", err)
		}
	}()
}

// autosaveState is kept apart for the race detector's sake: saving is
// touched by the autosave goroutine.
type autosaveState struct {
	saving    atomic.Bool
	autosaved uint64
	recovered bool
}
