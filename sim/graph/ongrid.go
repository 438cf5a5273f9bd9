package graph

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/parallel"
	"orogen/sim/water"
)

// SetUpliftField samples the uplift raster f (m/yr, cells of f.Cell metres
// over the domain, cell centres at ((i+½)·Cell, (j+½)·Cell)) bilinearly at
// the nodes and uses it from the next step on, as SetUplift does. The
// engine keeps f (the caller must not modify it afterwards) and samples it
// again at the new nodes of every refinement, instead of interpolating the
// old nodes' uplift. nil removes the uplift.
func (e *Engine) SetUpliftField(f *sim.Field) error {
	if f == nil {
		e.upField = nil
		return e.SetUplift(nil)
	}
	if err := e.checkField("uplift", f); err != nil {
		return err
	}
	if err := e.SetUplift(e.m.Sample(nil, f)); err != nil {
		return err
	}
	e.upField = f
	return nil
}

// SetRainField samples the rain raster f (m/yr) at the nodes, as
// SetUpliftField does, for the lakes' water budget from the next step on;
// it is sampled again at every refinement. nil returns to the uniform
// Params.Rain.
func (e *Engine) SetRainField(f *sim.Field) error {
	if f == nil {
		e.rainMap, e.rainFld = nil, nil
	} else {
		if err := e.checkField("rain", f); err != nil {
			return err
		}
		r := e.m.Sample(nil, f)
		if err := (water.Params{RainMap: r}).Validate(); err != nil {
			return err
		}
		e.rainMap, e.rainFld = r, f
	}
	if e.wat != nil {
		return e.wat.SetParams(e.waterParams())
	}
	return nil
}

// checkField checks that the raster f covers the mesh's domain.
func (e *Engine) checkField(what string, f *sim.Field) error {
	if len(f.Data) != f.W*f.H || f.W < 1 || f.H < 1 {
		panic("graph: field data length differs from W·H")
	}
	w, h := float64(f.W)*f.Cell, float64(f.H)*f.Cell
	if math.Abs(w-e.m.W) > 1e-6*e.m.W || math.Abs(h-e.m.H) > 1e-6*e.m.H {
		return fmt.Errorf("graph: the %s raster covers %g×%g m; the nodes' domain is %g×%g m", what, w, h, e.m.W, e.m.H)
	}
	return nil
}

// Sample sets dst[i] to the raster f sampled bilinearly at node i (f's
// cell centres at ((i+½)·Cell, (j+½)·Cell), clamped at the edges) and
// returns dst.
func (m *Mesh) Sample(dst []float32, f *sim.Field) []float32 {
	dst = sim.Resize(dst, m.N)
	inv := 1 / f.Cell
	parallel.Blocks(m.N, areaBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			dst[i] = float32(f.Sample(m.X[i]*inv-0.5, m.Y[i]*inv-0.5))
		}
	})
	return dst
}

// OnGrid is an Engine seen through a W×H grid of square cells covering its
// domain: what the app's worker and the CLI hold, since their uplift
// rasters, initial heights and pictures are grids. SetUplift takes a
// raster; Snapshot rasterizes the nodes (Mesh.Linear) and adds the stream
// arcs. Its methods are those of grid.Engine that the worker uses.
type OnGrid struct {
	e    *Engine
	w, h int
	cell float64
	geo  *geology.Map // the engine's geology on the grid, for snapshots
}

// NewOnGrid returns e seen through a w×h grid of cell metres, which must
// cover e's domain.
func NewOnGrid(e *Engine, w, h int, cell float64) (*OnGrid, error) {
	if w < 1 || h < 1 || !(cell > 0) {
		return nil, fmt.Errorf("graph: grid %d×%d of %g m cells: want a positive size", w, h, cell)
	}
	g := &OnGrid{e: e, w: w, h: h, cell: cell}
	e.kOrigin = cell / 2 // k noise: the grid engine's field at its cells
	if err := e.checkField("grid", &sim.Field{W: w, H: h, Cell: cell, Data: make([]float32, w*h)}); err != nil {
		return nil, err
	}
	return g, nil
}

