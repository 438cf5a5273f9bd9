package hydro

import (
	"fmt"
	"math"
	"time"

	"orogen/sim"
	"orogen/sim/geology"
	"orogen/sim/parallel"
)

// Source is a spring: Rate m³/s of water added every second, spread evenly
// over the cells whose centres lie within Radius cells of (X, Y) (the
// nearest cell if none does). X and Y are cell coordinates, x to the east
// from the west edge, y to the south from the north edge.
type Source struct {
	X      float64 `json:"x"`             // cells
	Y      float64 `json:"y"`             // cells
	Radius float64 `json:"radius"`        // cells
	Rate   float64 `json:"rate_m3_per_s"` // m³/s
}

// Config describes a new engine.
type Config struct {
	// Terrain holds the heights b, metres, and the cell size. It is copied.
	Terrain *sim.Field
	// Water is the initial water depth d, metres, W·H values >= 0; nil for
	// dry ground.
	Water []float32
	// Hardness is the initial hardness R in [0, 1], W·H values; nil for 1
	// everywhere. It scales dissolving (eq. 9) and thermal erosion (eq. 14).
	Hardness []float32
	// Rain is the rain map r, W·H factors >= 0 multiplying Kr; nil for 1
	// everywhere.
	Rain    []float32
	Sources []Source
	Params  Params
	// Geology, if not nil, sets the hardness from the rock every step
	// (SetGeology); Alluvium is the alluvium already on the terrain, m,
	// W·H values (nil: none).
	Geology  *geology.Model
	Alluvium []float32
}

// Phases of a step, in order. Each is one parallel sweep over the rows.
const (
	// PhaseFlux: rain and sources (eq. 1), the pipe fluxes scaled by K
	// (eqs. 2-4), and the thermal outflow of every cell (eqs. 14-15).
	PhaseFlux = iota
	// PhaseErosion: the water update (eqs. 5-6), velocity (eq. 7),
	// capacity (eq. 8), dissolving and deposition (eqs. 9-10), softening
	// (eq. 11) and evaporation (eq. 13).
	PhaseErosion
	// PhaseTransport: semi-Lagrangian sediment transport (eq. 12), the
	// thermal inflows and outflows applied to the terrain, and the
	// sediment mass correction.
	PhaseTransport
	NumPhases
)

// PhaseNames are the report names of the phases.
var PhaseNames = [NumPhases]string{"flux", "erosion", "transport"}

// Budget is the water account since the engine was made, in m³, summed in
// float64. Initial + RainIn + Dissolved = Evaporated + Outflow + Stored up
// to float32 rounding of the fields; Residual returns the difference.
type Budget struct {
	Initial    float64 // water on the map at the start
	RainIn     float64 // rain and sources (eq. 1)
	Dissolved  float64 // net water height added by dissolving, less that removed by deposition (eqs. 9c, 10c)
	Evaporated float64 // eq. 13
	Outflow    float64 // water that left through open edges
	Stored     float64 // water on the map now
	// SedimentOut is the sediment, m³, that left through open edges
	// (including the transport's own loss there, see the package doc).
	SedimentOut float64
}

// Residual returns Initial + RainIn + Dissolved - Evaporated - Outflow -
// Stored, m³: zero for an exact account.
func (b Budget) Residual() float64 {
	return b.Initial + b.RainIn + b.Dissolved - b.Evaporated - b.Outflow - b.Stored
}

// Mass is the rock account, m³: the terrain and the sediment held in the
// water, summed in float64 from the float32 fields. Dissolving moves
// rock from the terrain into the water and deposition back (eqs. 9-10),
// thermal erosion moves it between cells (eqs. 14-15), and the only way
// out is Budget.SedimentOut through open edges, so RockInitial =
// Rock + Suspended + SedimentOut up to float32 rounding of the fields;
// Residual returns the difference.
type Mass struct {
	RockInitial float64 // terrain volume at the start, Σb·cell²
	Rock        float64 // terrain volume now
	Suspended   float64 // sediment in the water now, Σs·cell²
	SedimentOut float64 // sediment that left through open edges
}

