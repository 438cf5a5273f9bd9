package cli

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
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

// TestBuildDevice runs orogen build (the real binary) on a project whose
// export profile finishes its amplified heightmap (the 32×24 grid ×2)
// with 20 steps of the hydraulic pass: --device cpu, gpu and auto, and
// the profile's own "device". The report names the device per output;
// gpu runs on any OpenGL 4.3 device (llvmpipe in CI) and auto keeps a
// software one off, with the line saying why; with no device at all both
// fall back to the CPU and say why. A bad device, in the profile or the
// flag, is a one-line error.
func TestBuildDevice(t *testing.T) {
	if testing.Short() {
		t.Skip("five builds through the real binary (no goroutine of this package to race): the full run has it")
	}
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join("..", "project", "testdata", "v1", "cone.orogen.json"))
	if err != nil {
		t.Fatal(err)
	}
	var proj map[string]any
	if err := json.Unmarshal(b, &proj); err != nil {
		t.Fatal(err)
	}
	write := func(name string, export map[string]any) string {
		t.Helper()
		proj["export"] = export
		b, _ := json.Marshal(proj)
		p := filepath.Join(dir, name+".orogen.json")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	outputs := []any{map[string]any{"kind": "heightmap", "format": "tif", "size": 64, "path": "h"}}
	cone := write("cone", map[string]any{"outputs": outputs, "hydro_steps": 20})
	onGPU := write("ongpu", map[string]any{"outputs": outputs, "hydro_steps": 20, "device": "gpu"})
	build := func(proj string, args ...string) (map[string]any, string) {
		t.Helper()
		out := filepath.Join(dir, "out-"+strings.Join(args, ""))
		cmd := exec.Command(orogenBinary(t), append([]string{"build", proj, "--out-dir", out}, args...)...)
		stderr, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("build %v: %v\n%s", args, err, stderr)
		}
		rb, err := os.ReadFile(filepath.Join(out, "build-report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Outputs []map[string]any `json:"outputs"`
		}
		if err := json.Unmarshal(rb, &rep); err != nil || len(rep.Outputs) != 1 {
			t.Fatalf("report: %v\n%s", err, rb)
		}
		o := rep.Outputs[0]
		if o["amplified"] != 2.0 || o["hydro_steps"] != 20.0 {
			t.Errorf("build %v: output %v; want amplified 2, hydro_steps 20", args, o)
		}
		return o, string(stderr)
	}
	if o, _ := build(cone); o["hydro_device"] != "cpu" {
		t.Errorf("no device anywhere: the pass ran on %v; want the CPU", o["hydro_device"])
	}
	if o, _ := build(cone, "--device", "cpu"); o["hydro_device"] != "cpu" {
		t.Errorf("--device cpu: the pass ran on %v", o["hydro_device"])
	}
	dev, openErr := gpu.Open(gpu.Options{AllowSoftware: true})
	var software bool
	if openErr == nil {
		software = dev.Info().Software
		dev.Close()
	}
	for _, c := range []struct {
		proj string
		args []string
	}{{cone, []string{"--device", "gpu"}}, {onGPU, nil}} {
		o, stderr := build(c.proj, c.args...)
		d, _ := o["hydro_device"].(string)
		if openErr != nil {
			if d != "cpu" || o["hydro_fallback"] == nil || !strings.Contains(stderr, "running on the CPU") {
				t.Errorf("%v without a GPU: ran on %q, stderr %q; want the CPU and a line saying why", c.args, d, stderr)
			}
			continue
		}
		if d == "cpu" || !strings.Contains(stderr, "hydraulic pass (20 steps) on "+d) {
			t.Errorf("%s %v: the pass ran on %q; stderr %q", filepath.Base(c.proj), c.args, d, stderr)
		}
	}
	// --help's example, on a project named as it names it (its profile
	// says gpu, --device auto overrides it).
	code, help, _ := runCLI("build", "--help")
	var example []string
	for _, l := range strings.Split(help, "\n") {
		if f := strings.Fields(l); len(f) == 5 && strings.Join(f[:2], " ") == "orogen build" && f[3] == "--device" {
			example = f[2:]
		}
	}
	if code != 0 || example == nil {
		t.Fatalf("build --help (exit %d) has no --device example", code)
	}
	write(strings.TrimSuffix(example[0], ".orogen.json"), map[string]any{"outputs": outputs, "hydro_steps": 20, "device": "gpu"})
	o, stderr := build(filepath.Join(dir, example[0]), example[1:]...)
	if d := o["hydro_device"]; (software || openErr != nil) && (d != "cpu" || o["hydro_fallback"] == nil || !strings.Contains(stderr, "running on the CPU")) {
		t.Errorf("--device auto without a hardware GPU: ran on %v (stderr %q); want the CPU and why", d, stderr)
	} else if !software && openErr == nil && d == "cpu" {
		t.Errorf("--device auto with a hardware GPU ran on the CPU: %q", stderr)
	}
	for _, c := range []struct {
		export map[string]any
		args   []string
		want   string
	}{
		{map[string]any{"outputs": outputs, "hydro_steps": 20, "device": "tpu"}, nil, `"device" "tpu": use cpu, gpu, auto`},
		{map[string]any{"outputs": outputs, "hydro_steps": 20}, []string{"--device", "tpu"}, "use cpu, gpu or auto"},
	} {
		p := write("bad", c.export)
		cmd := exec.Command(orogenBinary(t), append([]string{"build", p, "--out-dir", filepath.Join(dir, "bad")}, c.args...)...)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) || strings.Count(strings.TrimSpace(string(out)), "\n") > 0 {
			t.Errorf("%v %v: %v, %q; want one line saying %q", c.export, c.args, err, out, c.want)
		}
	}
}

