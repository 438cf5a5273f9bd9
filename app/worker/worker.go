package worker

import (
	"errors"
	"fmt"
	"math"
	"orogen/app/engines"
	"orogen/sim/engine"
	"sync"
	"sync/atomic"
	"time"
)

// Command is an instruction to the worker. The worker applies commands in
// the order they were sent, between steps.
type Command interface{ command() }

// SetParams replaces the engine parameters from the next step on.
type SetParams struct{ P engine.Params }

// SetUplift replaces the uplift field (W·H values, m/yr; nil for none) from
// the next step on. The worker owns U after Send: the sender must not
// modify it.
type SetUplift struct{ U []float32 }

// Run makes the worker step continuously.
type Run struct{}

// Pause stops stepping after the current step.
type Pause struct{}

// Step runs N steps, then pauses. Commands sent after a Step are applied
// once its N steps are done (or the engine failed, or Close was called).
type Step struct{ N int }

// Reset replaces the engine by a new one built from Spec (kind, node
// count, size, initial heights, parameters, uplift; see engines.New). The
// running state stays; the history, the engine error and the last command
// error are cleared. The worker owns Spec.Up and Spec.Init after Send.
type Reset struct{ Spec engines.Spec }

// SetHeights imports a heightmap (W·H values, metres) into the current
// engine: the engine is rebuilt at step 0 with Init = H and the current
// size, parameters, uplift, seed and initial noise. The running state
// stays; the history and the engine error are cleared. The worker owns H
// after Send.
type SetHeights struct{ H []float32 }

// Sync asks the worker to send on Done the sequence number of the commands
// applied so far (the Sync included), once a frame with at least that Seq
// is published. Give Done a buffer of one: the worker waits for the
// receiver (or for Close).
type Sync struct{ Done chan<- uint64 }

// SetDuty changes Options.Duty: the share of wall time the engine steps.
type SetDuty struct{ D float64 }

func (SetParams) command()  {}
func (SetUplift) command()  {}
func (Run) command()        {}
func (Pause) command()      {}
func (Step) command()       {}
func (Reset) command()      {}
func (SetHeights) command() {}
func (Sync) command()       {}
func (SetDuty) command()    {}

// ConvergedTol is the rate below which Frame.Converged holds, m/yr.
const ConvergedTol = 1e-6

// MaxHistory bounds Frame.History.
const MaxHistory = 4096

// DefaultMinInterval is the least time between two frames published while
// the engine runs, unless a command was applied (see Options.MinInterval).
const DefaultMinInterval = 50 * time.Millisecond

// Sample is one step of the history.
type Sample struct {
	Step       int
	TimeYr     float64
	MaxDhM     float64 // max |Δh| over the step, metres
	MaxHeightM float64 // highest cell after the step, metres
}

// Frame is what the worker publishes: a snapshot of the engine and the
// worker's state when it was taken. A Frame and everything it points to
// are never modified after they are published.
type Frame struct {
	Snap      *engine.Snapshot // never nil; shared, read-only
	Engine    engine.Kind      // the engine's kind
	Nodes     int              // the engine's node count (cells, or graph nodes)
	Seq       uint64           // number of commands applied when Snap was taken
	Running   bool             // the worker is stepping (Run, or a Step not finished)
	StepsLeft int              // steps left of a Step command; 0 when running continuously or paused
	Converged bool             // the last step changed no height faster than ConvergedTol

	StepsPerSec float64                   // wall-clock rate over the last ~1 s; 0 when not running
	StepMs      float64                   // wall time of the last step, all phases
	PhaseMs     [engine.NumPhases]float64 // wall time of each phase of the last step
	// History has one sample per step since the engine was built, oldest
	// first, at most MaxHistory: when full, every other older sample is
	// dropped (the newest is always exact, Step tells which steps remain).
	History []Sample

	// Err is the engine's error (non-finite heights): the worker paused,
	// Run and Step do nothing until a Reset or SetHeights replaces the
	// engine.
	Err error
	// CmdErr is the error of the last rejected command (bad uplift size,
	// invalid parameters or configuration, non-finite values, negative
	// Step), and CmdErrSeq its sequence number. A rejected command changes
	// nothing else. A successful Reset clears them.
	CmdErr    error
	CmdErrSeq uint64

	// ParamsStep is the engine's step count when the parameters in force
	// were set (0 for those it was built with): Snap.Step − ParamsStep
	// steps have run on them. The desktop app measures with it how soon a
	// slider change shows.
	ParamsStep int
}

