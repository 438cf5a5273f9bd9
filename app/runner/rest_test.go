package runner

import "testing"

// restingFake is the fake engine with nothing left to do while v is at
// least restAt: a Rester, like a settled terrain.
type restingFake struct {
	fake
	restAt int
}

func (f *restingFake) Resting() bool { return f.v >= f.restAt }

// TestRestsWhenResting: a running runner steps a Rester until it rests,
// then takes no step (a Sync's reply shows the same step, Running and
// Resting), publishes a frame that says so, and steps again as soon as a
// command gives the engine work. A Step command steps it even at rest.
func TestRestsWhenResting(t *testing.T) {
	f := &restingFake{restAt: 3}
	r, err := New[fakeCmd, fakeFrame](f, Options{Paused: true, MinInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	sync := func(cmds ...Command) *fakeFrame {
		t.Helper()
		fr, _ := r.Await(cmds...)
		if fr == nil {
			t.Fatal("the runner closed")
		}
		return fr
	}
	fr := sync(set{3}, Run{})
	if fr.Step != 0 || !fr.Running || !fr.Resting || fr.StepsPerSec != 0 {
		t.Fatalf("resting from the start: step %d, running %v, resting %v, %g steps/s; want 0, true, true, 0",
			fr.Step, fr.Running, fr.Resting, fr.StepsPerSec)
	}
	// Work again: v below restAt; the engine steps until v is put back.
	fr = sync(set{0})
	if fr.Resting {
		t.Fatalf("after set{0}: resting; want stepping")
	}
	for fr.Step < 5 {
		fr = sync()
	}
	fr = sync(set{7})
	at := fr.Step
	for range 3 {
		if fr = sync(); fr.Step != at || !fr.Resting || !fr.Running {
			t.Fatalf("at rest: step %d (resting %v, running %v); want step %d, resting, running", fr.Step, fr.Resting, fr.Running, at)
		}
	}
	// A Step command steps anyway; then the runner rests again.
	fr = sync(Step{N: 2})
	if fr.Step != at+2 || fr.Resting || fr.Running {
		t.Fatalf("after Step{2} at rest: step %d, resting %v, running %v; want %d, false, false", fr.Step, fr.Resting, fr.Running, at+2)
	}
	if fr = sync(Run{}); fr.Step != at+2 || !fr.Resting {
		t.Fatalf("Run at rest: step %d, resting %v; want %d and resting", fr.Step, fr.Resting, at+2)
	}
	// Pause: not running, so not resting either.
	if fr = sync(Pause{}); fr.Running || fr.Resting {
		t.Fatalf("paused: running %v, resting %v; want false, false", fr.Running, fr.Resting)
	}
}
