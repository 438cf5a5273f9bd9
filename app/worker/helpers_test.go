package worker

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"orogen/app/engines"
	"orogen/app/run"
	"orogen/app/runner"
	"orogen/app/scene/scenetest"
	"orogen/sim/engine"
	"orogen/sim/grid"
	"orogen/sim/simtest"
)

// sceneConfig returns the default preset's grid and uplift with the
// classic physics (scenetest: it settles in tens of steps) at n cells a
// side; the configs are built once and cloned, since Prepare reads and
// resamples the uplift image.
func sceneConfig(t testing.TB, n int) engines.Spec {
	t.Helper()
	cfgMu.Lock()
	defer cfgMu.Unlock()
	c, ok := cfgs[n]
	if !ok {
		var err error
		c, err = sceneSpec(scenetest.File(t, "default"), n)
		if err != nil {
			t.Fatal(err)
		}
		cfgs[n] = c
	}
	c.Up = slices.Clone(c.Up)
	c.Init = slices.Clone(c.Init)
	return c
}

var (
	cfgMu sync.Mutex
	cfgs  = map[int]engines.Spec{}
)

// lakeConfig returns the default preset at n cells a side on a rough start
// with thousands of depressions and a low uplift (1/50 of the preset's),
// so snapshots hold lakes with water: under the preset's uplift of 125 m
// a step, every basin fills above the level its routing found, and the
// water depths are all 0.
func lakeConfig(t testing.TB, n int) engines.Spec {
	c := sceneConfig(t, n)
	c.Init = simtest.Rough(n, n, 300, 3)
	c.Up = simtest.Scale(c.Up, 0.02)
	return c
}

// recorder collects every published frame through the test hook.
type recorder struct {
	mu     sync.Mutex
	frames []*Frame
}

func (r *recorder) add(f *Frame) {
	r.mu.Lock()
	r.frames = append(r.frames, f)
	r.mu.Unlock()
}

func (r *recorder) all() []*Frame {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.frames)
}

// startRecorded starts a worker whose frames are all recorded, and
// returns its driver for the test hooks.
func startRecorded(t testing.TB, cfg engines.Spec, o runner.Options) (*Worker, *recorder, *driver) {
	t.Helper()
	r := &recorder{}
	w, d := startHooked(t, cfg, o, r.add)
	return w, r, d
}

