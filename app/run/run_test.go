package run

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/app/scene"
	"orogen/app/scene/scenetest"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/flow"
)

func ptr[T any](v T) *T { return &v }

func TestRunWritesOutputsAndReport(t *testing.T) {
	dir := t.TempDir()
	o := Options{
		Scene: "default", Size: 64, Steps: 12,
		Out:         filepath.Join(dir, "h.tif"),
		OutDrainage: filepath.Join(dir, "a.png"),
		OutWater:    filepath.Join(dir, "w.r16"),
		Report:      filepath.Join(dir, "report.json"),
	}
	job, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Steps != 12 || len(rep.StepMs) != 12 || rep.Width != 64 || rep.CellSize != 50000.0/64 {
		t.Fatalf("report: %d steps, %d timings, width %d, cell %g", rep.Steps, len(rep.StepMs), rep.Width, rep.CellSize)
	}
	h, err := rasterio.ReadHeights(o.Out)
	if err != nil {
		t.Fatal(err)
	}
	_, hi := h.MinMax()
	// float32 TIFF: exact.
	if float64(hi) != rep.MaxHeight || hi <= 0 {
		t.Fatalf("heightmap max %g; report says %g", hi, rep.MaxHeight)
	}
	for _, p := range []string{o.OutDrainage, o.OutWater} {
		if _, err := rasterio.ReadHeights(p); err != nil {
			t.Fatalf("mask %s: %v", p, err)
		}
	}
	var doc map[string]any
	b, err := os.ReadFile(o.Report)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"version", "engine", "width", "height", "cell_size_m", "steps", "converged", "max_height_m", "mean_height_m", "step_ms", "phase_ms", "max_dh_m"} {
		if _, ok := doc[key]; !ok {
			t.Errorf("report lacks %q", key)
		}
	}
	phases := doc["phase_ms"].(map[string]any)
	for _, name := range []string{"routing", "lakes", "stack", "area", "erosion", "hillslope", "talus"} {
		if v, ok := phases[name].([]any); !ok || len(v) != 12 {
			t.Errorf("phase_ms.%s: %v; want 12 timings", name, phases[name])
		}
	}
}

func TestUntilConvergedStops(t *testing.T) {
	job, err := Prepare(Options{Scene: scenetest.File(t, "cone"), Size: 32, Steps: 3000, UntilConverged: true, Tolerance: 1e-5})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Converged || rep.Steps >= 3000 {
		t.Fatalf("converged %v after %d steps; want convergence before the cap", rep.Converged, rep.Steps)
	}
	last := rep.MaxDh[len(rep.MaxDh)-1] / job.Engine.Params().Dt
	if last >= 1e-5 {
		t.Fatalf("stopped at max |Δh|/dt = %g m/yr; want < 1e-5", last)
	}
}

func TestOverrides(t *testing.T) {
	job, err := Prepare(Options{
		Scene: "default", Size: 40, K: ptr(2e-6), M: ptr(0.45), N: ptr(1.2), Dt: ptr(1e5),
		Talus: ptr(0.0), Diffusion: ptr(0.0), Seed: ptr(uint64(9)),
	})
	if err != nil {
		t.Fatal(err)
	}
	p := job.Engine.Params()
	if p.K != 2e-6 || p.M != 0.45 || p.N != 1.2 || p.Dt != 1e5 || p.Kappa != 0 || p.Talus.Mode != "off" || job.Scene.Seed != 9 {
		t.Fatalf("overrides not applied: %+v seed %d", p, job.Scene.Seed)
	}
	job, err = Prepare(Options{Scene: "default", Size: 40, Edges: "north=natural, w=closed"})
	if err != nil {
		t.Fatal(err)
	}
	if e := job.Engine.Params().Edges; e.North != flow.Natural || e.West != flow.Closed || e.South != flow.Outlet {
		t.Fatalf("--edges north=natural,w=closed gave %+v", e)
	}
	job, err = Prepare(Options{Scene: "default", Size: 40, Talus: ptr(45.0), Umax: ptr(1e-3), TargetHeight: ptr(3000.0)})
	if err != nil {
		t.Fatal(err)
	}
	p = job.Engine.Params()
	if p.Talus.Mode != "constant" || p.Talus.AngleDeg != 45 {
		t.Fatalf("--talus 45 gave %+v", p.Talus)
	}
	if want := 2.244 * 1e-3 / 3000; math.Abs(p.K-want) > 1e-20 {
		t.Fatalf("--target-height 3000 with umax 1e-3 gave k = %g; want %g", p.K, want)
	}
}

