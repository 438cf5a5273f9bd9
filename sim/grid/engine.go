package grid

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/geology"
	"orogen/sim/hillslope"
	"orogen/sim/parallel"
	"orogen/sim/spl"
	"orogen/sim/talus"
	"orogen/sim/water"
)

// DepositRelax returns the share of the new deposition rate G·Qs/A a
// step keeps for the next one for a deposition coefficient g
// (spl.DepositRelax, which says why): the default preset at 256² with G =
// 1.5 settles in about 600 steps with it.
func DepositRelax(g float64) float64 { return spl.DepositRelax(g) }

// Config describes a new engine.
type Config struct {
	W, H int
	Cell float64   // cell size, metres
	Up   []float32 // uplift, m/yr, W*H values; nil for none
	Init []float32 // initial heights, m, W*H values; nil for a flat start
	// InitNoise adds seeded uniform noise in [0, InitNoise) metres to the
	// initial heights of all cells but the fixed outlets, so flat starts
	// route deterministically without ties.
	InitNoise float64
	Seed      uint64
	Params    engine.Params
}

// Engine is the grid stream-power engine.
type Engine struct {
	w, h  int
	cell  float64
	p     engine.Params
	step  int
	time  float64
	stats engine.StepStats

	hgt      []float32
	prev     []float32 // heights before this step
	prev2    []float32 // heights before the last step
	up       []float32
	area     []float64 // drainage area in grid order, made and filled on demand (Area)
	areaOK   bool
	hs       []float32 // heights in drainage order
	he       []float32 // eroded heights in drainage order, before the talus limit
	ds       []float32 // receiver distances in drainage order
	as       []float64 // drainage area in drainage order
	prevRec  []uint8   // the last step's receivers as recTable codes them (recNone before the first)
	recTab   []uint8   // recTable(w)
	g        *flow.Graph
	routed   bool  // g holds the routing of the last step
	err      error // set when a step produced non-finite heights; Step then does nothing
	diff     *hillslope.Diffuser
	creep    *hillslope.Creeper
	lim      *talus.Limiter
	blockDh  []float64
	blockMx  []float64
	blockMx2 []float64
	blockCh  []int64
	blockV   []float64 // per-block sums of volume
	blockW   []float64 // per-block sums of volume after the uplift

	// The lakes' water budget (Params.Rain > 0 or a rain map).
	wat     *water.Model
	win     water.Input
	rainMap []float32
	watOK   bool // win describes the last step's routing

	// Geology (SetGeology): the model on the grid, k's factor per layer
	// index, the layer exposed at each cell after the last step's uplift,
	// k's factor in drainage order and the alluvium's thickness.
	geo     *geology.Map
	geoFac  []float32
	exposed []uint8
	ks      []float32
	alluv   []float32
	// gbot is the bottom of each node's exposed material, in drainage
	// order: the rock's top under alluvium, else the exposed layer's
	// bottom (spl.Params.Bottom).
	gbot []float32
	// gtop is the top of each node's starting material, in drainage
	// order (spl.Params.Top; +Inf for alluvium and the top layer).
	gtop []float32
	// With TalusByRock: the talus tangent's factor per layer index and
	// in drainage order.
	talFac []float32
	ts     []float32

	// The hillslope term's rebalanced splitting (balance.go): whether it
	// is on (SetRebalanced), and its corrections (nil before the first
	// rebalanced step and with κ = 0).
	rebal bool
	bal   *balance

	// Sediment (Params.G > 0): the heights before the erosion, the
	// flux scratch, the lake level and the outflow per position of the
	// drainage order.
	hb      []float32
	qs, out []float64
	lvl     []float32
	levels  []float32
	depRate []float32 // G·Qs/A of the last step per cell, m/yr
	lake    []int32   // the lake of each position's basin, or -1
	ranges  [][2]int32
	vol     []float64 // per lake: its volume below its level, m³
	frac    []float64 // per lake: the share of it filled
	us      []float32 // depRate in drainage order
	// k's noise factor per cell (Params.KNoise > 0) and what it was
	// made from.
	kn    []float32
	knKey [4]float64
}

// New validates c and returns an engine at step 0.
func New(c Config) (*Engine, error) {
	if c.W < 3 || c.H < 3 || c.W > 1<<15 || c.H > 1<<15 {
		return nil, fmt.Errorf("grid: size %d×%d: each side must be in [3, 32768]", c.W, c.H)
	}
	if !(c.Cell >= 1e-3 && c.Cell <= 1e6) {
		return nil, fmt.Errorf("grid: cell size %g m: must be in [0.001, 1e6] m", c.Cell)
	}
	if math.IsNaN(c.InitNoise) || math.IsInf(c.InitNoise, 0) || c.InitNoise < 0 {
		return nil, fmt.Errorf("grid: initial noise %g m: must be finite and >= 0", c.InitNoise)
	}
	if err := c.Params.Validate(); err != nil {
		return nil, err
	}
	n := c.W * c.H
	e := &Engine{w: c.W, h: c.H, cell: c.Cell, p: c.Params}
	e.hgt = make([]float32, n)
	e.prev = make([]float32, n)
	e.prev2 = make([]float32, n)
	e.prevRec = make([]uint8, n)
	for i := range e.prevRec {
		e.prevRec[i] = recNone
	}
	e.recTab = recTable(c.W)
	if err := e.SetUplift(c.Up); err != nil {
		return nil, err
	}
	if c.Init != nil {
		if len(c.Init) != n {
			return nil, fmt.Errorf("grid: %d initial heights for a %d×%d grid", len(c.Init), c.W, c.H)
		}
		if err := sim.CheckFinite("grid: initial heights", "cell", c.Init); err != nil {
			return nil, err
		}
		copy(e.hgt, c.Init)
	}
	e.configure(true)
	if c.InitNoise > 0 {
		rng := rand.New(rand.NewPCG(c.Seed, 0x6f726f67656e))
		for i := range e.hgt {
			r := rng.Float64()
			if !e.g.IsFixed(i) {
				e.hgt[i] += float32(r * c.InitNoise)
			}
		}
	}
	return e, nil
}

