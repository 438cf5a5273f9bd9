package engines

import "orogen/sim/engine"

// Release lets go of the engine's scratch buffers (engine.Releaser): after
// a move to the CPU the grid engine's, on the GPU the GPU engine's where
// it has a Release of its own (the run's end calls it before the analysis,
// the snapshot and the outputs: docs/MEMORY.md).
func (g *gridOn) Release() {
	if g.cpu != nil {
		g.cpu.Release()
		return
	}
	if r, ok := any(g.gpu).(engine.Releaser); ok {
		r.Release()
	}
}

var _ engine.Releaser = (*gridOn)(nil)
