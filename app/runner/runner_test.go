package runner

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// The fake engine holds one number, v, and counts its steps.

// fakeCmd is the fake engine's command interface.
type fakeCmd interface {
	Command
	fake()
}

// set sets v; negative values are rejected. Consecutive ones coalesce.
type set struct{ V int }

// add adds to v; it never coalesces.
type add struct{ D int }

// renew replaces the engine: step 0, v 0, no error.
type renew struct{}

func (set) RunnerCommand()   {}
func (add) RunnerCommand()   {}
func (renew) RunnerCommand() {}
func (set) fake()            {}
func (add) fake()            {}
func (renew) fake()          {}
func (set) Coalescing()      {}

// other is a command of another engine.
type other struct{}

func (other) RunnerCommand() {}

// fakeFrame is the fake engine's frame.
type fakeFrame struct {
	State
	Step, V int
}

type fake struct {
	step, v int
	applies int  // calls of Apply
	panicAt int  // the step that panics (0: none)
	failAt  int  // the step that returns an error (0: none)
	broken  bool // a step panicked
	shown   fakeFrame

	// If gate is not nil, each step first sends on entered, then waits
	// for a value on gate.
	entered, gate chan struct{}
	sleep         time.Duration   // each step's duration
	ended         chan<- struct{} // if not nil, told after each step (never blocks)
	steps         atomic.Int64    // steps done, for the test goroutine
	keep          bool            // record v at each step, and the frames

	mu  sync.Mutex   // guards vs and out
	vs  []int        // v at each step
	out []*fakeFrame // every frame built
}

func (f *fake) Apply(c fakeCmd) (Effect, error) {
	f.applies++
	switch c := c.(type) {
	case set:
		if c.V < 0 {
			return 0, fmt.Errorf("fake: set{%d}: want v >= 0", c.V)
		}
		f.v = c.V
	case add:
		f.v += c.D
	case renew:
		f.step, f.v, f.broken = 0, 0, false
		return NewEngine | ClearCmdErr, nil
	}
	return 0, nil
}

func (f *fake) Step() error {
	if f.gate != nil {
		f.entered <- struct{}{}
		<-f.gate
	}
	time.Sleep(f.sleep)
	f.step++
	if f.keep {
		f.mu.Lock()
		f.vs = append(f.vs, f.v)
		f.mu.Unlock()
	}
	f.steps.Add(1)
	if f.ended != nil {
		select {
		case f.ended <- struct{}{}:
		default:
		}
	}
	switch f.step {
	case f.panicAt:
		panic("boom")
	case f.failAt:
		return errors.New("fake: bad step")
	}
	return nil
}

func (f *fake) Panicked(v any) error {
	f.broken = true
	return fmt.Errorf("fake: step %d panicked: %v", f.step, v)
}

func (f *fake) Frame(s State) *fakeFrame {
	if !f.broken {
		f.shown = fakeFrame{Step: f.step, V: f.v}
	}
	fr := f.shown
	fr.State = s
	if f.keep {
		f.mu.Lock()
		f.out = append(f.out, &fr)
		f.mu.Unlock()
	}
	return &fr
}

func (f *fake) frames() []*fakeFrame {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.out)
}

func (f *fake) values() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.vs)
}

type fakeRunner = Runner[fakeCmd, fakeFrame]

