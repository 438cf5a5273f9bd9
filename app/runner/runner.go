package runner

import (
	"fmt"
	"math"
	"reflect"
	"sync"
	"sync/atomic"
	"time"
)

// Command is an instruction to a runner: one of the runner's own (Run,
// Pause, Step, Sync, SetDuty) or one of its engine's. The empty method
// RunnerCommand marks the types meant as commands.
type Command interface{ RunnerCommand() }

// Coalescing is a command whose effect replaces that of any earlier
// command of its type (new parameters replace the old ones): of a run of
// consecutive Coalescing commands of one type waiting in the queue, the
// runner applies only the newest one that the engine accepts.
type Coalescing interface {
	Command
	Coalescing()
}

// Run makes the runner step continuously.
type Run struct{}

// Pause stops stepping after the current step.
type Pause struct{}

// Step runs N steps, then pauses. Commands sent after a Step are applied
// once its N steps are done (or the engine failed, or Close was called).
type Step struct{ N int }

// Sync asks the runner to send on Done the sequence number of the commands
// applied so far (the Sync included), once a frame with at least that Seq
// is published. Give Done a buffer of one: the runner waits for the
// receiver (or for Close).
type Sync struct{ Done chan<- uint64 }

// SetDuty changes Options.Duty: the share of wall time the engine steps.
type SetDuty struct{ D float64 }

func (Run) RunnerCommand()     {}
func (Pause) RunnerCommand()   {}
func (Step) RunnerCommand()    {}
func (Sync) RunnerCommand()    {}
func (SetDuty) RunnerCommand() {}

// DefaultMinInterval is the least time between two frames published while
// the engine runs, unless a command was applied (see Options.MinInterval).
const DefaultMinInterval = 50 * time.Millisecond

// Effect tells the runner what an engine command did besides changing the
// engine's state.
type Effect uint8

const (
	// NewEngine: the command replaced the engine; the engine error is
	// cleared, so Run and Step work again.
	NewEngine Effect = 1 << iota
	// ClearCmdErr: the command also clears the last command error.
	ClearCmdErr
)

// Engine is the engine's part of a runner. The runner calls its methods on
// its own goroutine only, one at a time (and Frame once from New, before
// the goroutine starts).
type Engine[C Command, F any] interface {
	// Apply applies one of the engine's commands. An error rejects it:
	// it must then have changed nothing.
	Apply(c C) (Effect, error)
	// Step runs one step. An error (the engine's state went bad) stops
	// the runner until a command returns NewEngine.
	Step() error
	// Panicked is called when Step panicked with v and returns the error
	// to report. The engine's fields may then belong to two steps: Frame
	// must not read them until a command returns NewEngine.
	Panicked(v any) error
	// Frame builds the frame to publish, with the runner's state s. It is
	// called only to publish.
	Frame(s State) *F
}

// Background is an Engine that does part of some commands' work on
// goroutines of its own (the worker lays a new geology on the grid while
// the engine steps on the old one). The runner calls Land before it applies
// commands and between steps, and holds Step and Sync commands (and the
// commands after them) while work is Pending, so the steps of a Step and
// the frame that answers a Sync see the work done: scripts and tests run
// as if the commands had done their work at once. The engine calls
// Runner.Wake when work finishes, so that a paused runner lands it.
type Background interface {
	// Pending reports whether work started by an applied command has not
	// landed yet.
	Pending() bool
	// Land installs the work finished so far; it reports whether that
	// changed the engine.
	Land() bool
}

// Rester is an Engine that can run out of work: a terrain that has
// settled. While Resting reports true, a running runner does not step it:
// it publishes the frame and waits for a command, using no CPU, as if
// paused, though State.Running stays true (the user did not pause it).
// An applied command that gives the engine work again (Resting false)
// resumes stepping. Step commands step it anyway.
type Rester interface {
	Resting() bool
}

// State is the runner's part of every frame.
type State struct {
	Seq       uint64 // number of commands applied when the frame was built
	Running   bool   // Run, or a Step not finished (stepping, unless Resting)
	StepsLeft int    // steps left of a Step command; 0 when running continuously or paused
	// Resting: running, but the engine (a Rester) has no work, so the
	// runner waits for a command instead of stepping.
	Resting bool

	// StepsPerSec is the wall-clock rate over the last ~1 s; 0 when not
	// running.
	StepsPerSec float64

	// Err is the engine's error (a step that failed or panicked): the
	// runner paused, Run and Step do nothing until a command replaces
	// the engine.
	Err error
	// CmdErr is the error of the last rejected command, and CmdErrSeq
	// its sequence number. A rejected command changes nothing else.
	CmdErr    error
	CmdErrSeq uint64
}

