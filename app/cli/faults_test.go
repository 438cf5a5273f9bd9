package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUntilConvergedCapExitsNonZero: --until-converged stopped by --steps
// before it converged writes its outputs but exits ExitNotConverged with
// a one-line reason (issue 30.9).
func TestUntilConvergedCapExitsNonZero(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "h.tif")
	code, _, stderr := runCLI("run", "--scene", "cone", "--size", "24", "--until-converged", "--steps", "3", "--out", out)
	if code != ExitNotConverged {
		t.Fatalf("exit %d, stderr %q; want %d", code, stderr, ExitNotConverged)
	}
	last := strings.TrimSpace(stderr[strings.LastIndex(strings.TrimRight(stderr, "\n"), "\n")+1:])
	if !strings.HasPrefix(last, "orogen: not converged: the 3-step cap (--steps) came first") {
		t.Errorf("last stderr line %q; want the reason", last)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("the outputs hold the last step, but: %v", err)
	}
	if code, _, stderr := runCLI("run", "-q", "--scene", "cone", "--size", "24", "--until-converged", "--steps", "2"); code != ExitNotConverged || !strings.Contains(stderr, "not converged") {
		t.Errorf("-q: exit %d, stderr %q; want %d and the reason", code, stderr, ExitNotConverged)
	}
}

// TestTargetPicksExportSize: --target unreal without --export-size takes
// the smallest landscape size not below the grid and says so (issue
// 30.10).
func TestTargetPicksExportSize(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "h.r16")
	code, _, stderr := runCLI("run", "--scene", "cone", "--size", "130", "--steps", "1", "--out", out, "--target", "unreal")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "--target unreal: --export-size 253") {
		t.Errorf("stderr does not say the size picked:\n%s", stderr)
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() != 2*253*253 {
		t.Errorf("h.r16: %v; want %d bytes (253²)", err, 2*253*253)
	}
}

// TestHelpNamesTheApp: the root help says what a bare orogen does today
// (issue 30.7).
func TestHelpNamesTheApp(t *testing.T) {
	code, stdout, _ := runCLI("--help")
	if code != 0 || strings.Contains(stdout, "coming with") || !strings.Contains(stdout, "opens the desktop app (orogen-app") {
		t.Errorf("exit %d, help:\n%s", code, stdout)
	}
}

// TestOutputCollisionsRefused: two outputs on one file, a report on a
// raster's sidecar, a tile on another output, are refused before the run,
// and nothing is written (issue 31.1).
func TestOutputCollisionsRefused(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", p("a.tif"), "--out-water", p("a.tif")}, "--out " + p("a.tif") + " and --out-water " + p("a.tif") + " both write " + p("a.tif")},
		{[]string{"--out", p("a.tif"), "--out-drainage", p("sub/../a.tif")}, "both write"},
		{[]string{"--out", p("c.tif"), "--report", p("c.tif.json")}, "--out " + p("c.tif") + " and --report " + p("c.tif.json") + " both write " + p("c.tif.json")},
		{[]string{"--scene", "folded", "--out-preview", p("v.png"), "--out-rock", p("v.png")}, "both write"},
		{[]string{"--out", p("h.png"), "--tiles", "2x2", "--export-size", "65", "--out-preview", p("h_x1_y0.png")}, "both write " + p("h_x1_y0.png")},
		{[]string{"--rain", "1", "--out-lakes", p("l.json"), "--report", p("l.json")}, "both write"},
	} {
		if err := os.MkdirAll(p("sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(append([]string{"run", "-q", "--scene", "cone", "--size", "24", "--steps", "1"}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
		ents, _ := os.ReadDir(dir)
		if len(ents) != 1 {
			t.Errorf("%v: wrote %d files", c.args, len(ents)-1)
		}
		for _, e := range ents {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
