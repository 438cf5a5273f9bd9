package prefs_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"orogen/app/prefs"
	"orogen/app/project/projecttest"
)

// configDir points Dir at a new temporary directory for the test.
func configDir(t *testing.T) string {
	d := filepath.Join(t.TempDir(), "config")
	t.Setenv(prefs.EnvDir, d)
	return d
}

// abs is the absolute form of the slash path p on this system: p itself on
// Unix, Z:\p\... under Wine (a rooted path gets the current drive).
func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(filepath.FromSlash(p))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestDir(t *testing.T) {
	d := configDir(t)
	if got, err := prefs.Dir(); err != nil || got != d {
		t.Errorf("Dir() = %q, %v; want %q", got, err, d)
	}
	if got, _ := prefs.RecoveryPath(); got != filepath.Join(d, "recovery.orogen.json") {
		t.Errorf("RecoveryPath() = %q", got)
	}
	t.Setenv(prefs.EnvDir, "")
	// What os.UserConfigDir reads on each system, and the folder a user
	// there expects (the Windows case runs under Wine, see package wintest).
	var want string
	switch runtime.GOOS {
	case "windows":
		t.Setenv("APPDATA", `C:\Users\Ana Núñez\AppData\Roaming`)
		want = `C:\Users\Ana Núñez\AppData\Roaming\Orogen`
	case "darwin", "ios", "plan9":
		t.Skipf("no expected config folder written down for %s", runtime.GOOS)
	default:
		t.Setenv("XDG_CONFIG_HOME", "/tmp/xdg")
		t.Setenv("HOME", "/tmp/home")
		want = "/tmp/xdg/orogen"
	}
	if got, err := prefs.Dir(); err != nil || got != want {
		t.Errorf("without %s: Dir() = %q, %v; want %q", prefs.EnvDir, got, err, want)
	}
}

func TestDirName(t *testing.T) {
	for goos, want := range map[string]string{"linux": "orogen", "freebsd": "orogen", "windows": "Orogen", "darwin": "Orogen"} {
		if got := prefs.DirName(goos); got != want {
			t.Errorf("DirName(%q) = %q, want %q", goos, got, want)
		}
	}
}

func TestLoadSave(t *testing.T) {
	d := configDir(t)
	p, err := prefs.Load()
	if err != nil || !reflect.DeepEqual(p, prefs.Default()) {
		t.Fatalf("missing file: got %+v, %v; want the defaults and no error", p, err)
	}
	p.WindowW, p.WindowH, p.LastProject, p.UIScale, p.Views = 1280, 720, "/x/a.orogen.json", 1.5, "cpu"
	p.AddRecent("/x/a.orogen.json")
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}
	q, err := prefs.Load()
	if err != nil || !reflect.DeepEqual(p, q) {
		t.Errorf("got %+v, %v; want %+v", q, err, p)
	}
	ents, _ := os.ReadDir(d)
	if len(ents) != 1 {
		t.Errorf("config dir holds %d files; want prefs.json alone", len(ents))
	}
	// Corrupt files give the defaults and an error.
	path, _ := prefs.Path()
	for _, bad := range []string{"{", "[1, 2]", `{"window_w": "wide"}`, "\x00\xff"} {
		os.WriteFile(path, []byte(bad), 0o644)
		q, err := prefs.Load()
		if err == nil || !reflect.DeepEqual(q, prefs.Default()) {
			t.Errorf("%q: got %+v, %v; want the defaults and an error", bad, q, err)
		}
	}
	// Bad values are reset one by one; unknown keys are ignored.
	os.WriteFile(path, []byte(`{"version": 7, "window_w": 5, "window_h": 900, "ui_scale": 100, "last_project": "/p", "colour": "red", "views": "gpu"}`), 0o644)
	q, err = prefs.Load()
	if err == nil || !strings.Contains(err.Error(), "window size") || !strings.Contains(err.Error(), "ui_scale") || !strings.Contains(err.Error(), "views") {
		t.Errorf("got %v; want an error naming window size, ui_scale and views", err)
	}
	if q.WindowW != 1600 || q.WindowH != 1000 || q.UIScale != 1 || q.LastProject != "/p" || q.Version != prefs.Version || q.Views != "" {
		t.Errorf("got %+v; want bad values reset and good ones kept", q)
	}
}

