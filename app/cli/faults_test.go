package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/sim"
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

// TestErodeOutputCollisionsRefused: orogen erode refuses two outputs on
// one file, and a report on a raster's sidecar, before it runs (issue
// 31.1, 31.3).
func TestErodeOutputCollisionsRefused(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	in := filepath.Join(t.TempDir(), "in.tif")
	if code, _, stderr := runCLI("run", "-q", "--scene", "cone", "--size", "24", "--steps", "1", "--out", in); code != 0 {
		t.Fatal(stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", p("a.tif"), "--out-water", p("a.tif")}, "--out " + p("a.tif") + " and --out-water " + p("a.tif") + " both write " + p("a.tif")},
		{[]string{"--out-sediment", p("s.png"), "--report", p("s.png.json")}, "both write " + p("s.png.json")},
		{[]string{"--out-hardness", p("h.tif"), "--out-sediment", p("x/../h.tif")}, "both write"},
	} {
		code, _, stderr := runCLI(append([]string{"erode", "-q", "--in", in, "--steps", "1"}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%v: wrote %d files", c.args, len(ents))
		}
	}
}

// TestClearErrors: each value the issue found surfacing as an engine's
// message, or silently accepted, gets a one-line error naming the flag or
// the file and what to do (issue 31.7).
func TestClearErrors(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	// A heightmap with a sidecar whose cell size is absurd.
	if code, _, stderr := runCLI("run", "-q", "--scene", "cone", "--size", "16", "--steps", "1", "--out", p("h.png")); code != 0 {
		t.Fatal(stderr)
	}
	var side map[string]any
	b, _ := os.ReadFile(p("h.png.json"))
	if err := json.Unmarshal(b, &side); err != nil {
		t.Fatal(err)
	}
	side["cell_size_m"] = 1e300
	b, _ = json.Marshal(side)
	os.WriteFile(p("h.png.json"), b, 0o644)
	// A scene file, a scene with a key twice, a geology of 300
	// deformations, a mask of values 0 to 2.
	cone, _ := os.ReadFile(filepath.Join("..", "..", "assets", "presets", "cone.json"))
	os.WriteFile(p("cone.json"), cone, 0o644)
	os.WriteFile(p("twice.json"), []byte(strings.Replace(string(cone), `"seed":`, `"steps": 3, "seed":`, 1)), 0o644)
	var g strings.Builder
	g.WriteString(`{"stack": [{"layers": [{"thickness": 10, "rock": "Clay"}]}], "deformations": [`)
	for i := range 300 {
		if i > 0 {
			g.WriteString(",")
		}
		g.WriteString(`{"kind": "tilt", "azimuth": 10, "dip": 1}`)
	}
	g.WriteString("]}")
	os.WriteFile(p("geo.json"), []byte(g.String()), 0o644)
	mask := sim.NewField(8, 8, 1)
	for i := range mask.Data {
		mask.Data[i] = float32(i%3) / 1 // 0, 1, 2
	}
	if err := rasterio.Write(p("mask.tif"), mask); err != nil {
		t.Fatal(err)
	}
	run := []string{"run", "-q", "--scene", "cone", "--size", "16", "--steps", "1"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"render", "-q", "--grid", "100000", "--out", p("r.png")}, "--grid 100000: must be in [3, 16384] cells per side"},
		{append(run, "--umax", "1e300"), "--umax 1e+300: must be within ±1 m/yr"},
		{append(run, "--target-height", "1e-320"), "--target-height 1e-320: must be a height in [1, 1e5] metres"},
		{[]string{"erode", "--in", p("h.png"), "--cell", "1e-320", "--steps", "1"}, "--cell 1e-320: must be a size in metres"},
		{append(run, "--init", p("h.png")), "h.png.json: cell size 1e+300 m: must be in [0.001, 1e6] m: fix cell_size_m in the sidecar of " + p("h.png")},
		{[]string{"build", p("cone.json")}, "this is a scene, not a project: use orogen run --scene " + p("cone.json")},
		{[]string{"run", "-q", "--scene", p("twice.json")}, `key "steps" is given twice`},
		{append(run, "--steps", "20000000"), "--steps 20000000: must be in [0, 10000000]"},
		{append(run, "--tolerance", "1e300"), "--tolerance 1e+300: must be > 0 and <= 1 m/yr"},
		{append(run, "--edges", "north=closed,n=outlet"), "north is given twice"},
		{append(run, "--roudier-alpha", "1"), "--roudier-alpha is a coefficient of Roudier's processes (engine roudier), not of the grid engine"},
		{[]string{"render", "-q", "--scene", "cone", "--grid", "16", "--steps", "1", "--color", "rock", "--out", p("r.png")}, "--color rock colours the exposed rock, and the scene has no geology"},
		{[]string{"blend", "cone", "default", "--size", "16", "--mask", p("mask.tif"), "--out", p("b.tif")}, "mask.tif: value 2 at cell (2, 0) is outside [0, 1]"},
		{append(run, "--geology", p("geo.json")), "geology: 300 deformations; the limit is 256"},
	} {
		code, stdout, stderr := runCLI(c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("orogen %v: exit %d, stderr %q; want one line with %q", c.args, code, stderr, c.want)
		}
	}
}