// configure rebuilds what depends on the parameters.
func (e *Engine) configure(edgesChanged bool) {
	if edgesChanged || e.g == nil {
		e.g = flow.NewGraph(e.w, e.h, e.cell, e.p.Edges, e.p.NaturalDist)
		e.routed = false
	}
	if e.diff == nil {
		e.diff = hillslope.NewDiffuser(e.w, e.h)
	}
	if e.creep == nil && e.p.CreepSc > 0 {
		e.creep = hillslope.NewCreeper(e.w, e.h)
	}
	e.lim = e.p.Talus.Limiter(e.w, e.h, e.cell)
	e.kn, e.knKey = KNoise(e.kn, e.knKey, e.w, e.h, e.cell, e.p)
	if e.p.G > 0 && e.alluv == nil {
		e.alluv = make([]float32, e.w*e.h)
	}
}

// SetParams replaces the parameters from the next step on.
func (e *Engine) SetParams(p engine.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	edges := p.Edges != e.p.Edges || p.NaturalDist != e.p.NaturalDist
	// A new dt alone (sim/settle's long steps) keeps the creep's mean
	// factors: they follow the slopes, not the step.
	q := p
	q.Dt = e.p.Dt
	reset := q != e.p
	e.p = p
	e.configure(edges)
	if reset {
		e.resetCreep()
	}
	if e.wat != nil {
		return e.wat.SetParams(e.waterParams()) // validated with p
	}
	return nil
}

// resetCreep restarts the creep's mean factors (hillslope.Creeper): the
// terrain is to evolve towards another rest state.
func (e *Engine) resetCreep() {
	if e.creep != nil {
		e.creep.Reset()
	}
}

// Params returns the current parameters.
func (e *Engine) Params() engine.Params { return e.p }

// SetUplift replaces the uplift field (m/yr, W*H values; nil for none) from
// the next step on. The engine keeps its own copy.
func (e *Engine) SetUplift(u []float32) error {
	e.resetCreep()
	if u == nil {
		e.up = nil
		return nil
	}
	if len(u) != e.w*e.h {
		return fmt.Errorf("grid: %d uplift values for a %d×%d grid", len(u), e.w, e.h)
	}
	if err := sim.CheckFinite("grid: uplift", "cell", u); err != nil {
		return err
	}
	for i, v := range u {
		if math.Abs(float64(v)) > 1 {
			return fmt.Errorf("grid: uplift %g m/yr at cell %d: absurd (|u| must be <= 1 m/yr)", v, i)
		}
	}
	// A new slice, never written: snapshots share it.
	e.up = append([]float32(nil), u...)
	return nil
}

// Size returns the grid width, height and cell size in metres.
func (e *Engine) Size() (w, h int, cell float64) { return e.w, e.h, e.cell }

// Heights returns the engine's height field. It is valid until the next
// Step; the caller must not modify it.
func (e *Engine) Heights() []float32 { return e.hgt }

// Graph returns the flow graph of the last step. It is valid until the next
// Step; the caller must not modify it.
func (e *Engine) Graph() *flow.Graph { return e.g }

// Area returns the drainage area of the last step in grid order, m². It is
// valid until the next Step; the caller must not modify it. The engine
// keeps it (8 bytes a cell) only once asked for it.
func (e *Engine) Area() []float64 {
	if !e.areaOK {
		e.area = sim.Resize(e.area, e.w*e.h)
		if e.routed {
			st := e.g.Stack
			parallel.Blocks(len(st), 1<<15, func(_, lo, hi int) {
				for k := lo; k < hi; k++ {
					e.area[st[k]] = e.as[k]
				}
			})
		} else {
			for i := range e.area {
				e.area[i] = e.cell * e.cell
			}
		}
		e.areaOK = true
	}
	return e.area
}

// Stats returns the statistics of the last step.
func (e *Engine) Stats() engine.StepStats { return e.stats }

// Converged reports whether the last step changed no height faster than tol
// m/yr, or the last two steps together did not while neither step changed
// any height by more than TwoStepMax·tol·dt: a few cells may settle into
// alternating between two nearby states (two receivers near a tie on a
// talus-limited slope) while the terrain as a whole has stopped evolving,
// but an alternation of tens of metres is a cycle, not a steady state.
func (e *Engine) Converged(tol float64) bool {
	if e.step == 0 {
		return false
	}
	return StepConverged(e.stats, e.p.Dt, tol)
}