func TestAddRecent(t *testing.T) {
	var p prefs.Prefs
	for i := range 15 {
		p.AddRecent(fmt.Sprintf("/p/%d.orogen.json", i))
	}
	p.AddRecent("/p/12.orogen.json")
	p.AddRecent("/p/./13.orogen.json")
	p.AddRecent("")
	want := []string{"/p/13.orogen.json", "/p/12.orogen.json", "/p/14.orogen.json", "/p/11.orogen.json", "/p/10.orogen.json",
		"/p/9.orogen.json", "/p/8.orogen.json", "/p/7.orogen.json", "/p/6.orogen.json", "/p/5.orogen.json"}
	for i, w := range want {
		want[i] = abs(t, w)
	}
	if !reflect.DeepEqual(p.Recent, want) {
		t.Errorf("got %q; want %q", p.Recent, want)
	}
	p.RemoveRecent("/p/12.orogen.json")
	if len(p.Recent) != 9 || p.Recent[1] != abs(t, "/p/14.orogen.json") {
		t.Errorf("after RemoveRecent: %q", p.Recent)
	}
	p.AddRecent("rel.orogen.json")
	if !filepath.IsAbs(p.Recent[0]) {
		t.Errorf("a relative path was kept relative: %q", p.Recent[0])
	}
}

func TestRecovery(t *testing.T) {
	configDir(t)
	if p, _, ok, err := prefs.ReadRecovery(); p != nil || ok || err != nil {
		t.Fatalf("no recovery file: got %v %v %v", p, ok, err)
	}
	if err := prefs.ClearRecovery(); err != nil {
		t.Errorf("clearing nothing: %v", err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	p := projecttest.Project(r, 32, 24, 20)
	start := time.Now().Add(-time.Second)
	if err := prefs.WriteRecoveryFrom(p, "/home/u/work.orogen.json"); err != nil {
		t.Fatal(err)
	}
	q, origin, written, ok, err := prefs.ReadRecoveryFrom()
	if !ok || err != nil {
		t.Fatalf("got %v %v", ok, err)
	}
	if origin != abs(t, "/home/u/work.orogen.json") {
		t.Errorf("origin %q", origin)
	}
	if written.Before(start) || written.After(time.Now().Add(time.Second)) {
		t.Errorf("written %v; want about now", written)
	}
	a, _ := p.Marshal()
	b, _ := q.Marshal()
	if !bytes.Equal(a, b) {
		t.Error("the recovered project differs from the one written")
	}
	// A corrupt copy is reported, not hidden.
	path, _ := prefs.RecoveryPath()
	os.WriteFile(path, []byte(`{"version": 1, "scene": `), 0o644)
	if q, _, ok, err := prefs.ReadRecovery(); q != nil || !ok || err == nil {
		t.Errorf("corrupt recovery file: got %v %v %v; want ok and an error", q, ok, err)
	}
	if err := prefs.ClearRecovery(); err != nil {
		t.Fatal(err)
	}
	if _, _, ok, _ := prefs.ReadRecovery(); ok {
		t.Error("recovery file still there after ClearRecovery")
	}
	if err := prefs.WriteRecovery(p); err != nil {
		t.Fatal(err)
	}
	if _, origin, _, ok, err := prefs.ReadRecoveryFrom(); !ok || err != nil || origin != "" {
		t.Errorf("unsaved project: got origin %q, %v, %v", origin, ok, err)
	}
	// A project that cannot be written leaves the old copy.
	bad := p.Clone()
	bad.Layers["paint"].Data[0] = float32(math.NaN())
	if err := prefs.WriteRecovery(bad); err == nil {
		t.Error("writing a NaN layer: no error")
	}
	if q, _, _, err := prefs.ReadRecovery(); err != nil || q == nil {
		t.Errorf("the previous copy was lost: %v", err)
	}
}

// FuzzParse checks that Parse never panics and always returns usable
// prefs that survive a save.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version": 1, "recent": ["/a", "/b", "/a"], "window_w": 800, "window_h": 600}`))
	f.Add([]byte(`{"ui_scale": 1e400}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, _ := prefs.Parse(b)
		if p.WindowW < 200 || p.WindowH < 150 || !(p.UIScale >= 0.25 && p.UIScale <= 8) || len(p.Recent) > prefs.MaxRecent || p.AutosaveSeconds < 0 {
			t.Fatalf("Parse returned unusable prefs %+v", p)
		}
		seen := map[string]bool{}
		for _, r := range p.Recent {
			if seen[r] || !filepath.IsAbs(r) {
				t.Fatalf("recent %q repeated or relative", r)
			}
			seen[r] = true
		}
	})
}
