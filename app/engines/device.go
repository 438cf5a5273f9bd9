package engines

import (
	"fmt"

	"orogen/app/compute"
	"orogen/gpu/splgpu"
	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/grid"
	"orogen/sim/water"
)

// Devices reports where an engine built with Spec.Device runs: Device
// names it ("cpu", or the GPU's one-line report) and Fallback, when not
// "", is the one line saying why a gpu or auto engine runs on the CPU
// (no usable GPU, parameters the GPU engine does not run, a geology that
// does not fit its card).
// Engines built for the CPU do not implement it.
type Devices interface {
	Device() string
	Fallback() string
}

// DeviceOf returns where e runs and why it fell back to the CPU, if it
// did: ("cpu", "") for an engine built for the CPU.
func DeviceOf(e engine.Engine) (device, fallback string) {
	if d, ok := e.(Devices); ok {
		return d.Device(), d.Fallback()
	}
	return "cpu", ""
}

// newGrid builds the grid engine on the device s asks for: on the CPU
// sim/grid itself; on gpu or auto the GPU engine (gpu/splgpu) in a
// gridOn that moves to the CPU when the GPU cannot go on.
func newGrid(s Spec) (engine.Engine, error) {
	cfg := grid.Config{W: s.W, H: s.H, Cell: s.Cell, Up: s.Up, Init: s.Init, InitNoise: s.InitNoise,
		Seed: s.Seed, Params: s.Params}
	if s.Device == compute.CPU {
		e, err := grid.New(cfg)
		if err != nil {
			return nil, err
		}
		if s.Geology != nil {
			e.SetGeology(s.Geology)
		}
		return e, nil
	}
	dev, why := compute.Shared(s.Device)
	if dev != nil {
		switch err := splgpu.Supports(s.Params); {
		case err != nil:
			why = fmt.Sprintf("--device %s: %v: running on the CPU", s.Device, err)
		default:
			g, err := splgpu.New(dev, cfg)
			if err == nil && s.Geology != nil {
				if err = g.SetGeologyMap(s.Geology.Map(s.W, s.H, s.Cell)); err != nil {
					g.Close()
				}
			}
			if err == nil {
				return &gridOn{Engine: g, gpu: g, dev: dev.Info().String(), spec: s}, nil
			}
			if _, cerr := grid.New(grid.Config{W: s.W, H: s.H, Cell: s.Cell, Params: s.Params}); cerr != nil {
				return nil, cerr // the configuration itself is wrong
			}
			why = fmt.Sprintf("--device %s: %v: running on the CPU", s.Device, err)
		}
	}
	e, err := grid.New(cfg)
	if err != nil {
		return nil, err
	}
	if s.Geology != nil {
		e.SetGeology(s.Geology)
	}
	return &gridOn{Engine: e, cpu: e, dev: "cpu", fallback: why, spec: s}, nil
}

// gridOn is the grid engine on the GPU (gpu is set) or, after a
// fallback, on the CPU (cpu is set). A change the GPU engine does not
// run (parameters splgpu.Supports refuses, a geology that does not fit
// its card) moves it to the CPU for good: the heights read back become a
// grid.Engine's initial heights, its steps and time continuing the
// count, its geology and alluvium the GPU's, the rain map kept (the
// lakes' water and, with deposition, the rate G·Qs/A start afresh there).
type gridOn struct {
	engine.Engine
	gpu           *splgpu.Engine
	cpu           *grid.Engine
	dev, fallback string
	spec          Spec
	up            []float32
	upSet         bool
	steps         int     // steps done on the GPU before the move
	years         float64 // their time
	rebal         bool    // the rebalanced splitting asked for (SetRebalanced)
}

// SetRebalanced turns the rebalanced splitting on or off on the engine
// the steps run on (engine.Rebalanced); a move to the CPU keeps it on,
// its corrections starting from zero there.
func (g *gridOn) SetRebalanced(on bool) {
	g.rebal = on
	if g.gpu != nil {
		g.gpu.SetRebalanced(on)
		return
	}
	g.cpu.SetRebalanced(on)
}

// Release gives back the scratch of the engine the steps run on, GPU or
// CPU (engine.Releaser).
func (g *gridOn) Release() {
	if g.gpu != nil {
		g.gpu.Release()
		return
	}
	g.cpu.Release()
}