// Residual returns RockInitial - Rock - Suspended - SedimentOut, m³:
// zero for an exact account.
func (m Mass) Residual() float64 {
	return m.RockInitial - m.Rock - m.Suspended - m.SedimentOut
}

// StepStats describe one step.
type StepStats struct {
	Step     int     // steps done so far, this one included
	Time     float64 // simulated seconds so far
	MaxDh    float64 // max |Δb| over the step, metres
	MaxDepth float64 // deepest water after the step, metres
	MaxSpeed float64 // fastest water, m/s
	Scaled   int     // cells whose outflow was scaled down (K < 1, eq. 3)
	// SedimentFix is the factor the transported sediment was multiplied
	// by to keep its total (1 with open edges; see the package doc).
	SedimentFix float64
	Budget      Budget // water account so far
	Phase       [NumPhases]time.Duration
	Total       time.Duration
}

// blockCells is the number of cells a row block holds, at least one row.
const blockCells = 8192

// partial holds one row block's sums of a step, merged in block order.
type partial struct {
	outflow, evap, dissolved, s1, stored, snew float64
	maxDepth, maxSpeed, maxDh                  float32
	scaled                                     int
	_                                          [64]byte // keep blocks on separate cache lines
}

// consts are the per-step constants the kernels use.
type consts struct {
	dt, kf, vol, invArea, invCell, halfInvCell      float32
	kc, cmax, invLMax, ks, kd, khks, rmin, evapKeep float32
	dtCell                                          float32 // dt / cell
	dtKt2, tanO, tanD                               float32
	open, wrap, thermal                             bool
	area                                            float64
}

// Engine is the hydraulic and thermal erosion engine.
type Engine struct {
	w, h, n int
	cell    float64
	p       Params
	warning string

	b              [2][]float32 // terrain, current in b[cur]
	cur            int
	d, d1          []float32 // water depth, and after rain (d1)
	s, s1          []float32 // suspended sediment, and before transport (s1)
	fL, fR, fT, fB []float32 // outflow fluxes, m³/s
	vx, vy         []float32 // velocity, m/s
	hard           []float32 // hardness R
	rs             rockState // hardness from the rock (geology.go)
	q              []float32 // thermal outflow per metre of excess height
	trem           []float32 // thermal change the float32 terrain could not hold yet, m (addExact)
	tact           []bool    // per row: some cell of it has a thermal outflow this step
	rain           []float32 // rain map, nil for 1
	in             []float32 // water added per second, m/s
	inVol          float64   // Σ in · cell², m³/s
	sources        []Source

	// Neighbour tables: xl[x], xr[x] are the columns left and right of x,
	// yt[y], yb[y] the rows above and below y, -1 outside the map.
	xl, xr, yt, yb []int32
	// Central differences for the slope: columns (rows) on either side,
	// clamped into the map, and 1/distance between them.
	gxl, gxr, gyt, gyb []int32
	gxs, gys           []float32
	zero               []float32 // W zeros: the inflow from beyond an edge
	// surf holds, per row block, three rows of the water surface b + d1
	// (the rows above, at and below the one fluxBlock is on), srow
	// floats apart.
	surf []float32
	// escr holds, per row block, three rows of scratch for erodeBlock
	// (d2, |v|² and C of the row it is on), srow floats apart.
	escr []float32
	srow int

	rows, nb int
	part     []partial
	team     *team
	fnFlux   func(int)
	fnErode  func(int)
	fnMove   func(int)
	fnFix    func(int)
	c        consts
	fix      float32

	step   int
	time   float64
	stats  StepStats
	budget Budget
	rock0  float64 // Σb·cell² at the start (Mass.RockInitial)
}

