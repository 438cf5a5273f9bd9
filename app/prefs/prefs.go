package prefs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"orogen/app/project"
	"orogen/app/safefile"
)

// Version is the version of the prefs file this package writes.
const Version = 1

// MaxRecent is the number of recent projects kept.
const MaxRecent = 10

// EnvDir is the environment variable that overrides Dir.
const EnvDir = "OROGEN_CONFIG_DIR"

// Prefs is what the app remembers between runs.
type Prefs struct {
	Version int `json:"version"`
	// Recent holds the projects opened or saved last, most recent first,
	// as absolute paths.
	Recent []string `json:"recent"`
	// LastProject is the project open when the app last quit ("": none).
	LastProject string `json:"last_project"`
	// WindowW and WindowH are the window's size in screen pixels;
	// WindowX, WindowY its position (both 0: let the system place it).
	WindowW   int  `json:"window_w"`
	WindowH   int  `json:"window_h"`
	WindowX   int  `json:"window_x"`
	WindowY   int  `json:"window_y"`
	Maximized bool `json:"maximized"`
	// UIScale multiplies the size of the interface (fonts, widgets).
	UIScale float64 `json:"ui_scale"`
	// AutosaveSeconds is how often the recovery copy is written while
	// there are unsaved changes; 0 turns it off.
	AutosaveSeconds int `json:"autosave_s"`
	// LastDir is the directory the file dialogs open in.
	LastDir string `json:"last_dir"`
	// OpenLast reopens LastProject at start-up.
	OpenLast bool `json:"open_last"`
	// ComputeDevice is where the detail pass runs: "cpu" (or ""), "gpu"
	// or "auto" (package compute).
	ComputeDevice string `json:"compute_device,omitempty"`
	// Views is how the app draws its 2D and 3D views: "auto" (or ""),
	// "shader" or "cpu" (View → Draw the views).
	Views string `json:"views,omitempty"`
}

// ViewsChoices are the values of Prefs.Views.
var ViewsChoices = []string{"auto", "shader", "cpu"}

// Default returns the preferences of a first run: a 1600×1000 window, scale
// 1, a recovery copy every 30 s, the last project reopened.
func Default() Prefs {
	return Prefs{Version: Version, WindowW: 1600, WindowH: 1000, UIScale: 1, AutosaveSeconds: 30, OpenLast: true}
}

// Dir returns the directory of the app's settings: $OROGEN_CONFIG_DIR if
// set, else os.UserConfigDir()/DirName(): ~/.config/orogen on Linux,
// %APPDATA%\Orogen on Windows.
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("prefs: no configuration directory (%v): set %s", err, EnvDir)
	}
	return filepath.Join(d, DirName(runtime.GOOS)), nil
}

// DirName is the name of the settings directory in os.UserConfigDir() on
// the operating system goos: capitalized where users browse it (Windows'
// %APPDATA%, macOS's Application Support), lower case in Unix's ~/.config.
func DirName(goos string) string {
	switch goos {
	case "windows", "darwin":
		return "Orogen"
	}
	return "orogen"
}

// Path returns the path of the prefs file, Dir()/prefs.json.
func Path() (string, error) { return inDir("prefs.json") }

func inDir(name string) (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, name), nil
}

// mkdir creates Dir() and returns the path of name in it.
func mkdir(name string) (string, error) {
	d, err := Dir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", fmt.Errorf("prefs: cannot create %s: %w", d, safefile.Cause(err))
	}
	return filepath.Join(d, name), nil
}

// Load reads the prefs file. A missing file gives Default() and no error;
// an unreadable or corrupt one gives Default() and an error; values out of
// range are replaced by their defaults, and the error names them.
func Load() (Prefs, error) {
	path, err := Path()
	if err != nil {
		return Default(), err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Default(), nil
		}
		return Default(), fmt.Errorf("prefs: %s: %w (using defaults)", path, safefile.Cause(err))
	}
	p, err := Parse(b)
	if err != nil {
		return p, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Parse reads a prefs file (see Load). It never fails to return usable
// prefs.
func Parse(b []byte) (Prefs, error) {
	p := Default()
	if err := json.Unmarshal(b, &p); err != nil {
		return Default(), fmt.Errorf("prefs: corrupt (%v), using defaults", err)
	}
	if p.Version > Version {
		// A newer Orogen wrote it: keep what this one understands.
		p.Version = Version
	}
	return p.sanitize()
}

// sanitize replaces values out of range by their defaults and returns an
// error naming them.
func (p Prefs) sanitize() (Prefs, error) {
	d := Default()
	var fixed []string
	fix := func(name string, bad bool, reset func()) {
		if bad {
			reset()
			fixed = append(fixed, name)
		}
	}
	fix("version", p.Version < 1, func() { p.Version = d.Version })
	fix("window size", p.WindowW < 200 || p.WindowH < 150 || p.WindowW > 16384 || p.WindowH > 16384,
		func() { p.WindowW, p.WindowH = d.WindowW, d.WindowH })
	fix("window position", p.WindowX < -65536 || p.WindowX > 65536 || p.WindowY < -65536 || p.WindowY > 65536,
		func() { p.WindowX, p.WindowY = 0, 0 })
	fix("ui_scale", !(p.UIScale >= 0.25 && p.UIScale <= 8) || math.IsNaN(p.UIScale), func() { p.UIScale = d.UIScale })
	fix("autosave_s", p.AutosaveSeconds < 0 || p.AutosaveSeconds > 86400, func() { p.AutosaveSeconds = d.AutosaveSeconds })
	fix("views", p.Views != "" && !slices.Contains(ViewsChoices, p.Views), func() { p.Views = "" })
	recent := p.Recent
	p.Recent = nil
	for _, r := range slices.Backward(recent) {
		if r != "" && !strings.ContainsRune(r, 0) {
			p.AddRecent(r)
		}
	}
	if len(p.Recent) != len(recent) {
		fixed = append(fixed, "recent")
	}
	if len(fixed) > 0 {
		return p, fmt.Errorf("prefs: %s out of range or repeated, reset", strings.Join(fixed, ", "))
	}
	return p, nil
}

// Save writes p to the prefs file atomically, creating Dir() if needed.
func (p Prefs) Save() error {
	path, err := mkdir("prefs.json")
	if err != nil {
		return err
	}
	p.Version = Version
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return fmt.Errorf("prefs: %w", err)
	}
	return safefile.WriteBytes(path, append(b, '\n'))
}

