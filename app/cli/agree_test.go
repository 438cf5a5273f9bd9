package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/doc"
	"orogen/app/prefs"
	"orogen/app/project"
	"orogen/app/rasterio"
	"orogen/app/scene"
	"orogen/app/session"
	"orogen/brushes"
	"orogen/sim/simtest"
)

// TestCLIAgreesWithApp: a project with a painted stroke, an elevation
// constraint and a geology, stepped by `orogen run --project` (the real
// binary, as its --help example runs it) and by a headless session of the
// desktop app on the same file, gives the same heights bit for bit: both
// build the engine from the document (doc.EngineSpec) and step it through
// the one driver (app/drive), constraints and adaptive settling included.
func TestCLIAgreesWithApp(t *testing.T) {
	simtest.SkipUnderRace(t, "numerics only")
	t.Setenv("OROGEN_CONFIG_DIR", t.TempDir())
	dir := t.TempDir()
	path := filepath.Join(dir, "island.orogen.json")
	// The document: the default preset at 64², a raise stroke across it, a
	// point constraint, the preset geology.
	{
		d, err := session.LoadScene("default", 64)
		if err != nil {
			t.Fatal(err)
		}
		p := prefs.Default()
		s, err := session.New(d, "", session.Options{Paused: true, Prefs: &p})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		dd := s.Doc()
		if err := dd.BeginStroke(dd.PaintLayer(), brushes.Default(brushes.Raise), 12, 40); err != nil {
			t.Fatal(err)
		}
		dd.StrokeTo(50, 20)
		dd.EndStroke()
		cell := dd.Scene().Cell()
		h := 900.0
		if err := s.AddConstraint(scene.Constraint{Point: []float64{40 * cell, 30 * cell}, HeightM: &h}); err != nil {
			t.Fatal(err)
		}
		if err := s.SetGeology(session.PresetGeology(), "", ""); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveAs(path); err != nil {
			t.Fatal(err)
		}
	}

	// The command line: the --help example, then the same with a report
	// and a step cap, whose step count the app then runs.
	runLine(t, dir, helpExample(t, "orogen run --project island.orogen.json"))
	// Capped before it settles: exit 3 (not converged), the outputs
	// written.
	runLineExit(t, dir, "orogen run --project island.orogen.json --until-converged --steps 240 --out cli.tif --report cli.json", ExitNotConverged)
	var rep struct {
		Steps       int  `json:"steps"`
		Adjustments int  `json:"constraint_adjustments"`
		Converged   bool `json:"converged"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "cli.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Steps < 100 || rep.Adjustments == 0 {
		t.Fatalf("the run took %d steps with %d constraint adjustments; want >= 100 steps and an adjustment, so the comparison covers the constraints", rep.Steps, rep.Adjustments)
	}
	cli, err := rasterio.ReadHeights(filepath.Join(dir, "cli.tif"))
	if err != nil {
		t.Fatal(err)
	}

	// The app: a session on the saved project runs as many steps.
	p, err := project.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := doc.New(p)
	if err != nil {
		t.Fatal(err)
	}
	pr := prefs.Default()
	s, err := session.New(d, path, session.Options{Paused: true, Prefs: &pr})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Sync()
	s.Step(rep.Steps)
	for {
		s.Sync()
		f, seq := s.Worker().Await()
		if f == nil {
			t.Fatal("the worker closed")
		}
		if f.Seq >= seq && f.Snap.Step >= rep.Steps {
			if f.Snap.Step != rep.Steps {
				t.Fatalf("the app ran %d steps; want %d", f.Snap.Step, rep.Steps)
			}
			if f.Adjustments != rep.Adjustments {
				t.Errorf("the app adjusted the constraints %d times, the CLI %d", f.Adjustments, rep.Adjustments)
			}
			app := f.Snap.Height
			diff := 0
			for i := range app {
				if math.Float32bits(app[i]) != math.Float32bits(cli.Data[i]) {
					diff++
				}
			}
			if diff > 0 {
				t.Fatalf("after %d steps %d of %d cells differ between the app and orogen run --project; want identical bits", rep.Steps, diff, len(app))
			}
			t.Logf("%d steps (converged %v), %d constraint adjustments: identical heights", rep.Steps, rep.Converged, rep.Adjustments)
			return
		}
	}
}

// helpExample returns the --help example line of `orogen run` that starts
// with prefix.
func helpExample(t *testing.T, prefix string) string {
	t.Helper()
	code, stdout, stderr := runCLI("run", "--help")
	if code != 0 {
		t.Fatalf("run --help: exit %d: %s", code, stderr)
	}
	for _, l := range strings.Split(stdout, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("run --help has no example starting %q", prefix)
	return ""
}