// Check returns an error naming what is wrong with cfg: the checks New
// makes of the terrain, fields, parameters and sources (the alluvium of
// a geology is checked by New).
func (cfg Config) Check() error {
	t := cfg.Terrain
	if t == nil {
		return fmt.Errorf("hydro: no terrain")
	}
	if t.W < 3 || t.H < 3 || t.W > 1<<15 || t.H > 1<<15 {
		return fmt.Errorf("hydro: terrain is %d×%d cells: each side must be in [3, 32768]", t.W, t.H)
	}
	n := t.W * t.H
	if len(t.Data) != n {
		return fmt.Errorf("hydro: terrain has %d values for %d×%d cells", len(t.Data), t.W, t.H)
	}
	if !(t.Cell > 0 && t.Cell <= 1e5) {
		return fmt.Errorf("hydro: cell size %g m: must be > 0 and <= 1e5", t.Cell)
	}
	if err := cfg.Params.Validate(); err != nil {
		return err
	}
	if err := checkField("terrain height", t.Data, n, math.Inf(-1), math.Inf(1)); err != nil {
		return err
	}
	if err := checkField("water depth", cfg.Water, n, 0, 1e6); err != nil {
		return err
	}
	if err := checkField("hardness", cfg.Hardness, n, 0, 1); err != nil {
		return err
	}
	if err := checkField("rain map", cfg.Rain, n, 0, 1e6); err != nil {
		return err
	}
	for k, s := range cfg.Sources {
		if err := checkSource(k, s, t.W, t.H); err != nil {
			return err
		}
	}
	return nil
}

// New returns an engine for cfg, or an error naming what is wrong with it.
func New(cfg Config) (*Engine, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	t := cfg.Terrain
	n := t.W * t.H
	e := &Engine{w: t.W, h: t.H, n: n, cell: t.Cell}
	e.srow = staggered(t.W)
	e.rows = max(1, blockCells/e.w)
	e.nb = parallel.NumBlocks(e.h, e.rows)
	// All per-cell fields and the scratch rows come from one slab, each
	// starting at its own offset modulo 4 KiB (see staggered).
	var slab slab
	slab.init(16*n + 3*2*e.nb*e.srow)
	e.b[0], e.b[1] = slab.take(n), slab.take(n)
	copy(e.b[0], t.Data)
	e.d, e.d1, e.s, e.s1 = slab.take(n), slab.take(n), slab.take(n), slab.take(n)
	e.fL, e.fR, e.fT, e.fB = slab.take(n), slab.take(n), slab.take(n), slab.take(n)
	e.vx, e.vy, e.hard, e.q, e.in = slab.take(n), slab.take(n), slab.take(n), slab.take(n), slab.take(n)
	e.trem = slab.take(n)
	e.tact = make([]bool, e.h)
	e.surf = slab.take(e.nb * 3 * e.srow)
	e.escr = slab.take(e.nb * 3 * e.srow)
	e.zero = make([]float32, e.w)
	if cfg.Water != nil {
		copy(e.d, cfg.Water)
	}
	if cfg.Hardness != nil {
		copy(e.hard, cfg.Hardness)
	} else {
		for i := range e.hard {
			e.hard[i] = 1
		}
	}
	if cfg.Rain != nil {
		e.rain = append([]float32(nil), cfg.Rain...)
	}
	e.sources = append([]Source(nil), cfg.Sources...)
	e.part = make([]partial, e.nb)
	e.team = newTeam(e)
	e.fnFlux, e.fnErode, e.fnMove, e.fnFix = e.fluxBlock, e.erodeBlock, e.moveBlock, e.fixBlock
	e.setParams(cfg.Params)
	var vol float64
	for _, v := range e.d {
		vol += float64(v)
	}
	e.budget.Initial = vol * e.cell * e.cell
	e.budget.Stored = e.budget.Initial
	e.rock0 = sumArea(e.b[0], e.cell)
	if cfg.Geology != nil {
		if cfg.Alluvium != nil {
			if err := checkField("alluvium", cfg.Alluvium, n, 0, math.Inf(1)); err != nil {
				return nil, err
			}
		}
		e.SetGeology(cfg.Geology)
		e.SetAlluvium(cfg.Alluvium)
	}
	return e, nil
}