// TestErodeGeologyDevice: orogen erode --geology runs on the GPU (it fell
// back to the CPU before the rock kernel), and its terrain is the CPU's
// within float32 rounding.
func TestErodeGeologyDevice(t *testing.T) {
	dev, err := gpu.Open(gpu.Options{AllowSoftware: true})
	if err != nil {
		t.Skipf("no OpenGL 4.3 device: %v", err)
	}
	dev.Close()
	dir := t.TempDir()
	in, geo := filepath.Join(dir, "h.tif"), filepath.Join(dir, "geo.json")
	writeHills(t, in, 40, 36)
	if err := os.WriteFile(geo, []byte(`{"base":-100,"stack":[{"repeat":10,"layers":[{"name":"soft","thickness":20,"rock":"Clay"},{"name":"hard","thickness":10,"rock":"Quartzite"}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var heights [2][]float32
	for k, device := range []string{"cpu", "gpu"} {
		out, r := filepath.Join(dir, device+".tif"), filepath.Join(dir, device+".json")
		code, _, stderr := runCLI("erode", "-q", "--in", in, "--steps", "30", "--geology", geo, "--device", device, "--out", out, "--report", r)
		if code != 0 {
			t.Fatalf("--device %s: exit %d: %s", device, code, stderr)
		}
		var rep map[string]any
		b, _ := os.ReadFile(r)
		if err := json.Unmarshal(b, &rep); err != nil {
			t.Fatal(err)
		}
		if d, _ := rep["device"].(string); (device == "gpu") == (d == "cpu") {
			t.Errorf("--geology --device %s ran on %q (%s)", device, d, stderr)
		}
		f, err := rasterio.ReadHeights(out)
		if err != nil {
			t.Fatal(err)
		}
		heights[k] = f.Data
	}
	var worst float64
	for i := range heights[0] {
		worst = math.Max(worst, math.Abs(float64(heights[0][i])-float64(heights[1][i])))
	}
	if worst > 0.02 { // 1e-4 of the 200 m relief
		t.Errorf("--geology: the GPU's terrain differs from the CPU's by up to %.3g m", worst)
	}
}

// TestRunGridDevice: orogen run --device gpu runs the grid engine on the
// GPU (gpu/splgpu; Mesa's llvmpipe here) and says so; --device auto takes
// no software rasterizer and says why; rain (the lakes' water budget)
// runs with it and the report has the budget; the terrains
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
	rep = filepath.Join(dir, "r.json")
	code, _, stderr = runCLI("run", "--scene", "default", "--size", "48", "--steps", "2", "--rain", "0.5", "--device", "gpu", "--out", filepath.Join(dir, "r.tif"), "--report", rep)
	if code != 0 || !strings.Contains(stderr, "grid engine on") || strings.Contains(stderr, "running on the CPU") {
		t.Errorf("--device gpu --rain 0.5: exit %d, %q; want the grid engine on the GPU", code, stderr)
	}
	if b, err := os.ReadFile(rep); err != nil || !strings.Contains(string(b), `"water_budget"`) || strings.Contains(string(b), `"device": "cpu"`) {
		t.Errorf("--device gpu --rain 0.5: the report names the CPU or has no water budget (%v)", err)
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
