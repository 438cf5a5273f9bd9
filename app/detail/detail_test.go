package detail

import (
	"math"
	"testing"
	"time"

	"orogen/sim"
	"orogen/sim/hydro"
)

// bowl is a 48×48 terrain of 30 m cells: a cone-shaped valley.
func bowl() hydro.Config {
	const n, cell = 48, 30.0
	f := sim.NewField(n, n, cell)
	for y := range n {
		for x := range n {
			f.Data[y*n+x] = float32(2 * math.Hypot(float64(x)-23.5, float64(y)-23.5))
		}
	}
	p := hydro.DefaultParams(cell)
	p.Boundary = hydro.Walls
	return hydro.Config{Terrain: f, Params: p}
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestRunner: paused it does not step; running it steps and publishes;
// paused again its frames stop changing; parameters apply; rain gathers
// in the bowl's bottom, where the frames show it.
func TestRunner(t *testing.T) {
	r, err := Start(bowl(), false, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f0 := r.Frame()
	if f0.Snap.Step != 0 || f0.Running {
		t.Fatalf("paused start: step %d running %v", f0.Snap.Step, f0.Running)
	}
	time.Sleep(20 * time.Millisecond)
	if r.Frame().Snap.Step != 0 {
		t.Fatal("a paused runner stepped")
	}
	r.Run()
	waitFor(t, "300 steps", func() bool { return r.Frame().Snap.Step >= 300 })
	r.Pause()
	waitFor(t, "a paused frame", func() bool { return !r.Frame().Running })
	f := r.Frame()
	time.Sleep(20 * time.Millisecond)
	if g := r.Frame(); g.Snap.Step != f.Snap.Step {
		t.Fatalf("after Pause the runner went on from step %d to %d", f.Snap.Step, g.Snap.Step)
	}
	// Water gathers in the middle, and is shown only where deep enough.
	s := f.Snap
	mid := s.Water[24*s.W+24]
	if !(mid >= ShownDepthM) {
		t.Errorf("water at the bowl's bottom: %g m shown; want a pool (≥ %g)", mid, ShownDepthM)
	}
	for i, d := range s.Water {
		if d != 0 && d < ShownDepthM {
			t.Fatalf("cell %d shows %g m of water; want 0 or ≥ %g", i, d, ShownDepthM)
		}
	}
	if len(s.Sediment) != s.W*s.H || len(s.Hardness) != s.W*s.H {
		t.Fatal("frame without sediment or hardness")
	}
	// Parameters: a bad one is refused, a good one shows in the next frame.
	p := f.Params
	p.Kr = math.NaN()
	if err := r.Set(p); err == nil {
		t.Error("Set accepted a NaN rain rate")
	}
	p.Kr = 0
	if err := r.Set(p); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the new parameters", func() bool { return r.Frame().Params.Kr == 0 })
	// Keep: a copy of the terrain.
	tf := r.Frame().Terrain()
	tf.Data[0] = -1e6
	if r.Frame().Snap.Height[0] == -1e6 {
		t.Error("Terrain returned the frame's own slice")
	}
	r.Close()
	r.Close() // twice is fine
}

// TestStartErrors: a bad configuration is reported, not started.
func TestStartErrors(t *testing.T) {
	c := bowl()
	c.Params.Dt = -1
	if _, err := Start(c, true, 0); err == nil {
		t.Error("Start accepted dt = -1")
	}
	if _, err := Start(bowl(), true, 2); err == nil {
		t.Error("Start accepted duty 2")
	}
}