// Options tune a runner.
type Options struct {
	// Paused starts the runner paused instead of running.
	Paused bool
	// Duty is the largest fraction of wall time the engine steps while it
	// runs: after a step of t it rests t·(1 − Duty)/Duty, so a window
	// drawing on the same cores keeps its frame rate. 0 (or ≥ 1) means no
	// rest. Results do not depend on it, only steps per second do.
	Duty float64
	// MinInterval is the least time between two frames published while
	// the engine runs: frames usually copy the engine's fields (and where
	// building one takes longer than a third of it, three times that
	// instead: publishGap). The first
	// step after a command was applied, the last step before the runner
	// pauses and a step that fails are always published. 0 means
	// DefaultMinInterval; a negative value publishes every step.
	MinInterval time.Duration
}

// Runner runs an Engine on its own goroutine.
type Runner[C Command, F any] struct {
	// Shared with the senders, guarded by mu.
	mu     sync.Mutex
	queue  []Command
	sent   uint64
	closed bool

	wake  chan struct{} // size 1: commands are waiting
	quit  chan struct{} // closed by Close
	done  chan struct{} // closed when the goroutine returns
	frame atomic.Pointer[F]

	// Owned by the runner's goroutine from here on.
	e         Engine[C, F]
	interval  time.Duration
	duty      float64
	restTimer *time.Timer // rest's, reused
	pending   []Command   // taken from the queue, not applied yet
	replies   []reply
	applied   uint64
	running   bool
	left      int
	err       error
	cmdErr    error
	cmdSeq    uint64
	last      time.Duration // wall time of the last step
	rate      meter
	stepped   bool // a step ran since the last frame
	landed    bool // Background work landed since the last frame
	pubSeq    uint64
	pubAt     time.Time
	pubCost   time.Duration // what building the last frame took
}

type reply struct {
	ch  chan<- uint64
	seq uint64
}

// New publishes e's first frame and starts running it, or paused with
// o.Paused. It returns an error for a duty out of range.
func New[C Command, F any](e Engine[C, F], o Options) (*Runner[C, F], error) {
	if err := checkDuty(o.Duty); err != nil {
		return nil, err
	}
	r := &Runner[C, F]{
		wake:     make(chan struct{}, 1),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
		e:        e,
		interval: o.MinInterval,
		duty:     o.Duty,
		running:  !o.Paused,
	}
	if r.interval == 0 {
		r.interval = DefaultMinInterval
	}
	r.publish()
	go r.loop()
	return r, nil
}

func checkDuty(d float64) error {
	if !(d >= 0) || math.IsInf(d, 0) {
		return fmt.Errorf("runner: duty %v: want a fraction in [0, 1] (0: no limit)", d)
	}
	return nil
}

// Send queues commands, in order. It never blocks. The runner owns the
// slices inside the commands from now on. Send panics after Close, on a
// nil Command, on a Sync without a channel and on an engine command of
// another engine (not a C).
func (r *Runner[C, F]) Send(cmds ...Command) { r.SendSeq(cmds...) }

// SendSeq is Send that also returns the sequence number of the last
// command sent: a frame whose Seq is at least that number reflects all of
// them. Commands are numbered from 1 in the order they are sent.
func (r *Runner[C, F]) SendSeq(cmds ...Command) uint64 {
	for _, c := range cmds {
		switch c := c.(type) {
		case nil:
			panic("runner: nil Command")
		case Sync:
			if c.Done == nil {
				panic("runner: Sync with a nil Done channel")
			}
		case Run, Pause, Step, SetDuty:
		default:
			if _, ok := c.(C); !ok {
				panic(fmt.Sprintf("runner: %T is not a command of this runner", c))
			}
		}
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		panic("runner: Send after Close")
	}
	r.queue = append(r.queue, cmds...)
	r.sent += uint64(len(cmds))
	seq := r.sent
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return seq
}

