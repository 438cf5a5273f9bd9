package compute

import (
	"context"
	"strings"
	"testing"

	"orogen/sim"
	"orogen/sim/geology"
	"orogen/sim/hydro"
)

func TestParseDevice(t *testing.T) {
	for s, want := range map[string]Device{"cpu": CPU, "GPU": GPU, "auto": Auto} {
		if d, err := ParseDevice(s); err != nil || d != want {
			t.Errorf("ParseDevice(%q) = %v, %v", s, d, err)
		}
	}
	if _, err := ParseDevice("tpu"); err == nil || !strings.Contains(err.Error(), "cpu, gpu or auto") {
		t.Errorf("ParseDevice(tpu): %v", err)
	}
}

func terrain() hydro.Config {
	f := sim.NewField(20, 16, 30)
	for i := range f.Data {
		f.Data[i] = float32(i%20) * 3
	}
	return hydro.Config{Terrain: f, Params: hydro.DefaultParams(30)}
}

// TestFallbacks: the CPU is taken without a word; a gpu run with a
// geology is on the GPU where there is one, else on the CPU with one line
// saying why; the GPU is the process's (Shared) and outlives an engine; a bad configuration is an error, not a fall back.
func TestFallbacks(t *testing.T) {
	h, err := NewHydro(CPU, terrain())
	if err != nil || h.OnGPU() || h.Device != "cpu" || h.Fallback != "" {
		t.Fatalf("cpu: %+v, %v", h, err)
	}
	cfg := terrain()
	if cfg.Geology, err = geology.Parse([]byte(`{"base":-500,"stack":[{"layers":[{"thickness":40,"rock":"Clay"}]}]}`)); err != nil {
		t.Fatal(err)
	}
	h, err = NewHydro(GPU, cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, why := Shared(GPU)
	if why == "" && (!h.OnGPU() || h.Fallback != "") || why != "" && (h.OnGPU() || h.Fallback == "" || strings.Contains(h.Fallback, "\n")) {
		t.Fatalf("gpu with a geology: %+v; want the GPU where there is one (%q), else the CPU and why", h, why)
	}
	h.Close()
	// The device is the process's: closing an engine leaves it open for
	// the next.
	h2, err := NewHydro(GPU, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if h2.OnGPU() != (why == "") {
		t.Fatalf("a second gpu engine after the first closed: on the GPU %v, want %v (%s)", h2.OnGPU(), why == "", h2.Fallback)
	}
	if err := h2.Run(context.Background(), 2); err != nil || h2.Err() != nil {
		t.Fatalf("a second gpu engine's steps: %v, %v", err, h2.Err())
	}
	h2.Close()
	bad := terrain()
	bad.Params.Dt = -1
	if _, err := NewHydro(GPU, bad); err == nil {
		t.Fatal("a negative dt was accepted")
	}
}
