package wintest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"orogen/app/project"
)

// testVersion is linked into the binaries built here (-X), which print it
// for --version.
const testVersion = "wintest-1.0"

// wineEnv is what every test shares: binaries and a Wine prefix, made once
// per test run (the first Wine start in a new prefix takes 10–60 s).
type wineEnv struct {
	root     string // scratch folder, removed by TestMain
	prefix   string // WINEPREFIX
	data     string // test data folder: spaces and non-ASCII in its path
	linuxCLI string
	winCLI   string // orogen.exe, pure Go
}

var (
	once    sync.Once
	env     *wineEnv
	scratch *wineEnv // what TestMain cleans up, even when setup failed
	skipWhy string   // tools missing: tests skip (or fail under OROGEN_WINE_TEST=1)
	envErr  error    // setup failed: tests fail
)

func TestMain(m *testing.M) {
	code := m.Run()
	if e := scratch; e != nil {
		// Stop this prefix's wineserver (it lingers a few seconds after
		// the last program), then remove everything.
		k := exec.Command("wineserver", "-k")
		k.Env = e.environ()
		k.Run()
		os.RemoveAll(e.root)
	}
	os.Exit(code)
}

// setup returns the shared environment, or skips or fails the test.
func setup(t *testing.T) *wineEnv {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the Wine tests start Wine (seconds each); the full run has them")
	}
	once.Do(func() { env, skipWhy, envErr = makeEnv() })
	if skipWhy != "" {
		if os.Getenv("OROGEN_WINE_TEST") == "1" {
			t.Fatalf("OROGEN_WINE_TEST=1 but %s", skipWhy)
		}
		t.Skip(skipWhy)
	}
	if envErr != nil {
		t.Fatal(envErr)
	}
	return env
}

func makeEnv() (*wineEnv, string, error) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return nil, "the Wine tests run on linux/amd64 only", nil
	}
	for _, tool := range []string{"wine", "wineserver", "x86_64-w64-mingw32-gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return nil, tool + " is not installed (apt-get install wine64 gcc-mingw-w64-x86-64; `make deps` does)", nil
		}
	}
	root, err := os.MkdirTemp("", "orogen-wintest-")
	if err != nil {
		return nil, "", err
	}
	e := &wineEnv{
		root:   root,
		prefix: filepath.Join(root, "prefix"),
		data:   filepath.Join(root, "Données d'essai", "Höhen Ω"),
	}
	scratch = e
	if err := os.MkdirAll(e.data, 0o755); err != nil {
		return nil, "", err
	}
	ld := "-X orogen/app/version.Version=" + testVersion
	e.linuxCLI = filepath.Join(root, "bin", "orogen")
	e.winCLI = filepath.Join(root, "bin", "orogen.exe")
	for _, b := range []struct{ goos, out string }{{"linux", e.linuxCLI}, {"windows", e.winCLI}} {
		cmd := exec.Command("go", "build", "-ldflags", ld, "-o", b.out, "orogen")
		cmd.Env = append(os.Environ(), "GOOS="+b.goos, "GOARCH=amd64", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, "", fmt.Errorf("go build (%s): %v\n%s", b.goos, err, out)
		}
	}
	t0 := time.Now()
	cmd := exec.Command("bash", "../scripts/wine/prefix.sh", e.prefix)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, "", fmt.Errorf("scripts/wine/prefix.sh: %v\n%s", err, out)
	}
	fmt.Fprintf(os.Stderr, "wintest: Wine prefix made in %v\n", time.Since(t0).Round(100*time.Millisecond))
	// The Windows programs' temporary folder (t.TempDir in the package
	// tests) on Z:, with a space and non-ASCII letters in its name. Wine
	// takes TMP and TEMP from the registry, not from the Unix environment.
	tmp := filepath.Join(root, "Temp Ördner ü")
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, "", err
	}
	for _, v := range []string{"TMP", "TEMP"} {
		reg := exec.Command("wine", "reg", "add", `HKCU\Environment`, "/v", v, "/t", "REG_SZ", "/d", winPath(tmp), "/f")
		reg.Env = e.environ()
		if out, err := reg.CombinedOutput(); err != nil {
			return nil, "", fmt.Errorf("wine reg add %s: %v\n%s", v, err, out)
		}
	}
	return e, "", nil
}

