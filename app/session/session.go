package session

import (
	"errors"
	"fmt"
	"path/filepath"

	"orogen/app/doc"
	"orogen/app/engines"
	"orogen/app/prefs"
	"orogen/app/runner"
	"orogen/app/worker"
	"orogen/sim/engine"
	"orogen/sim/geology"
)

// Level is the importance of a log message.
type Level int

// Log levels.
const (
	Info Level = iota
	Warn
	Error
)

// Options set a session up.
type Options struct {
	// Duty is the largest share of wall time the engines step (see
	// worker.Options.Duty); 0 means no limit.
	Duty float64
	// Paused starts the simulation paused.
	Paused bool
	// Prefs are the settings whose recent files and last project the
	// file actions update; nil keeps none.
	Prefs *prefs.Prefs
	// Log receives progress and notices; nil drops them.
	Log func(Level, string)
	// StoreView, if set, writes the UI's view state into the document
	// before it is saved or autosaved.
	StoreView func(*doc.Doc) error
	// SceneSize, if not 0, is the grid's cells per side for every scene
	// and preset the session opens (Open, NewDocument), as the command
	// line's --size gives it to the first one (LoadScene); projects keep
	// their own size.
	SceneSize int
}

// Session is an open document with its simulation.
type Session struct {
	opt     Options
	doc     *doc.Doc
	path    string // project file; "" for an untitled document
	unsaved bool   // the document holds work its file lacks: recovered from the autosave, or relinked

	wk   *worker.Worker
	sent engineKey // what the worker's engine was last given

	det detailPass

	lastErr, lastCmdErr error  // the worker's errors already logged
	lastFallback        string // the worker's device fallback already logged
	badParams           uint64 // doc.Changed when invalid parameters were logged

	auto autosaver
	cons constraintState
	amp  amplifyState // the Amplify preview (amplify.go)
}

// engineKey is what the worker's engine reflects of the document: a
// change of Kind or Samples rebuilds the engine, of Uplift or Params sends
// them.
type engineKey struct {
	Kind    engine.Kind
	Samples int
	Uplift  uint64 // doc.UpliftVersion
	Params  engine.Params
	// Coefficients are the engine's own (scene.EngineCoefficients),
	// comparable values.
	Coefficients any
	// Geology is the scene's geology spec: the document replaces it on
	// every edit (and undo restores the old pointer), so identity tells a
	// change.
	Geology *geology.Spec
	// Terrain is doc.TerrainVersion: a new terrain (a kept hydraulic
	// pass, imported heights, their undo) restarts the engine from it.
	Terrain uint64
}

// New opens d (saved at path, "" for untitled) and starts its simulation.
func New(d *doc.Doc, path string, o Options) (*Session, error) {
	s := &Session{opt: o}
	if err := s.setDoc(d, path); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Session) logf(l Level, format string, args ...any) {
	if s.opt.Log != nil {
		s.opt.Log(l, fmt.Sprintf(format, args...))
	}
}

// Doc returns the document. Edits go through its methods; Sync hands them
// to the engine.
func (s *Session) Doc() *doc.Doc { return s.doc }

// Path returns the project file, "" for an untitled document.
func (s *Session) Path() string { return s.path }

// Title names the document for people: its file name, or "untitled".
func (s *Session) Title() string {
	if s.path == "" {
		return "untitled"
	}
	return filepath.Base(s.path)
}

// Dirty reports whether the document has unsaved work (a recovered or
// relinked document counts until it is saved).
func (s *Session) Dirty() bool { return s.doc.Dirty() || s.unsaved }

// Frame returns the stream-power worker's newest frame.
func (s *Session) Frame() *worker.Frame { return s.wk.Frame() }

// Worker returns the stream-power worker, for commands no action covers.
func (s *Session) Worker() *worker.Worker { return s.wk }

// Snapshot is what the views and exports show: the detail pass's terrain
// while it is open, else the stream-power engine's.
func (s *Session) Snapshot() *engine.Snapshot {
	if s.det.run != nil {
		return s.det.run.Frame().Snap
	}
	return s.wk.Frame().Snap
}