func startFake(t *testing.T, f *fake, o Options) *fakeRunner {
	t.Helper()
	r, err := New(f, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// syncFrame sends cmds followed by a Sync, waits for the reply and returns
// the frame published by then.
func syncFrame(t *testing.T, r *fakeRunner, cmds ...Command) *fakeFrame {
	t.Helper()
	ch := make(chan uint64, 1)
	want := r.SendSeq(append(cmds, Sync{Done: ch})...)
	if got := <-ch; got != want {
		t.Fatalf("Sync replied %d; want %d", got, want)
	}
	f := r.Frame()
	if f.Seq < want {
		t.Fatalf("frame after Sync %d has Seq %d; want >= %d", want, f.Seq, want)
	}
	return f
}

type row struct {
	step, v int
	seq     uint64
	run     bool
	left    int
}

func rows(frames []*fakeFrame) []row {
	var r []row
	for _, f := range frames {
		r = append(r, row{f.Step, f.V, f.Seq, f.Running, f.StepsLeft})
	}
	return r
}

// TestOrder sends one batch and checks every frame: a Step holds the
// commands after it until its steps are done, the sequence numbers say
// which commands were applied, and the last step of a Step is published.
func TestOrder(t *testing.T) {
	f := &fake{keep: true}
	r := startFake(t, f, Options{Paused: true, MinInterval: -1})
	syncFrame(t, r, Pause{}, set{1}, Step{N: 3}, add{10}, Step{N: 2})
	want := []row{
		{0, 0, 0, false, 0},                    // New
		{1, 1, 3, true, 2}, {2, 1, 3, true, 1}, // Pause, set, Step{3}
		{3, 1, 3, false, 0},                       // last step of Step{3}
		{4, 11, 5, true, 1}, {5, 11, 5, false, 0}, // add, Step{2}
		{5, 11, 6, false, 0}, // Sync
	}
	if got := rows(f.frames()); !slices.Equal(got, want) {
		t.Fatalf("frames (step, v, seq, running, left):\ngot  %v\nwant %v", got, want)
	}
	if got, want := f.values(), []int{1, 1, 1, 11, 11}; !slices.Equal(got, want) {
		t.Fatalf("v at each step %v; want %v", got, want)
	}
}

// TestCoalesce checks that a run of one Coalescing type applies the newest
// accepted command only, that other commands are applied one by one and
// break runs, and that Seq counts every command.
func TestCoalesce(t *testing.T) {
	f := &fake{}
	r := startFake(t, f, Options{Paused: true})
	for _, tc := range []struct {
		name    string
		cmds    []Command
		v       int
		applies int  // calls of Apply
		bad     bool // the last command before the Sync is rejected
	}{
		{"one set", []Command{set{1}}, 1, 1, false},
		{"run of sets", []Command{set{2}, set{3}, set{4}}, 4, 1, false},
		{"bad then good", []Command{set{-1}, set{5}}, 5, 1, false},
		{"good then bad", []Command{set{6}, set{-1}}, 6, 2, true},
		{"all bad", []Command{set{7}, set{-1}, set{-2}}, 7, 3, true},
		{"adds", []Command{add{1}, add{1}}, 9, 2, false},
		{"broken run", []Command{set{1}, add{1}, set{20}}, 20, 3, false},
		{"run across runner commands", []Command{set{1}, SetDuty{D: 0.5}, set{30}}, 30, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, seq0 := f.applies, r.Frame().Seq
			fr := syncFrame(t, r, tc.cmds...)
			if fr.V != tc.v || f.applies-before != tc.applies {
				t.Fatalf("v %d after %d applies; want %d after %d", fr.V, f.applies-before, tc.v, tc.applies)
			}
			if want := seq0 + uint64(len(tc.cmds)) + 1; fr.Seq != want {
				t.Fatalf("Seq %d; want %d", fr.Seq, want)
			}
			if bad := fr.CmdErrSeq == fr.Seq-1; bad != tc.bad {
				t.Fatalf("CmdErr %v at %d (Seq %d); want rejected %v", fr.CmdErr, fr.CmdErrSeq, fr.Seq, tc.bad)
			}
		})
	}
}

// TestRejected checks the runner's own rejected commands and an engine's:
// an error with its sequence number, nothing else changed.
func TestRejected(t *testing.T) {
	f := &fake{}
	r := startFake(t, f, Options{Paused: true})
	before := syncFrame(t, r, set{3}, Step{N: 2})
	for _, tc := range []struct {
		name string
		cmd  Command
		want string
	}{
		{"negative step", Step{N: -1}, "Step{-1}"},
		{"duty NaN", SetDuty{D: math.NaN()}, "duty NaN"},
		{"duty -1", SetDuty{D: -1}, "duty -1"},
		{"duty Inf", SetDuty{D: math.Inf(1)}, "duty +Inf"},
		{"engine", set{-5}, "set{-5}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fr := syncFrame(t, r, tc.cmd)
			if fr.CmdErr == nil || !strings.Contains(fr.CmdErr.Error(), tc.want) || fr.CmdErrSeq != fr.Seq-1 {
				t.Fatalf("CmdErr %v at %d; want one containing %q at %d", fr.CmdErr, fr.CmdErrSeq, tc.want, fr.Seq-1)
			}
			if fr.Step != before.Step || fr.V != before.V || fr.Running || fr.Err != nil {
				t.Fatalf("state changed: step %d, v %d, running %v, err %v; want step %d, v %d, paused, no error",
					fr.Step, fr.V, fr.Running, fr.Err, before.Step, before.V)
			}
		})
	}
	// Step{0} does nothing, and is no error.
	if fr := syncFrame(t, r, Step{N: 0}); fr.Step != before.Step || fr.CmdErrSeq == fr.Seq-1 {
		t.Fatalf("Step{0}: step %d, CmdErr %v; want %d, none", fr.Step, fr.CmdErr, before.Step)
	}
	// A command that replaces the engine clears the command error.
	if fr := syncFrame(t, r, renew{}); fr.CmdErr != nil || fr.CmdErrSeq != 0 || fr.Step != 0 {
		t.Fatalf("after renew: CmdErr %v at %d, step %d; want none, 0", fr.CmdErr, fr.CmdErrSeq, fr.Step)
	}
}

