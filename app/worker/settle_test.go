package worker

import (
	"math"
	"sync/atomic"
	"testing"

	"orogen/app/runner"
	"orogen/sim/simtest"
)

// TestSettles runs the default preset (its classic physics: sceneConfig)
// until the worker reports it settled,
// with longer steps on the way, then changes the uplift: the worker goes
// back to the user's dt and settles again.
func TestSettles(t *testing.T) {
	cfg := sceneConfig(t, 64)
	base := cfg.Params.Dt
	settled := make(chan *Frame, 1)
	var longest atomic.Uint64 // float64 bits, written by the worker goroutine
	var armed atomic.Bool
	armed.Store(true)
	w, _ := startHooked(t, cfg, runner.Options{Paused: true, MinInterval: -1}, func(f *Frame) {
		if f.Dt > math.Float64frombits(longest.Load()) {
			longest.Store(math.Float64bits(f.Dt))
		}
		if f.Converged && armed.CompareAndSwap(true, false) {
			settled <- f
		}
	})
	wait := func() *Frame {
		t.Helper()
		w.Send(runner.Step{N: 3000})
		f := <-settled
		w.Send(runner.Pause{})
		return f
	}
	f := wait()
	if f.SettleSteps <= 0 || f.SettleSteps > f.Snap.Step || f.SettleTime <= 0 {
		t.Fatalf("settled at step %d after %d steps, %v", f.Snap.Step, f.SettleSteps, f.SettleTime)
	}
	if f.Dt != base || f.Snap.Param.Dt != base {
		t.Fatalf("settled with dt %g (snapshot's parameters: %g); want the user's %g", f.Dt, f.Snap.Param.Dt, base)
	}
	if l := math.Float64frombits(longest.Load()); !(l > 4*base) {
		t.Fatalf("the longest step was %g yr; want the scheme to have grown it beyond 4× %g", l, base)
	}
	t.Logf("settled after %d steps (step %d), %v", f.SettleSteps, f.Snap.Step, f.SettleTime)
	first := f.Snap.Step

	// A new uplift: no longer settled, back to the user's dt, settles again.
	f = syncFrame(t, w, SetUplift{U: simtest.Scale(cfg.Up, 1.2)}, runner.Step{N: 1})
	if f.Converged || f.SettleSteps != 0 || f.Dt != base {
		t.Fatalf("after a new uplift: converged %v, settle steps %d, dt %g; want false, 0, %g", f.Converged, f.SettleSteps, f.Dt, base)
	}
	armed.Store(true)
	f = wait()
	if f.Snap.Step <= first || f.SettleSteps <= 0 {
		t.Fatalf("resettled at step %d after %d steps; want after step %d", f.Snap.Step, f.SettleSteps, first)
	}
}
