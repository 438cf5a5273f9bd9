package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"orogen/app/engines"
	"orogen/app/scene"
	"orogen/sim/engine"
)

// TestMemoryEstimateCoversPeak runs the real binary on 512² grids, the
// default scene and the lakes scene (the heaviest: sediment, k noise,
// creep, random routing, the water budget) on the grid engine, the
// default scene on the stream graph and on Roudier's engine, and wants
// each engine's memory estimate (engines.EstimateBytes) at or above the
// peak resident memory the kernel measured, and at most twice it: at 512²
// the estimate's 64 MB of base, which covers the program's own 20 MB and
// the fixed costs of the lakes' processes, is most of the default scene's
// estimate (92 MB for a peak of about 53 MB; at 4096² the estimate is the
// Go memory limit and the peak within a few % of it: docs/MEMORY.md).
func TestMemoryEstimateCoversPeak(t *testing.T) {
	const n = 512
	dir := t.TempDir()
	for _, c := range []struct{ scene, engine string }{
		{"default", ""}, {"lakes", ""}, {"default", "graph"}, {"default", "roudier"},
	} {
		name := c.scene + "-" + c.engine
		sc, err := scene.Load(c.scene)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sc.EngineParams()
		if err != nil {
			t.Fatal(err)
		}
		kind := sc.Engine
		args := []string{"run", "--scene", c.scene, "--size", "512", "--steps", "2"}
		if c.engine != "" {
			kind = engine.Kind(c.engine)
			args = append(args, "--engine", c.engine)
		}
		rep := filepath.Join(dir, name+".json")
		cmd := exec.Command(orogenBinary(t), append(args, "--out", filepath.Join(dir, name+".tif"), "--report", rep)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", name, err, out)
		}
		// The run's own high-water mark (its report's peak_rss_bytes):
		// the child's ru_maxrss would start at this test process's peak,
		// which Linux carries over at exec.
		var r struct {
			Peak int64 `json:"peak_rss_bytes"`
		}
		if b, err := os.ReadFile(rep); err != nil || json.Unmarshal(b, &r) != nil || r.Peak <= 0 {
			t.Fatalf("%s: report %s: %v; want peak_rss_bytes", name, rep, err)
		}
		peak := r.Peak
		est := engines.EstimateBytes(engines.Spec{Kind: kind, W: n, H: n, Params: p}, 1)
		t.Logf("%s, %d²: peak %d MB, estimate %d MB", name, n, peak>>20, est>>20)
		if est < peak || est > 2*peak {
			t.Errorf("%s, %d²: estimate %d MB; want at least the peak, %d MB, and at most twice it", name, n, est>>20, peak>>20)
		}
	}
}