// Options tune a worker.
type Options struct {
	// Paused starts the worker paused instead of running.
	Paused bool
	// Duty is the largest fraction of wall time the engine steps while it
	// runs: after a step of t it rests t·(1 − Duty)/Duty, so a window
	// drawing on the same cores keeps its frame rate. 0 (or ≥ 1) means no
	// rest. Results do not depend on it, only steps per second do.
	Duty float64
	// MinInterval is the least time between two frames published while
	// the engine runs: snapshots cost about a quarter of a step (see the
	// package doc). The first step after a command was applied, the last
	// step before the worker pauses and a step that fails are always
	// published. 0 means DefaultMinInterval; a negative value publishes
	// every step.
	MinInterval time.Duration
}

// Worker runs an engine on its own goroutine.
type Worker struct {
	// Shared with the senders, guarded by mu.
	mu     sync.Mutex
	queue  []Command
	sent   uint64
	closed bool

	wake      chan struct{} // size 1: commands are waiting
	duty      float64       // Options.Duty
	restTimer *time.Timer   // rest's, reused
	quit      chan struct{} // closed by Close
	done      chan struct{} // closed when the goroutine returns
	frame     atomic.Pointer[Frame]

	// Owned by the worker goroutine from here on.
	e          engine.Engine
	spec       engines.Spec // the engine's, for SetHeights: kind, size, uplift, noise, seed (Init dropped; Params from e)
	interval   time.Duration
	pending    []Command // taken from the queue, not applied yet
	replies    []reply
	applied    uint64
	running    bool
	left       int
	err        error
	cmdErr     error
	cmdSeq     uint64
	conv       bool
	paramsStep int // engine step count when the parameters were last set
	last       engine.StepStats
	hist       history
	rate       meter
	top        maxHeight
	snap       *engine.Snapshot
	stale      bool // the engine differs from snap
	broken     bool // a step panicked: the engine's fields may disagree
	pubSeq     uint64
	pubAt      time.Time

	// For tests: the engine's step count after the last step, and a hook
	// called with every frame, on the worker goroutine.
	steps     atomic.Int64
	stepTime  atomic.Int64 // nanoseconds inside Engine.Step, in total
	onPublish func(*Frame)
}

type reply struct {
	ch  chan<- uint64
	seq uint64
}

// New builds an engine from spec (its validation errors are returned) and
// starts the worker running. The worker owns spec.Up and spec.Init.
func New(spec engines.Spec) (*Worker, error) { return NewWith(spec, Options{}) }

// NewPaused is New with the worker paused.
func NewPaused(spec engines.Spec) (*Worker, error) { return NewWith(spec, Options{Paused: true}) }

// NewWith is New with options.
func NewWith(spec engines.Spec, o Options) (*Worker, error) {
	if !(o.Duty >= 0) || math.IsInf(o.Duty, 0) {
		return nil, fmt.Errorf("worker: duty %v: want a fraction in [0, 1] (0: no limit)", o.Duty)
	}
	w, err := newWorker(spec, o)
	if err != nil {
		return nil, err
	}
	w.start()
	return w, nil
}

// newWorker builds a worker without starting its goroutine, so tests can
// install hooks first.
func newWorker(spec engines.Spec, o Options) (*Worker, error) {
	e, err := engines.New(spec)
	if err != nil {
		return nil, err
	}
	spec.Init = nil
	w := &Worker{
		wake:     make(chan struct{}, 1),
		quit:     make(chan struct{}),
		done:     make(chan struct{}),
		e:        e,
		spec:     spec,
		interval: o.MinInterval,
		duty:     o.Duty,
		running:  !o.Paused,
		stale:    true,
	}
	if w.interval == 0 {
		w.interval = DefaultMinInterval
	}
	return w, nil
}

func (w *Worker) start() {
	w.publish()
	go w.loop()
}

// Send queues commands for the worker, in order. It never blocks. The
// worker owns the slices inside the commands from now on. Send panics
// after Close, on a nil Command and on a Sync without a channel.
func (w *Worker) Send(cmds ...Command) { w.SendSeq(cmds...) }

// SendSeq is Send that also returns the sequence number of the last
// command sent: a Frame whose Seq is at least that number reflects all of
// them. Commands are numbered from 1 in the order they are sent.
func (w *Worker) SendSeq(cmds ...Command) uint64 {
	for _, c := range cmds {
		switch c := c.(type) {
		case nil:
			panic("worker: nil Command")
		case Sync:
			if c.Done == nil {
				panic("worker: Sync with a nil Done channel")
			}
		}
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		panic("worker: Send after Close")
	}
	w.queue = append(w.queue, cmds...)
	w.sent += uint64(len(cmds))
	seq := w.sent
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return seq
}