// TwoStepMax bounds, in units of tol·dt, the one-step change of a terrain
// Converged accepts by its two-step test. Without a bound that test hid
// real cycles: two-step changes under the tolerance while a step changed
// heights by 90–97 m (the gradient and steps presets at 512², their
// random receivers routed on the creep's intermediate), 16 m (a channel
// between a cardinal and a diagonal receiver, flow.ChannelKeep) and 26 m
// (a talus chain under a deposition rate relaxed by half at G = 3,
// spl.DepositRelax), each fixed since at its cause; the presets now
// settle by the one-step test (docs/REALISM.md). 4·tol·dt is 1 m at the
// default tolerance and dt.
const TwoStepMax = 4

// StepConverged is Converged's test on a step's statistics st (MaxDh and
// MaxDh2) at time step dt, for the engines that run the grid engine's
// physics (gpu/splgpu).
func StepConverged(st engine.StepStats, dt, tol float64) bool {
	return st.MaxDh/dt < tol || (st.MaxDh2/(2*dt) < tol && st.MaxDh/dt <= TwoStepMax*tol)
}

// Err returns why the engine stopped, or nil: a step whose heights
// overflowed to Inf or NaN (parameters far outside nature) stops the engine
// rather than spreading garbage.
func (e *Engine) Err() error { return e.err }