// checkField checks that v is nil or holds n values in [lo, hi].
func checkField(what string, v []float32, n int, lo, hi float64) error {
	if v == nil {
		return nil
	}
	if len(v) != n {
		return fmt.Errorf("hydro: %s has %d values; want %d, one per cell", what, len(v), n)
	}
	for i, x := range v {
		if f := float64(x); !(f >= lo && f <= hi) || math.IsInf(f, 0) {
			return fmt.Errorf("hydro: %s %g at cell %d: must be finite and in [%g, %g]", what, x, i, lo, hi)
		}
	}
	return nil
}

func (e *Engine) checkSources(src []Source) error {
	for k, s := range src {
		if err := checkSource(k, s, e.w, e.h); err != nil {
			return err
		}
	}
	return nil
}

// checkSource checks source k (from 0) on a w×h map.
func checkSource(k int, s Source, w, h int) error {
	switch {
	case !(s.X >= 0 && s.X <= float64(w-1) && s.Y >= 0 && s.Y <= float64(h-1)):
		return fmt.Errorf("hydro: source %d at (%g, %g): outside the %d×%d map (cells from 0)", k+1, s.X, s.Y, w, h)
	case !(s.Radius >= 0 && s.Radius <= 1e5):
		return fmt.Errorf("hydro: source %d radius %g: must be finite and >= 0 cells", k+1, s.Radius)
	case !(s.Rate >= 0 && s.Rate <= 1e9):
		return fmt.Errorf("hydro: source %d rate %g: must be finite, >= 0 and <= 1e9 m³/s", k+1, s.Rate)
	}
	return nil
}

// setParams installs validated p: the boundary tables, the inflow and the
// per-step constants.
func (e *Engine) setParams(p Params) {
	old := e.p
	e.p = p
	e.warning = p.Warning(e.cell)
	e.buildTables()
	if old.Boundary != p.Boundary {
		e.clearEdgeFluxes()
	}
	e.buildInflow()
}

// SetParams replaces the parameters from the next step on.
func (e *Engine) SetParams(p Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	e.setParams(p)
	return nil
}

// SetSources replaces the point sources from the next step on.
func (e *Engine) SetSources(src []Source) error {
	if err := e.checkSources(src); err != nil {
		return err
	}
	e.sources = append(e.sources[:0], src...)
	e.buildInflow()
	return nil
}

// SetRain replaces the rain map (nil for 1 everywhere) from the next step on.
func (e *Engine) SetRain(r []float32) error {
	if err := checkField("rain map", r, e.n, 0, 1e6); err != nil {
		return err
	}
	if r == nil {
		e.rain = nil
	} else {
		e.rain = append(e.rain[:0], r...)
	}
	e.buildInflow()
	return nil
}

// buildTables fills the neighbour and slope tables for the boundary.
func (e *Engine) buildTables() {
	wrap := e.p.Boundary == Wrap
	side := func(n int) (lo, hi, glo, ghi []int32, gs []float32) {
		lo, hi, glo, ghi = make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
		gs = make([]float32, n)
		for k := range n {
			l, r := k-1, k+1
			if wrap {
				l, r = (l+n)%n, r%n
				lo[k], hi[k], glo[k], ghi[k] = int32(l), int32(r), int32(l), int32(r)
				gs[k] = float32(1 / (2 * e.cell))
				continue
			}
			lo[k], hi[k] = int32(l), int32(r)
			if r >= n {
				hi[k] = -1
			}
			gl, gr := max(l, 0), min(r, n-1)
			glo[k], ghi[k] = int32(gl), int32(gr)
			gs[k] = float32(1 / (float64(gr-gl) * e.cell))
		}
		return
	}
	e.xl, e.xr, e.gxl, e.gxr, e.gxs = side(e.w)
	e.yt, e.yb, e.gyt, e.gyb, e.gys = side(e.h)
}

