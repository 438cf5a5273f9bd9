package detail

import (
	"math"
	"testing"

	"orogen/app/runner"
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

// syncFrame sends cmds followed by a Sync, waits for the reply and returns
// the frame published by then.
func syncFrame(t *testing.T, r *Runner, cmds ...runner.Command) *Frame {
	t.Helper()
	f, want := r.Await(cmds...)
	if f == nil {
		t.Fatal("the runner closed before it answered a Sync")
	}
	if f.Seq < want {
		t.Fatalf("frame after Sync %d has Seq %d; want >= %d", want, f.Seq, want)
	}
	return f
}

// TestRunner: paused it does not step; running it steps and publishes;
// paused again its frames stop changing; parameters apply; rain gathers
// in the bowl's bottom, where the frames show it.
func TestRunner(t *testing.T) {
	r, err := New(bowl(), runner.Options{Paused: true, Duty: 0.8})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f0 := r.Frame()
	if f0.Snap.Step != 0 || f0.Running {
		t.Fatalf("paused start: step %d running %v", f0.Snap.Step, f0.Running)
	}
	if f := syncFrame(t, r); f.Snap.Step != 0 {
		t.Fatal("a paused runner stepped")
	}
	// Running, every Sync is answered after one more step at least.
	r.Send(runner.Run{})
	for f := syncFrame(t, r); f.Snap.Step < 300; f = syncFrame(t, r) {
		if !f.Running || f.Err != nil {
			t.Fatalf("at step %d: running %v, err %v; want running, no error", f.Snap.Step, f.Running, f.Err)
		}
	}
	f := syncFrame(t, r, runner.Pause{})
	if f.Running {
		t.Fatal("the frame after Pause says running")
	}
	if g := syncFrame(t, r); g.Snap.Step != f.Snap.Step {
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
	if g := syncFrame(t, r, SetParams{P: p}); g.CmdErr == nil || g.CmdErrSeq != g.Seq-1 || !(g.Params.Kr == f.Params.Kr) {
		t.Errorf("SetParams with a NaN rain rate: CmdErr %v at %d, rain %g; want an error at %d, rain %g kept", g.CmdErr, g.CmdErrSeq, g.Params.Kr, g.Seq-1, f.Params.Kr)
	}
	p.Kr = 0
	if g := syncFrame(t, r, SetParams{P: p}); g.Params.Kr != 0 || g.CmdErrSeq == g.Seq-1 {
		t.Fatalf("SetParams with no rain: rain %g, CmdErr %v; want 0, accepted", g.Params.Kr, g.CmdErr)
	}
	// Keep: a copy of the terrain.
	tf := r.Frame().Terrain()
	tf.Data[0] = -1e6
	if r.Frame().Snap.Height[0] == -1e6 {
		t.Error("Terrain returned the frame's own slice")
	}
	r.Close()
	r.Close() // twice is fine
}

// TestStepHolds: the runner's Step and Sync serve the detail pass: a
// script of Step and SetParams runs as written (the runner's tests check
// that the commands after a Step wait for its steps).
func TestStepHolds(t *testing.T) {
	r, err := New(bowl(), runner.Options{Paused: true, MinInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := r.Frame().Params
	p.Kr *= 2
	f := syncFrame(t, r, runner.Step{N: 5}, SetParams{P: p}, runner.Step{N: 2})
	if f.Snap.Step != 7 || f.Running || f.StepsLeft != 0 || f.Params.Kr != p.Kr {
		t.Fatalf("after Step{5}, SetParams, Step{2}: step %d, running %v, %d left, rain %g; want 7, paused, 0, %g", f.Snap.Step, f.Running, f.StepsLeft, f.Params.Kr, p.Kr)
	}
	if f.Seq != 4 {
		t.Fatalf("Seq %d; want 4", f.Seq)
	}
}

// TestNewErrors: a bad configuration is reported, not started.
func TestNewErrors(t *testing.T) {
	c := bowl()
	c.Params.Dt = -1
	if _, err := New(c, runner.Options{}); err == nil {
		t.Error("New accepted dt = -1")
	}
	for _, d := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := New(bowl(), runner.Options{Duty: d}); err == nil {
			t.Errorf("New accepted duty %g", d)
		}
	}
}