// Step advances the terrain by one time step. After an error (see Err) it
// does nothing and returns the last statistics.
func (e *Engine) Step() engine.StepStats {
	if e.err != nil {
		return e.stats
	}
	var st engine.StepStats
	t0 := time.Now()
	mark := t0
	lap := func(ph engine.Phase) {
		now := time.Now()
		st.Phase[ph] = now.Sub(mark)
		mark = now
	}
	g := e.g
	n := len(e.hgt)
	e.prev2 = sim.Resize(e.prev2, n) // Release may have dropped it
	e.prev, e.prev2 = e.prev2, e.prev
	// The rock account (engine.Mass): the volume before and after each
	// phase that changes heights. Summed while copying the heights.
	v0 := e.copyVolume(e.prev, e.hgt)
	// Hillslope first: the stream power below erodes the heights it left
	// (the receivers are its, or with random routing the state's).
	// Rebalanced (SetRebalanced, balance.go): corr is the volume its
	// corrections added, which the uplift below takes back.
	var corr float64
	balanced := e.p.Kappa > 0 && e.rebal
	v1 := v0
	switch {
	case balanced:
		corr = e.hillslopeStep()
		v1 = e.copyVolume(e.bal.h1, e.hgt)
	case e.p.Kappa > 0:
		fixed := hillslope.Edges{
			North: e.p.Edges.North == flow.Outlet, South: e.p.Edges.South == flow.Outlet,
			East: e.p.Edges.East == flow.Outlet, West: e.p.Edges.West == flow.Outlet,
		}
		if e.p.CreepSc > 0 {
			e.creep.Step(e.hgt, e.cell, e.p.Kappa, e.p.CreepSc, e.p.Dt, fixed)
		} else {
			e.diff.Step(e.hgt, e.cell, e.p.Kappa, e.p.Dt, fixed)
		}
		v1 = e.volume(e.hgt)
	default:
		e.bal = nil // no hillslope term: nothing to balance
	}
	lap(engine.PhaseHillslope)
	// With random routing the receivers are the state's: routed on the
	// heights the step started from, not on the hillslope term's
	// intermediate (routeHeights says why and when).
	hr := e.routeHeights(balanced)
	if e.p.Routing == flow.RoutingRandom {
		// Route then Randomize in one pass, reading the last step's
		// area in its drainage order where the graph still has that
		// order's positions (not after a Release or before a routing).
		area, pos := e.as, g.Pos
		if e.areaOK || !e.routed || len(pos) != n || len(area) != n {
			area, pos = e.Area(), nil
		}
		g.RouteRandom(hr, area, pos, e.channelArea(), e.p.Seed)
		e.area, e.areaOK = nil, false
	} else {
		g.ForgetRandom()
		g.Route(hr)
	}
	lap(engine.PhaseRouting)
	// The labels only for pits' passes, unless the water budget reads
	// them (WaterInput).
	g.PitLabels = !e.waterOn()
	g.Order()
	lap(engine.PhaseStack)
	g.ConnectLakes(hr)
	lap(engine.PhaseLakes)
	e.releasePasses()
	g.Assemble()
	st.Phase[engine.PhaseStack] += time.Since(mark)
	mark = time.Now()
	// The water budget sees the heights the routing saw (before uplift
	// and erosion) and leaves them alone.
	if e.waterOn() {
		if e.wat == nil {
			e.wat, _ = water.New(e.waterParams()) // validated with the Params
		}
		e.wat.Step(g.WaterInput(&e.win, hr), e.p.Dt)
		e.watOK = true
	} else {
		e.wat, e.watOK = nil, false
	}
	e.releaseWalk()
	lap(engine.PhaseWater)

	// Uplift (timed with the erosion), in grid order: sequential memory
	// access. Fixed outlets stay.
	v2 := v1
	if e.up != nil || balanced {
		dt := e.p.Dt
		var cx, cy []float32 // the hillslope's corrections, taken back here
		if balanced {
			cx, cy = e.bal.cx, e.bal.cy
		}
		const block = 1 << 15
		e.blockV = sim.Resize(e.blockV, parallel.NumBlocks(len(e.hgt), block))
		// The volume after the uplift in volume's blocks, two per uplift
		// block: the same sums volume(e.hgt) would add.
		e.blockW = sim.Resize(e.blockW, parallel.NumBlocks(len(e.hgt), volBlock))
		parallel.Blocks(len(e.hgt), block, func(b, lo, hi int) {
			var in float64
			// The slices in locals: through e they were loaded again
			// for every cell.
			hgt, up := e.hgt[lo:hi], e.up
			switch {
			case cx == nil:
				up := up[lo:hi]
				up = up[:len(hgt)]
				for k := range hgt {
					if !g.IsFixed(lo + k) {
						u := dt * float64(up[k])
						hgt[k] = float32(float64(hgt[k]) + u)
						in += u
					}
				}
			default:
				for k := range hgt {
					i := lo + k
					if !g.IsFixed(i) {
						var u float64
						if up != nil {
							u = dt * float64(up[i])
						}
						d := dt*float64(cx[i]) + dt*float64(cy[i])
						hgt[k] = float32(float64(hgt[k]) + u - d)
						in += u
					}
				}
			}
			e.blockV[b] = in
			for v := lo; v < hi; v += volBlock {
				e.blockW[v/volBlock] = sim.Sum32(e.hgt[v:min(hi, v+volBlock)])
			}
		})
		for _, v := range e.blockV {
			st.Mass.Uplift += v
		}
		st.Mass.Uplift *= e.cell * e.cell
		v2 = 0
		for _, v := range e.blockW {
			v2 += v
		}
		v2 = v2 * e.cell * e.cell // as volume rounds: (Σ·cell)·cell
	}
	upliftTime := time.Since(mark)
	mark = time.Now()
	if e.geo != nil {
		// The rock exposed on the uplifted surface sets k cell by cell;
		// the layout below gathers it into drainage order.
		e.exposed = e.geo.Exposed(e.exposed, e.hgt, e.alluv)
		lap(engine.PhaseGeology)
	}
	// Work in drainage order from here: sequential memory access.
	// Whole trees, Fine chunks a worker claimed largest first
	// (parallel.Largest): the largest tree, not the largest of one chunk
	// a worker, bounds the walks below.
	chunks := g.Chunks(parallel.Chunks(parallel.Workers()))
	nc := len(chunks) - 1
	e.hs, e.ds = sim.Resize(e.hs, n), sim.Resize(e.ds, n)
	sediment := e.p.G > 0
	if sediment {
		e.hb = sim.Resize(e.hb, n)
		e.qs = sim.Resize(e.qs, n)
		e.out = sim.Resize(e.out, n)
		e.us = sim.Resize(e.us, n)
		if len(e.depRate) != n {
			e.depRate = make([]float32, n)
		}
	}
	if e.kn != nil || e.geo != nil {
		e.ks = sim.Resize(e.ks, len(e.hgt))
	}
	if e.geo != nil && e.talFac != nil {
		e.ts = sim.Resize(e.ts, len(e.hgt))
	}
	if e.geo != nil {
		e.gbot = sim.Resize(e.gbot, len(e.hgt))
		e.gtop = sim.Resize(e.gtop, len(e.hgt))
	}
	// Element by element: blocks of equal size rather than the chunks of
	// whole trees (the largest tree of the default scene at 1024² holds
	// 15 % of the cells, which capped these passes at 5–7 workers).
	parallel.Blocks(n, layoutBlock, func(_, lo, hi int) {
		g.GatherDist(e.hs, e.hgt, e.ds, lo, hi)
		if sediment {
			// The heights before the erosion (Deposit's hb), copied
			// while the block's are in cache.
			copy(e.hb[lo:hi], e.hs[lo:hi])
		}
		if sediment && e.kn != nil && e.geo == nil {
			// The deposition rate and k's noise in one walk.
			us, dr, ks, kn := e.us[lo:hi], e.depRate, e.ks[lo:hi], e.kn
			ks = ks[:len(us)]
			for k, i := range g.Stack[lo:hi] {
				us[k], ks[k] = dr[i], kn[i]
			}
		} else {
			if sediment {
				us, dr := e.us[lo:hi], e.depRate
				for k, i := range g.Stack[lo:hi] {
					us[k] = dr[i]
				}
			}
			if e.kn != nil && e.geo == nil {
				ks, kn := e.ks[lo:hi], e.kn
				for k, i := range g.Stack[lo:hi] {
					ks[k] = kn[i]
				}
			}
		}
		if e.geo != nil {
			// The material the erosion starts from and where it ends
			// below and above (spl.Params.Bottom and Top): alluvium
			// down to the rock where the cell has some or the step
			// deposits some (the deposition term, laid on top within
			// the step), else the layer at the cell's height before
			// the step (spl's rise says why not the exposed one, at
			// the uplifted surface).
			ks, fac, ex := e.ks[lo:hi], e.geoFac, e.exposed
			bot, al, na := e.gbot[lo:hi], e.alluv, uint8(len(e.geoFac)-1)
			top, h0 := e.gtop[lo:hi], e.prev
			var dr []float32
			if sediment {
				dr = e.depRate
			}
			for k, i := range g.Stack[lo:hi] {
				l := ex[i]
				cover := al[i]
				if dr != nil {
					cover += float32(e.p.Dt * float64(dr[i]))
				}
				if l == na || cover >= geology.MinAlluvium {
					ks[k] = fac[na]
					bot[k] = e.hgt[i] - al[i] // the rock's top
					top[k] = float32(math.Inf(1))
					continue
				}
				l0 := e.geo.LayerAt(int(i), float64(h0[i]))
				ks[k] = fac[l0]
				bot[k] = float32(e.geo.Bottom(int(i), l0))
				top[k] = float32(e.geo.Top(int(i), l0))
			}
			if kn := e.kn; kn != nil {
				for k, i := range g.Stack[lo:hi] {
					ks[k] *= kn[i]
				}
			}
			if e.talFac != nil {
				ts, tf := e.ts[lo:hi], e.talFac
				for k, i := range g.Stack[lo:hi] {
					ts[k] = tf[ex[i]]
				}
			}
		}
	})
	lap(engine.PhaseLayout)
	e.as = g.AccumulateStack(e.as, e.cell*e.cell)
	e.areaOK = false
	lap(engine.PhaseArea)
	sp := spl.Params{K: e.p.K, M: e.p.M, N: e.p.N, Dt: e.p.Dt, Hold: sediment}
	if e.geo != nil || e.kn != nil {
		sp.KFactor = e.ks
	}
	if e.geo != nil {
		// The erosion crosses contacts within the step, each material
		// at its own k, down or up from the material at the cell's
		// height before the step (spl.Params.Bottom and Top).
		sp.Bottom, sp.Below = e.gbot, e.below
		sp.Top, sp.Above = e.gtop, e.above
	}
	v3 := math.NaN() // after erosion: the end volume when the talus limit is off
	tan, constant := e.lim.ConstantTan()
	talusOn := e.p.Talus.Mode != talus.ModeOff
	field, noisy := e.lim.NoiseField()
	if sp.N == 1 && e.geo == nil && (!talusOn || constant || noisy) {
		// The erosion (with the deposition term) and a constant or
		// noisy talus limit in one pass, two trees at a time
		// (spl.ErodeLimit): bit for bit the two passes below.
		lim := spl.Limit{Tan: tan}
		switch {
		case !talusOn:
			lim.Tan = 0
		case noisy:
			lim = spl.Limit{Field: field, Cell: g.Stack}
		}
		var us []float32
		he := e.us // the eroded heights over the rates: each node reads its own first
		if sediment {
			us = e.us
		} else {
			e.he = sim.Resize(e.he, len(e.hs))
			he = e.he
		}
		lanes := e.lanes(chunks)
		clamped := make([]int, nc)
		parallel.Largest(chunks, func(c int) {
			clamped[c] = spl.ErodeLimit(e.hs, he, g.RecPos, e.ds, e.as, us, lanes[c], sp, lim)
		})
		for _, v := range clamped {
			st.Clamped += v
		}
		if talusOn {
			v3 = e.volume(he)
		}
		lap(engine.PhaseErosion)
	} else {
		var us []float32
		if sediment {
			us = e.us
		}
		parallel.Largest(chunks, func(c int) {
			spl.Erode(e.hs, g.RecPos, e.ds, e.as, us, int(chunks[c]), int(chunks[c+1]), sp)
		})
		lap(engine.PhaseErosion)
		if talusOn {
			v3 = e.volume(e.hs)
			clamped := make([]int, nc)
			parallel.Largest(chunks, func(c int) {
				if e.geo != nil && e.talFac != nil {
					clamped[c] = e.lim.ClampOrderedScaled(e.hs, g.RecPos, e.ds, g.Stack, e.ts, int(chunks[c]), int(chunks[c+1]))
					return
				}
				clamped[c] = e.lim.ClampOrdered(e.hs, g.RecPos, e.ds, g.Stack, int(chunks[c]), int(chunks[c+1]))
			})
			for _, v := range clamped {
				st.Clamped += v
			}
		}
	}
	st.Phase[engine.PhaseErosion] += upliftTime
	lap(engine.PhaseTalus)
	if sediment {
		if math.IsNaN(v3) {
			v3 = e.volume(e.hs)
		}
		vt := e.volume(e.hs)
		e.lakeLevels()
		ca := e.cell * e.cell
		gdt := e.p.G / e.p.Dt
		relax := DepositRelax(e.p.G)
		parallel.Largest(chunks, func(c int) {
			lo, hi := int(chunks[c]), int(chunks[c+1])
			spl.Deposit(e.hs, e.hb, g.RecPos, e.lvl, e.lake, e.ranges, e.vol, e.frac, e.qs, e.out, ca, lo, hi)
			// The next step's deposition term, G·Qs/A per cell.
			// The engine's fields in locals: read through e, they were
			// loaded again for every cell (17 instructions a cell).
			dr, qs, as := e.depRate, e.qs[lo:hi], e.as[lo:hi]
			plain, up := e.p.PlainUplift, e.up
			keep, gain := 1-relax, relax*gdt
			st := g.Stack[lo:hi]
			qs, as = qs[:len(st)], as[:len(st)]
			for k, i := range st {
				if plain > 0 && (up == nil || float64(up[i]) < plain) {
					dr[i] = 0 // the base-level plain: the sediment crosses it
					continue
				}
				dr[i] = float32(keep*float64(dr[i]) + gain*qs[k]/as[k])
			}
		})
		parallel.Blocks(len(e.ranges), 16, func(_, lo, hi int) {
			spl.FillLakes(e.hs, e.lvl, e.ranges, e.frac, ca, lo, hi)
		})
		st.Mass.Talus = v3 - vt
		st.Mass.SedimentOut = e.sedimentOut()
		lap(engine.PhaseDeposit)
	}
	// Back to grid order, with the volume, the step's statistics and the
	// alluvium (with geology or sediment) in the same pass.
	v4 := e.measure(&st, g.Pos, e.hs, e.geo != nil || sediment)
	st.Phase[engine.PhaseLayout] += time.Since(mark)

	e.routed = true
	if math.IsNaN(v3) {
		v3 = v4
	}
	if sediment {
		// What the stream power and the talus took, gross, and what
		// stayed, in grid order.
		lowered, raised := e.yields()
		st.Mass.Diffused, st.Mass.Eroded, st.Mass.Deposited, st.Mass.Stored = v0-v1+corr, lowered-st.Mass.Talus, raised, v4-v0
	} else {
		st.Mass.Diffused, st.Mass.Eroded, st.Mass.Talus, st.Mass.Stored = v0-v1+corr, v2-v3, v3-v4, v4-v0
	}
	if math.IsNaN(st.MeanDh) || math.IsInf(st.MeanDh, 0) {
		e.err = fmt.Errorf("grid: step %d produced non-finite heights: the parameters (k %g, m %g, n %g, dt %g, κ %g) or the uplift are too extreme", e.step+1, e.p.K, e.p.M, e.p.N, e.p.Dt, e.p.Kappa)
		copy(e.hgt, e.prev) // keep the last good terrain
		st.Mass = engine.Mass{}
	} else if balanced {
		e.rebalance()
	}
	e.step++
	e.time += e.p.Dt
	st.Step, st.Time, st.Dt = e.step, e.time, e.p.Dt
	st.Lakes = len(g.Lakes)
	st.Total = time.Since(t0)
	e.stats = st
	return st
}

