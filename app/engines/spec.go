package engines

import (
	"errors"
	"fmt"
	"orogen/app/compute"

	"orogen/sim/engine"
	"orogen/sim/geology"
)

// Spec describes an engine on a W×H grid of Cell metres.
type Spec struct {
	Kind engine.Kind
	// Samples is the stream graph's node count (0: DefaultSamples); it
	// must be 0 for the grid.
	Samples int
	W, H    int
	Cell    float64   // metres
	Up      []float32 // uplift, m/yr, W·H values; nil for none
	Init    []float32 // initial heights, m, W·H values; nil for a flat start
	// InitNoise adds seeded uniform noise in [0, InitNoise) metres to the
	// initial heights (flat starts route without ties).
	InitNoise float64
	Seed      uint64
	Params    engine.Params
	// Coefficients are the engine's own coefficients beside Params
	// (engine.Coefficients: roudier.Params for Roudier's engine); nil
	// takes the engine's defaults.
	Coefficients any
	// Geology is the rock under the terrain (nil: uniform rock); the grid
	// and the stream graph erode it differentially (engine.Geologic).
	Geology *geology.Model
	// Device is where the engine computes (package compute): the grid
	// engine runs on the GPU for gpu and auto (gpu/splgpu), falling back
	// to the CPU with a line saying why (DeviceOf); the other engines
	// run on the CPU whatever it says.
	Device compute.Device
}

// ErrSamplesGrid is the error of a node count given to an engine that
// has no nodes of its own.
var ErrSamplesGrid = errors.New("--samples applies to the stream graph only: add --engine graph")

// New builds the engine s describes, through its registry entry. The
// engine may keep s's slices.
func New(s Spec) (engine.Engine, error) {
	e, err := Lookup(s.Kind)
	if err != nil {
		return nil, fmt.Errorf("engines: %w", err)
	}
	s.Kind = e.Kind
	if s.Samples != 0 && !e.Nodes {
		return nil, ErrSamplesGrid
	}
	return e.New(s)
}

// Label names the engine of s for people: "grid engine", "stream graph,
// 40000 nodes".
func (s Spec) Label() string {
	e, err := Lookup(s.Kind)
	if err != nil {
		return string(s.Kind) + " engine"
	}
	if !e.Nodes {
		return e.Label + " engine"
	}
	if s.Samples == 0 {
		return e.Label + ", default nodes"
	}
	return fmt.Sprintf("%s, %d nodes", e.Label, s.Samples)
}