// TestTargetHeight checks what --target-height relies on (Cordonnier et al.
// 2016, §6.4): at steady state the height is linear in u/k, so halving the
// target halves the peaks. With talus and hillslope off and n = 1 the steady
// state is h ∝ u/k exactly; the 150 steps at 128² leave the transient within
// 5%.
func TestTargetHeight(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 2×150 steps at 128²")
	}
	classic := scenetest.File(t, "default") // no deposition, uniform k: h ∝ u/k
	peak := func(target float64) float64 {
		job, err := Prepare(Options{Scene: classic, Size: 128, Steps: 150, TargetHeight: ptr(target), Talus: ptr(0.0), Diffusion: ptr(0.0)})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := job.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return rep.MaxHeight
	}
	lo, hi := peak(1500), peak(3000)
	t.Logf("peaks %.0f m and %.0f m for targets 1500 m and 3000 m", lo, hi)
	if r := hi / lo; math.Abs(r-2) > 0.1 {
		t.Fatalf("peak ratio %.3f for a target ratio of 2; want 2 within 5%%", r)
	}
}

func TestInitFromFileAndZeroUplift(t *testing.T) {
	dir := t.TempDir()
	f := sim.NewField(48, 40, 100)
	for y := 0; y < f.H; y++ {
		for x := 0; x < f.W; x++ {
			f.Set(x, y, float32(300+200*math.Sin(float64(x)/5)*math.Cos(float64(y)/4)))
		}
	}
	in := filepath.Join(dir, "init.png")
	if err := rasterio.Write(in, f); err != nil {
		t.Fatal(err)
	}
	job, err := Prepare(Options{Scene: "default", Init: in, Umax: ptr(0.0), Dt: ptr(1e4), Steps: 5})
	if err != nil {
		t.Fatal(err)
	}
	w, h, cell := job.Engine.Size()
	if w != 48 || h != 40 || cell != 100 {
		t.Fatalf("grid %d×%d at %g m; want the file's 48×40 at 100 m", w, h, cell)
	}
	// With --size the file is resampled and keeps its 4.8 km extent.
	job2, err := Prepare(Options{Scene: "default", Init: in, Size: 96, Umax: ptr(0.0), Steps: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w, h, cell := job2.Engine.Size(); w != 96 || h != 80 || cell != 50 {
		t.Fatalf("--size 96: grid %d×%d at %g m; want 96×80 at 50 m (the file's shape and 4800 m extent)", w, h, cell)
	}
	before := append([]float32(nil), job.Engine.Heights()...)
	if _, err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var vBefore, vAfter float64
	for i, v := range job.Engine.Heights() {
		vBefore += float64(before[i])
		vAfter += float64(v)
	}
	if !(vAfter < vBefore) {
		t.Fatalf("erosion without uplift did not lower the terrain: volume %g → %g", vBefore, vAfter)
	}
}

// TestInitKeepsHeights: an imported heightmap (--init) reaches the
// engine bit for bit: no initial noise unless --init-noise asks, and then
// noise in [0, M) on every cell. (The scene's init_noise_m of 1 m used to
// move 99 % of a DEM's cells.) A float .tif holds the heights exactly.
func TestInitKeepsHeights(t *testing.T) {
	dir := t.TempDir()
	f := sim.NewField(40, 30, 25)
	for i := range f.Data {
		f.Data[i] = float32(120 + 80*math.Sin(float64(i)*0.37) + float64(i%7)*0.001)
	}
	in := filepath.Join(dir, "dem.tif")
	if err := rasterio.Write(in, f); err != nil {
		t.Fatal(err)
	}
	job, err := Prepare(Options{Scene: "default", Init: in, Umax: ptr(0.0)})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range job.Engine.Heights() {
		if v != f.Data[i] {
			t.Fatalf("cell %d: height %v; want the file's %v (no noise with --init)", i, v, f.Data[i])
		}
	}
	const m = 0.5
	job, err = Prepare(Options{Scene: "default", Init: in, Umax: ptr(0.0), InitNoise: ptr(m)})
	if err != nil {
		t.Fatal(err)
	}
	var moved int
	for i, v := range job.Engine.Heights() {
		d := float64(v) - float64(f.Data[i])
		if d < -1e-4 || d > m+1e-4 { // 1e-4: float32 rounding of heights ~200 m
			t.Fatalf("cell %d: noise %g m; want in [0, %g)", i, d, m)
		}
		if d != 0 {
			moved++
		}
	}
	// The default scene's edges are outlets, base level: only the
	// interior gets noise.
	if interior := (f.W - 2) * (f.H - 2); moved != interior {
		t.Errorf("--init-noise %g moved %d cells; want the %d interior ones", m, moved, interior)
	}
	if _, err := Prepare(Options{Scene: "default", Init: in, InitNoise: ptr(-1.0)}); err == nil || !strings.Contains(err.Error(), "--init-noise") {
		t.Errorf("--init-noise -1: error %v; want one naming --init-noise", err)
	}
}

func TestBadInputs(t *testing.T) {
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "bad.png")
	os.WriteFile(corrupt, []byte("\x89PNG\r\n\x1a\nnot really"), 0o644)
	cases := []struct {
		o    Options
		want string
	}{
		{Options{Scene: filepath.Join(dir, "missing.json")}, "missing.json"},
		{Options{Scene: "default", K: ptr(math.NaN())}, "k"},
		{Options{Scene: "default", Dt: ptr(-5.0)}, "dt"},
		{Options{Scene: "default", Size: -3}, "size"},
		{Options{Scene: "default", Talus: ptr(95.0)}, "talus"},
		{Options{Scene: "default", Uplift: filepath.Join(dir, "nope.png")}, "nope.png"},
		{Options{Scene: "default", Uplift: corrupt}, "bad.png"},
		{Options{Scene: "default", Init: corrupt}, "bad.png"},
		{Options{Scene: "default", TargetHeight: ptr(-1.0)}, "target-height"},
		{Options{Scene: "default", Engine: "voxel"}, "voxel"},
		{Options{Scene: "default", Umax: ptr(0.0)}, "neither"},
		{Options{Scene: "default", Edges: "open"}, "unknown kind"},
		{Options{Scene: "default", Edges: "up=closed"}, "unknown side"},
		{Options{Scene: "default", Edges: "closed"}, "nowhere to go"},
		{Options{Scene: "default", Out: filepath.Join(dir, "no", "h.png")}, "create it first"},
		{Options{Scene: "default", Out: filepath.Join(dir, "h.jpg")}, ".jpg"},
		{Options{Scene: "default", Report: filepath.Join(dir, "no", "r.json")}, "report"},
	}
	for _, tc := range cases {
		_, err := Prepare(tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Prepare(%+v): error %v; want one mentioning %q", tc.o, err, tc.want)
		}
	}
}

// TestCancelledRunWritesNothing: a run cancelled (Ctrl+C) after 3 steps
// stops there and writes nothing over the outputs of an earlier run, the
// report included; its error says so and wraps context.Canceled (issue
// 31.2).
func TestCancelledRunWritesNothing(t *testing.T) {
	dir := t.TempDir()
	out, rep := filepath.Join(dir, "h.png"), filepath.Join(dir, "r.json")
	os.WriteFile(out, []byte("earlier"), 0o644)
	job, err := Prepare(Options{Scene: "cone", Size: 32, Steps: 1000, Out: out, Report: rep})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	job.Opt.OnStep = func(engine.StepStats) {
		if n++; n == 3 {
			cancel()
		}
	}
	r, err := job.Run(ctx)
	var ie *InterruptedError
	if !errors.Is(err, context.Canceled) || !errors.As(err, &ie) || r == nil || r.Steps != 3 || ie.Steps != 3 {
		t.Fatalf("cancelled run: err %v, report %v; want an InterruptedError after 3 steps", err, r)
	}
	if b, _ := os.ReadFile(out); string(b) != "earlier" {
		t.Error("the cancelled run wrote h.png")
	}
	if _, err := os.Stat(rep); err == nil {
		t.Error("the cancelled run wrote its report")
	}
}

// TestTreePresets runs every Uplift Tree preset for a few steps and checks
// that its uplift reaches umax somewhere and vanishes at the outlets.
func TestTreePresets(t *testing.T) {
	for _, name := range []string{"collision", "arc", "plateau", "island"} {
		job, err := Prepare(Options{Scene: name, Size: 64, Steps: 3})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if job.Scene.Uplift.Tree == nil {
			t.Fatalf("%s: not a tree scene", name)
		}
		up, err := job.Scene.UpliftField("", 64, 64, 50000.0/64, 5e-4)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := up.MinMax()
		// Every preset peaks between half and all of umax; nothing is
		// negative.
		if hi < 2.5e-4 || hi > 5e-4*1.0001 || lo < 0 {
			t.Errorf("%s: uplift in [%g, %g] m/yr; want peaks in [2.5e-4, 5e-4] and nothing below 0", name, lo, hi)
		}
		rep, err := job.Run(context.Background())
		if err != nil || rep.MaxHeight <= 0 {
			t.Fatalf("%s: %v, max height %g", name, err, rep.MaxHeight)
		}
	}
}

// TestUpliftFieldMatchesTree checks the scene path rasterizes the tree at
// cell centres of the scene's domain.
func TestUpliftFieldMatchesTree(t *testing.T) {
	sc, err := scene.Load("island")
	if err != nil {
		t.Fatal(err)
	}
	const n = 50
	f, err := sc.UpliftField("", n, n, 1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][2]int{{25, 25}, {10, 30}, {0, 0}} {
		want := sc.Uplift.Tree.Eval((float64(c[0])+0.5)*1000, (float64(c[1])+0.5)*1000)
		// float32 storage of a value in [0, 1.2]: 1e-7 relative.
		if got := float64(f.At(c[0], c[1])); math.Abs(got-want) > 1e-6 {
			t.Errorf("cell %v: %g; the tree gives %g", c, got, want)
		}
	}
}

// TestMovedSceneFiles: a scene whose initial heights or uplift image are
// not where it says (moved, or another machine's paths) is refused with a
// message naming the file and the ways out.
func TestMovedSceneFiles(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ key, value, want string }{
		{"init", `{"image": "/elsewhere/start.tif"}`, "/elsewhere/start.tif"},
		{"uplift", `{"image": "gone/up.png", "umax_m_per_yr": 0.0005}`, filepath.Join(dir, "gone", "up.png")},
	} {
		b, err := os.ReadFile(filepath.Join("..", "project", "testdata", "v1", "default.orogen.json"))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		var sc map[string]json.RawMessage
		if err := json.Unmarshal(doc["scene"], &sc); err != nil {
			t.Fatal(err)
		}
		sc[c.key] = json.RawMessage(c.value)
		out, _ := json.Marshal(sc)
		path := filepath.Join(dir, "moved.json")
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = Prepare(Options{Scene: path, Steps: 1})
		for _, want := range []string{c.want, "no such file", "--" + c.key + " FILE"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %s: error %v; want one with %q", c.key, c.value, err, want)
			}
		}
	}
}
