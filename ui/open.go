package ui

import (
	"os"
	"strconv"
	"time"

	"orogen/app/doc"
	"orogen/app/session"
)

// engineDuty is the share of wall time the engines may step (the session's
// Options.Duty): the rest keeps the window drawing at full rate on two
// cores. OROGEN_ENGINE_DUTY overrides it (1 = no limit).
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

// openInitial opens what the command line asks for: a project, else the
// last project (when the settings say so and no scene or script is
// given), else a scene (the default preset when none).
func (a *App) openInitial(o Options) error {
	var d *doc.Doc
	var err error
	path := ""
	switch {
	case o.Project != "":
		d, err = session.Load(o.Project)
		path = o.Project
	case o.Scene == "" && o.Script == "" && a.prefs.OpenLast && a.prefs.LastProject != "":
		d, err = session.Load(a.prefs.LastProject)
		if err == nil {
			path = a.prefs.LastProject
			break
		}
		a.log.add(levelWarn, "could not reopen the last project %s: %v", a.prefs.LastProject, err)
		fallthrough
	default:
		d, err = session.LoadScene(o.Scene, o.Size)
	}
	if err != nil {
		return err
	}
	a.duty = engineDuty()
	a.s, err = session.New(d, path, session.Options{
		Duty:  a.duty,
		Prefs: &a.prefs,
		Log: func(l session.Level, msg string) {
			a.log.add(l, "%s", msg)
		},
		StoreView: a.storeView,
		SceneSize: o.Size,
	})
	if err != nil {
		return err
	}
	a.docChanged()
	return nil
}

// sync hands the document's edits to the engine and measures how soon a
// slider change shows (sliderLag): the steps run on the new parameters by
// the first frame the worker published with them (ParamsShown), not by the
// frame this Update happens to read, which under load may come several
// steps later because the window draws a frame or two a second.
func (a *App) sync() {
	a.s.Sync()
	f := a.s.Frame()
	if a.lag.waiting && f.Snap.Param == a.lag.want && f.ParamsShown > f.ParamsStep {
		a.lag.waiting = false
		a.lag.steps = append(a.lag.steps, f.ParamsShown-f.ParamsStep)
	}
}

// autosave writes unsaved work to the recovery file every few minutes.
func (a *App) autosave() { a.s.Autosave(time.Now(), a.autosavePeriod()) }
