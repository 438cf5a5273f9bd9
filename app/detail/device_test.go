package detail

import (
	"math"
	"strings"
	"testing"

	"orogen/app/compute"
	"orogen/app/runner"
	"orogen/gpu"
)

// TestNewOnGPU: the detail pass on --device gpu runs on the GPU where
// there is one (llvmpipe in CI), its frames name the device, parameter
// changes apply, and its terrain follows the CPU pass's within float32
// rounding; without one it runs on the CPU and says why.
func TestNewOnGPU(t *testing.T) {
	rg, h, err := NewOn(compute.GPU, bowl(), runner.Options{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	defer rg.Close()
	rc, err := New(bowl(), runner.Options{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	dev, err := gpu.Open(gpu.Options{AllowSoftware: true})
	if err != nil {
		if h.OnGPU() || h.Fallback == "" {
			t.Fatalf("no GPU (%v), yet the pass is on %s with fallback %q", err, h.Device, h.Fallback)
		}
		return
	}
	dev.Close()
	p := bowl().Params
	p.Kr *= 2
	cmds := []runner.Command{SetParams{P: p}, runner.Step{N: 20}}
	fg, fc := syncFrame(t, rg, cmds...), syncFrame(t, rc, cmds...)
	if fg.Err != nil || fg.CmdErr != nil {
		t.Fatalf("GPU pass: %v, %v", fg.Err, fg.CmdErr)
	}
	if !strings.Contains(fg.Device, "(") || fc.Device != "cpu" {
		t.Errorf("frames' devices: GPU pass %q, CPU pass %q", fg.Device, fc.Device)
	}
	if fg.Snap.Step != fc.Snap.Step || fg.Params.Kr != p.Kr {
		t.Fatalf("GPU pass at step %d with Kr %g, CPU at %d", fg.Snap.Step, fg.Params.Kr, fc.Snap.Step)
	}
	var worst float64
	for i, v := range fc.Snap.Height {
		worst = math.Max(worst, math.Abs(float64(v)-float64(fg.Snap.Height[i])))
	}
	if worst > 1e-3 {
		t.Errorf("GPU and CPU passes differ by up to %.3g m after 20 steps", worst)
	}
}