// Close ends the detail pass and the worker and waits for their
// goroutines. The session must not be used afterwards.
func (s *Session) Close() {
	s.closeAmplify()
	if s.det.run != nil {
		s.det.run.Close()
		s.det.run = nil
	}
	if s.wk != nil {
		s.wk.Close()
	}
}

// setDoc makes d the document and restarts the engine on it.
func (s *Session) setDoc(d *doc.Doc, path string) error {
	s.EndDetail(false)
	spec, err := d.EngineSpec()
	if err != nil {
		return err
	}
	spec.Device = s.ComputeDevice() // the grid engine on the GPU (app/engines)
	// The constraints are handed over with the engine, so its first step
	// has them.
	oldDoc, oldCons := s.doc, s.cons
	s.doc, s.cons = d, constraintState{}
	cons := s.handConstraints()
	if s.wk == nil {
		w, err := worker.New(spec, runner.Options{Duty: s.opt.Duty, Paused: true})
		if err != nil {
			s.doc, s.cons = oldDoc, oldCons
			return err
		}
		s.wk = w
		s.wk.Send(worker.SetConstraints{C: cons})
		if !s.opt.Paused {
			s.wk.Send(runner.Run{})
		}
	} else {
		s.amp.after = s.wk.SendSeq(worker.Reset{Spec: spec, C: cons})
	}
	s.path, s.unsaved = path, false
	s.forgetAmplify(d)
	s.sent = s.want(spec.Params)
	s.auto.saved = d.Changed()
	if path != "" && s.opt.Prefs != nil {
		s.opt.Prefs.AddRecent(path)
		s.opt.Prefs.LastProject = path
		s.opt.Prefs.LastDir = filepath.Dir(path)
	}
	sc := d.Scene()
	s.logf(Info, "opened %s (%d×%d cells, %.0f m each)", s.Title(), sc.Width, sc.Height, sc.DomainM/float64(max(sc.Width, sc.Height)))
	return nil
}

// want is the engine key of the document with parameters p.
func (s *Session) want(p engine.Params) engineKey {
	sc := s.doc.Scene()
	return engineKey{Kind: sc.Engine, Samples: sc.Samples, Uplift: s.doc.UpliftVersion(), Params: p, Geology: sc.Geology,
		Coefficients: sc.EngineCoefficients(), Terrain: s.doc.TerrainVersion()}
}

// Sync hands the worker the document's changes since the last Sync (see
// the package doc) and logs the worker's new errors. The UI calls it once
// a frame; script commands call it to apply an edit at once.
func (s *Session) Sync() {
	p, err := s.doc.Scene().EngineParams()
	if err != nil {
		// The document refuses invalid parameters, so this is a bug or
		// a file edited by hand; the engine keeps the last good ones.
		p = s.sent.Params
		if c := s.doc.Changed(); c != s.badParams {
			s.badParams = c
			s.logf(Error, "parameters not sent to the engine: %v", err)
		}
	}
	want := s.want(p)
	switch {
	case want == s.sent:
	case want.Kind != s.sent.Kind || want.Samples != s.sent.Samples || want.Terrain != s.sent.Terrain:
		// A new engine kind or node count, or a new terrain to start
		// from: the terrain restarts.
		if err := s.ResetTerrain(); err != nil {
			s.logf(Error, "engine not changed: %v", err)
		}
	default:
		if want.Uplift != s.sent.Uplift {
			s.wk.Send(worker.SetUplift{U: s.upliftToSend()})
		}
		if want.Params != s.sent.Params {
			s.wk.Send(worker.SetParams{P: want.Params})
		}
		if want.Geology != s.sent.Geology {
			var m *geology.Model
			if want.Geology != nil {
				var err error
				if m, err = want.Geology.Compile(); err != nil {
					// The document refuses invalid geology: a bug.
					s.logf(Error, "geology not sent to the engine: %v", err)
					want.Geology = s.sent.Geology
				}
			}
			if want.Geology != s.sent.Geology {
				s.wk.Send(worker.SetGeology{M: m})
			}
		}
		if want.Coefficients != s.sent.Coefficients && want.Coefficients != nil {
			s.wk.Send(worker.SetCoefficients{V: want.Coefficients})
		}
		s.sent = want
	}
	f := s.wk.Frame()
	s.syncConstraints()
	s.syncAmplify(f)
	if f.Err != nil && f.Err != s.lastErr {
		s.logf(Error, "simulation stopped: %v (Reset starts it again)", f.Err)
	}
	s.lastErr = f.Err
	if f.CmdErr != nil && f.CmdErr != s.lastCmdErr {
		s.logf(Error, "engine refused a change: %v", f.CmdErr)
	}
	s.lastCmdErr = f.CmdErr
	if f.Fallback != "" && f.Fallback != s.lastFallback {
		s.logf(Info, "%s", f.Fallback) // the grid engine asked for on the GPU runs on the CPU
	}
	s.lastFallback = f.Fallback
}

