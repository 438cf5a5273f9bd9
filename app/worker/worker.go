package worker

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"orogen/app/drive"
	"orogen/app/engines"
	"orogen/app/runner"
	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/settle"
)

// Command is a command of the worker's driver (app/drive): SetParams,
// SetCoefficients, SetUplift, SetGeology, SetConstraints, Reset or
// SetHeights, each applied between steps; consecutive ones of a type that
// replaces the last (parameters, coefficients, uplift, constraints,
// geology) are coalesced. The runner's commands (runner.Run, Pause, Step,
// Sync, SetDuty) go through the same Send. The worker owns the slices of a
// command after Send: the sender must not modify them.
//
// SetGeology on a MapGeologic engine is laid on the grid (every cell's
// deformations undone, ~200 ms at 1024² with a leaning fold) on a
// goroutine of its own while the engine goes on stepping on the old rock,
// and takes effect between two steps once laid, so dragging a geology
// slider does not stall the engine; only the newest model waiting is laid.
// (The stream graph still lays it on its own nodes, a quarter as many as
// the cells by default, on the engine's goroutine.) A Step or Sync sent
// after it waits until it has taken effect (runner.Background), so
// scripted steps and tests see it from the next step on.
type Command = drive.Command

// The worker's commands, the driver's.
type (
	SetParams       = drive.SetParams
	SetCoefficients = drive.SetCoefficients
	SetUplift       = drive.SetUplift
	SetConstraints  = drive.SetConstraints
	SetGeology      = drive.SetGeology
	Reset           = drive.Reset
	SetHeights      = drive.SetHeights
)

// ConvergedTol is the rate below which Frame.Converged holds, m/yr.
const ConvergedTol = settle.DefaultTol

// MaxHistory bounds Frame.History.
const MaxHistory = 4096

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
//
// The runner's State gives Seq, Running, StepsLeft, StepsPerSec, Err (the
// engine's: non-finite heights, or a step that panicked), CmdErr and
// CmdErrSeq (bad uplift size, invalid parameters or configuration,
// non-finite values, negative Step; a successful Reset clears them).
type Frame struct {
	runner.State

	Snap   *engine.Snapshot // never nil; shared, read-only
	Engine engine.Kind      // the engine's kind
	Nodes  int              // the engine's node count (cells, or graph nodes)
	// Device is where the engine computes ("cpu", or the GPU's one-line
	// report: the grid engine built with engines.Spec.Device), and
	// Fallback the line saying why an engine asked for on a GPU runs on
	// the CPU ("" otherwise; engines.DeviceOf).
	Device, Fallback string
	// Converged: the terrain has settled; the last step, at the user's
	// dt, changed no height faster than ConvergedTol. The worker steps
	// with adaptive time steps (package settle) until then, and rests
	// after (State.Resting) until a command changes the engine.
	Converged bool
	// SettleSteps and SettleTime are the steps and the stepping time it
	// took to settle since the terrain, uplift or parameters last changed
	// (0 while not settled).
	SettleSteps int
	SettleTime  time.Duration
	// Stalled: the terrain has gone settle.DefaultPatience steps without
	// getting closer to a steady state (a cycle, or a travelling wave);
	// Rate is the last step's fastest change, m/yr.
	Stalled bool
	Rate    float64
	// Dt is the time step of the last step, years: the user's, or longer
	// while the terrain settles.
	Dt float64
	// MaxHeight and MeanHeight are Snap's highest cell and mean height,
	// metres, computed on the worker once per snapshot (not on the UI's
	// frame).
	MaxHeight, MeanHeight float64

	StepMs  float64                   // wall time of the last step, all phases
	PhaseMs [engine.NumPhases]float64 // wall time of each phase of the last step
	// History has one sample per step since the engine was built, oldest
	// first, at most MaxHistory: when full, every other older sample is
	// dropped (the newest is always exact, Step tells which steps remain).
	History []Sample

	// ParamsStep is the engine's step count when the parameters in force
	// were set (0 for those it was built with): Snap.Step − ParamsStep
	// steps have run on them. The desktop app measures with it how soon a
	// slider change shows.
	ParamsStep int
	// ParamsShown is the step of the first frame published with a step
	// run on those parameters (0: none yet): ParamsShown − ParamsStep is
	// how many steps a slider change took to reach a frame, whatever the
	// frame rate of the window that reads the frames.
	ParamsShown int
	// Adjustments is how many times the elevation constraints have
	// adjusted the uplift (drive.Driver.Adjustments).
	Adjustments int
}

// Worker runs a stream-power engine on its own goroutine.
type Worker = runner.Runner[Command, Frame]

