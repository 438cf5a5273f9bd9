// Package detail runs the hydraulic and thermal engine (sim/hydro) as a
// detail pass on the desktop app's terrain: a Runner owns one hydro.Engine
// on its own goroutine, steps it while running, takes parameter changes
// between steps, and publishes Frames the UI draws like the stream-power
// worker's.
//
// # Ownership
//
// The runner's goroutine alone touches the engine. Set, Run, Pause and
// Close never wait on a step (they take a mutex held for an assignment);
// Frame loads the newest frame from an atomic.Pointer. A published Frame
// and everything it points to are never written again.
//
// # Publishing
//
// A frame is published at Start, after the first step following a change,
// when the runner pauses, and otherwise at most every MinInterval while it
// runs: a frame copies six fields of the grid.
package detail

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/hydro"
)

// MinInterval is the least time between two frames while running.
const MinInterval = 50 * time.Millisecond

// ShownDepthM is the least water depth the frames' Water shows, metres:
// the rain film over every slope would otherwise tint the whole map.
const ShownDepthM = 0.05

// Frame is what the runner publishes.
type Frame struct {
	// Snap is the engine's state as the viewer draws it: Height the
	// terrain, Water the water depth where at least ShownDepthM, Sediment
	// and Hardness; no drainage or receivers. Time is in seconds.
	Snap    *engine.Snapshot
	Stats   hydro.StepStats
	Params  hydro.Params
	Running bool
	// StepsPerSec is the rate over the last second of stepping.
	StepsPerSec float64
	// Warning is the engine's Δt warning ("" when Δt is stable).
	Warning string
	// Err is why the engine stopped (a step that panicked); the runner
	// is paused for good.
	Err error
}

// Runner steps a hydro.Engine on its own goroutine.
type Runner struct {
	mu      sync.Mutex
	params  *hydro.Params // to apply before the next step
	running bool
	closed  bool
	wake    chan struct{}
	done    chan struct{}
	frame   atomic.Pointer[Frame]

	e      *hydro.Engine
	err    error
	last   time.Time // when the last frame was published
	rate   []time.Time
	dirty  bool // a change to publish after the next step
	duty   float64
	onStep func()
}

// Start builds an engine on cfg (its errors are returned) and starts the
// runner, running or paused. duty is the largest share of wall time the
// engine steps, as the stream-power worker's Options.Duty: after a step of
// t it rests t·(1 − duty)/duty so the window keeps its frame rate; 0 or 1
// means no rest.
func Start(cfg hydro.Config, running bool, duty float64) (*Runner, error) {
	if !(duty >= 0 && duty <= 1) {
		return nil, fmt.Errorf("detail: duty %v: want a fraction in [0, 1]", duty)
	}
	e, err := hydro.New(cfg)
	if err != nil {
		return nil, err
	}
	r := &Runner{e: e, running: running, duty: duty, wake: make(chan struct{}, 1), done: make(chan struct{})}
	r.publish(running)
	go r.loop()
	return r, nil
}

// Set replaces the parameters from the next step on. Invalid parameters
// return an error and change nothing.
func (r *Runner) Set(p hydro.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	r.mu.Lock()
	r.params = &p
	r.mu.Unlock()
	r.poke()
	return nil
}

// Run makes the runner step continuously.
func (r *Runner) Run() { r.setRunning(true) }

// Pause stops stepping after the current step.
func (r *Runner) Pause() { r.setRunning(false) }

func (r *Runner) setRunning(v bool) {
	r.mu.Lock()
	r.running = v
	r.mu.Unlock()
	r.poke()
}

func (r *Runner) poke() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// Frame returns the newest frame; never nil.
func (r *Runner) Frame() *Frame { return r.frame.Load() }

// Close stops the runner and waits for its goroutine. The last frame stays
// readable.
func (r *Runner) Close() {
	r.mu.Lock()
	first := !r.closed
	r.closed = true
	r.mu.Unlock()
	if first {
		r.poke()
	}
	<-r.done
}

func (r *Runner) loop() {
	defer close(r.done)
	for {
		r.mu.Lock()
		closed, running, p := r.closed, r.running && r.err == nil, r.params
		r.params = nil
		r.mu.Unlock()
		if closed {
			return
		}
		if p != nil {
			// Validated by Set; the engine re-checks.
			if err := r.e.SetParams(*p); err == nil {
				r.dirty = true
			}
		}
		if !running {
			r.rate = r.rate[:0]
			if r.dirty || r.Frame().Running {
				r.publish(false)
			}
			<-r.wake
			continue
		}
		t0 := time.Now()
		r.step()
		if r.err != nil || r.dirty || time.Since(r.last) >= MinInterval {
			r.publish(r.err == nil)
		}
		if r.duty > 0 && r.duty < 1 {
			rest := time.Duration(float64(time.Since(t0)) * (1 - r.duty) / r.duty)
			select {
			case <-time.After(rest):
			case <-r.wake:
			}
		}
	}
}

// step runs one engine step; a panic becomes the runner's error.
func (r *Runner) step() {
	defer func() {
		if v := recover(); v != nil {
			r.err = fmt.Errorf("detail: the hydraulic engine failed at step %d: %v; discard and start again with other parameters", r.e.Stats().Step+1, v)
		}
	}()
	r.e.Step()
	now := time.Now()
	r.rate = append(r.rate, now)
	for len(r.rate) > 1 && now.Sub(r.rate[0]) > time.Second {
		r.rate = r.rate[1:]
	}
	if r.onStep != nil {
		r.onStep()
	}
}

// publish snapshots the engine into a new frame.
func (r *Runner) publish(running bool) {
	s := r.e.Snapshot()
	f := &Frame{
		Snap:  s.View(ShownDepthM),
		Stats: s.Stats, Params: s.Param, Running: running,
		Warning: r.e.Warning(), Err: r.err,
	}
	if n := len(r.rate); running && n > 1 {
		if d := r.rate[n-1].Sub(r.rate[0]).Seconds(); d > 0 {
			f.StepsPerSec = float64(n-1) / d
		}
	}
	r.frame.Store(f)
	r.last, r.dirty = time.Now(), false
}

// Terrain returns a copy of the newest frame's terrain as a field: what
// "keep as base" hands the stream-power engine.
func (f *Frame) Terrain() *sim.Field {
	s := f.Snap
	return &sim.Field{W: s.W, H: s.H, Cell: s.Cell, Data: append([]float32(nil), s.Height...)}
}
