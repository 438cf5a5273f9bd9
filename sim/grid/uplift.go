package grid

// Uplift returns the engine's uplift field, m/yr (nil: none). SetUplift
// replaces the slice and never writes it, so the caller may keep it as the
// uplift it gave (app/run does, rather than a second copy: 4 bytes a cell,
// docs/MEMORY.md); the caller must not modify it.
func (e *Engine) Uplift() []float32 { return e.up }