// SentParams returns the stream-power parameters last handed to the
// engine.
func (s *Session) SentParams() engine.Params { return s.sent.Params }

// ResetTerrain restarts the engine at step 0 with the current document
// (its engine kind, node count, uplift and parameters), from its terrain
// (a kept hydraulic pass, imported heights), its initial heights or the
// flat start.
func (s *Session) ResetTerrain() error {
	s.EndDetail(false)
	spec, err := s.doc.EngineSpec()
	if err != nil {
		return err
	}
	spec.Device = s.ComputeDevice()
	s.amp.after = s.wk.SendSeq(worker.Reset{Spec: spec, C: s.handConstraints(), KeepFactors: true})
	s.sent = s.want(spec.Params)
	if spec.Geology == nil {
		s.sent.Geology = nil
	}
	from := "the flat start"
	switch {
	case s.doc.Terrain() != nil:
		from = "the kept terrain"
	case spec.Init != nil:
		from = "the initial heights"
	}
	s.logf(Info, "terrain reset to %s (%s)", from, spec.Label())
	return nil
}

// SetEngine switches the engine (a document edit: undoable, saved with the
// project); the terrain restarts on it at the next Sync. samples is the
// stream graph's node count (0: the default); it must be 0 for the grid.
func (s *Session) SetEngine(k engine.Kind, samples int) error {
	e, err := engines.Lookup(k)
	if err != nil {
		return err
	}
	if !e.Nodes && samples != 0 {
		return engines.ErrSamplesGrid
	}
	st := s.doc.Settings()
	st.Engine, st.Samples = k, samples
	if err := s.doc.SetSettings(st, ""); err != nil {
		return err
	}
	s.Sync()
	s.logf(Info, "engine %s", engines.Spec{Kind: k, Samples: samples}.Label())
	return nil
}

// Run makes the simulation step continuously.
func (s *Session) Run() { s.wk.Send(runner.Run{}) }

// Pause stops the simulation after its current step.
func (s *Session) Pause() { s.wk.Send(runner.Pause{}) }

// ToggleRun runs a paused simulation or pauses a running one, and reports
// whether it now runs.
func (s *Session) ToggleRun() bool {
	if s.wk.Frame().Running {
		s.Pause()
		s.logf(Info, "paused")
		return false
	}
	s.Run()
	s.logf(Info, "running")
	return true
}

// Step pauses the simulation and runs n steps.
func (s *Session) Step(n int) { s.wk.Send(runner.Pause{}, runner.Step{N: n}) }

var errNoDetail = errors.New("no detail pass open: start one first")

// SetDuty changes the largest share of wall time the engines step (see
// worker.Options.Duty), from the next step on; the next detail pass starts
// with it.
func (s *Session) SetDuty(d float64) {
	s.opt.Duty = d
	s.wk.Send(runner.SetDuty{D: d})
}