// clearEdgeFluxes zeroes the fluxes through the map's edges, which only
// open edges carry.
func (e *Engine) clearEdgeFluxes() {
	w, h := e.w, e.h
	for y := range h {
		e.fL[y*w] = 0
		e.fR[y*w+w-1] = 0
	}
	for x := range w {
		e.fT[x] = 0
		e.fB[(h-1)*w+x] = 0
	}
}

// buildInflow fills in, the water each cell gets per second, m/s.
func (e *Engine) buildInflow() {
	e.inVol = fillInflow(e.in, e.w, e.h, e.cell, e.p.Kr, e.rain, e.sources)
}

// Inflow returns the water each cell of a w×h map of cells of cell metres
// gets per second, m/s (K_r times the rain map, nil for 1, plus the
// sources spread over their discs, eq. 1), and its total, m³/s: what an
// Engine adds each step, for another implementation of the model.
func Inflow(w, h int, cell float64, p Params, rain []float32, sources []Source) (in []float32, vol float64) {
	in = make([]float32, w*h)
	return in, fillInflow(in, w, h, cell, p.Kr, rain, sources)
}

// fillInflow fills in and returns Σ in · cell², m³/s.
func fillInflow(in []float32, w, h int, cell, kr float64, rain []float32, sources []Source) float64 {
	for i := range in {
		r := kr
		if rain != nil {
			r *= float64(rain[i])
		}
		in[i] = float32(r)
	}
	area := cell * cell
	for _, s := range sources {
		var cells []int
		x0, x1 := max(0, int(math.Floor(s.X-s.Radius))), min(w-1, int(math.Ceil(s.X+s.Radius)))
		y0, y1 := max(0, int(math.Floor(s.Y-s.Radius))), min(h-1, int(math.Ceil(s.Y+s.Radius)))
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				if math.Hypot(float64(x)-s.X, float64(y)-s.Y) <= s.Radius {
					cells = append(cells, y*w+x)
				}
			}
		}
		if len(cells) == 0 {
			cells = append(cells, int(math.Round(s.Y))*w+int(math.Round(s.X)))
		}
		r := s.Rate / (float64(len(cells)) * area)
		for _, i := range cells {
			in[i] = float32(float64(in[i]) + r)
		}
	}
	var sum float64
	for _, v := range in {
		sum += float64(v)
	}
	return sum * area
}

// Params returns the current parameters.
func (e *Engine) Params() Params { return e.p }

// Sources returns a copy of the point sources.
func (e *Engine) Sources() []Source { return append([]Source(nil), e.sources...) }

// Warning returns the message of Params.Warning for the current
// parameters and cell size ("" when Δt is within the stable limit).
func (e *Engine) Warning() string { return e.warning }

// StableDt returns Params().StableDt for the engine's cell size.
func (e *Engine) StableDt() (dt float64, limit string) { return e.p.StableDt(e.cell) }

// Size returns the grid size and the cell size in metres.
func (e *Engine) Size() (w, h int, cell float64) { return e.w, e.h, e.cell }

// Terrain returns the terrain heights b, metres. The slice is the engine's
// own: read it between steps only, and do not modify it.
func (e *Engine) Terrain() []float32 { return e.b[e.cur] }

// Water returns the water depths d, metres (the engine's own slice).
func (e *Engine) Water() []float32 { return e.d }

// Sediment returns the suspended sediment s, metres of soil per cell area
// (the engine's own slice).
func (e *Engine) Sediment() []float32 { return e.s }

// Hardness returns the hardness R (the engine's own slice).
func (e *Engine) Hardness() []float32 { return e.hard }

// Velocity returns the velocity components, m/s, east and south (the
// engine's own slices).
func (e *Engine) Velocity() (vx, vy []float32) { return e.vx, e.vy }

// Flux returns the water outflow fluxes f^L, f^R, f^T, f^B, m³/s, to the
// west, east, north and south neighbours (the engine's own slices).
func (e *Engine) Flux() (l, r, t, b []float32) { return e.fL, e.fR, e.fT, e.fB }