// TestSync checks that Sync replies count every command before it, and
// that running, each Sync is answered by a frame of a later step.
func TestSync(t *testing.T) {
	f := &fake{}
	r := startFake(t, f, Options{MinInterval: time.Hour})
	var last *fakeFrame
	for i := range 20 {
		cmds := []Command{set{i}, set{i}, add{0}}[:i%4]
		fr := syncFrame(t, r, cmds...)
		if last != nil && (fr.Seq <= last.Seq || fr.Step <= last.Step) {
			t.Fatalf("round %d: Seq %d, step %d; want > %d, > %d", i, fr.Seq, fr.Step, last.Seq, last.Step)
		}
		if i%4 > 0 && fr.V != i {
			t.Fatalf("round %d: v %d; want %d", i, fr.V, i)
		}
		if !fr.Running {
			t.Fatalf("round %d: not running", i)
		}
		last = fr
	}
}

// TestAwait: Await returns the frame of a Step's last step, with the
// Sync's sequence number.
func TestAwait(t *testing.T) {
	r := startFake(t, &fake{}, Options{Paused: true, MinInterval: time.Hour})
	before := r.Frame().Step
	fr, seq := r.Await(set{7}, Step{N: 3})
	if fr == nil || fr.Seq < seq || fr.Step != before+3 || fr.V != 7 {
		t.Fatalf("Await: frame %+v seq %d; want step %d, v 7, Seq >= seq", fr, seq, before+3)
	}
	if seq != 3 {
		t.Fatalf("Await's seq %d; want 3 (set, Step, Sync)", seq)
	}
}

// TestPublishCadence drives the steps one at a time and checks when frames
// are published: with a long MinInterval, only at New, after the first step
// following a command, for a Sync, at the end of a Step, and while paused
// when commands were applied.
func TestPublishCadence(t *testing.T) {
	f := &fake{keep: true, entered: make(chan struct{}), gate: make(chan struct{})}
	r := startFake(t, f, Options{Paused: true, MinInterval: time.Hour})
	next := func() { <-f.entered; f.gate <- struct{}{} } // one whole step
	r.Send(Run{})
	for range 5 {
		next()
	}
	// During the sixth step, a command: it applies after it, and shows
	// in the frame of the seventh.
	<-f.entered
	r.Send(set{4})
	f.gate <- struct{}{}
	next()
	// During the eighth, a Step and a Sync it holds.
	<-f.entered
	ch := make(chan uint64, 1)
	r.Send(Step{N: 2}, Sync{Done: ch})
	f.gate <- struct{}{}
	next()
	next()
	<-ch
	want := []row{
		{0, 0, 0, false, 0},  // New
		{1, 0, 1, true, 0},   // the first step after Run
		{7, 4, 2, true, 0},   // the first step after set
		{9, 4, 3, true, 1},   // the first step of the Step
		{10, 4, 3, false, 0}, // its last
		{10, 4, 4, false, 0}, // Sync
	}
	if got := rows(f.frames()); !slices.Equal(got, want) {
		t.Fatalf("frames (step, v, seq, running, left):\ngot  %v\nwant %v", got, want)
	}
}

