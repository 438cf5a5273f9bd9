package worker

import (
	"testing"

	"orogen/app/compute"
	"orogen/app/runner"
	"orogen/gpu"
)

// TestGridOnGPU: a worker built with Spec.Device gpu steps the grid engine
// on the GPU (Mesa's llvmpipe here) and its frames say where, with
// snapshots as consistent as the CPU engine's; without a GPU the frames
// say why the engine is on the CPU.
func TestGridOnGPU(t *testing.T) {
	spec := sceneConfig(t, 48)
	spec.Device = compute.GPU
	w, err := New(spec, runner.Options{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	f := syncFrame(t, w, runner.Step{N: 5})
	dev, derr := gpu.Open(gpu.Options{AllowSoftware: true})
	if derr != nil {
		if f.Device != "cpu" || f.Fallback == "" {
			t.Errorf("no GPU: frame device %q, fallback %q; want the CPU and why", f.Device, f.Fallback)
		}
		return
	}
	dev.Close()
	if f.Device == "cpu" || f.Fallback != "" || f.Snap.Step != 5 {
		t.Fatalf("frame device %q, fallback %q, step %d; want the GPU at step 5", f.Device, f.Fallback, f.Snap.Step)
	}
	if err := checkSnapshot(f.Snap); err != nil {
		t.Error(err)
	}
}
