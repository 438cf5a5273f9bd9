package worker

import (
	"math"
	"orogen/app/runner"
	"orogen/sim/graph"
	"orogen/sim/grid"
	"runtime"
	"slices"
	"testing"
)

// TestGraphEngine runs the stream-graph engine in a worker: frames carry
// rasterized heights on the scene's grid and the stream arcs, uplift edits
// and imported heights apply, and a Reset switches between the engines.
func TestGraphEngine(t *testing.T) {
	cfg := sceneConfig(t, 64)
	w := start(t, withKind(cfg, graph.Kind, 1500), runner.Options{Paused: true})
	syncFrame(t, w, runner.Step{N: 20})
	f := syncFrame(t, w)
	if f.Engine != graph.Kind || f.Snap.Step != 20 {
		t.Fatalf("frame: engine %q step %d; want graph, 20", f.Engine, f.Snap.Step)
	}
	if f.Nodes < 1200 || f.Nodes > 1800 {
		t.Fatalf("graph of %d nodes; want about 1500", f.Nodes)
	}
	s := f.Snap
	if s.W != cfg.W || s.H != cfg.H || len(s.Height) != cfg.W*cfg.H || len(s.Receivers) != cfg.W*cfg.H {
		t.Fatalf("snapshot %d×%d with %d heights; want the scene's %d×%d grid", s.W, s.H, len(s.Height), cfg.W, cfg.H)
	}
	hi := slices.Max(s.Height)
	if !(hi > 1) {
		t.Fatalf("after 20 steps of uplift the highest cell is %g m; want > 1", hi)
	}
	// Every node but the outlets has an arc, inside the grid.
	if len(s.Arcs) < f.Nodes/2 || len(s.Arcs) >= f.Nodes {
		t.Fatalf("%d arcs for %d nodes", len(s.Arcs), f.Nodes)
	}
	for _, a := range s.Arcs {
		for _, v := range []float32{a.X0, a.X1} {
			if !(v >= 0 && v <= float32(cfg.W)) {
				t.Fatalf("arc %+v leaves the %d×%d grid", a, cfg.W, cfg.H)
			}
		}
		if !(a.Area > 0) {
			t.Fatalf("arc %+v carries no area", a)
		}
	}
	// No uplift: nothing rises any more.
	syncFrame(t, w, SetUplift{U: nil}, runner.Step{N: 1})
	f = syncFrame(t, w)
	if f.CmdErr != nil {
		t.Fatal(f.CmdErr)
	}
	if f.Snap.Uplift != nil {
		t.Fatal("snapshot still has an uplift after SetUplift{U: nil}")
	}
	// Imported heights keep the graph engine.
	flat := make([]float32, cfg.W*cfg.H)
	f = syncFrame(t, w, SetHeights{H: flat})
	if f.CmdErr != nil || f.Engine != graph.Kind || f.Snap.Step != 0 {
		t.Fatalf("after SetHeights: err %v engine %q step %d", f.CmdErr, f.Engine, f.Snap.Step)
	}
	if m := slices.Max(f.Snap.Height); m > float32(cfg.InitNoise)+1e-3 {
		t.Fatalf("imported flat heights: highest %g m; want <= the initial noise %g", m, cfg.InitNoise)
	}
	// Reset with another kind switches.
	f = syncFrame(t, w, Reset{Spec: cfg})
	if f.CmdErr != nil || f.Engine != grid.Kind || f.Nodes != cfg.W*cfg.H || f.Snap.Arcs != nil {
		t.Fatalf("after Reset to grid: err %v engine %q nodes %d arcs %d", f.CmdErr, f.Engine, f.Nodes, len(f.Snap.Arcs))
	}
}

// TestGraphWorkerDeterministic: the graph engine in a worker gives the same
// bytes whatever GOMAXPROCS.
func TestGraphWorkerDeterministic(t *testing.T) {
	cfg := sceneConfig(t, 48)
	run := func(procs int) []float32 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		c := cfg
		c.Up = slices.Clone(cfg.Up)
		w := start(t, withKind(c, graph.Kind, 800), runner.Options{Paused: true})
		syncFrame(t, w, runner.Step{N: 15})
		f := syncFrame(t, w)
		w.Close()
		return f.Snap.Height
	}
	a, b := run(1), run(2)
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			t.Fatalf("cell %d: %g with GOMAXPROCS 1, %g with 2", i, a[i], b[i])
		}
	}
}