// TestEngineError checks that a step that fails or panics pauses the runner
// with Err, that Run and Step then do nothing while other commands apply,
// that a panicked engine is no longer shown, and that a command that
// replaces the engine clears the error.
func TestEngineError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		f     *fake
		want  string
		shown int // the step the frames show after the error
	}{
		{"error", &fake{failAt: 3}, "bad step", 3},
		{"panic", &fake{panicAt: 3}, "step 3 panicked: boom", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startFake(t, tc.f, Options{Paused: true, MinInterval: -1})
			fr := syncFrame(t, r, Step{N: 10})
			if fr.Err == nil || !strings.Contains(fr.Err.Error(), tc.want) || fr.Running || fr.StepsLeft != 0 {
				t.Fatalf("Err %v, running %v, %d left; want an error containing %q, paused, 0 left", fr.Err, fr.Running, fr.StepsLeft, tc.want)
			}
			if fr.Step != tc.shown || tc.f.steps.Load() != 3 {
				t.Fatalf("frame at step %d after %d steps; want step %d after 3", fr.Step, tc.f.steps.Load(), tc.shown)
			}
			fr = syncFrame(t, r, Run{}, Step{N: 3}, add{1})
			if fr.Running || fr.Err == nil || tc.f.steps.Load() != 3 {
				t.Fatalf("Run and Step after the error: running %v, err %v, %d steps; want paused, error kept, 3 steps", fr.Running, fr.Err, tc.f.steps.Load())
			}
			if tc.f.v != 1 {
				t.Fatalf("add after the error: v %d; want 1", tc.f.v)
			}
			if fr = syncFrame(t, r, renew{}, Step{N: 2}); fr.Err != nil || fr.Step != 2 {
				t.Fatalf("after renew and Step{2}: err %v, step %d; want nil, 2", fr.Err, fr.Step)
			}
		})
	}
}

// TestSendPanics checks the programmer errors Send catches, each panicking
// with a message prefixed "runner: ".
func TestSendPanics(t *testing.T) {
	r := startFake(t, &fake{}, Options{Paused: true})
	closed := startFake(t, &fake{}, Options{Paused: true})
	closed.Close()
	for _, tc := range []struct {
		name string
		r    *fakeRunner
		cmd  Command
		want string
	}{
		{"nil", r, nil, "nil Command"},
		{"sync without channel", r, Sync{}, "nil Done"},
		{"another engine's", r, other{}, "runner.other is not a command"},
		{"after Close", closed, Run{}, "after Close"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				s, ok := recover().(string)
				if !ok || !strings.HasPrefix(s, "runner: ") || !strings.Contains(s, tc.want) {
					t.Fatalf("panic %q; want one prefixed \"runner: \" containing %q", s, tc.want)
				}
			}()
			tc.r.Send(set{1}, tc.cmd)
		})
	}
	// Nothing of a batch that panicked was queued.
	if fr := syncFrame(t, r); fr.Seq != 1 || fr.V != 0 {
		t.Fatalf("after the panics: Seq %d, v %d; want 1, 0", fr.Seq, fr.V)
	}
}

// TestCloseIsPromptAndClean closes runners in the middle of a very long
// Step with commands queued behind it, waiting for a Sync's receiver that
// never comes, and resting under a tiny duty, and checks that Close
// returns at once, that the last frame stays, and that no goroutine is
// left. It runs in a synctest bubble: the bubble ends only when every
// goroutine started in it has returned, and fails at once if one is
// blocked for good; its clock is fake, so "at once" is exact (a Close
// that waited out the 10 s rest would take 10 s of it) whatever the load.
// (It counted runtime.NumGoroutine for up to 2 s of real time before.)
func TestCloseIsPromptAndClean(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// A very long Step with commands behind it.
		ended := make(chan struct{}, 1)
		f := &fake{ended: ended}
		r, err := New(f, Options{Paused: true})
		if err != nil {
			t.Fatal(err)
		}
		r.Send(Step{N: math.MaxInt32}, Sync{Done: make(chan uint64, 1)}, Run{}, set{1})
		<-ended
		r.Close()
		r.Close() // again: no-op
		if fr := r.Frame(); fr == nil || fr.V != 0 {
			t.Fatal("no frame after Close, or the command held by the Step applied")
		}
		// A Sync whose receiver never comes.
		r2, err := New(&fake{}, Options{Paused: true})
		if err != nil {
			t.Fatal(err)
		}
		r2.Send(Sync{Done: make(chan uint64)})
		r2.Close()
		// Resting: 10 ms steps at duty 0.001 rest 10 s each.
		ended3 := make(chan struct{}, 1)
		r3, err := New(&fake{ended: ended3, sleep: 10 * time.Millisecond}, Options{Duty: 0.001})
		if err != nil {
			t.Fatal(err)
		}
		<-ended3
		t0 := time.Now()
		r3.Close()
		if d := time.Since(t0); d != 0 {
			t.Fatalf("Close during a rest took %v of the bubble's clock; want 0 (the rest is 10 s)", d)
		}
	})
}

