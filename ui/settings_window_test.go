package ui_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWindowSettings drives Edit → Settings in the real window: the
// settings command sets the compute device (the session's, kept in the
// preferences), the window opens and probes the device (its report goes
// to the log), the
// detail pass starts on that device, and File → Build runs the export
// profile's hydraulic pass (hydro_steps) there too, the report and the log
// naming it. With an OpenGL 4.3 device (llvmpipe in CI) gpu runs on it;
// without one, the CPU, saying why. The views' drawing chosen in the View
// menu is kept in the preferences too: a second session starts with it.
func TestWindowSettings(t *testing.T) {
	if testing.Short() {
		t.Skip("the window session runs in the full (non -short) test run")
	}
	needDisplay(t)
	bin := buildOrogen(t)
	prof := filepath.Join(t.TempDir(), "profile.json")
	if err := os.WriteFile(prof, []byte(`{"outputs":[{"kind":"heightmap","format":"tif","size":128,"path":"h"}],"hydro_steps":5}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, out := session(t, bin, `
views cpu
settings gpu
settings
detail start
wait 20
detail pause
wait 5
expect-log compute device: gpu
expect-log compute:
screenshot $OUT/settings.png
detail discard
export-profile `+prof+`
build $OUT/b
wait 3
expect-log build ×2: hydraulic pass of 5 steps
quit
`, "--size", "64")
	onGPU := gpuOpens
	rb, err := os.ReadFile(filepath.Join(dir, "b", "build-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Outputs []struct {
			HydroDevice string `json:"hydro_device"`
		} `json:"outputs"`
	}
	if err := json.Unmarshal(rb, &rep); err != nil || len(rep.Outputs) != 1 {
		t.Fatalf("build report: %v\n%s", err, rb)
	}
	d := rep.Outputs[0].HydroDevice
	if onGPU == (d == "cpu") || d == "" {
		t.Errorf("the build's pass ran on %q with a GPU %v; want the GPU when there is one", d, onGPU)
	}
	if !onGPU && !strings.Contains(out, "running on the CPU") {
		t.Logf("output:\n%s", out)
	}
	readPNG(t, filepath.Join(dir, "settings.png"))

	// A second session with the same preferences: the views are drawn
	// as the first one chose (the default is auto).
	dir2, _ := sessionIn(t, bin, filepath.Join(dir, "config"), `
report $OUT/r.json
quit
`, "--size", "64")
	var r2 struct {
		ViewsChoice string `json:"views_choice"`
	}
	if b, err := os.ReadFile(filepath.Join(dir2, "r.json")); err != nil || json.Unmarshal(b, &r2) != nil {
		t.Fatalf("second session's report: %v", err)
	}
	if r2.ViewsChoice != "cpu" {
		t.Errorf("second session draws the views %q; want cpu, as the first session chose", r2.ViewsChoice)
	}
}
