package roudier

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"orogen/sim"
	"orogen/sim/cellheap"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/geology"
)

// Config is what an engine is built from.
type Config struct {
	W, H int
	Cell float64   // cell size, metres
	Up   []float32 // uplift, m/yr, W·H values; nil for none
	Init []float32 // initial heights, m, W·H values; nil for a flat start
	// InitNoise adds seeded uniform noise in [0, InitNoise) metres to the
	// initial heights of all cells but the fixed outlets (the paper's
	// "slight altitude perturbation").
	InitNoise float64
	Seed      uint64
	// Params are the engine contract's: Dt (the years a step stands for,
	// for Time and the uplift), Edges and NaturalDist are used; the
	// stream-power coefficients are kept but not used.
	Params  engine.Params
	Roudier Params
	// Lith is the rock under the terrain; nil is DefaultStrata. Geology,
	// when set, replaces it (SetGeology).
	Lith    geology.Lithology
	Geology *geology.Model
}

// Engine runs Roudier et al. 1993 §3.3's processes on a grid. It is owned
// by one goroutine (see package engine's Engine).
type Engine struct {
	w, h int
	cell float64
	area float64 // cell area, m²
	p    engine.Params
	rp   Params
	lith geology.Lithology
	// strata is lith when it is a *Strata (a lookup without copies).
	strata *Strata
	// With a geology (SetGeology): the model, its map on the grid and its
	// layers' rocks.
	geo       *geology.Model
	gmap      *geology.Map
	layerCoef []geology.Rock
	step      int
	time      float64
	stats     engine.StepStats
	last      Budget // the last step's account
	total     Budget // the account of all steps
	err       error

	cells        []cell    // rock surface and alluvium of every cell
	hgt          []float32 // rock + alluvium
	prev1, prev2 []float32 // heights before this step and the last one
	up           []float32
	g            *flow.Graph
	routed       bool

	cellsN []cell       // the new state during a step (staged: the uplifted state first)
	staged bool         // cellsN holds the uplifted state for prepare (stage)
	layer  []uint8      // per cell, the geology's layer at the uplifted rock (stage)
	bufs   []chunkBuf   // per worker, a chunk's nodes during a step
	runoff []float32    // per stack position, the running water Q, m
	trees  []treeSums   // per drainage tree, the sweep's sums
	sizes  []int32      // per drainage tree, its cell count
	tb     []int        // the chunks of trees of prepare and the sweep
	chunkS []chunkStats // per chunk
	// The pits' fill (fill.go): per cell, the lake it was last added to;
	// the lake's cells and their heights before; the frontier; what
	// spilled off the map this step, m³.
	mark     []fillMark
	lakeGen  uint32
	frontGen uint32
	lake     []lakeCell
	visited  []int32
	front    cellheap.Heap[float64]
	spilled  float64

	blocks []blockSums // per block of cells, the measures
	steps  []float32   // stepLengths: the distance to a neighbour by the step between indices
}

// New validates c and returns an engine at step 0.
func New(c Config) (*Engine, error) {
	if c.W < 3 || c.H < 3 || c.W > 1<<15 || c.H > 1<<15 {
		return nil, fmt.Errorf("roudier: size %d×%d: each side must be in [3, 32768]", c.W, c.H)
	}
	if !(c.Cell >= 1e-3 && c.Cell <= 1e6) {
		return nil, fmt.Errorf("roudier: cell size %g m: must be in [0.001, 1e6] m", c.Cell)
	}
	if math.IsNaN(c.InitNoise) || math.IsInf(c.InitNoise, 0) || c.InitNoise < 0 {
		return nil, fmt.Errorf("roudier: initial noise %g m: must be finite and >= 0", c.InitNoise)
	}
	if err := c.Params.Validate(); err != nil {
		return nil, err
	}
	if err := c.Roudier.Validate(); err != nil {
		return nil, err
	}
	n := c.W * c.H
	e := &Engine{w: c.W, h: c.H, cell: c.Cell, area: c.Cell * c.Cell, p: c.Params, rp: c.Roudier}
	if err := e.SetLithology(c.Lith); err != nil {
		return nil, err
	}
	if c.Geology != nil {
		e.SetGeology(c.Geology)
	}
	if err := e.SetUplift(c.Up); err != nil {
		return nil, err
	}
	e.cells = make([]cell, n)
	e.hgt, e.prev1, e.prev2 = make([]float32, n), make([]float32, n), make([]float32, n)
	if c.Init != nil {
		if len(c.Init) != n {
			return nil, fmt.Errorf("roudier: %d initial heights for a %d×%d grid", len(c.Init), c.W, c.H)
		}
		if err := sim.CheckFinite("roudier: initial heights", "cell", c.Init); err != nil {
			return nil, err
		}
		for i, v := range c.Init {
			e.cells[i].rock = float64(v)
		}
	}
	e.g = flow.NewGraph(e.w, e.h, e.cell, e.p.Edges, e.p.NaturalDist)
	e.steps = stepLengths(e.w, e.cell)
	if c.InitNoise > 0 {
		rng := rand.New(rand.NewPCG(c.Seed, 0x726f75646965))
		for i := range e.cells {
			r := rng.Float64()
			if !e.g.IsFixed(i) {
				e.cells[i].rock += r * c.InitNoise
			}
		}
	}
	for i := range e.hgt {
		e.hgt[i] = float32(e.cells[i].rock)
	}
	return e, nil
}