// startHooked starts a worker that calls onPublish (if not nil) with every
// frame, and returns its driver for the test hooks. The test's cleanup
// closes it.
func startHooked(t testing.TB, cfg engines.Spec, o runner.Options, onPublish func(*Frame)) (*Worker, *driver) {
	t.Helper()
	d, err := newDriver(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d.onPublish = onPublish
	w, err := runner.New(d, o)
	if err != nil {
		t.Fatal(err)
	}
	d.geo.wake = w.Wake // as New does
	t.Cleanup(w.Close)
	return w, d
}

func start(t testing.TB, cfg engines.Spec, o runner.Options) *Worker {
	t.Helper()
	w, err := New(cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	return w
}

// syncFrame sends cmds followed by a Sync, waits for the reply and returns the
// frame published by then.
func syncFrame(t testing.TB, w *Worker, cmds ...runner.Command) *Frame {
	t.Helper()
	f, want := w.Await(cmds...)
	if f == nil {
		t.Fatal("the runner closed before it answered a Sync")
	}
	if f.Seq < want {
		t.Fatalf("frame after Sync %d has Seq %d; want >= %d", want, f.Seq, want)
	}
	return f
}

// checkSnapshot checks that a snapshot's fields belong to one step:
// receivers and drainage area form one drainage forest, all rain reaches a
// root, and the water depths sit on the heights up to a lake level.
func checkSnapshot(s *engine.Snapshot) error {
	n := s.W * s.H
	for name, l := range map[string]int{"Height": len(s.Height), "Area": len(s.Area), "Receivers": len(s.Receivers), "Water": len(s.Water)} {
		if l != n {
			return fmt.Errorf("len(%s) = %d; want %d", name, l, n)
		}
	}
	if s.Uplift != nil && len(s.Uplift) != n {
		return fmt.Errorf("len(Uplift) = %d; want %d", len(s.Uplift), n)
	}
	if s.Step != s.Stats.Step {
		return fmt.Errorf("Step %d, Stats.Step %d; want equal", s.Step, s.Stats.Step)
	}
	cellA := s.Cell * s.Cell
	var roots float64
	for i, r := range s.Receivers {
		if r < 0 || int(r) >= n {
			return fmt.Errorf("receiver of %d is %d, outside the grid", i, r)
		}
		if h := float64(s.Height[i]); math.IsNaN(h) || math.IsInf(h, 0) {
			return fmt.Errorf("height %g at %d", h, i)
		}
		if int(r) == i {
			roots += float64(s.Area[i])
			continue
		}
		// A receiver gathers its own cell and every donor's area; float32
		// rounding is monotone, so this holds exactly.
		if s.Area[r] < s.Area[i] {
			return fmt.Errorf("cell %d: area %g drains to %d with area %g; want >= donor's", i, s.Area[i], r, s.Area[r])
		}
	}
	// Sum of n float32 areas in float64: relative error ~ 1e-7 each.
	if total := float64(n) * cellA; math.Abs(roots-total) > 1e-5*total {
		return fmt.Errorf("area at roots sums to %g m²; want %g (the whole grid)", roots, total)
	}
	levels := make([]float64, 0, len(s.Lakes))
	for _, lk := range s.Lakes {
		levels = append(levels, float64(lk.Level))
	}
	slices.Sort(levels)
	for i, d := range s.Water {
		if d < 0 {
			return fmt.Errorf("water depth %g at %d", d, i)
		}
		if d == 0 {
			continue
		}
		// Water is Level - h in float32; h + water recovers the level to
		// a few ulps of the level (1e-3 m covers ulps up to 8 km).
		top := float64(s.Height[i]) + float64(d)
		k, _ := slices.BinarySearch(levels, top)
		near := math.Inf(1)
		for _, j := range []int{k - 1, k} {
			if j >= 0 && j < len(levels) {
				near = min(near, math.Abs(levels[j]-top))
			}
		}
		if near > 1e-3 {
			return fmt.Errorf("cell %d: height %g + water %g = %g is %g m from every lake level", i, s.Height[i], d, top, near)
		}
	}
	return nil
}

// withKind returns s on the engine kind with samples nodes.
func withKind(s engines.Spec, k engine.Kind, samples int) engines.Spec {
	s.Kind, s.Samples = k, samples
	return s
}

// gridEngine builds the grid engine of s.
func gridEngine(s engines.Spec) (*grid.Engine, error) {
	e, err := engines.New(s)
	if err != nil {
		return nil, err
	}
	return e.(*grid.Engine), nil
}

// sceneSpec returns the engine of a scene (a preset name or
// a scene file; "" is the default preset) at size cells along its longer
// side (0 keeps the scene's size), as the tests start workers on. It
// resolves the scene as `orogen run --scene NAME --size N` does, so the
// worker and the CLI start from the same terrain.
func sceneSpec(name string, size int) (engines.Spec, error) {
	job, err := run.Prepare(run.Options{Scene: name, Size: size, Engine: grid.Kind.String()})
	if err != nil {
		return engines.Spec{}, err
	}
	e := job.Engine
	w, h, cell := e.Size()
	cfg := engines.Spec{
		Kind: grid.Kind, W: w, H: h, Cell: cell,
		InitNoise: job.Scene.Params.InitNoiseM,
		Seed:      job.Scene.Seed,
		Params:    e.Params(),
	}
	if s := e.Snapshot(); s.Uplift != nil {
		cfg.Up = s.Uplift
	}
	if job.Scene.Init != nil && job.Scene.Init.Image != "" {
		// The engine's heights are the scene's, resampled, with the
		// initial noise already added.
		cfg.Init, cfg.InitNoise = slices.Clone(e.Heights()), 0
	}
	return cfg, nil
}