// environ is the environment of Wine's programs: the test prefix and no
// debug chatter. The display stays: Wine's server outlives its programs by
// a few seconds, with its desktop on the display it started with, and the
// app (TestAppUnderWine) needs that to be a real one.
func (e *wineEnv) environ() []string {
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		return strings.HasPrefix(kv, "WINEPREFIX=") || strings.HasPrefix(kv, "WINEDEBUG=")
	})
	return append(env, "WINEPREFIX="+e.prefix, "WINEDEBUG=-all")
}

// winPath is the Windows name of the Linux path p under Wine: Z: is /.
func winPath(p string) string { return `Z:` + strings.ReplaceAll(p, "/", `\`) }

// run runs the Linux CLI (exe == e.linuxCLI) or a Windows program under
// Wine in dir, and returns stdout; it fails the test on a non-zero exit.
func (e *wineEnv) run(t *testing.T, dir, exe string, args ...string) string {
	t.Helper()
	stdout, stderr, err := e.try(dir, exe, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(exe), strings.Join(args, " "), err, stderr)
	}
	return stdout
}

func (e *wineEnv) try(dir, exe string, args ...string) (stdout, stderr string, err error) {
	var cmd *exec.Cmd
	if strings.HasSuffix(exe, ".exe") {
		cmd = exec.Command("wine", append([]string{exe}, args...)...)
		cmd.Env = e.environ()
	} else {
		cmd = exec.Command(exe, args...)
	}
	cmd.Dir = dir
	var o, x bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &x
	err = cmd.Run()
	return o.String(), x.String(), err
}

func mkdir(t *testing.T, parts ...string) string {
	t.Helper()
	d := filepath.Join(parts...)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

// sameFiles fails unless a/name and b/name have the same bytes, for each
// name.
func sameFiles(t *testing.T, a, b string, names ...string) {
	t.Helper()
	for _, n := range names {
		x, err := os.ReadFile(filepath.Join(a, n))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			i := 0
			for i < min(len(x), len(y)) && x[i] == y[i] {
				i++
			}
			t.Errorf("%s: Linux and Windows outputs differ (%d and %d bytes, first difference at byte %d)", n, len(x), len(y), i)
		}
	}
}

func TestVersion(t *testing.T) {
	e := setup(t)
	for _, exe := range []string{e.linuxCLI, e.winCLI} {
		if got, want := e.run(t, e.root, exe, "--version"), "orogen "+testVersion+"\n"; got != want {
			t.Errorf("%s --version printed %q, want %q", filepath.Base(exe), got, want)
		}
	}
}

// The check: the same scene gives the same heightmap, byte for
// byte, on Windows as on Linux (same Go code, same float64 arithmetic; no
// tolerance, as for GOMAXPROCS). Then the same for the stream graph engine
// (Poisson samples, Delaunay triangles, its parallel loops) and for the
// hydraulic pass of `orogen erode` on that heightmap.
func TestHeightmapMatchesLinux(t *testing.T) {
	e := setup(t)
	lin, win := mkdir(t, e.data, "linux"), mkdir(t, e.data, "windows")
	runs := [][]string{
		{"run", "--scene", "default", "--size", "128", "--steps", "50", "--out", "h.tif", "-q"},
		{"run", "--scene", "lakes", "--engine", "graph", "--size", "64", "--steps", "10", "--out", "g.tif", "-q"},
		{"erode", "--in", "h.tif", "--steps", "40", "--out", "e.tif", "--out-water", "w.tif", "-q"},
	}
	for _, args := range runs {
		e.run(t, lin, e.linuxCLI, args...)
		e.run(t, win, e.winCLI, args...)
	}
	sameFiles(t, lin, win, "h.tif", "h.tif.json", "g.tif", "g.tif.json", "e.tif", "e.tif.json", "w.tif")
}

// Windows-style paths everywhere: a scene file (which names its uplift
// image relative to itself; saved as Notepad does, with a BOM and CRLF)
// read from a folder with spaces and non-ASCII letters, given as Z:\...\; the heightmap and preview exported to another
// such folder; then that export read back (--init) and exported again.
// Each output must equal the Linux binary's on Linux paths.
func TestWindowsPaths(t *testing.T) {
	e := setup(t)
	preset := filepath.Join("..", "assets", "presets")
	out := map[string]string{}
	for _, sys := range []string{"linux", "windows"} {
		base := mkdir(t, e.data, sys)
		scenes := mkdir(t, base, "Mes scènes")
		for from, to := range map[string]string{"cone.json": "Kegel über Tal.json", "cone-uplift.png": "cone-uplift.png"} {
			b, err := os.ReadFile(filepath.Join(preset, from))
			if err != nil {
				t.Fatal(err)
			}
			if sys == "windows" && strings.HasSuffix(to, ".json") {
				// As Notepad saves it with "UTF-8 with BOM": a byte order
				// mark and CRLF line ends.
				b = append([]byte("\ufeff"), bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))...)
			}
			if err := os.WriteFile(filepath.Join(scenes, to), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		exp := mkdir(t, base, "Export ñandú")
		out[sys] = exp
		exe, p := e.linuxCLI, func(s string) string { return s }
		if sys == "windows" {
			exe, p = e.winCLI, winPath
		}
		e.run(t, e.root, exe, "run", "--scene", p(filepath.Join(scenes, "Kegel über Tal.json")), "--size", "64", "--steps", "10",
			"--out", p(filepath.Join(exp, "höhe 1.tif")), "--out-preview", p(filepath.Join(exp, "vorschau.png")), "-q")
		e.run(t, e.root, exe, "run", "--init", p(filepath.Join(exp, "höhe 1.tif")), "--umax", "0", "--steps", "5",
			"--out", p(filepath.Join(exp, "höhe 2.r16")), "-q")
	}
	sameFiles(t, out["linux"], out["windows"], "höhe 1.tif", "höhe 1.tif.json", "vorschau.png", "höhe 2.r16", "höhe 2.r16.json")

	// An error names the file as the user wrote it.
	missing := winPath(filepath.Join(e.data, "nicht da", "ö.json"))
	_, stderr, err := e.try(e.root, e.winCLI, "run", "--scene", missing, "--out", "x.tif")
	if err == nil || !strings.Contains(stderr, missing) {
		t.Errorf("a missing scene file: got %v, %q; want an error naming %s", err, stderr, missing)
	}
}

// Saving twice over the same files: safefile renames a temporary file
// over the old one, which on Windows needs a rename that replaces (Go's
// os.Rename is MoveFileEx(MOVEFILE_REPLACE_EXISTING) there, see
// internal/syscall/windows.Rename). The second save must replace both
// files and leave no temporary file behind.
func TestSaveTwiceReplaces(t *testing.T) {
	e := setup(t)
	dir := mkdir(t, e.data, "zweimal speichern")
	lin := mkdir(t, e.data, "zweimal linux")
	out := winPath(filepath.Join(dir, "gelände.png"))
	e.run(t, e.root, e.winCLI, "run", "--scene", "cone", "--size", "48", "--steps", "3", "--out", out, "-q")
	first, _ := os.ReadFile(filepath.Join(dir, "gelände.png"))
	e.run(t, e.root, e.winCLI, "run", "--scene", "cone", "--size", "48", "--steps", "9", "--out", out, "-q")
	e.run(t, lin, e.linuxCLI, "run", "--scene", "cone", "--size", "48", "--steps", "9", "--out", "gelände.png", "-q")
	sameFiles(t, lin, dir, "gelände.png", "gelände.png.json")
	if second, _ := os.ReadFile(filepath.Join(dir, "gelände.png")); bytes.Equal(first, second) {
		t.Error("3 and 9 steps gave the same heightmap: the test cannot tell whether the second save replaced the first")
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range ents {
		names = append(names, d.Name())
	}
	if want := []string{"gelände.png", "gelände.png.json"}; !slices.Equal(names, want) {
		t.Errorf("folder holds %q after two saves; want %q (no temporary files)", names, want)
	}
}

// The unit tests of the packages that touch files, cross-compiled and run
// under Wine: atomic saves (safefile), the settings folder %APPDATA%\Orogen
// (prefs), projects and scenes with their relative files (project, scene),
// exports (export), the file dialog's drives and hidden files (osfs).
//
// Go 1.26's os.RemoveAll deletes with FILE_DISPOSITION_INFORMATION_EX,
// which Wine 8 answers with "Invalid function" (real Windows 10 ≥ 1607 has
// it), so every t.TempDir clean-up fails under Wine. Those clean-up
// failures, and only those, are tolerated (and counted); any other failure
// output fails this test.
func TestPackagesUnderWine(t *testing.T) {
	e := setup(t)
	pkgs := []string{"safefile", "prefs", "project", "scene", "export", "osfs"}
	for _, pkg := range pkgs {
		t.Run(pkg, func(t *testing.T) {
			exe := filepath.Join(e.root, "tests", pkg+".test.exe")
			cmd := exec.Command("go", "test", "-c", "-o", exe, "orogen/app/"+pkg)
			cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go test -c: %v\n%s", err, out)
			}
			// In the package's folder, as go test runs it (testdata).
			stdout, stderr, err := e.try(filepath.Join("..", "app", pkg), exe, "-test.count=1", "-test.short")
			real, cleanups := failures(stdout + stderr)
			if len(real) > 0 {
				t.Fatalf("app/%s under Wine: %v\n%s", pkg, err, strings.Join(real, "\n"))
			}
			if err != nil && cleanups == 0 {
				t.Fatalf("app/%s under Wine: %v\n%s%s", pkg, err, stdout, stderr)
			}
			t.Logf("app/%s passes under Wine (%d TempDir clean-ups failed: Wine 8 lacks FILE_DISPOSITION_INFORMATION_EX)", pkg, cleanups)
			if cleanups > 0 && !strings.Contains(stdout+stderr, `Temp Ördner ü\`) {
				t.Errorf("the temporary folder is not the one set in the registry (Z:\\...\\Temp Ördner ü):\n%s", stdout+stderr)
			}
		})
	}
}

// failures splits a test binary's output (without -v: only failures
// print) into the lines that report a real failure and the count of
// TempDir clean-up failures due to Wine.
func failures(out string) (real []string, cleanups int) {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "", l == "PASS", l == "FAIL", strings.HasPrefix(l, "--- FAIL:"):
		case strings.Contains(l, "TempDir RemoveAll cleanup: unlinkat") && strings.HasSuffix(l, "Invalid function."):
			cleanups++
		default:
			real = append(real, l)
		}
	}
	return real, cleanups
}

func TestFailuresParser(t *testing.T) {
	out := "--- FAIL: TestA (0.1s)\n    testing.go:1464: TempDir RemoveAll cleanup: unlinkat C:\\x\\001: Invalid function.\n" +
		"--- FAIL: TestB (0.0s)\n    --- FAIL: TestB/sub (0.0s)\n        b_test.go:9: got 2, want 3\nFAIL\n"
	real, n := failures(out)
	if n != 1 || len(real) != 1 || real[0] != "b_test.go:9: got 2, want 3" {
		t.Errorf("failures: %q, %d clean-ups; want the b_test.go line and 1", real, n)
	}
	if real, n := failures("PASS\n"); len(real) != 0 || n != 0 {
		t.Errorf("PASS: %q, %d", real, n)
	}
}

// The desktop app, cross-compiled with MinGW-w64 (cgo: cimgui-go's
// prebuilt Windows library; the first build compiles cimgui-go's C/C++
// wrappers for Windows, minutes on 2 cores, cached afterwards), started
// under Wine on the display (Xvfb under `make test`) the way a user
// starts it: orogen.exe without a subcommand, which runs orogen-app.exe
// beside it. A script exports, saves, reopens and saves a project on Z:
// paths with non-ASCII names, takes a screenshot and quits; the exit code
// must be 0 and the files real.
func TestAppUnderWine(t *testing.T) {
	e := setup(t)
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("OROGEN_WINE_TEST") == "1" {
			t.Fatal("OROGEN_WINE_TEST=1 but DISPLAY is empty: run under xvfb-run (make test does)")
		}
		t.Skip("no display; `make test` runs this under Xvfb")
	}
	if _, err := exec.LookPath("x86_64-w64-mingw32-g++"); err != nil {
		if os.Getenv("OROGEN_WINE_TEST") == "1" {
			t.Fatal("OROGEN_WINE_TEST=1 but x86_64-w64-mingw32-g++ is missing (apt-get install g++-mingw-w64-x86-64)")
		}
		t.Skip("x86_64-w64-mingw32-g++ is missing (apt-get install g++-mingw-w64-x86-64)")
	}
	app := filepath.Join(filepath.Dir(e.winCLI), "orogen-app.exe")
	t0 := time.Now()
	cmd := exec.Command("go", "build", "-ldflags", "-X orogen/app/version.Version="+testVersion+" -extldflags=-static",
		"-o", app, "orogen/cmd/orogen-app")
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=1",
		"CC=x86_64-w64-mingw32-gcc", "CXX=x86_64-w64-mingw32-g++")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build orogen-app.exe: %v\n%s", err, out)
	}
	t.Logf("orogen-app.exe built in %v", time.Since(t0).Round(time.Second))
	if got := e.run(t, e.root, app, "--version"); got != "orogen-app "+testVersion+"\n" {
		t.Errorf("orogen-app.exe --version printed %q", got)
	}

	// Script paths cannot hold spaces (the script splits on them); the
	// script file's own path, given on the command line, does.
	dir := mkdir(t, e.root, "Fenster-ü")
	w := func(name string) string { return winPath(filepath.Join(dir, name)) }
	script := strings.Join([]string{
		"wait 10",
		"export heightmap " + w("höhe.tif"),
		"save " + w("projekt-ü.orogen.json"),
		"open " + w("projekt-ü.orogen.json"),
		"expect-log opened projekt-ü.orogen.json",
		"save " + w("projekt-2.orogen.json"),
		"screenshot " + w("fenster.png"),
		"report " + w("bericht.json"),
		"quit",
	}, "\n") + "\n"
	sp := filepath.Join(dir, "Skript mit Leerzeichen.script")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := mkdir(t, dir, "Einstellungen")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd = exec.CommandContext(ctx, "wine", e.winCLI, "--script", winPath(sp), "--width", "800", "--height", "600", "--size", "64")
	cmd.Env = append(e.environ(), "OROGEN_CONFIG_DIR="+winPath(cfg))
	cmd.Dir = dir
	t0 = time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("the scripted session under Wine took %v", time.Since(t0).Round(100*time.Millisecond))
	if err != nil {
		t.Fatalf("orogen.exe --script: %v\n%s", err, out)
	}
	for _, name := range []string{"höhe.tif", "höhe.tif.json"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("export %s: %v", name, err)
		}
	}
	for _, name := range []string{"projekt-ü.orogen.json", "projekt-2.orogen.json"} {
		if _, err := project.Load(filepath.Join(dir, name)); err != nil {
			t.Errorf("the project the app saved under Wine does not load: %v", err)
		}
	}
	// Saved, reopened and saved again: the same bytes (the round trip
	// loses nothing).
	p1, _ := os.ReadFile(filepath.Join(dir, "projekt-ü.orogen.json"))
	p2, _ := os.ReadFile(filepath.Join(dir, "projekt-2.orogen.json"))
	if len(p1) == 0 || !bytes.Equal(p1, p2) {
		t.Errorf("the project saved after reopening differs from the one reopened (%d and %d bytes)", len(p1), len(p2))
	}
	// The keyboard hook on the window's thread (ui/keytap) is in place.
	var rep struct {
		KeyTap string `json:"key_tap"`
	}
	if b, err := os.ReadFile(filepath.Join(dir, "bericht.json")); err != nil {
		t.Errorf("report: %v", err)
	} else if err := json.Unmarshal(b, &rep); err != nil || rep.KeyTap != "on" {
		t.Errorf("report: key_tap %q (%v); want \"on\": the app reads merged key presses", rep.KeyTap, err)
	}
	f, err := os.Open(filepath.Join(dir, "fenster.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	// The window drew: the screenshot has the window's size and more than
	// a handful of colours (panels, text, the shaded terrain).
	b := img.Bounds()
	if b.Dx() != 800 || b.Dy() != 600 {
		t.Errorf("screenshot is %v; want 800×600", b.Size())
	}
	colours := map[[3]uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
		}
	}
	if len(colours) < 50 {
		t.Errorf("screenshot has %d colours; want a drawn window (≥ 50)", len(colours))
	}
}
