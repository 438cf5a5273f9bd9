package compute

import (
	"context"
	"fmt"
	"strings"
	"time"

	"orogen/gpu/hydrogpu"
	"orogen/sim"
	"orogen/sim/hydro"
)

// Device is the user's choice of where to compute.
type Device uint8

const (
	CPU Device = iota
	GPU
	Auto
)

var deviceNames = []string{"cpu", "gpu", "auto"}

func (d Device) String() string { return deviceNames[d] }

// ParseDevice reads cpu, gpu or auto.
func ParseDevice(s string) (Device, error) {
	for k, n := range deviceNames {
		if strings.EqualFold(s, n) {
			return Device(k), nil
		}
	}
	return 0, fmt.Errorf("--device %q: use cpu, gpu or auto", s)
}

// Set and Type make a Device a command-line flag value.
func (d *Device) Set(s string) error {
	v, err := ParseDevice(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Type names the flag's value in --help.
func (d *Device) Type() string { return "cpu|gpu|auto" }

// Engine is what a hydraulic run needs of an engine; *hydro.Engine and
// *hydrogpu.Engine both have it.
type Engine interface {
	Step() hydro.StepStats
	Snapshot() *hydro.Snapshot
	Terrain() []float32
	Sediment() []float32
	Budget() hydro.Budget
	Mass() hydro.Mass
	Size() (w, h int, cell float64)
	Params() hydro.Params
	StableDt() (float64, string)
	Sources() []hydro.Source
	Warning() string
}

// Hydro is a hydraulic engine on the device it got.
type Hydro struct {
	Engine Engine
	// Device names where it runs: "cpu", or the GPU's one-line report
	// (renderer, version, vendor, platform, memory).
	Device string
	// Renderer is the GPU's renderer string, "" on the CPU.
	Renderer string
	// Fallback, when not "", is the one line saying why a gpu or auto
	// run is on the CPU.
	Fallback string
	gpu      *hydrogpu.Engine
}

// OnGPU reports whether the engine runs on a GPU.
func (h *Hydro) OnGPU() bool { return h.gpu != nil }

// Err returns the GPU's error (a lost context, out of memory), nil on
// the CPU.
func (h *Hydro) Err() error {
	if h.gpu == nil {
		return nil
	}
	return h.gpu.Err()
}

// Run runs n steps; on the GPU without reading anything back between
// them.
func (h *Hydro) Run(ctx context.Context, n int) error {
	if h.gpu != nil {
		// In chunks, so that a cancelled ctx stops within a second or so.
		for n > 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			k := min(n, 256)
			if err := h.gpu.Run(k); err != nil {
				return err
			}
			n -= k
		}
		return nil
	}
	for range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		h.Engine.Step()
	}
	return nil
}

// Close releases the engine's GPU buffers, if any (the device is the
// process's, Shared).
func (h *Hydro) Close() {
	if h.gpu != nil {
		h.gpu.Close()
		h.gpu = nil
	}
}

// NewHydro builds the engine for cfg on the device d asks for, falling
// back to the CPU (with Fallback set) where there is no usable GPU or
// the GPU engine cannot take cfg. Errors are those of cfg itself.
//
// The GPU is the process's (Shared), as the grid engine's: a context
// made after the app's window was refused on NVIDIA's driver (docs/GPU.md,
// "The views' longest frames found"), and the app opens the shared one
// before its window.
func NewHydro(d Device, cfg hydro.Config) (*Hydro, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	dev, fallback := Shared(d)
	if dev != nil {
		e, err := hydrogpu.New(dev, cfg)
		if err == nil {
			info := dev.Info()
			return &Hydro{Engine: e, Device: info.String(), Renderer: info.Renderer, gpu: e}, nil
		}
		fallback = fmt.Sprintf("--device %s: %v: running on the CPU", d, err)
	}
	e, err := hydro.New(cfg)
	if err != nil {
		return nil, err
	}
	return &Hydro{Engine: e, Device: "cpu", Fallback: fallback}, nil
}

// Pass is the hydraulic pass of sim/amplify (Options.HydroPass) on the
// device D asks for. Note, if not nil, gets the line saying why a pass
// fell back to the CPU (once); Used, if not nil, the device each pass
// ran on; Done, if not nil, the device, steps and time of each pass that
// finished.
type Pass struct {
	D    Device
	Note func(string)
	Used func(string)
	Done func(device string, steps int, d time.Duration)
	said bool
}

// RunHydro runs steps steps of the model on cfg and returns the terrain.
func (p *Pass) RunHydro(ctx context.Context, cfg hydro.Config, steps int) ([]float32, error) {
	h, err := NewHydro(p.D, cfg)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	if h.Fallback != "" && p.Note != nil && !p.said {
		p.Note(h.Fallback)
		p.said = true
	}
	if p.Used != nil {
		p.Used(h.Device)
	}
	start := time.Now()
	if err := h.Run(ctx, steps); err != nil {
		return nil, err
	}
	if err := h.Err(); err != nil {
		return nil, err
	}
	out := h.Engine.Terrain()
	if p.Done != nil {
		p.Done(h.Device, steps, time.Since(start))
	}
	if i := sim.FirstNonFinite(out); i >= 0 {
		w, _, _ := h.Engine.Size()
		return nil, fmt.Errorf("the hydraulic pass on %s left cell (%d, %d) without a height", h.Device, i%w, i/w)
	}
	return out, nil
}
