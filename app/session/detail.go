package session

import (
	"slices"

	"orogen/app/compute"
	"orogen/app/detail"
	"orogen/app/runner"
	"orogen/sim/hydro"
)

// detailPass is the hydraulic and thermal detail pass (sim/hydro through
// app/detail): while it is open the views show its terrain, water,
// sediment and hardness, and the stream-power engine is paused.
type detailPass struct {
	run        *detail.Runner // nil: no pass open
	hydro      *compute.Hydro // the pass's engine and device (closed after run)
	wasRunning bool           // the stream-power engine ran before the pass
	p          hydro.Params   // the parameters in force (kept for the next pass)
}

// Detail returns the open detail pass, or nil.
func (s *Session) Detail() *detail.Runner { return s.det.run }

// DetailParams returns the detail pass's parameters (the last pass's when
// none is open; zero before the first).
func (s *Session) DetailParams() hydro.Params { return s.det.p }

// StartDetail opens a detail pass on the current terrain, running, and
// pauses the stream-power engine. It does nothing when one is open.
func (s *Session) StartDetail() error {
	if s.det.run != nil {
		return nil
	}
	f := s.wk.Frame()
	terrain := f.Snap.Field(slices.Clone(f.Snap.Height))
	p := hydro.DefaultParams(terrain.Cell)
	if s.det.p.Dt > 0 && s.det.p.L == terrain.Cell {
		p = s.det.p // the last pass's, for the same cell size
	}
	cfg := hydro.Config{Terrain: terrain, Params: p}
	if g := s.doc.Scene().Geology; g != nil {
		m, err := g.Compile()
		if err != nil {
			return err
		}
		cfg.Geology = m
		if f.Snap.Alluvium != nil {
			cfg.Alluvium = slices.Clone(f.Snap.Alluvium)
		}
	}
	r, h, err := detail.NewOn(s.ComputeDevice(), cfg, runner.Options{Duty: s.opt.Duty})
	if err != nil {
		return err
	}
	if h.Fallback != "" {
		s.logf(Warn, "%s", h.Fallback)
	}
	s.det.wasRunning = f.Running
	s.wk.Send(runner.Pause{})
	s.det.run, s.det.hydro, s.det.p = r, h, p
	s.logf(Info, "hydraulic erosion started on the terrain of step %d (dt %.3g s) on %s", f.Snap.Step, p.Dt, h.Device)
	return nil
}

// ComputeDevice returns where the next detail pass runs (Settings:
// Compute device, kept in the preferences; the CPU without them), and
// where the grid engine runs from the next new, opened or reset terrain
// on (app/engines: gpu/splgpu, falling back to the CPU).
func (s *Session) ComputeDevice() compute.Device {
	if s.opt.Prefs == nil || s.opt.Prefs.ComputeDevice == "" {
		return compute.CPU
	}
	d, err := compute.ParseDevice(s.opt.Prefs.ComputeDevice)
	if err != nil {
		return compute.CPU
	}
	return d
}

// SetComputeDevice sets where the next detail pass runs.
func (s *Session) SetComputeDevice(d compute.Device) {
	if s.opt.Prefs != nil {
		s.opt.Prefs.ComputeDevice = d.String()
	}
}

// SetDetailParams changes the open detail pass's parameters from its next
// step on.
func (s *Session) SetDetailParams(p hydro.Params) error {
	if s.det.run == nil {
		return errNoDetail
	}
	if err := p.Validate(); err != nil {
		return err
	}
	s.det.run.Send(detail.SetParams{P: p})
	s.det.p = p
	return nil
}

// RunDetail and PauseDetail run or pause the open detail pass.
func (s *Session) RunDetail() error {
	if s.det.run == nil {
		return errNoDetail
	}
	s.det.run.Send(runner.Run{})
	return nil
}

// PauseDetail pauses the open detail pass.
func (s *Session) PauseDetail() error {
	if s.det.run == nil {
		return errNoDetail
	}
	s.det.run.Send(runner.Pause{})
	return nil
}

// EndDetail closes the detail pass; keep hands its terrain to the
// stream-power engine as its new heights (at step 0). The engine runs
// again if it ran before the pass. Nothing happens when no pass is open.
func (s *Session) EndDetail(keep bool) {
	r := s.det.run
	if r == nil {
		return
	}
	r.Close()
	s.det.hydro.Close()
	f := r.Frame()
	s.det.run, s.det.hydro = nil, nil
	if keep {
		// A document edit: saved with the project, undoable; the next
		// Sync restarts the engine from it at step 0.
		if err := s.doc.SetTerrain(f.Terrain(), "keep the hydraulic pass"); err != nil {
			s.logf(Error, "hydraulic pass not kept: %v", err)
		} else {
			s.logf(Info, "kept the hydraulic pass (%d steps, %.0f s simulated) as the terrain (saved with the project; undo returns to the terrain before)", f.Snap.Step, f.Snap.Time)
			s.Sync()
		}
	} else {
		s.logf(Info, "discarded the hydraulic pass")
	}
	if s.det.wasRunning {
		s.wk.Send(runner.Run{})
	}
}