// Await sends cmds followed by a Sync and waits until a frame reflects
// every one of them (its Seq is at least seq, the number of the Sync); it
// returns that frame and seq. It waits for the engine (a Step among cmds
// holds the Sync until its steps are done), so the UI thread must not call
// it; tests and headless drivers do. If the runner is closed before it
// replies, Await returns nil and 0 (like Send, it panics after Close).
func (r *Runner[C, F]) Await(cmds ...Command) (f *F, seq uint64) {
	ch := make(chan uint64, 1)
	seq = r.SendSeq(append(cmds, Sync{Done: ch})...)
	select {
	case <-ch:
		return r.Frame(), seq
	case <-r.done:
		return nil, 0
	}
}

// Wake makes the runner land its engine's finished Background work (and
// apply the commands that waited for it) even while paused. It never
// blocks, and does nothing after Close.
func (r *Runner[C, F]) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Frame returns the newest published frame. It never blocks and never
// returns nil.
func (r *Runner[C, F]) Frame() *F { return r.frame.Load() }

// Close stops the runner after its current step and waits for its
// goroutine to return. Commands not applied yet are dropped (a pending
// Sync gets no reply). The last frame stays readable. Close may be called
// more than once.
func (r *Runner[C, F]) Close() {
	r.mu.Lock()
	first := !r.closed
	r.closed = true
	r.mu.Unlock()
	if first {
		close(r.quit)
	}
	<-r.done
}

// loop is the runner's goroutine.
func (r *Runner[C, F]) loop() {
	defer close(r.done)
	for {
		if r.take() {
			return
		}
		r.land()
		if r.left == 0 {
			r.apply()
		}
		if r.active() {
			r.step()
			if r.due() {
				r.publish()
			}
			if !r.flush() || !r.rest() {
				return
			}
			continue
		}
		r.rate.stop()
		if r.stepped || r.landed || r.applied != r.pubSeq {
			r.publish()
		}
		if !r.flush() {
			return
		}
		select {
		case <-r.wake:
		case <-r.quit:
			return
		}
	}
}

// rest pauses after a step so that the engine steps at most Duty of the
// wall time. It reports false when the runner was closed.
func (r *Runner[C, F]) rest() bool {
	if !(r.duty > 0 && r.duty < 1) {
		return true
	}
	d := time.Duration(float64(r.last) * (1 - r.duty) / r.duty)
	if d <= 0 {
		return true
	}
	if r.restTimer == nil {
		r.restTimer = time.NewTimer(d)
	} else {
		r.restTimer.Reset(d)
	}
	select {
	case <-r.restTimer.C:
	case <-r.quit:
		r.restTimer.Stop()
		return false
	}
	return true
}

// take moves the queued commands to r.pending and reports whether the
// runner was closed.
func (r *Runner[C, F]) take() (quit bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return true
	}
	r.pending = append(r.pending, r.queue...)
	clear(r.queue)
	r.queue = r.queue[:0]
	return false
}

// land lands the engine's finished Background work.
func (r *Runner[C, F]) land() {
	if b, ok := r.e.(Background); ok && b.Land() {
		r.landed = true
	}
}

// held reports whether c must wait for the engine's Background work.
func (r *Runner[C, F]) held(c Command) bool {
	switch c.(type) {
	case Step, Sync:
		b, ok := r.e.(Background)
		return ok && b.Pending()
	}
	return false
}

// active reports whether the runner steps: running and not resting, or
// steps left of a Step command.
func (r *Runner[C, F]) active() bool {
	return (r.running && !r.resting() || r.left > 0) && r.err == nil
}

// resting reports whether the engine is a Rester with no work.
func (r *Runner[C, F]) resting() bool {
	re, ok := r.e.(Rester)
	return ok && re.Resting()
}

// apply applies pending commands in order until a Step, or Background
// work a Step or Sync waits for, holds the rest. Runs of consecutive
// Coalescing commands of one type are coalesced.
func (r *Runner[C, F]) apply() {
	p := r.pending
	i := 0
	for i < len(p) && r.left == 0 && !r.held(p[i]) {
		if _, ok := p[i].(Coalescing); ok {
			t := reflect.TypeOf(p[i])
			j := i + 1
			for j < len(p) && reflect.TypeOf(p[j]) == t {
				j++
			}
			r.applyRun(p[i:j])
			i = j
			continue
		}
		r.applied++
		r.applyOne(p[i])
		i++
	}
	n := copy(p, p[i:])
	clear(p[n:])
	r.pending = p[:n]
}

