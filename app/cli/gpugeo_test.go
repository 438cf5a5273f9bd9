package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/gpu"
)

// TestRunGeologyPresetsOnGPU: orogen run --device gpu runs the geology
// presets on the GPU engine (they fell back to the CPU before issue 35's
// geology kernels), its report naming the device and no fallback, its
// rock map written.
func TestRunGeologyPresetsOnGPU(t *testing.T) {
	dev, err := gpu.Open(gpu.Options{AllowSoftware: true})
	if err != nil {
		t.Skipf("no OpenGL 4.3 device: %v", err)
	}
	dev.Close()
	dir := t.TempDir()
	for _, name := range []string{"cuesta", "strata", "folded-uplift"} {
		r, rock := filepath.Join(dir, name+".json"), filepath.Join(dir, name+"-rock.png")
		code, _, stderr := runCLI("run", "-q", "--scene", name, "--size", "32", "--steps", "3", "--device", "gpu", "--report", r, "--out-rock", rock)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		var rep struct {
			Device   string `json:"device"`
			Fallback string `json:"device_fallback"`
		}
		b, _ := os.ReadFile(r)
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Device == "cpu" || rep.Fallback != "" || strings.Contains(stderr, "running on the CPU") {
			t.Errorf("%s --device gpu ran on %q (fallback %q, %s)", name, rep.Device, rep.Fallback, stderr)
		}
		if st, err := os.Stat(rock); err != nil || st.Size() == 0 {
			t.Errorf("%s: no rock map: %v", name, err)
		}
	}
}
