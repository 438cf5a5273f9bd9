package graph

import (
	"orogen/sim/geology"
	"orogen/sim/parallel"
)

// nodeGeology is the engine's differential erosion: the rock under each
// node (package geology), k's factor per layer, and the alluvium.
type nodeGeology struct {
	geo   *geology.Model
	disp  []float64 // per node: the undeformed z is z − disp
	fac   []float32 // k's factor per layer index (NumLayers: alluvium)
	ks    []float32 // k's factor in drainage order, this step
	rock  []uint8   // per node: the layer eroded in this step
	alluv []float32 // per node: alluvium thickness, m
	// With TalusByRock: the talus tangent's factor per layer index and in
	// drainage order.
	talFac []float32
	ts     []float32
}

// SetGeology lays m under the nodes from the next step on (nil: uniform
// rock): k becomes k·m.Erodibility(rock exposed) node by node, and the
// engine tracks the alluvium it deposits. The alluvium tracked so far is
// kept.
func (e *Engine) SetGeology(m *geology.Model) {
	e.ng.geo = m
	if m == nil {
		return
	}
	n := e.m.N
	e.ng.disp = make([]float64, n)
	parallel.Blocks(n, stackBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			_, _, z0 := m.Undeform(e.m.X[i], e.m.Y[i], 0)
			e.ng.disp[i] = -z0
		}
	})
	e.ng.fac = e.ng.fac[:0]
	for _, f := range m.Factors(m.Erodibility) {
		e.ng.fac = append(e.ng.fac, float32(f))
	}
	e.ng.talFac = nil
	if m.TalusByRock() {
		for _, f := range m.Factors(m.TalusScale) {
			e.ng.talFac = append(e.ng.talFac, float32(f))
		}
		e.ng.ts = make([]float32, n)
	}
	if len(e.ng.alluv) != n {
		e.ng.alluv = make([]float32, n)
	}
	if len(e.ng.rock) != n {
		e.ng.rock = make([]uint8, n)
		e.ng.ks = make([]float32, n)
	}
}

// Geology returns the model SetGeology gave, or nil.
func (e *Engine) Geology() *geology.Model { return e.ng.geo }

// Alluvium returns the alluvium's thickness per node, m (the engine's own
// slice; nil before SetGeology).
func (e *Engine) Alluvium() []float32 { return e.ng.alluv }

// Eroded returns the layer each node eroded in during the last step (the
// engine's own slice; nil without geology).
func (e *Engine) Eroded() []uint8 { return e.ng.rock }

// rockFactors fills ks, in drainage order, with k's factor of the rock at
// each node's uplifted surface.
func (e *Engine) rockFactors() []float32 {
	g := &e.ng
	m, dt := g.geo, e.p.Dt
	na := uint8(m.NumLayers())
	parallel.Blocks(e.m.N, stackBlock, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			i := e.stack[k]
			z := float64(e.hs[k])
			if e.up != nil && !e.m.Outlet[i] {
				z += dt * float64(e.us[k])
			}
			l := uint8(m.LayerOf(z - g.disp[i]))
			if g.alluv[i] >= geology.MinAlluvium {
				l = na
			}
			g.rock[i] = l
			g.ks[k] = g.fac[l]
			if g.talFac != nil {
				g.ts[k] = g.talFac[l]
			}
		}
	})
	return g.ks
}

// deposit updates the alluvium from the step's change of height without
// the uplift: what the step added is deposit, what it took is eroded from
// the alluvium first.
func (e *Engine) deposit() {
	dt, al := e.p.Dt, e.ng.alluv
	parallel.Blocks(e.m.N, stackBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			d := float64(e.hgt[i]) - float64(e.prev[i])
			if e.up != nil && !e.m.Outlet[i] {
				d -= dt * float64(e.up[i])
			}
			al[i] = float32(max(0, float64(al[i])+d))
		}
	})
}
