package roudier

import (
	"errors"
	"fmt"

	"orogen/sim/engine"
	"orogen/sim/geology"
)

// SetGeology lays the geology m under the terrain from the next step on
// (engine.Geologic): the exposed rock comes from m, through its map on the
// grid (geology.Map: the undone deformations computed once per cell, a
// constant-time layer lookup). nil returns to DefaultStrata. The alluvium
// is kept.
func (e *Engine) SetGeology(m *geology.Model) {
	if m == nil {
		e.geo, e.gmap, e.layerCoef = nil, nil, nil
		e.strata = DefaultStrata()
		e.lith = e.strata
		return
	}
	e.setGeologyMap(m.Map(e.w, e.h, e.cell))
}

// SetGeologyMap is SetGeology(g.Model()) with the model already laid on
// the engine's grid (engine.MapGeologic); a map of another grid is an
// error and changes nothing.
func (e *Engine) SetGeologyMap(g *geology.Map) error {
	if g == nil {
		return errors.New("roudier: SetGeologyMap: no map")
	}
	if g.W != e.w || g.H != e.h || g.Cell != e.cell {
		return fmt.Errorf("roudier: a geology map of %d×%d cells of %g m for a grid of %d×%d cells of %g m", g.W, g.H, g.Cell, e.w, e.h, e.cell)
	}
	e.setGeologyMap(g)
	return nil
}

func (e *Engine) setGeologyMap(g *geology.Map) {
	m := g.Model()
	e.geo, e.lith, e.strata = m, m, nil
	e.gmap = g
	e.layerCoef = make([]geology.Rock, m.NumLayers())
	for i := range e.layerCoef {
		e.layerCoef[i] = m.Rock(i)
	}
}

// Geology returns the geology laid by SetGeology, or nil.
func (e *Engine) Geology() *geology.Model { return e.geo }

// Strata returns the strata the engine erodes when it has no geology
// model (DefaultStrata unless Config.Lith or SetLithology gave other
// strata), or nil: with a geology model or a lithology that is not
// Strata.
func (e *Engine) Strata() *Strata {
	if e.gmap != nil {
		return nil
	}
	return e.strata
}

// ExposedStrata returns, for every cell, the layer of Strata() exposed at
// its surface, as prepare finds it: len(Strata().Layers) where the cell
// holds at least geology.MinAlluvium of alluvium, else the index in
// Layers of the layer at its rock surface. It returns nil when Strata()
// is nil. This is the engine's own rock map, the counterpart of a
// snapshot's Rock without a geology model.
func (e *Engine) ExposedStrata() []uint8 {
	s := e.Strata()
	if s == nil || len(s.Layers) > 255 {
		return nil
	}
	out := make([]uint8, len(e.cells))
	na := uint8(len(s.Layers))
	for i, c := range e.cells {
		if c.alluv >= geology.MinAlluvium {
			out[i] = na
		} else {
			out[i] = uint8(s.LayerAt(c.rock))
		}
	}
	return out
}

// rockAt is the rock exposed at cell (x, y), index i, whose rock surface
// is at z: what prepare finds, for the tests.
func (e *Engine) rockAt(i, x, y int, z float64) geology.Rock {
	switch {
	case e.gmap != nil:
		return e.layerCoef[e.gmap.LayerAt(i, z)]
	case e.strata != nil:
		return *e.strata.rockAt(z)
	}
	return e.lith.RockAt((float64(x)+0.5)*e.cell, (float64(y)+0.5)*e.cell, z)
}

var _ engine.MapGeologic = (*Engine)(nil)