// TestConcurrentSenders sends from several goroutines while another reads
// frames (for the race detector), and checks that every command counts
// once and that Seq never decreases.
func TestConcurrentSenders(t *testing.T) {
	f := &fake{}
	r := startFake(t, f, Options{MinInterval: -1})
	const senders, each = 4, 200
	var wg sync.WaitGroup
	for range senders {
		wg.Go(func() {
			for range each {
				r.Send(add{1})
			}
		})
	}
	stop := make(chan struct{})
	read := make(chan error, 1)
	go func() {
		var last uint64
		for {
			select {
			case <-stop:
				read <- nil
				return
			default:
			}
			fr := r.Frame()
			if fr.Seq < last {
				read <- fmt.Errorf("Seq %d after %d", fr.Seq, last)
				return
			}
			last = fr.Seq
			runtime.Gosched()
		}
	}()
	wg.Wait()
	fr := syncFrame(t, r)
	close(stop)
	if err := <-read; err != nil {
		t.Fatal(err)
	}
	if fr.V != senders*each || fr.Seq != senders*each+1 {
		t.Fatalf("v %d, Seq %d; want %d, %d", fr.V, fr.Seq, senders*each, senders*each+1)
	}
}

// bgEngine is an engine whose later{V} command sets v on a goroutine of
// its own once release is closed (Background), and records v at each step.
type bgEngine struct {
	v, step int
	pending bool
	done    chan int
	release chan struct{}
	wake    func()
	vs      []int
}

type later struct{ V int }

func (later) RunnerCommand() {}

func (e *bgEngine) Apply(c later) (Effect, error) {
	e.pending = true
	go func() {
		<-e.release
		e.done <- c.V
		e.wake()
	}()
	return 0, nil
}

func (e *bgEngine) Step() error {
	e.step++
	e.vs = append(e.vs, e.v)
	return nil
}

func (e *bgEngine) Panicked(v any) error { return fmt.Errorf("%v", v) }

func (e *bgEngine) Frame(s State) *fakeFrame { return &fakeFrame{State: s, Step: e.step, V: e.v} }

func (e *bgEngine) Pending() bool { return e.pending }

func (e *bgEngine) Land() bool {
	select {
	case v := <-e.done:
		e.v, e.pending = v, false
		return true
	default:
		return false
	}
}

// TestBackground: a Step and a Sync sent after a command whose work runs
// on the engine's own goroutine wait until it has landed, so every step
// of the Step sees it; Wake lands it while the runner is paused (else the
// Sync would never be answered).
func TestBackground(t *testing.T) {
	e := &bgEngine{done: make(chan int, 1), release: make(chan struct{})}
	r, err := New[later, fakeFrame](e, Options{Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	e.wake = r.Wake
	ch := make(chan uint64, 1)
	r.Send(later{V: 7}, Step{N: 3}, Sync{Done: ch})
	close(e.release)
	<-ch
	f := r.Frame()
	if f.V != 7 || f.Step != 3 {
		t.Fatalf("frame after the Sync: v %d at step %d; want 7 at step 3", f.V, f.Step)
	}
	if !slices.Equal(e.vs, []int{7, 7, 7}) {
		t.Fatalf("v at each step %v; want 7 from the first", e.vs)
	}
}

// TestPublishGap: frames are published every MinInterval while building
// one is cheap, and no more often than three times its cost when it is
// not (a GPU engine's frame at 2048²), so frames take at most a quarter
// of the runner's time.
func TestPublishGap(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct{ least, cost, want time.Duration }{
		{50 * ms, 0, 50 * ms},
		{50 * ms, 10 * ms, 50 * ms},
		{50 * ms, 17 * ms, 51 * ms},
		{50 * ms, 120 * ms, 360 * ms},
		{time.Hour, 120 * ms, time.Hour},
	} {
		if got := publishGap(c.least, c.cost); got != c.want {
			t.Errorf("publishGap(%v, %v) = %v; want %v", c.least, c.cost, got, c.want)
		}
	}
}