// Frame returns the newest published frame. It never blocks and never
// returns nil.
func (w *Worker) Frame() *Frame { return w.frame.Load() }

// Close stops the worker after its current step and waits for its
// goroutine to return. Commands not applied yet are dropped (a pending
// Sync gets no reply). The last frame stays readable. Close may be called
// more than once.
func (w *Worker) Close() {
	w.mu.Lock()
	first := !w.closed
	w.closed = true
	w.mu.Unlock()
	if first {
		close(w.quit)
	}
	<-w.done
}

// loop is the worker goroutine.
func (w *Worker) loop() {
	defer close(w.done)
	for {
		if w.take() {
			return
		}
		if w.left == 0 {
			w.apply()
		}
		if w.active() {
			w.step()
			if w.due() {
				w.publish()
			}
			if !w.flush() {
				return
			}
			if !w.rest() {
				return
			}
			continue
		}
		w.rate.stop()
		if w.stale || w.applied != w.pubSeq {
			w.publish()
		}
		if !w.flush() {
			return
		}
		select {
		case <-w.wake:
		case <-w.quit:
			return
		}
	}
}

// rest pauses after a step so that the engine steps at most Duty of the
// wall time, leaving the cores to the app's drawing. Commands wait for the
// rest to end (it is shorter than a step for Duty ≥ 1/2, so no command
// waits an extra step); Close ends it at once. It reports false when the
// worker was closed.
func (w *Worker) rest() bool {
	if !(w.duty > 0 && w.duty < 1) {
		return true
	}
	d := time.Duration(float64(w.last.Total) * (1 - w.duty) / w.duty)
	if d <= 0 {
		return true
	}
	if w.restTimer == nil {
		w.restTimer = time.NewTimer(d)
	} else {
		w.restTimer.Reset(d)
	}
	select {
	case <-w.restTimer.C:
	case <-w.quit:
		w.restTimer.Stop()
		return false
	}
	return true
}

// take moves the queued commands to w.pending and reports whether the
// worker was closed.
func (w *Worker) take() (quit bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return true
	}
	w.pending = append(w.pending, w.queue...)
	clear(w.queue)
	w.queue = w.queue[:0]
	return false
}

func (w *Worker) active() bool { return (w.running || w.left > 0) && w.err == nil }

// apply applies pending commands in order until a Step holds the rest.
// Runs of consecutive SetParams, or of consecutive SetUplift, are
// coalesced: the newest one that is valid is applied, which leaves the
// same state as applying them one by one.
func (w *Worker) apply() {
	p := w.pending
	i := 0
	for i < len(p) && w.left == 0 {
		switch p[i].(type) {
		case SetParams, SetUplift:
			j := i + 1
			for j < len(p) && sameKind(p[j], p[i]) {
				j++
			}
			w.applyRun(p[i:j])
			i = j
		default:
			w.applied++
			w.applyOne(p[i])
			i++
		}
	}
	n := copy(p, p[i:])
	clear(p[n:])
	w.pending = p[:n]
}

func sameKind(a, b Command) bool {
	switch a.(type) {
	case SetParams:
		_, ok := b.(SetParams)
		return ok
	case SetUplift:
		_, ok := b.(SetUplift)
		return ok
	}
	return false
}

// applyRun applies the newest valid command of a run of one kind. Only the
// newest command's error is reported, as applying one by one would leave
// it as the last error.
func (w *Worker) applyRun(run []Command) {
	base := w.applied
	w.applied += uint64(len(run))
	for k := len(run) - 1; k >= 0; k-- {
		var err error
		switch c := run[k].(type) {
		case SetParams:
			if err = w.e.SetParams(c.P); err == nil {
				w.paramsStep = w.e.Stats().Step
			}
		case SetUplift:
			if err = w.e.SetUplift(c.U); err == nil {
				w.spec.Up = c.U
			}
		}
		if err == nil {
			w.stale = true
			return
		}
		if k == len(run)-1 {
			w.reject(err, base+uint64(len(run)))
		}
	}
}

func (w *Worker) reject(err error, seq uint64) { w.cmdErr, w.cmdSeq = err, seq }

