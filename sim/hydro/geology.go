package hydro

import (
	"orogen/sim/geology"
	"orogen/sim/parallel"
)

// rockState is the hardness taken from the rock (SetGeology).
type rockState struct {
	geo   *geology.Map
	rock  []uint8   // layer exposed at the start of the last step
	alluv []float32 // alluvium thickness, m
	prev  []float32 // terrain at the start of the step
}

// SetGeology takes the hardness from the rock under the terrain from the
// next step on (nil: the hardness evolves from Config.Hardness as before).
// At the start of every step each cell's hardness R becomes
// max(R_min, K_d) of the rock exposed there (package geology; R
// multiplies dissolution, eq. 9, and thermal creep, eq. 14, so the rock's
// softness K_d is what it stands for), alluvium's where the pass has
// deposited at least geology.MinAlluvium; eq. 11 then lowers it on
// deposition within the step as before. The alluvium is what the step
// added to the terrain less what it took from it, per cell.
func (e *Engine) SetGeology(m *geology.Model) {
	if m == nil {
		e.rs.geo = nil
		return
	}
	n := e.w * e.h
	e.rs.geo = m.Map(e.w, e.h, e.cell)
	if len(e.rs.alluv) != n {
		e.rs.alluv = make([]float32, n)
		e.rs.rock = make([]uint8, n)
		e.rs.prev = make([]float32, n)
	}
}

// SetAlluvium sets the alluvium's thickness per cell, m (nil: none), for
// a pass that starts on a terrain the stream-power engine already covered
// with alluvium. Call it after SetGeology.
func (e *Engine) SetAlluvium(a []float32) {
	if len(e.rs.alluv) == 0 {
		return
	}
	if a == nil {
		clear(e.rs.alluv)
		return
	}
	copy(e.rs.alluv, a)
}

// Geology returns the model SetGeology gave, or nil.
func (e *Engine) Geology() *geology.Model {
	if e.rs.geo == nil {
		return nil
	}
	return e.rs.geo.Model()
}

// Alluvium returns the alluvium's thickness per cell, m (the engine's own
// slice; nil before SetGeology).
func (e *Engine) Alluvium() []float32 { return e.rs.alluv }

// Rock returns the layer exposed at each cell at the start of the last
// step (the engine's own slice; nil before SetGeology).
func (e *Engine) Rock() []uint8 { return e.rs.rock }

// rockHardness sets the hardness from the exposed rock.
func (e *Engine) rockHardness() {
	rs := &e.rs
	b := e.b[e.cur]
	copy(rs.prev, b)
	rs.geo.Exposed(rs.rock, b, rs.alluv)
	m := rs.geo.Model()
	tab := make([]float32, m.NumLayers()+1)
	for i := range tab {
		tab[i] = float32(max(e.p.RMin, m.Rock(i).Kd))
	}
	parallel.Blocks(len(b), 1<<15, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			e.hard[i] = tab[rs.rock[i]]
		}
	})
}

// deposit updates the alluvium from the step's change of terrain.
func (e *Engine) deposit() {
	rs := &e.rs
	b := e.b[e.cur]
	parallel.Blocks(len(b), 1<<15, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			rs.alluv[i] = float32(max(0, float64(rs.alluv[i])+float64(b[i])-float64(rs.prev[i])))
		}
	})
}
