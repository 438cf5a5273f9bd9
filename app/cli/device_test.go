package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/gpu"
)

// TestErodeDevice runs orogen erode on the CPU and with --device gpu and
// --device auto. Where an OpenGL 4.3 device exists (Mesa's llvmpipe in
// CI), gpu runs on it and its terrain is the CPU's within float32
// rounding (1e-4 of the relief at most, RMS far less; gpu/hydrogpu's
// tests hold the kernels to the CPU engine), and auto keeps a software
// rasterizer off (the CPU, with the line saying why). Where none exists,
// both fall back to the CPU with one line saying why.
func TestErodeDevice(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "h.tif")
	writeHills(t, in, 40, 36)
	run := func(device string) (terrain []float32, rep map[string]any, stderr string) {
		t.Helper()
		out, r := filepath.Join(dir, device+".tif"), filepath.Join(dir, device+".json")
		code, _, stderr := runCLI("erode", "--in", in, "--steps", "40", "--source", "12,10,2,30",
			"--device", device, "--out", out, "--report", r)
		if code != 0 {
			t.Fatalf("--device %s: exit %d: %s", device, code, stderr)
		}
		f, err := rasterio.ReadHeights(out)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		return f.Data, rep, stderr
	}
	cpu, crep, _ := run("cpu")
	if crep["device"] != "cpu" {
		t.Errorf("--device cpu: report device %v", crep["device"])
	}
	dev, openErr := gpu.Open(gpu.Options{AllowSoftware: true})
	var software bool
	if openErr == nil {
		software = dev.Info().Software
		dev.Close()
	}
	g, grep, gerr := run("gpu")
	if openErr != nil {
		if grep["device"] != "cpu" || !strings.Contains(gerr, "running on the CPU") || grep["device_fallback"] == nil {
			t.Errorf("no GPU: --device gpu ran on %v, stderr %q; want the CPU and a line saying why", grep["device"], gerr)
		}
		return
	}
	if d, _ := grep["device"].(string); d == "cpu" || !strings.Contains(gerr, "on the GPU") {
		t.Fatalf("--device gpu ran on %q (stderr %q)", d, gerr)
	}
	var worst float64
	for i := range cpu {
		worst = math.Max(worst, math.Abs(float64(cpu[i])-float64(g[i])))
	}
	if worst > 0.02 { // 1e-4 of the 200 m relief
		t.Errorf("--device gpu differs from the CPU by up to %.3g m", worst)
	}
	_, arep, aerr := run("auto")
	if software {
		if arep["device"] != "cpu" || !strings.Contains(aerr, "software rasterizer") {
			t.Errorf("auto on a software rasterizer ran on %v (stderr %q); want the CPU and why", arep["device"], aerr)
		}
	} else if arep["device"] == "cpu" {
		t.Errorf("auto with a hardware GPU ran on the CPU: %q", aerr)
	}
	if code, _, stderr := runCLI("erode", "--in", in, "--steps", "1", "--device", "tpu"); code == 0 || !strings.Contains(stderr, "use cpu, gpu or auto") {
		t.Errorf("--device tpu: exit %d, %q", code, stderr)
	}
}

// TestRunHydroDevice: orogen run's hydraulic finishing pass of an
// amplified output runs where --device says, the report names the device,
// and the GPU's terrain is the CPU's within float32 rounding. The terrain
// is grown by the stream graph, which runs on the CPU whatever --device
// says (the grid engine would run on the GPU too: TestRunGridDevice), so
// that only the pass differs.
func TestRunHydroDevice(t *testing.T) {
	dir := t.TempDir()
	run := func(device string) ([]float32, map[string]any) {
		t.Helper()
		out, r := filepath.Join(dir, device+".tif"), filepath.Join(dir, device+".json")
		code, _, stderr := runCLI("run", "-q", "--scene", "cone", "--engine", "graph", "--size", "32", "--steps", "20", "--seed", "2",
			"--out-size", "64", "--out-hydro-steps", "30", "--device", device, "--out", out, "--report", r)
		if code != 0 {
			t.Fatalf("--device %s: exit %d: %s", device, code, stderr)
		}
		f, err := rasterio.ReadHeights(out)
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(r)
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Amplify map[string]any `json:"amplify"`
		}
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		return f.Data, rep.Amplify
	}
	cpu, crep := run("cpu")
	if crep["hydro_device"] != "cpu" {
		t.Errorf("--device cpu: amplify.hydro_device %v", crep["hydro_device"])
	}
	g, grep := run("gpu")
	dev, err := gpu.Open(gpu.Options{AllowSoftware: true})
	if err == nil {
		dev.Close()
	} else {
		if grep["hydro_device"] != "cpu" || grep["hydro_fallback"] == nil {
			t.Errorf("no GPU: amplify %v; want the CPU and why", grep)
		}
		return
	}
	if d, _ := grep["hydro_device"].(string); d == "cpu" || d == "" {
		t.Fatalf("--device gpu: the pass ran on %q", d)
	}
	var worst, lo, hi float64 = 0, math.Inf(1), math.Inf(-1)
	for i := range cpu {
		worst = math.Max(worst, math.Abs(float64(cpu[i])-float64(g[i])))
		lo, hi = math.Min(lo, float64(cpu[i])), math.Max(hi, float64(cpu[i]))
	}
	if worst > 1e-3*(hi-lo) {
		t.Errorf("--device gpu: the amplified terrain differs from the CPU's by up to %.3g m (relief %.0f m)", worst, hi-lo)
	}
}

