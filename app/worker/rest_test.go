package worker

import (
	"testing"

	"orogen/app/runner"
	"orogen/sim/simtest"
)

// TestRestsWhenSettled: a running worker stops stepping once the terrain
// has settled (the frames say Running and Resting; Syncs answer with the
// same step), and steps again when the uplift changes, until it settles
// again.
func TestRestsWhenSettled(t *testing.T) {
	cfg := sceneConfig(t, 48)
	settled := make(chan struct{}, 1)
	w, _ := startHooked(t, cfg, runner.Options{MinInterval: -1}, func(f *Frame) {
		if f.Resting {
			select {
			case settled <- struct{}{}:
			default:
			}
		}
	})
	waitRest := func() *Frame {
		t.Helper()
		<-settled
		f := syncFrame(t, w)
		if !f.Converged || !f.Resting || !f.Running || f.StepsPerSec != 0 {
			t.Fatalf("at rest: converged %v, resting %v, running %v, %g steps/s; want true, true, true, 0",
				f.Converged, f.Resting, f.Running, f.StepsPerSec)
		}
		for range 3 {
			if g := syncFrame(t, w); g.Snap.Step != f.Snap.Step || !g.Resting {
				t.Fatalf("settled at step %d, then step %d (resting %v): the worker kept stepping", f.Snap.Step, g.Snap.Step, g.Resting)
			}
		}
		return f
	}
	f := waitRest()
	t.Logf("rested at step %d, %.3g yr", f.Snap.Step, f.Snap.Time)
	first := f.Snap.Step
	// Drain a rest signal sent before the new uplift.
	select {
	case <-settled:
	default:
	}
	// The frame Await returns is the newest: on one thread the worker may
	// have stepped to rest again before the test reads it (a 48² grid
	// settles in a few steps), so a resting frame must be a later step.
	if g := syncFrame(t, w, SetUplift{U: simtest.Scale(cfg.Up, 1.2)}); (g.Resting || g.Converged) && g.Snap.Step <= first {
		t.Fatalf("after a new uplift: resting %v, converged %v at step %d; want stepping", g.Resting, g.Converged, g.Snap.Step)
	}
	if f = waitRest(); f.Snap.Step <= first {
		t.Fatalf("rested again at step %d; want after step %d", f.Snap.Step, first)
	}
}