// Engine returns the engine.
func (g *OnGrid) Engine() *Engine { return g.e }

// Size returns the grid's size and cell size, metres.
func (g *OnGrid) Size() (w, h int, cell float64) { return g.w, g.h, g.cell }

// Step advances the engine by one step.
func (g *OnGrid) Step() engine.StepStats { return g.e.Step() }

// Err returns why the engine stopped, or nil.
func (g *OnGrid) Err() error { return g.e.Err() }

// Converged is Engine.Converged.
func (g *OnGrid) Converged(tol float64) bool { return g.e.Converged(tol) }

// SetParams is Engine.SetParams.
func (g *OnGrid) SetParams(p engine.Params) error { return g.e.SetParams(p) }

// Params returns the parameters.
func (g *OnGrid) Params() engine.Params { return g.e.Params() }

// Stats returns the statistics of the last step.
func (g *OnGrid) Stats() engine.StepStats { return g.e.Stats() }

// Heights returns the node heights (not a raster), m.
func (g *OnGrid) Heights() []float32 { return g.e.Heights() }

// SetUplift takes the uplift as a W·H raster (m/yr; nil for none) and
// samples it at the nodes (SetUpliftField). OnGrid keeps u.
func (g *OnGrid) SetUplift(u []float32) error {
	if u == nil {
		return g.e.SetUpliftField(nil)
	}
	if len(u) != g.w*g.h {
		return fmt.Errorf("graph: %d uplift values for a %d×%d grid", len(u), g.w, g.h)
	}
	if err := sim.CheckFinite("graph: uplift", "node", u); err != nil {
		return err
	}
	return g.e.SetUpliftField(&sim.Field{W: g.w, H: g.h, Cell: g.cell, Data: u})
}

// Raster returns node values interpolated piecewise-linearly on the grid.
func (g *OnGrid) Raster(values []float32) []float32 {
	return g.e.m.Linear(sim.NewField(g.w, g.h, g.cell), values).Data
}

// Snapshot returns the engine's state on the grid: heights, drainage area
// and lake water depth (WaterDepth) rasterized with Mesh.Linear, the
// heights then carved along the stream arcs and their leftover pits filled
// (drain: D8 on them drains off the grid or into a lake), the
// uplift raster given to SetUplift, D8 steepest-descent receivers of the
// rasterized heights (for flow arrows), and the stream arcs of the last
// step (every node but the roots to its receiver) with the drainage area
// they carry. Lakes is nil: the graph's lakes are not grid cells.
func (g *OnGrid) Snapshot() *engine.Snapshot {
	e := g.e
	st := e.Stats()
	a32 := make([]float32, e.m.N)
	for i, a := range e.area {
		a32[i] = float32(a)
	}
	s := &engine.Snapshot{
		Kind: Kind, W: g.w, H: g.h, Cell: g.cell, Step: st.Step, Time: st.Time, Stats: st, Param: e.Params(),
		Height: g.Raster(e.Heights()),
		Area:   g.Raster(a32),
	}
	if e.wat != nil && e.watOK {
		s.Water = g.Raster(e.BudgetDepth(nil))
		s.WaterLakes = water.CloneLakes(e.wat.Lakes())
		s.WaterPits = make([][2]float32, len(e.win.Root))
		for b, r := range e.win.Root {
			s.WaterPits[b] = [2]float32{float32(e.m.X[r] / g.cell), float32(e.m.Y[r] / g.cell)}
		}
		q := e.Discharge(nil)
		q32 := make([]float32, len(q))
		for i, v := range q {
			q32[i] = float32(v)
		}
		s.Discharge = g.Raster(q32)
	} else {
		s.Water = g.Raster(e.WaterDepth(nil))
	}
	g.drain(s.Height, s.Water)
	if e.upField != nil {
		s.Uplift = slices.Clone(e.upField.Data)
	}
	if m := e.Geology(); m != nil {
		if g.geo == nil || g.geo.Model() != m {
			g.geo = m.Map(g.w, g.h, g.cell)
		}
		s.Geology = m
		s.Alluvium = g.Raster(e.Alluvium())
		s.Rock = g.geo.Exposed(make([]uint8, g.w*g.h), s.Height, s.Alluvium)
	} else if e.p.G > 0 && e.ng.alluv != nil {
		s.Alluvium = g.Raster(e.Alluvium()) // the sediment's thickness
	}
	s.Receivers = Steepest(nil, s.Height, g.w, g.h)
	s.Arcs = g.arcs()
	return s
}