// TestRunGridDevice: orogen run --device gpu runs the grid engine on the
// GPU (gpu/splgpu; Mesa's llvmpipe here) and says so; --device auto takes
// no software rasterizer and says why; parameters the GPU engine does not
// run keep the engine on the CPU with one line saying why; the terrains
// of the CPU and the GPU are alike (TestGPUSettlesLikeCPU in app/run
// measures how alike).
func TestRunGridDevice(t *testing.T) {
	dir := t.TempDir()
	dev, err := gpu.Open(gpu.Options{AllowSoftware: true})
	if err != nil {
		code, _, stderr := runCLI("run", "--scene", "default", "--size", "32", "--steps", "2", "--device", "gpu", "--out", filepath.Join(dir, "g.tif"))
		if code != 0 || !strings.Contains(stderr, "running on the CPU") {
			t.Errorf("no GPU: exit %d, %q; want the run on the CPU and why", code, stderr)
		}
		return
	}
	soft := dev.Info().Software
	dev.Close()
	rep := filepath.Join(dir, "g.json")
	code, _, stderr := runCLI("run", "--scene", "default", "--size", "48", "--steps", "10", "--device", "gpu", "--out", filepath.Join(dir, "g.tif"), "--report", rep)
	if code != 0 || !strings.Contains(stderr, "grid engine on") {
		t.Errorf("--device gpu: exit %d, %q; want the grid engine on the GPU", code, stderr)
	}
	if b, err := os.ReadFile(rep); err != nil || !strings.Contains(string(b), `"device": "`) || strings.Contains(string(b), `"device": "cpu"`) {
		t.Errorf("--device gpu: the report does not name the GPU (%v)", err)
	}
	code, _, stderr = runCLI("run", "--scene", "default", "--size", "48", "--steps", "2", "--device", "auto", "--out", filepath.Join(dir, "a.tif"))
	if code != 0 || soft != strings.Contains(stderr, "software rasterizer") {
		t.Errorf("--device auto on a software rasterizer %v: exit %d, %q", soft, code, stderr)
	}
	code, _, stderr = runCLI("run", "--scene", "default", "--size", "48", "--steps", "2", "--rain", "0.5", "--device", "gpu", "--out", filepath.Join(dir, "r.tif"))
	if code != 0 || !strings.Contains(stderr, "water budget") || !strings.Contains(stderr, "running on the CPU") {
		t.Errorf("--device gpu --rain 0.5: exit %d, %q; want the CPU and why", code, stderr)
	}
}

// TestBuildGridDevice: orogen build --device gpu simulates the project on
// the GPU engine and says where, or says why it did not.
func TestBuildGridDevice(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "cone.orogen.json")
	b, err := os.ReadFile(filepath.Join("..", "project", "testdata", "v1", "cone.orogen.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(proj, b, 0o644)
	code, _, stderr := runCLI("build", proj, "--preset", "generic", "--device", "gpu", "--out-dir", filepath.Join(dir, "out"))
	if code != 0 || !(strings.Contains(stderr, "grid engine on") || strings.Contains(stderr, "running on the CPU")) {
		t.Errorf("exit %d, stderr %q; want the build and a line naming its device or why not the GPU", code, stderr)
	}
}

// TestReadmeGridDevice runs the README's grid-engine --device example
// through the real binary: it settles wherever it runs (auto takes no
// software rasterizer, so here it is the CPU and says why).
func TestReadmeGridDevice(t *testing.T) {
	lines := readmeLines(t, "orogen run --scene default --size 128 --until-converged --device")
	if len(lines) != 1 {
		t.Fatalf("README: %d grid --device examples; want 1", len(lines))
	}
	runLine(t, t.TempDir(), lines[0])
}