// lanes splits each chunk of trees (chunks from Graph.Chunks) in two at
// the tree boundary nearest its middle, for the two-lane kernels.
func (e *Engine) lanes(chunks []int32) []spl.Lanes {
	out := make([]spl.Lanes, len(chunks)-1)
	for c := range out {
		lo, hi := chunks[c], chunks[c+1]
		m := e.g.SplitTrees(lo, hi)
		out[c] = spl.Lanes{A0: int(lo), A1: int(m), B0: int(m), B1: int(hi)}
	}
	return out
}

// volBlock is the block of the volume sums and of measure.
const volBlock = 1 << 14

// layoutBlock is the block of the gathers into drainage order: 128 KiB of
// float32, the copy to hb reading the heights just gathered from cache.
const layoutBlock = 1 << 15

// volume returns Σ v·cell², m³, with partial sums per fixed block added
// in block order: the same for any number of workers.
func (e *Engine) volume(v []float32) float64 {
	e.blockV = sim.Resize(e.blockV, parallel.NumBlocks(len(v), volBlock))
	parallel.Blocks(len(v), volBlock, func(b, lo, hi int) {
		e.blockV[b] = sim.Sum32(v[lo:hi])
	})
	var s float64
	for _, x := range e.blockV {
		s += x
	}
	return s * e.cell * e.cell
}