// New builds an engine from spec (its validation errors are returned) and
// starts a worker on it, running unless o.Paused. The worker owns spec.Up
// and spec.Init.
func New(spec engines.Spec, o runner.Options) (*Worker, error) {
	d, err := newDriver(spec)
	if err != nil {
		return nil, err
	}
	w, err := runner.New(d, o)
	if err != nil {
		return nil, err
	}
	// Commands reach the driver only after New returns: Send and the
	// runner's queue order this write before any read.
	d.geo.wake = w.Wake
	return w, nil
}

// geoLayer lays geology models on the grid on a goroutine of its own, one
// at a time, for SetGeology on a MapGeologic engine. Its fields belong to
// the runner's goroutine, but for done, through which the laying goroutine
// hands its map back.
type geoLayer struct {
	epoch    uint64 // bumped when a laid map may no longer land: a new engine, a geology set at once
	building bool   // a goroutine is laying a model
	next     *geology.Model
	hasNext  bool // next waits to be laid (the newest request)
	done     chan laidMap
	wake     func() // the runner's Wake
}

type laidMap struct {
	epoch uint64
	g     *geology.Map
}

// layMap lays a model on a grid; tests replace it to hold a build.
var layMap = func(m *geology.Model, w, h int, cell float64) *geology.Map { return m.Map(w, h, cell) }

// forget drops the models waiting or being laid: what lands next must
// come from a later request.
func (l *geoLayer) forget() {
	l.epoch++
	l.next, l.hasNext = nil, false
}

// start lays the newest waiting model, unless one is being laid.
func (l *geoLayer) start(w, h int, cell float64) {
	if l.building || !l.hasNext {
		return
	}
	if l.done == nil {
		l.done = make(chan laidMap, 1) // one goroutine at a time: never blocks
	}
	m, epoch, done, wake := l.next, l.epoch, l.done, l.wake
	l.next, l.hasNext, l.building = nil, false, true
	go func() {
		done <- laidMap{epoch, layMap(m, w, h, cell)}
		if wake != nil {
			wake()
		}
	}()
}

// Pending reports whether a model asked for has not taken effect yet
// (runner.Background).
func (d *driver) Pending() bool { return d.geo.building || d.geo.hasNext }

// Land installs a map laid since the last call, if it is still wanted,
// and starts laying the newest model waiting (runner.Background).
func (d *driver) Land() bool {
	l := &d.geo
	if !l.building {
		return false
	}
	var got laidMap
	select {
	case got = <-l.done:
	default:
		return false
	}
	l.building = false
	changed := false
	if got.epoch == l.epoch {
		if err := d.dr.Apply(drive.SetGeologyMap{G: got.g}); err == nil {
			d.conv, d.stale, changed = false, true, true
		}
	}
	w, h, cell := d.dr.Engine().Size()
	l.start(w, h, cell)
	return changed
}

// driver is the worker's part of the runner: it owns the drive.Driver
// that steps the engine, and what the worker keeps about it. Only the
// runner's goroutine calls it.
type driver struct {
	dr          *drive.Driver
	conv        bool
	paramsStep  int // engine step count when the parameters were last set
	paramsShown int // step of the first frame built on them (0: none yet)
	last        engine.StepStats
	hist        history
	top         maxHeight
	snap        *engine.Snapshot
	snapMax     float64 // snap's highest cell and mean height, metres
	snapMean    float64
	stale       bool // the engine differs from snap
	broken      bool // a step panicked: the engine's fields may disagree

	geo geoLayer // models being laid on the grid off the runner's goroutine

	// For tests: the engine's step count after the last step, the time
	// spent in Engine.Step, and a hook called with every frame built, on
	// the worker goroutine, just before it is published.
	steps     atomic.Int64
	stepTime  atomic.Int64 // nanoseconds inside Engine.Step, in total
	onPublish func(*Frame)
}

func newDriver(spec engines.Spec) (*driver, error) {
	dr, err := drive.New(spec, drive.Options{Tol: ConvergedTol})
	if err != nil {
		return nil, err
	}
	d := &driver{dr: dr}
	d.reset()
	return d, nil
}