// Close gives the GPU engine's device memory back at once (it also goes
// when the engine is collected).
func (g *gridOn) Close() {
	if g.gpu != nil {
		g.gpu.Close()
	}
}

// LakeDetail is the GPU engine's last lakes phase: the milliseconds
// that reversed the paths and the Borůvka rounds (0, 0 on the CPU).
func (g *gridOn) LakeDetail() (carveMs float64, rounds int) {
	if g.gpu == nil {
		return 0, 0
	}
	return g.gpu.CarveMs, g.gpu.LakeRounds
}

// LakePassMs is the device's time in the GPU engine's last Borůvka
// rounds' dispatches (0 on the CPU).
func (g *gridOn) LakePassMs() float64 {
	if g.gpu == nil {
		return 0
	}
	return g.gpu.PassMs
}

// LakeHost is the GPU engine's last lakes phase on the host: wall
// time, the time in reads and in writes, ms, and the reads (zeros on
// the CPU).
func (g *gridOn) LakeHost() [4]float64 {
	if g.gpu == nil {
		return [4]float64{}
	}
	return g.gpu.LakeHost
}

// LakeSplit is the GPU engine's last lakes phase's host time by part
// (splgpu.Engine.LakeSplit; zeros on the CPU).
func (g *gridOn) LakeSplit() [4]float64 {
	if g.gpu == nil {
		return [4]float64{}
	}
	return g.gpu.LakeSplit
}

// QueryMs is the GPU engine's last step's host time after its last read
// (splgpu.Engine.QueryMs; 0 on the CPU).
func (g *gridOn) QueryMs() float64 {
	if g.gpu == nil {
		return 0
	}
	return g.gpu.QueryMs
}

// LakeBytes is the GPU engine's lakes' small buffers, bytes (0 on the
// CPU).
func (g *gridOn) LakeBytes() int {
	if g.gpu == nil {
		return 0
	}
	return g.gpu.LakeBytes()
}

// HillDetail is the GPU engine's last hillslope phase by its parts:
// the creep's factors, its sweeps along x and y, Σ h, ms (zeros on the
// CPU or without nonlinear creep).
func (g *gridOn) HillDetail() [4]float64 {
	if g.gpu == nil {
		return [4]float64{}
	}
	return g.gpu.HillMs
}

// DepositRounds is the GPU engine's last deposit phase's rounds of tree
// contraction (0 on the CPU or without deposition).
func (g *gridOn) DepositRounds() int {
	if g.gpu == nil {
		return 0
	}
	return g.gpu.DepRounds
}

// DepositDetail is the GPU engine's last deposit phase by its parts:
// the lakes' records, the contraction, the heights and rate, ms (zeros
// on the CPU).
func (g *gridOn) DepositDetail() [3]float64 {
	if g.gpu == nil {
		return [3]float64{}
	}
	return g.gpu.DepMs
}

// GeoSolves is the GPU engine's last step's solves of the erosion with
// a geology (splgpu.Engine.GeoIters; 0 on the CPU or without one).
func (g *gridOn) GeoSolves() int {
	if g.gpu == nil {
		return 0
	}
	return g.gpu.GeoIters
}

// DepositList is the length of the list of nodes left that the GPU
// engine's last contraction ended on, -1 for none (every round over
// every cell; also on the CPU).
func (g *gridOn) DepositList() int {
	if g.gpu == nil {
		return -1
	}
	return g.gpu.DepList
}

// DepositTail is the round from which the GPU engine's last
// contraction ran in one work group, -1 for none (also on the CPU).
func (g *gridOn) DepositTail() int {
	if g.gpu == nil {
		return -1
	}
	return g.gpu.TailAt
}

// KernelRounds is the GPU engine's last step's pointer-jumping rounds:
// basin labels, drainage area, erosion and talus (zeros on the CPU).
func (g *gridOn) KernelRounds() [4]int {
	if g.gpu == nil {
		return [4]int{}
	}
	return g.gpu.Rounds
}

func (g *gridOn) Device() string   { return g.dev }
func (g *gridOn) Fallback() string { return g.fallback }