// copyVolume copies src to dst and returns volume(src), in one pass.
func (e *Engine) copyVolume(dst, src []float32) float64 {
	e.blockV = sim.Resize(e.blockV, parallel.NumBlocks(len(src), volBlock))
	parallel.Blocks(len(src), volBlock, func(b, lo, hi int) {
		copy(dst[lo:hi], src[lo:hi])
		e.blockV[b] = sim.Sum32(src[lo:hi])
	})
	var s float64
	for _, x := range e.blockV {
		s += x
	}
	return s * e.cell * e.cell
}

// changes returns Σ|h−p|, max |h−p| and max |h−p2|. The sum keeps four
// partial sums (elements 4k … 4k+3) added in a fixed order, so that the
// additions do not wait on each other; the result depends only on the
// inputs.
func changes(h, p, p2 []float32) (sum, mx, mx2 float64) {
	p, p2 = p[:len(h)], p2[:len(h)]
	var s0, s1, s2, s3, m0, m1, q0, q1 float64
	n := len(h) &^ 3
	for i := 0; i < n; i += 4 {
		hq, pq, rq := h[i:i+4:i+4], p[i:i+4:i+4], p2[i:i+4:i+4]
		d0 := math.Abs(float64(hq[0]) - float64(pq[0]))
		d1 := math.Abs(float64(hq[1]) - float64(pq[1]))
		d2 := math.Abs(float64(hq[2]) - float64(pq[2]))
		d3 := math.Abs(float64(hq[3]) - float64(pq[3]))
		s0 += d0
		s1 += d1
		s2 += d2
		s3 += d3
		if d0 > m0 {
			m0 = d0
		}
		if d1 > m1 {
			m1 = d1
		}
		if d2 > m0 {
			m0 = d2
		}
		if d3 > m1 {
			m1 = d3
		}
		e0 := math.Abs(float64(hq[0]) - float64(rq[0]))
		e1 := math.Abs(float64(hq[1]) - float64(rq[1]))
		e2 := math.Abs(float64(hq[2]) - float64(rq[2]))
		e3 := math.Abs(float64(hq[3]) - float64(rq[3]))
		if e0 > q0 {
			q0 = e0
		}
		if e1 > q1 {
			q1 = e1
		}
		if e2 > q0 {
			q0 = e2
		}
		if e3 > q1 {
			q1 = e3
		}
	}
	for i := n; i < len(h); i++ {
		d := math.Abs(float64(h[i]) - float64(p[i]))
		s0 += d
		m0 = max(m0, d)
		q0 = max(q0, math.Abs(float64(h[i])-float64(p2[i])))
	}
	sum, mx, mx2 = (s0+s1)+(s2+s3), max(m0, m1), max(q0, q1)
	if math.IsNaN(sum) { // a NaN height; the comparisons above skip it
		mx, mx2 = sum, sum
	}
	return sum, mx, mx2
}