// AddRecent puts path at the front of Recent, made absolute and cleaned,
// removing an earlier entry of the same path and keeping at most
// MaxRecent.
func (p *Prefs) AddRecent(path string) {
	if path == "" {
		return
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	path = filepath.Clean(path)
	p.Recent = slices.DeleteFunc(p.Recent, func(r string) bool { return r == path })
	p.Recent = slices.Insert(p.Recent, 0, path)
	if len(p.Recent) > MaxRecent {
		p.Recent = p.Recent[:MaxRecent]
	}
}

// RemoveRecent removes path from Recent (a project that no longer opens).
func (p *Prefs) RemoveRecent(path string) {
	if abs, err := filepath.Abs(path); err == nil {
		path = filepath.Clean(abs)
	}
	p.Recent = slices.DeleteFunc(p.Recent, func(r string) bool { return r == path })
}

// ---- crash recovery ----

// RecoveryPath returns the path of the recovery copy,
// Dir()/recovery.orogen.json.
func RecoveryPath() (string, error) { return inDir("recovery" + project.Ext) }

// recoveryInfo is the recovery copy's sidecar.
type recoveryInfo struct {
	Origin  string    `json:"origin"`
	Written time.Time `json:"written"`
}

// WriteRecovery writes p as the recovery copy, atomically, creating Dir()
// if needed.
func WriteRecovery(p *project.Project) error { return WriteRecoveryFrom(p, "") }

// WriteRecoveryFrom is WriteRecovery for a project that was opened from
// or last saved to origin ("": never saved), which ReadRecoveryFrom
// reports.
func WriteRecoveryFrom(p *project.Project, origin string) error {
	path, err := mkdir("recovery" + project.Ext)
	if err != nil {
		return err
	}
	b, err := p.Marshal()
	if err != nil {
		return fmt.Errorf("recovery: %w", err)
	}
	if origin != "" {
		if abs, err := filepath.Abs(origin); err == nil {
			origin = abs
		}
	}
	info, err := json.MarshalIndent(recoveryInfo{Origin: origin, Written: time.Now().UTC()}, "", "  ")
	if err != nil {
		return fmt.Errorf("recovery: %w", err)
	}
	return safefile.Write(
		safefile.File{Path: path, Fill: write(b)},
		safefile.File{Path: infoPath(path), Fill: write(append(info, '\n'))},
	)
}

func write(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}

func infoPath(recovery string) string { return filepath.Join(filepath.Dir(recovery), "recovery.json") }

// ReadRecovery returns the recovery copy and when it was written. ok is
// false, with no error, when there is none. When there is one that cannot
// be read, ok is true and err says why (p is nil); the caller may offer to
// discard it with ClearRecovery.
func ReadRecovery() (p *project.Project, written time.Time, ok bool, err error) {
	p, _, written, ok, err = ReadRecoveryFrom()
	return p, written, ok, err
}

// ReadRecoveryFrom is ReadRecovery that also returns the path the project
// came from ("": never saved, or unknown).
func ReadRecoveryFrom() (p *project.Project, origin string, written time.Time, ok bool, err error) {
	path, err := RecoveryPath()
	if err != nil {
		return nil, "", time.Time{}, false, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", time.Time{}, false, nil
		}
		return nil, "", time.Time{}, true, fmt.Errorf("recovery: %s: %w", path, safefile.Cause(err))
	}
	written = fi.ModTime()
	if b, err := os.ReadFile(infoPath(path)); err == nil {
		var info recoveryInfo
		if json.Unmarshal(b, &info) == nil {
			origin = info.Origin
			if !info.Written.IsZero() {
				written = info.Written
			}
		}
	}
	p, err = project.Load(path)
	if err != nil {
		return nil, origin, written, true, fmt.Errorf("recovery: %w", err)
	}
	return p, origin, written, true, nil
}

// ClearRecovery removes the recovery copy, if any.
func ClearRecovery() error {
	path, err := RecoveryPath()
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range []string{path, infoPath(path)} {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("recovery: %w", err))
		}
	}
	return errors.Join(errs...)
}