func (w *Worker) applyOne(c Command) {
	switch c := c.(type) {
	case Run:
		w.running, w.left = w.err == nil, 0
	case Pause:
		w.running, w.left = false, 0
	case SetDuty:
		if !(c.D >= 0) || math.IsInf(c.D, 0) {
			w.reject(fmt.Errorf("worker: duty %v: want a fraction in [0, 1] (0: no limit)", c.D), w.applied)
			return
		}
		w.duty = c.D
	case Step:
		switch {
		case c.N < 0:
			w.reject(fmt.Errorf("worker: Step{%d}: the number of steps must be >= 0", c.N), w.applied)
		case c.N > 0 && w.err == nil:
			w.running, w.left = false, c.N
		}
	case Reset:
		if err := w.rebuild(c.Spec); err != nil {
			w.reject(fmt.Errorf("worker: reset: %w", err), w.applied)
			return
		}
		w.cmdErr, w.cmdSeq = nil, 0
	case SetHeights:
		if c.H == nil {
			w.reject(errors.New("worker: SetHeights without heights"), w.applied)
			return
		}
		spec := w.spec
		spec.Params = w.e.Params()
		spec.Init = c.H
		if err := w.rebuild(spec); err != nil {
			w.reject(fmt.Errorf("worker: import heights: %w", err), w.applied)
		}
	case Sync:
		w.replies = append(w.replies, reply{c.Done, w.applied})
	}
}

// rebuild replaces the engine.
func (w *Worker) rebuild(spec engines.Spec) error {
	e, err := engines.New(spec)
	if err != nil {
		return err
	}
	spec.Init = nil
	w.e, w.spec = e, spec
	w.err, w.broken, w.conv, w.last, w.paramsStep = nil, false, false, engine.StepStats{}, 0
	w.hist.reset()
	w.stale = true
	w.steps.Store(0)
	return nil
}

// step runs one engine step and records it.
func (w *Worker) step() {
	w.rate.begin(time.Now())
	st, err, broken := safeStep(w.e)
	w.rate.add(time.Now())
	w.stale = true
	// A step that panicked may have left the engine half-updated: it is
	// never snapshotted again, the frames keep the last snapshot.
	w.broken = broken
	w.last = st
	w.steps.Store(int64(st.Step))
	w.stepTime.Add(int64(st.Total))
	if err != nil {
		w.err = err
		w.running, w.left = false, 0
		return
	}
	if w.left > 0 {
		w.left--
	}
	w.conv = w.e.Converged(ConvergedTol)
	w.hist.add(Sample{Step: st.Step, TimeYr: st.Time, MaxDhM: st.MaxDh, MaxHeightM: w.top.of(w.e.Heights())})
}

// safeStep steps e and returns its error. A panic inside the engine
// (parameters that pass validation can still overflow a solver) becomes
// the error, so it stops the worker instead of the app; the engine is
// then unusable and only a Reset or SetHeights replaces it.
func safeStep(e engine.Engine) (st engine.StepStats, err error, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			st = e.Stats()
			err = fmt.Errorf("worker: the engine failed at step %d: %v; change the parameters and reset", st.Step+1, r)
			panicked = true
		}
	}()
	st = stepEngine(e)
	return st, e.Err(), false
}

// stepEngine steps the engine; tests replace it to make a step panic.
var stepEngine = engine.Engine.Step

// due reports whether the frame after a step must be published now.
func (w *Worker) due() bool {
	return w.interval < 0 || !w.active() || w.applied != w.pubSeq || len(w.replies) > 0 ||
		time.Since(w.pubAt) >= w.interval
}

// publish snapshots the engine if it changed and publishes a frame.
func (w *Worker) publish() {
	if w.stale && !w.broken {
		w.snap = w.e.Snapshot()
		w.stale = false
	}
	run := w.active()
	f := &Frame{
		Snap:      w.snap,
		Engine:    w.spec.Kind,
		Nodes:     len(w.e.Heights()),
		Seq:       w.applied,
		Running:   run,
		StepsLeft: w.left,
		Converged: w.conv,
		StepMs:    ms(w.last.Total),
		History:   w.hist.view(),
		Err:       w.err,
		CmdErr:    w.cmdErr,
		CmdErrSeq: w.cmdSeq,

		ParamsStep: w.paramsStep,
	}
	if run {
		f.StepsPerSec = w.rate.perSec()
	}
	for i, d := range w.last.Phase {
		f.PhaseMs[i] = ms(d)
	}
	w.frame.Store(f)
	w.pubSeq, w.pubAt = w.applied, time.Now()
	if w.onPublish != nil {
		w.onPublish(f)
	}
}

// flush answers the Syncs applied so far; it reports false when the worker
// was closed while waiting for a receiver.
func (w *Worker) flush() bool {
	for i, r := range w.replies {
		select {
		case r.ch <- r.seq:
		case <-w.quit:
			return false
		}
		w.replies[i] = reply{}
	}
	w.replies = w.replies[:0]
	return true
}

func ms(d time.Duration) float64 { return d.Seconds() * 1e3 }