// measure fills the height change and receiver change statistics and
// returns the volume of the heights (as volume). With pos and hs not nil
// it first gathers the heights back from drainage order, e.hgt[i] =
// hs[pos[i]], block by block in the same pass; with alluvium it updates
// the alluvium there too (depositRange). Partial sums are kept per
// fixed block and added in block order, so the figures do not depend on
// the number of workers.
func (e *Engine) measure(st *engine.StepStats, pos []int32, hs []float32, alluvium bool) float64 {
	const block = volBlock
	n := len(e.hgt)
	nb := parallel.NumBlocks(n, block)
	e.blockDh = sim.Resize(e.blockDh, nb)
	e.blockMx = sim.Resize(e.blockMx, nb)
	e.blockMx2 = sim.Resize(e.blockMx2, nb)
	e.blockCh = sim.Resize(e.blockCh, nb)
	e.blockV = sim.Resize(e.blockV, nb)
	rec, tab, w1 := e.g.Rec, e.recTab, int32(e.w+1)
	parallel.Blocks(n, block, func(b, lo, hi int) {
		h := e.hgt[lo:hi]
		if pos != nil {
			for i, p := range pos[lo:hi] {
				h[i] = hs[p]
			}
		}
		e.blockV[b] = sim.Sum32(h)
		e.blockDh[b], e.blockMx[b], e.blockMx2[b] = changes(h, e.prev[lo:hi], e.prev2[lo:hi])
		var ch int64
		prev := e.prevRec[lo:hi]
		for k, r := range rec[lo:hi] {
			if c := tab[r-int32(lo+k)+w1]; c != prev[k] {
				prev[k] = c
				ch++
			}
		}
		e.blockCh[b] = ch
		if alluvium {
			e.depositRange(lo, hi)
		}
	})
	var sum, mx, mx2, vol float64
	var ch int64
	for b := 0; b < nb; b++ {
		sum += e.blockDh[b]
		mx = max(mx, e.blockMx[b])
		mx2 = max(mx2, e.blockMx2[b])
		ch += e.blockCh[b]
		vol += e.blockV[b]
	}
	st.MaxDh = mx
	st.MaxDh2 = mx2
	if e.step == 0 {
		st.MaxDh2 = math.NaN()
	}
	st.MeanDh = sum / float64(n)
	st.RecvChanged = float64(ch) / float64(n)
	return vol * e.cell * e.cell
}

// waterOn reports whether the lakes' water budget runs.
func (e *Engine) waterOn() bool { return e.p.Rain > 0 || e.rainMap != nil }

// waterParams are the budget's parameters.
func (e *Engine) waterParams() water.Params {
	return water.Params{Rain: e.p.Rain, RainMap: e.rainMap, Evap: e.p.Evap}
}

// SetRainMap sets the rain of every cell, m/yr (W·H values; nil for the
// uniform Params.Rain), for the lakes' water budget from the next step on.
// The engine keeps its own copy.
func (e *Engine) SetRainMap(r []float32) error {
	if r != nil && len(r) != e.w*e.h {
		return fmt.Errorf("grid: %d rain values for a %d×%d grid", len(r), e.w, e.h)
	}
	p := water.Params{RainMap: r}
	if err := p.Validate(); err != nil {
		return err
	}
	for i, v := range r {
		if v > engine.MaxRain {
			return fmt.Errorf("grid: rain %g m/yr at cell %d: absurd (at most %g)", v, i, float64(engine.MaxRain))
		}
	}
	e.rainMap = append([]float32(nil), r...)
	if r == nil {
		e.rainMap = nil
	}
	if e.wat != nil {
		return e.wat.SetParams(e.waterParams())
	}
	return nil
}

