package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/engines"
	"orogen/app/version"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = Main(args, &o, &e)
	return code, o.String(), e.String()
}

func TestRunWritesEverything(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "h.r16")
	rep := filepath.Join(dir, "r.json")
	code, stdout, stderr := runCLI("run", "--scene", "cone", "--size", "48", "--steps", "5",
		"--k", "1e-6", "--talus", "40", "--diffusion", "0", "--seed", "3",
		"--out", out, "--out-drainage", filepath.Join(dir, "a.tif"), "--report", rep)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Fatalf("stdout not clean: %q", stdout)
	}
	for _, p := range []string{out, filepath.Join(dir, "h.r16.json"), filepath.Join(dir, "a.tif"), filepath.Join(dir, "a.tif.json"), rep} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("missing output %s", p)
		}
	}
	var r struct {
		Steps  int `json:"steps"`
		Params struct {
			K     float64 `json:"k"`
			Talus string  `json:"talus"`
		} `json:"params"`
	}
	b, _ := os.ReadFile(rep)
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Steps != 5 || r.Params.K != 1e-6 || !strings.Contains(r.Params.Talus, "40") {
		t.Fatalf("report %+v; want 5 steps, k 1e-6, talus 40°", r)
	}
	if !strings.Contains(stderr, "cone: 48×48, 5 steps") {
		t.Errorf("summary missing from stderr: %q", stderr)
	}
}

func TestErrorsExitNonZero(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--scene", "atlantis"}, "atlantis"},
		{[]string{"run", "--k", "NaN"}, "k"},
		{[]string{"run", "--dt", "-1"}, "dt"},
		{[]string{"run", "--size", "x"}, "size"},
		{[]string{"run", "--steps", "-2"}, "steps"},
		{[]string{"run", "--tolerance", "0"}, "tolerance"},
		{[]string{"run", "--init-noise", "-1"}, "--init-noise -1"},
		{[]string{"run", "--out", filepath.Join(dir, "h.bmp")}, ".bmp"},
		{[]string{"run", "--uplift", filepath.Join(dir, "none.png")}, "none.png"},
		{[]string{"run", "stray"}, "stray"},
		{[]string{"explode"}, "explode"},
	}
	for _, tc := range cases {
		code, stdout, stderr := runCLI(tc.args...)
		if code == 0 || !strings.Contains(stderr, tc.want) || stdout != "" {
			t.Errorf("orogen %v: exit %d, stderr %q, stdout %q; want non-zero and %q on stderr", tc.args, code, stderr, stdout, tc.want)
		}
	}
}

func TestPresetsListed(t *testing.T) {
	code, stdout, _ := runCLI("presets")
	if code != 0 {
		t.Fatal("presets failed")
	}
	for _, p := range []string{"default", "cone", "steps", "gradient"} {
		if !strings.Contains(stdout, p) {
			t.Errorf("presets output lacks %s: %q", p, stdout)
		}
	}
}

// TestEnginesListed: `orogen engines`, through the real binary as the
// README gives it, lists every registered engine with its label.
func TestEnginesListed(t *testing.T) {
	line := readmeLines(t, "orogen engines")
	if len(line) != 1 {
		t.Fatalf("README: %q; want one orogen engines line", line)
	}
	out, err := exec.Command(orogenBinary(t), strings.Fields(line[0])[1:]...).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range engines.Kinds() {
		if want := fmt.Sprintf("%-8s %s: ", k, engines.Label(k)); !strings.Contains(string(out), want) {
			t.Errorf("orogen engines: %q; want a line starting %q", out, want)
		}
		// The parameter groups it reads, in the registry's words (the
		// stream graph's soil terms among them: creep, deposition, k
		// noise and hillslope routing).
		var reads []string
		for _, g := range engines.Must(k).Groups {
			reads = append(reads, engines.GroupLabel(g))
		}
		if want := fmt.Sprintf("%-8s reads: %s\n", "", strings.Join(reads, "; ")); !strings.Contains(string(out), fmt.Sprintf("%-8s %s: ", k, engines.Label(k))) || !strings.Contains(string(out), want) {
			t.Errorf("orogen engines: %q; want the line %q", out, want)
		}
	}
	if g := engines.Must("graph"); !g.Reads(engines.Creep) || !g.Reads(engines.Deposition) || !g.Reads(engines.KNoise) || !g.Reads(engines.Routing) {
		t.Errorf("the stream graph reads %v; want creep, deposition, k noise and routing", g.Groups)
	}
}

func TestUpliftCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "u.tif")
	code, stdout, stderr := runCLI("uplift", "--scene", "plateau", "--size", "40", "--out", out)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	var m struct {
		Width int     `json:"width"`
		Max   float64 `json:"max_m"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "u.tif.json"))
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal(b, &m)
	if m.Width != 40 || m.Max <= 0 || m.Max > 5e-4*1.0001 {
		t.Fatalf("sidecar %+v; want width 40 and a max uplift in (0, 5e-4] m/yr", m)
	}
	if code, _, stderr := runCLI("uplift", "--scene", "plateau"); code == 0 || !strings.Contains(stderr, "--out") {
		t.Fatalf("uplift without --out: exit %d, %q", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	for _, flag := range []string{"--version", "-v"} {
		code, stdout, stderr := runCLI(flag)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", flag, code, stderr)
		}
		if want := "orogen " + version.String() + "\n"; stdout != want {
			t.Errorf("%s printed %q, want %q", flag, stdout, want)
		}
	}
}

func TestRunVRT(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "h.r16")
	code, _, stderr := runCLI("run", "-q", "--scene", "cone", "--size", "24", "--steps", "2", "--out", out, "--vrt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(out + ".vrt")
	if err != nil || !strings.Contains(string(b), "<SourceFilename relativeToVRT=\"1\">h.r16</SourceFilename>") {
		t.Errorf("h.r16.vrt: %v\n%s", err, b)
	}
	code, _, stderr = runCLI("run", "-q", "--scene", "cone", "--size", "24", "--steps", "2", "--out", filepath.Join(dir, "h.png"), "--vrt")
	if code == 0 || !strings.Contains(stderr, "--vrt describes .r16 files") {
		t.Errorf("--vrt without .r16: exit %d, stderr %q; want an error", code, stderr)
	}
}

func TestRunTarget(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "h.raw")
	code, _, stderr := runCLI("run", "--scene", "cone", "--size", "24", "--steps", "2", "--out", out, "--target", "unity", "--export-size", "65")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Stat(out); err != nil || fi.Size() != 2*65*65 {
		t.Fatalf("h.raw: %v; want %d bytes", err, 2*65*65)
	}
	b, _ := os.ReadFile(out + ".json")
	if !strings.Contains(string(b), `"target": "unity"`) || !strings.Contains(stderr, "unity: scale X") {
		t.Errorf("sidecar %s\nstderr %s\nwant unity's scales in both", b, stderr)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", filepath.Join(dir, "u.png"), "--target", "unreal", "--export-size", "500"}, "unreal does not take a size of 500"},
		{[]string{"--out", filepath.Join(dir, "u.png"), "--target", "frostbite"}, "unknown target"},
		{[]string{"--out", filepath.Join(dir, "u.png"), "--tiles", "3"}, "want RxC"},
	} {
		code, _, stderr := runCLI(append([]string{"run", "-q", "--scene", "cone", "--size", "24", "--steps", "2"}, c.args...)...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, "u.png")); err == nil {
			t.Errorf("%v: wrote u.png", c.args)
		}
	}
}

func TestBuildCommand(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "cone.orogen.json")
	b, err := os.ReadFile(filepath.Join("..", "project", "testdata", "v1", "cone.orogen.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(proj, b, 0o644)
	code, _, stderr := runCLI("build", proj)
	if code == 0 || !strings.Contains(stderr, "no export profile") {
		t.Errorf("no profile: exit %d, stderr %q; want an error", code, stderr)
	}
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCLI("build", proj, "--preset", "godot", "--out-dir", out)
	if code != 0 || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	rb, err := os.ReadFile(filepath.Join(out, "build-report.json"))
	if err != nil || !strings.Contains(string(rb), `"path": "cone_height.r16"`) || !strings.Contains(string(rb), `"sha256"`) {
		t.Errorf("report: %v\n%.400s", err, rb)
	}
	if !strings.Contains(stderr, "godot: scale X") {
		t.Errorf("stderr does not print Godot's import settings:\n%s", stderr)
	}
}