// SetGeology lays m under the nodes (engine.Geologic; Engine.SetGeology).
func (g *OnGrid) SetGeology(m *geology.Model) { g.e.SetGeology(m) }

// SetGeologyMap is SetGeology(gm.Model()) with the model already laid on
// the grid the snapshots read (engine.MapGeologic), so only the nodes' own
// part of the work is left. A map of another grid is an error and changes
// nothing.
func (g *OnGrid) SetGeologyMap(gm *geology.Map) error {
	if gm == nil {
		return errors.New("graph: SetGeologyMap: no map")
	}
	if gm.W != g.w || gm.H != g.h || gm.Cell != g.cell {
		return fmt.Errorf("graph: a geology map of %d×%d cells of %g m for a grid of %d×%d cells of %g m", gm.W, gm.H, gm.Cell, g.w, g.h, g.cell)
	}
	g.e.SetGeology(gm.Model())
	g.geo = gm
	return nil
}

var _ engine.MapGeologic = (*OnGrid)(nil)

// Geology returns the engine's geology, or nil.
func (g *OnGrid) Geology() *geology.Model { return g.e.Geology() }

// SetRainMap takes the rain as a W·H raster (m/yr; nil for the uniform
// Params.Rain) and samples it at the nodes (SetRainField).
func (g *OnGrid) SetRainMap(r []float32) error {
	if r == nil {
		return g.e.SetRainField(nil)
	}
	if len(r) != g.w*g.h {
		return fmt.Errorf("graph: %d rain values for a %d×%d grid", len(r), g.w, g.h)
	}
	return g.e.SetRainField(&sim.Field{W: g.w, H: g.h, Cell: g.cell, Data: r})
}

// arcs lists the stream arcs of the last step in grid cells.
func (g *OnGrid) arcs() []engine.Arc {
	e := g.e
	if e.step == e.stageStart {
		return nil // no routing on these nodes yet
	}
	inv := 1 / g.cell
	m := e.m
	arcs := make([]engine.Arc, 0, m.N)
	for i, r := range e.rec {
		if int(r) == i {
			continue
		}
		arcs = append(arcs, engine.Arc{
			X0: float32(m.X[i] * inv), Y0: float32(m.Y[i] * inv),
			X1: float32(m.X[r] * inv), Y1: float32(m.Y[r] * inv),
			Area: float32(e.area[i]),
		})
	}
	return arcs
}

// Steepest sets dst[i] to the D8 steepest-descent receiver of every cell of
// the w×h heights hgt (itself where no neighbour is lower; the first
// neighbour in E, SE, S, SW, W, NW, N, NE order on ties) and returns dst.
func Steepest(dst []int32, hgt []float32, w, h int) []int32 {
	if len(hgt) != w*h {
		panic("graph: heights length differs from w·h")
	}
	dst = sim.Resize(dst, w*h)
	diag := float32(1 / math.Sqrt2)
	dxs := [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	dys := [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	parallel.Blocks(h, max(1, 16384/max(w, 1)), func(_, y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < w; x++ {
				i := y*w + x
				best, bi := float32(0), int32(i)
				for d := range 8 {
					nx, ny := x+dxs[d], y+dys[d]
					if nx < 0 || ny < 0 || nx >= w || ny >= h {
						continue
					}
					j := ny*w + nx
					s := hgt[i] - hgt[j]
					if d&1 == 1 {
						s *= diag
					}
					if s > best {
						best, bi = s, int32(j)
					}
				}
				dst[i] = bi
			}
		}
	})
	return dst
}