// ThermalFlux returns the soil, in metres of height per step, that cell
// (x, y) sends through its 8 thermal pipes in the last step (eq. 15),
// in the order W, E, N, S, NW, NE, SW, SE. Before the first step it is zero.
func (e *Engine) ThermalFlux(x, y int) [8]float32 {
	var out [8]float32
	if x < 0 || y < 0 || x >= e.w || y >= e.h {
		panic(fmt.Sprintf("hydro: cell (%d, %d) outside %d×%d map", x, y, e.w, e.h))
	}
	// The step that computed q read the terrain now in the other buffer.
	b := e.b[1-e.cur]
	if e.step == 0 {
		return out
	}
	i := y*e.w + x
	for k, j := range e.neighbours8(x, y) {
		if j < 0 {
			continue
		}
		td := e.c.tanO
		if k >= 4 {
			td = e.c.tanD
		}
		if ex := b[i] - b[j] - td; ex > 0 {
			out[k] = e.q[i] * ex
		}
	}
	return out
}

// neighbours8 returns the indices of the 8 neighbours of (x, y) in the
// order W, E, N, S, NW, NE, SW, SE, -1 outside the map.
func (e *Engine) neighbours8(x, y int) [8]int {
	xl, xr, yt, yb := int(e.xl[x]), int(e.xr[x]), int(e.yt[y]), int(e.yb[y])
	at := func(xx, yy int) int {
		if xx < 0 || yy < 0 {
			return -1
		}
		return yy*e.w + xx
	}
	return [8]int{at(xl, y), at(xr, y), at(x, yt), at(x, yb), at(xl, yt), at(xr, yt), at(xl, yb), at(xr, yb)}
}

// Stats returns the statistics of the last step.
func (e *Engine) Stats() StepStats { return e.stats }

// Mass returns the rock account so far. It sums the terrain and the
// sediment, O(W·H): call it for reports, not every step.
func (e *Engine) Mass() Mass {
	return Mass{
		RockInitial: e.rock0,
		Rock:        sumArea(e.b[e.cur], e.cell) + sumArea(e.trem, e.cell),
		Suspended:   sumArea(e.s, e.cell),
		SedimentOut: e.budget.SedimentOut,
	}
}

// sumArea returns Σv·cell², summed in float64.
func sumArea(v []float32, cell float64) float64 {
	var s float64
	for _, x := range v {
		s += float64(x)
	}
	return s * cell * cell
}

// Budget returns the water account so far.
func (e *Engine) Budget() Budget { return e.budget }

// A slab hands out the engine's fields from one allocation, each starting
// 256 bytes further on modulo 4 KiB than the one before. The sweeps store
// to some fields while loading others at the same index; where two such
// fields start at the same address modulo 4 KiB (as separate allocations
// of a power-of-two size do), the processor takes every load for one
// that may depend on the stores before it (4K aliasing) and the sweeps
// run at a fraction of their speed.
type slab struct {
	buf  []float32
	next int // the next free float
	k    int // fields handed out
}

// slabStep is the stagger between fields, in floats (256 bytes); 16
// fields cover the 4 KiB.
const slabStep = 64

// slabFields bounds the number of take calls New makes (18), each of
// which may skip up to 1023 floats to reach its offset.
const slabFields = 20

func (s *slab) init(n int) {
	s.buf = make([]float32, n+slabFields*1024)
}

// take returns the next n floats, starting at k·256 bytes modulo 4 KiB
// from the slab's start (k counting the fields taken, modulo 16).
func (s *slab) take(n int) []float32 {
	want := s.k % 16 * slabStep
	s.next += ((want-s.next)%1024 + 1024) % 1024
	s.k++
	v := s.buf[s.next : s.next+n : s.next+n]
	s.next += n
	return v
}

// staggered returns the distance, in floats, between the rows of the
// scratch windows of w floats: at least w, and not a multiple of 4 KiB
// apart (w + 80 floats when w is a multiple of 256, as 4·w then is of
// 1 KiB).
func staggered(w int) int {
	return w + 80
}