// Water returns the lakes' water budget, or nil when it is off.
func (e *Engine) Water() *water.Model { return e.wat }

// SetGeology lays m on the grid from the next step on (nil: uniform rock):
// k becomes k·m.Erodibility(rock exposed) cell by cell, and the engine
// tracks the alluvium it deposits (engine.Geologic).
func (e *Engine) SetGeology(m *geology.Model) {
	if m == nil {
		e.geo, e.geoFac = nil, nil
		return
	}
	e.setGeologyMap(m.Map(e.w, e.h, e.cell))
}

// SetGeologyMap is SetGeology(g.Model()) with the model already laid on
// the engine's grid (engine.MapGeologic); a map of another grid is an
// error and changes nothing.
func (e *Engine) SetGeologyMap(g *geology.Map) error {
	if g == nil || g.W != e.w || g.H != e.h || g.Cell != e.cell {
		return errMapGrid(g, e.w, e.h, e.cell)
	}
	e.setGeologyMap(g)
	return nil
}

func errMapGrid(g *geology.Map, w, h int, cell float64) error {
	if g == nil {
		return errors.New("grid: SetGeologyMap: no map")
	}
	return fmt.Errorf("grid: a geology map of %d×%d cells of %g m for a grid of %d×%d cells of %g m", g.W, g.H, g.Cell, w, h, cell)
}

func (e *Engine) setGeologyMap(g *geology.Map) {
	m := g.Model()
	e.geo = g
	e.geoFac = e.geoFac[:0]
	for _, f := range m.Factors(m.Erodibility) {
		e.geoFac = append(e.geoFac, float32(f))
	}
	n := e.w * e.h
	e.exposed = sim.Resize(e.exposed, n)
	e.ks = sim.Resize(e.ks, n)
	e.talFac = nil
	if m.TalusByRock() {
		for _, f := range m.Factors(m.TalusScale) {
			e.talFac = append(e.talFac, float32(f))
		}
		e.ts = sim.Resize(e.ts, n)
	}
	if e.alluv == nil {
		e.alluv = make([]float32, n)
	}
	e.geo.Exposed(e.exposed, e.hgt, e.alluv)
}

// below is spl.Params.Below on the node at position k of the drainage
// order: the factor of k of the layer directly under height z and the
// height of that layer's bottom.
func (e *Engine) below(k int, z float64) (factor, bottom float64) {
	i := int(e.g.Stack[k])
	l, b := e.geo.Below(i, z)
	f := float64(e.geoFac[l])
	if e.kn != nil {
		f *= float64(e.kn[i])
	}
	return f, b
}

// above is spl.Params.Above on the node at position k of the drainage
// order: the factor of k of the layer directly above height z and the
// height of that layer's top.
func (e *Engine) above(k int, z float64) (factor, top float64) {
	i := int(e.g.Stack[k])
	l, t := e.geo.Above(i, z)
	f := float64(e.geoFac[l])
	if e.kn != nil {
		f *= float64(e.kn[i])
	}
	return f, t
}

// Geology returns the model SetGeology gave, or nil.
func (e *Engine) Geology() *geology.Model {
	if e.geo == nil {
		return nil
	}
	return e.geo.Model()
}

// Eroded returns the layer each cell eroded in during the last step (its
// surface after the uplift; the engine's own slice; nil without geology).
// Snapshot.Rock is the layer exposed now.
func (e *Engine) Eroded() []uint8 { return e.exposed }

// Alluvium returns the alluvium's thickness per cell, m (the engine's own
// slice; nil before SetGeology).
func (e *Engine) Alluvium() []float32 { return e.alluv }

// depositRange updates the alluvium of cells [lo, hi) from the step's
// change of height without the uplift: what the step added is deposit,
// what it took is eroded from the alluvium first.
func (e *Engine) depositRange(lo, hi int) {
	dt, g := e.p.Dt, e.g
	hg, pv, al := e.hgt[lo:hi], e.prev[lo:hi], e.alluv[lo:hi]
	var up []float32
	if e.up != nil {
		up = e.up[lo:hi]
	}
	for k := range al {
		d := hg[k] - pv[k]
		if up != nil && !g.IsFixed(lo+k) {
			d -= float32(dt * float64(up[k]))
		}
		if a := al[k] + d; a > 0 {
			al[k] = a
		} else {
			al[k] = 0
		}
	}
}

var _ engine.MapGeologic = (*Engine)(nil)

// Receivers are compared from step to step by their direction from the
// cell, one byte a cell: every receiver is the cell itself or one of its 8
// neighbours, so the direction names it.
const (
	recSelf = 8   // the cell is a root
	recNone = 255 // no receiver yet (before the first step)
)

// recTable returns the table of the receivers' codes on a grid w cells
// wide: tab[r-i+w+1] is 0-7 for the neighbour r of cell i in the order E,
// SE, S, SW, W, NW, N, NE, recSelf for r == i.
func recTable(w int) []uint8 {
	tab := make([]uint8, 2*w+3)
	for k := range tab {
		tab[k] = recNone
	}
	for k, d := range [8]int{1, w + 1, w, w - 1, -1, -w - 1, -w, -w + 1} {
		tab[d+w+1] = uint8(k)
	}
	tab[w+1] = recSelf
	return tab
}