// applyRun applies the newest accepted command of a run of one type. Only
// the newest command's error is reported, as applying one by one would
// leave it as the last error.
func (r *Runner[C, F]) applyRun(run []Command) {
	base := r.applied
	r.applied += uint64(len(run))
	for k := len(run) - 1; k >= 0; k-- {
		err := r.applyEngine(run[k].(C))
		if err == nil {
			return
		}
		if k == len(run)-1 {
			r.reject(err, base+uint64(len(run)))
		}
	}
}

// applyEngine applies an engine command and its effects; it returns the
// engine's error without reporting it.
func (r *Runner[C, F]) applyEngine(c C) error {
	eff, err := r.e.Apply(c)
	if err != nil {
		return err
	}
	if eff&NewEngine != 0 {
		r.err = nil
	}
	if eff&ClearCmdErr != 0 {
		r.cmdErr, r.cmdSeq = nil, 0
	}
	return nil
}

func (r *Runner[C, F]) reject(err error, seq uint64) { r.cmdErr, r.cmdSeq = err, seq }

func (r *Runner[C, F]) applyOne(c Command) {
	switch c := c.(type) {
	case Run:
		r.running, r.left = r.err == nil, 0
	case Pause:
		r.running, r.left = false, 0
	case SetDuty:
		if err := checkDuty(c.D); err != nil {
			r.reject(err, r.applied)
			return
		}
		r.duty = c.D
	case Step:
		switch {
		case c.N < 0:
			r.reject(fmt.Errorf("runner: Step{%d}: the number of steps must be >= 0", c.N), r.applied)
		case c.N > 0 && r.err == nil:
			r.running, r.left = false, c.N
		}
	case Sync:
		r.replies = append(r.replies, reply{c.Done, r.applied})
	default:
		if err := r.applyEngine(c.(C)); err != nil {
			r.reject(err, r.applied)
		}
	}
}

// step runs one engine step and records it.
func (r *Runner[C, F]) step() {
	t0 := time.Now()
	r.rate.begin(t0)
	err := r.safeStep()
	t1 := time.Now()
	r.rate.add(t1)
	r.last = t1.Sub(t0)
	r.stepped = true
	if err != nil {
		r.err = err
		r.running, r.left = false, 0
		return
	}
	if r.left > 0 {
		r.left--
	}
}

// safeStep steps the engine and returns its error. A panic inside the
// engine (parameters that pass validation can still overflow a solver)
// becomes the error, so it stops the runner instead of the app.
func (r *Runner[C, F]) safeStep() (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = r.e.Panicked(v)
		}
	}()
	return r.e.Step()
}

// due reports whether the frame after a step must be published now.
func (r *Runner[C, F]) due() bool {
	return r.interval < 0 || !r.active() || r.applied != r.pubSeq || len(r.replies) > 0 || r.landed ||
		time.Since(r.pubAt) >= publishGap(r.interval, r.pubCost)
}

// publishGap is the least time between two frames published while the
// engine runs: the MinInterval, or three times what building the last
// frame took where that is longer, so that frames take at most about a
// quarter of the runner's time. A GPU engine's frame reads its fields
// back from the card and measures its lakes on the CPU: at 2048² that
// took several times a step, and publishing every 50 ms left the engine
// a fraction of its speed.
func publishGap(least, cost time.Duration) time.Duration {
	return max(least, 3*cost)
}

// publish builds a frame and publishes it.
func (r *Runner[C, F]) publish() {
	s := State{
		Seq:       r.applied,
		Running:   (r.running || r.left > 0) && r.err == nil,
		StepsLeft: r.left,
		Err:       r.err,
		CmdErr:    r.cmdErr,
		CmdErrSeq: r.cmdSeq,
	}
	s.Resting = s.Running && !r.active()
	if s.Running && !s.Resting {
		s.StepsPerSec = r.rate.perSec()
	}
	t0 := time.Now()
	r.frame.Store(r.e.Frame(s))
	r.pubSeq, r.pubAt, r.stepped, r.landed = r.applied, time.Now(), false, false
	r.pubCost = r.pubAt.Sub(t0)
}

// flush answers the Syncs applied so far; it reports false when the runner
// was closed while waiting for a receiver.
func (r *Runner[C, F]) flush() bool {
	for i, rp := range r.replies {
		select {
		case rp.ch <- rp.seq:
		case <-r.quit:
			return false
		}
		r.replies[i] = reply{}
	}
	r.replies = r.replies[:0]
	return true
}