// toCPU moves the engine to the CPU with parameters p, saying why.
func (g *gridOn) toCPU(p engine.Params, why error) error {
	up := g.spec.Up
	if g.upSet {
		up = g.up
	}
	e, err := grid.New(grid.Config{W: g.spec.W, H: g.spec.H, Cell: g.spec.Cell, Up: up, Init: g.gpu.Heights(), Params: p})
	if err != nil {
		return err
	}
	st := g.gpu.Stats()
	g.steps, g.years = st.Step, st.Time
	al := g.gpu.Alluvium() // nil without a geology or deposition
	g.gpu.Close()
	e.SetRebalanced(g.rebal)
	if err := e.SetRainMap(g.gpu.RainMap()); err != nil {
		return err
	}
	if m := g.gpu.Geology(); m != nil {
		e.SetGeology(m)
	}
	if al != nil {
		if err := e.SetAlluvium(al); err != nil {
			return err
		}
	}
	g.Engine, g.cpu, g.gpu = e, e, nil
	g.dev = "cpu"
	g.fallback = fmt.Sprintf("--device %s: %v: continuing on the CPU", g.spec.Device, why)
	return nil
}

func (g *gridOn) SetParams(p engine.Params) error {
	if g.gpu != nil {
		if err := p.Validate(); err != nil {
			return err
		}
		if err := g.gpu.Runs(p); err != nil {
			return g.toCPU(p, err)
		}
	}
	return g.Engine.SetParams(p)
}

func (g *gridOn) SetUplift(u []float32) error {
	if err := g.Engine.SetUplift(u); err != nil {
		return err
	}
	g.up, g.upSet = u, true
	return nil
}

func (g *gridOn) Step() engine.StepStats  { return g.shift(g.Engine.Step()) }
func (g *gridOn) Stats() engine.StepStats { return g.shift(g.Engine.Stats()) }

// shift counts the steps done on the GPU before a move to the CPU.
func (g *gridOn) shift(st engine.StepStats) engine.StepStats {
	st.Step += g.steps
	st.Time += g.years
	return st
}

func (g *gridOn) Snapshot() *engine.Snapshot {
	s := g.Engine.Snapshot()
	s.Step += g.steps
	s.Time += g.years
	s.Stats = g.shift(s.Stats)
	return s
}

func (g *gridOn) Constrainable() {}

func (g *gridOn) Summary() engine.Summary {
	if g.cpu != nil {
		return g.cpu.Summary()
	}
	return g.gpu.Summary()
}

func (g *gridOn) Deposits() bool {
	if g.gpu != nil {
		return g.gpu.Deposits()
	}
	return g.cpu.Deposits()
}

func (g *gridOn) Water() *water.Model {
	if g.cpu != nil {
		return g.cpu.Water()
	}
	return g.gpu.Water()
}

// SetGeology lays m on the engine the steps run on: the GPU engine's
// geology (splgpu's geology.go) where it runs it, else the CPU's after a
// move.
func (g *gridOn) SetGeology(m *geology.Model) {
	if m == nil && g.gpu != nil {
		g.gpu.SetGeology(nil)
		return
	}
	if m == nil {
		g.cpu.SetGeology(nil)
		return
	}
	w, h, cell := g.Size()
	_ = g.SetGeologyMap(m.Map(w, h, cell))
}

// SetGeologyMap is SetGeology with the map laid (engine.MapGeologic). A
// map of another grid is refused; a geology that does not fit the GPU
// engine's card moves the engine to the CPU, saying why.
func (g *gridOn) SetGeologyMap(m *geology.Map) error {
	if g.gpu != nil {
		if w, h, cell := g.Size(); m == nil || m.W != w || m.H != h || m.Cell != cell {
			return g.gpu.SetGeologyMap(m) // the error naming the grids
		}
		err := g.gpu.SetGeologyMap(m)
		if err == nil {
			return nil
		}
		if err := g.toCPU(g.gpu.Params(), err); err != nil {
			return err
		}
	}
	return g.cpu.SetGeologyMap(m)
}

func (g *gridOn) Geology() *geology.Model {
	if g.cpu != nil {
		return g.cpu.Geology()
	}
	return g.gpu.Geology()
}

var (
	_ engine.MapGeologic   = (*gridOn)(nil)
	_ engine.Constrainable = (*gridOn)(nil)
	_ engine.Summarizer    = (*gridOn)(nil)
	_ engine.Depositing    = (*gridOn)(nil)
	_ engine.Watered       = (*gridOn)(nil)
	_ engine.Rebalanced    = (*gridOn)(nil)
	_ Devices              = (*gridOn)(nil)
)