// Apply applies one of the worker's commands.
func (d *driver) Apply(c Command) (runner.Effect, error) {
	switch c := c.(type) {
	case SetGeology:
		e := d.dr.Engine()
		if _, ok := e.(engine.Geologic); !ok {
			return 0, fmt.Errorf("worker: the %s has no geology", d.dr.Spec().Label())
		}
		if _, ok := e.(engine.MapGeologic); ok && c.M != nil {
			// Laid off this goroutine; Land installs it.
			d.geo.next, d.geo.hasNext = c.M, true
			w, h, cell := e.Size()
			d.geo.start(w, h, cell)
			return 0, nil
		}
		d.geo.forget()
	case drive.SetGeologyMap:
		return 0, errors.New("worker: geology maps are laid by SetGeology")
	}
	if err := d.dr.Apply(c); err != nil {
		switch c.(type) {
		case Reset:
			return 0, fmt.Errorf("worker: reset: %w", err)
		case SetHeights:
			return 0, fmt.Errorf("worker: import heights: %w", err)
		}
		return 0, err
	}
	d.conv = false
	switch c.(type) {
	case Reset:
		d.reset()
		return runner.NewEngine | runner.ClearCmdErr, nil
	case SetHeights:
		d.reset()
		return runner.NewEngine, nil
	case SetParams, SetCoefficients:
		d.paramsStep, d.paramsShown = d.dr.Engine().Stats().Step, 0
	}
	d.stale = true
	return 0, nil
}

// reset forgets what the worker kept about the engine the driver replaced.
func (d *driver) reset() {
	d.geo.forget() // the new engine has the spec's geology
	d.broken, d.conv, d.last, d.paramsStep, d.paramsShown = false, false, engine.StepStats{}, 0, 0
	d.hist.reset()
	d.stale = true
	d.steps.Store(0)
}

// Resting reports that the terrain has settled (runner.Rester): a
// running worker then stops stepping, and uses no CPU, until a command
// changes the engine (new parameters, uplift, geology, heights or a
// Reset all clear conv). Stepping on would change nothing but the clock.
func (d *driver) Resting() bool { return d.conv && !d.broken }

// Step runs one engine step and records it.
func (d *driver) Step() error {
	d.stale = true
	st, err := stepEngine(d.dr)
	d.record(st)
	if err != nil {
		return err
	}
	d.conv = d.dr.Settled()
	x := Sample{Step: st.Step, TimeYr: st.Time, MaxDhM: st.MaxDh, MaxHeightM: d.snapMax}
	if dev, _ := engines.DeviceOf(d.dr.Engine()); dev == "cpu" {
		x.MaxHeightM = d.top.of(d.dr.Engine().Heights())
	}
	// else the heights live on the GPU: reading them back every step for
	// the highest point took a third of a 2048² step in the app on an
	// H200; the sample keeps the last frame's until the next frame's
	// snapshot gives the step's own (Frame).
	d.hist.add(x)
	return nil
}

func (d *driver) record(st engine.StepStats) {
	d.last = st
	d.steps.Store(int64(st.Step))
	d.stepTime.Add(int64(st.Total))
}

// stepEngine steps the engine; tests replace it to make a step panic.
var stepEngine = (*drive.Driver).Step

// Panicked marks the engine broken: it is never snapshotted again, the
// frames keep the last snapshot, until a Reset or SetHeights replaces it.
func (d *driver) Panicked(v any) error {
	st := d.dr.Engine().Stats()
	d.record(st)
	d.broken = true
	return fmt.Errorf("worker: the engine failed at step %d: %v; change the parameters and reset", st.Step+1, v)
}

// Frame snapshots the engine if it changed and builds a frame.
func (d *driver) Frame(s runner.State) *Frame {
	e := d.dr.Engine()
	if d.stale && !d.broken {
		d.snap = e.Snapshot()
		d.snap.Param = d.dr.Params() // the user's, not a settling step's dt
		d.snapMax, d.snapMean = d.top.stats(d.snap.Height)
		d.stale = false
		d.hist.setTop(d.snap.Step, d.snapMax)
	}
	if d.paramsShown == 0 && d.snap.Step > d.paramsStep {
		d.paramsShown = d.snap.Step
	}
	dev, why := engines.DeviceOf(e)
	f := &Frame{
		State:       s,
		Snap:        d.snap,
		Engine:      d.dr.Spec().Kind,
		Nodes:       len(e.Heights()),
		Device:      dev,
		Fallback:    why,
		Converged:   d.conv,
		MaxHeight:   d.snapMax,
		MeanHeight:  d.snapMean,
		Dt:          d.last.Dt,
		StepMs:      ms(d.last.Total),
		History:     d.hist.view(),
		ParamsStep:  d.paramsStep,
		ParamsShown: d.paramsShown,
	}
	f.SettleSteps, f.SettleTime = d.dr.Scheme().SettledAfter()
	f.Stalled, f.Rate = d.dr.Stalled()
	f.Adjustments = d.dr.Adjustments()
	for i, t := range d.last.Phase {
		f.PhaseMs[i] = ms(t)
	}
	if d.onPublish != nil {
		d.onPublish(f)
	}
	return f
}

func ms(d time.Duration) float64 { return d.Seconds() * 1e3 }