// SetParams replaces the engine contract's parameters from the next step
// on (Dt, Edges, NaturalDist matter).
func (e *Engine) SetParams(p engine.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if p.Edges != e.p.Edges || p.NaturalDist != e.p.NaturalDist {
		e.g = flow.NewGraph(e.w, e.h, e.cell, p.Edges, p.NaturalDist)
		e.routed = false
	}
	e.p = p
	return nil
}

// Params returns the engine contract's parameters.
func (e *Engine) Params() engine.Params { return e.p }

// SetRoudier replaces the coefficients of the laws from the next step on.
func (e *Engine) SetRoudier(p Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	e.rp = p
	return nil
}

// Roudier returns the coefficients of the laws.
func (e *Engine) Roudier() Params { return e.rp }

// SetLithology replaces the rock under the terrain from the next step on;
// nil is DefaultStrata. l must be safe for concurrent use.
func (e *Engine) SetLithology(l geology.Lithology) error {
	if l == nil {
		l = DefaultStrata()
	}
	e.lith, e.geo, e.gmap, e.layerCoef = l, nil, nil, nil
	e.strata, _ = l.(*Strata)
	return nil
}

// SetUplift takes the uplift as a W·H raster, m/yr (nil: none): each step
// raises the rock by u·Dt (not the fixed outlets).
func (e *Engine) SetUplift(u []float32) error {
	if u == nil {
		e.up = nil
		return nil
	}
	if len(u) != e.w*e.h {
		return fmt.Errorf("roudier: %d uplift values for a %d×%d grid", len(u), e.w, e.h)
	}
	if err := sim.CheckFinite("roudier: uplift", "cell", u); err != nil {
		return err
	}
	for i, v := range u {
		if math.Abs(float64(v)) > 1 {
			return fmt.Errorf("roudier: uplift %g m/yr at cell %d: absurd (|u| must be <= 1 m/yr)", v, i)
		}
	}
	e.up = append(e.up[:0], u...)
	return nil
}

// SetRainMap refuses a rain map: every cell receives the same rain
// (Roudier et al. 1993 §3.3); nil is accepted.
func (e *Engine) SetRainMap(r []float32) error {
	if r != nil {
		return errors.New("roudier: a rain map is not supported: every cell receives the same rain W (Roudier et al. 1993, §3.3)")
	}
	return nil
}

// Size is the grid.
func (e *Engine) Size() (w, h int, cell float64) { return e.w, e.h, e.cell }

// Heights are the terrain heights (rock plus alluvium), valid until the
// next Step.
func (e *Engine) Heights() []float32 { return e.hgt }

// Rock returns a copy of the height of the rock surface under the
// alluvium, m.
func (e *Engine) Rock() []float64 {
	r := make([]float64, len(e.cells))
	for i, c := range e.cells {
		r[i] = c.rock
	}
	return r
}

// Alluvium returns a copy of the thickness of alluvium on every cell, m.
func (e *Engine) Alluvium() []float64 {
	a := make([]float64, len(e.cells))
	for i, c := range e.cells {
		a[i] = c.alluv
	}
	return a
}

// Stats returns the last step's statistics.
func (e *Engine) Stats() engine.StepStats { return e.stats }

// Budget returns the last step's account.
func (e *Engine) Budget() Budget { return e.last }

// TotalBudget returns the account of all steps so far.
func (e *Engine) TotalBudget() Budget { return e.total }

// Err is why the engine stopped, or nil.
func (e *Engine) Err() error { return e.err }

// Converged reports whether the terrain changes slower than tol m/yr
// (Dt years a step).
func (e *Engine) Converged(tol float64) bool {
	if e.step == 0 {
		return false
	}
	return e.stats.MaxDh/e.p.Dt < tol || e.stats.MaxDh2/(2*e.p.Dt) < tol
}

// Snapshot copies the engine's state. Area is the drainage area of the
// last step's routing (each cell its own before the first step); Water is
// zero (the engine keeps no standing water: pits fill with alluvium).
func (e *Engine) Snapshot() *engine.Snapshot {
	n := e.w * e.h
	s := &engine.Snapshot{
		Kind: Kind, W: e.w, H: e.h, Cell: e.cell, Step: e.step, Time: e.time, Stats: e.stats, Param: e.p,
		Height:    append([]float32(nil), e.hgt...),
		Area:      make([]float32, n),
		Receivers: make([]int32, n),
		Water:     make([]float32, n),
		Rocks:     engine.Rocks{Alluvium: make([]float32, n)},
	}
	for i, c := range e.cells {
		s.Alluvium[i] = float32(c.alluv)
	}
	if e.gmap != nil {
		s.Geology = e.geo
		s.Rock = e.gmap.Exposed(make([]uint8, n), s.Height, s.Alluvium)
	}
	if e.up != nil {
		s.Uplift = append([]float32(nil), e.up...)
	}
	if e.routed {
		copy(s.Receivers, e.g.Rec)
		for i, a := range e.g.Accumulate(nil, e.area) {
			s.Area[i] = float32(a)
		}
	} else {
		for i := range s.Receivers {
			s.Receivers[i] = int32(i)
			s.Area[i] = float32(e.area)
		}
	}
	return s
}

// Runoff returns the running water through every cell in the last step,
// m of water (Q: its own and all upstream); nil before the first step.
func (e *Engine) Runoff() []float32 {
	if !e.routed || e.runoff == nil {
		return nil
	}
	q := make([]float32, len(e.cells))
	for k, i := range e.g.Stack {
		q[i] = e.runoff[k]
	}
	return q
}

var _ engine.Engine = (*Engine)(nil)
