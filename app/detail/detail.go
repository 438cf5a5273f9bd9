// Package detail runs the hydraulic and thermal engine (sim/hydro) as a
// detail pass on the desktop app's terrain: a Runner (see package runner)
// whose goroutine owns one hydro.Engine, steps it while running, applies
// parameter changes between steps, and publishes Frames the UI draws like
// the stream-power worker's.
//
// The runner's rules hold: commands through Send (the runner's Run, Pause,
// Step, Sync and SetDuty, and this package's SetParams), frames through
// Frame, Close; ordering, Step holding later commands, Sync, the
// publishing guarantees and panics becoming Frame.Err are package
// runner's. This package adds the engine's part.
//
// # Ownership
//
// The runner's goroutine alone touches the engine; the terrain given to
// New is the engine's from then on. A published Frame and everything it
// points to are never written again.
//
// # Publishing
//
// A frame copies six fields of the grid (Snapshot then View), so frames
// come at most every runner.Options.MinInterval while the pass runs, plus
// those package runner guarantees. After a step that panicked, frames keep
// the last snapshot: the engine's fields may belong to two steps.
package detail

import (
	"fmt"

	"orogen/app/compute"
	"orogen/app/runner"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/hydro"
)

// ShownDepthM is the least water depth the frames' Water shows, metres:
// the rain film over every slope would otherwise tint the whole map.
const ShownDepthM = 0.05

// Command is a command of the detail pass's own: SetParams. The runner's
// commands (runner.Run, Pause, Step, Sync, SetDuty) go through the same
// Send.
type Command interface {
	runner.Command
	detailCommand()
}

// SetParams replaces the parameters from the next step on. Invalid
// parameters are rejected (Frame.CmdErr) and change nothing. Consecutive
// ones are coalesced.
type SetParams struct{ P hydro.Params }

func (SetParams) RunnerCommand() {}
func (SetParams) detailCommand() {}
func (SetParams) Coalescing()    {}

// Frame is what the runner publishes. The runner's State gives Seq,
// Running, StepsLeft, StepsPerSec (over the last second of stepping), Err
// (why the engine stopped: a step that panicked; the pass is then paused
// for good) and CmdErr, CmdErrSeq (rejected parameters).
type Frame struct {
	runner.State
	// Snap is the engine's state as the viewer draws it: Height the
	// terrain, Water the water depth where at least ShownDepthM, Sediment
	// and Hardness; no drainage or receivers. Time is in seconds.
	Snap   *engine.Snapshot
	Stats  hydro.StepStats
	Params hydro.Params
	// Warning is the engine's Δt warning ("" when Δt is stable).
	Warning string
	// Device is where the pass runs: "cpu", or the GPU's report.
	Device string
}

// Runner steps a hydro.Engine on its own goroutine.
type Runner = runner.Runner[Command, Frame]

// New builds an engine on cfg (its errors are returned) and starts the
// runner, running unless o.Paused. o.Duty is the largest share of wall
// time the engine steps, as for the stream-power worker, so the window
// keeps its frame rate.
func New(cfg hydro.Config, o runner.Options) (*Runner, error) {
	e, err := hydro.New(cfg)
	if err != nil {
		return nil, err
	}
	return runner.New(&driver{e: e, device: "cpu", stale: true}, o)
}

// NewOn is New on the device d asks for (package compute): on a GPU where
// there is a usable one, else on the CPU, with the line saying why in
// the returned Hydro's Fallback. Close the Hydro after the Runner: it
// holds the GPU.
func NewOn(d compute.Device, cfg hydro.Config, o runner.Options) (*Runner, *compute.Hydro, error) {
	h, err := compute.NewHydro(d, cfg)
	if err != nil {
		return nil, nil, err
	}
	e, ok := h.Engine.(hydroEngine)
	if !ok {
		h.Close()
		return nil, nil, fmt.Errorf("detail: the engine on %s cannot change its parameters", h.Device)
	}
	r, err := runner.New(&driver{e: e, device: h.Device, gpuErr: h.Err, stale: true}, o)
	if err != nil {
		h.Close()
		return nil, nil, err
	}
	return r, h, nil
}

// hydroEngine is what the pass needs of an engine: *hydro.Engine and
// *hydrogpu.Engine have it.
type hydroEngine interface {
	Step() hydro.StepStats
	SetParams(hydro.Params) error
	Snapshot() *hydro.Snapshot
	Stats() hydro.StepStats
	Warning() string
}

// driver is the detail pass's part of the runner. Only the runner's
// goroutine calls it.
type driver struct {
	e      hydroEngine
	device string
	gpuErr func() error // the GPU's error (a lost context); nil on the CPU
	last   *Frame       // the frame of the last snapshot
	stale  bool         // the engine differs from last
	broken bool         // a step panicked: the engine's fields may disagree
}

// Apply applies SetParams.
func (d *driver) Apply(c Command) (runner.Effect, error) {
	switch c := c.(type) {
	case SetParams:
		if err := d.e.SetParams(c.P); err != nil {
			return 0, fmt.Errorf("detail: %w", err)
		}
	}
	d.stale = true
	return 0, nil
}

// Step runs one engine step.
func (d *driver) Step() error {
	d.stale = true
	d.e.Step()
	if d.gpuErr != nil {
		if err := d.gpuErr(); err != nil {
			return fmt.Errorf("detail: %w", err)
		}
	}
	return nil
}

// Panicked marks the engine broken for good: the pass has no command that
// replaces it.
func (d *driver) Panicked(v any) error {
	d.broken = true
	return fmt.Errorf("detail: the hydraulic engine failed at step %d: %v; discard and start again with other parameters", d.e.Stats().Step+1, v)
}

// Frame snapshots the engine, if it changed, into a new frame.
func (d *driver) Frame(st runner.State) *Frame {
	if d.stale && !d.broken {
		s := d.e.Snapshot()
		d.last = &Frame{Snap: s.View(ShownDepthM), Stats: s.Stats, Params: s.Param, Warning: d.e.Warning(), Device: d.device}
		d.stale = false
	}
	f := *d.last
	f.State = st
	return &f
}

// Terrain returns a copy of the frame's terrain as a field: what "keep as
// base" hands the stream-power engine.
func (f *Frame) Terrain() *sim.Field {
	s := f.Snap
	return &sim.Field{W: s.W, H: s.H, Cell: s.Cell, Data: append([]float32(nil), s.Height...)}
}
