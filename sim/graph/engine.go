package graph

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/parallel"
	"orogen/sim/passq"
	"orogen/sim/spl"
	"orogen/sim/talus"
	"orogen/sim/water"
)

// Config describes a new engine.
type Config struct {
	Mesh *Mesh
	Up   []float32 // uplift, m/yr, one per node; nil for none
	Init []float32 // initial heights, m, one per node; nil for a flat start at 0
	// InitNoise adds seeded uniform noise in [0, InitNoise) metres to the
	// initial heights of all nodes but the outlets, so flat starts route
	// deterministically without ties.
	InitNoise float64
	Seed      uint64
	// Params are the grid engine's parameters. K, M, N, Dt, Kappa and
	// Talus are used; Edges and NaturalDist are ignored: the mesh's
	// outlets are base level.
	Params engine.Params
}

// Engine is the stream-graph stream-power engine of Cordonnier et al.
// 2016. One goroutine owns it; Heights, Receivers and DrainageArea return
// its own slices, valid until the next Step.
type Engine struct {
	m     *Mesh
	p     engine.Params
	step  int
	time  float64
	stats engine.StepStats
	err   error

	hgt, prev []float32
	up        []float32
	upField   *sim.Field // the raster up was sampled from (SetUpliftField), or nil
	rec       []int32    // receivers of the last step, pass arcs included
	prevRec   []int32
	area      []float64 // drainage area, node order

	// Stream trees (order.go).
	donOff     []int32 // the donors of node i are don[donOff[i]:donOff[i+1]], ascending
	don        []int32
	cross      [][]link  // per pair of blocks: donors of one block with receivers in the other
	roots      []int32   // the roots, ascending
	blockRoots [][]int32 // per node block: its roots
	blockLinks []int64   // per node block: its donor links
	bufs       [][]int32 // per worker: the trees it listed, each breadth-first
	segW       []int32   // per root: the worker whose buffer holds its tree
	segOff     []int32   // per root: the tree's offset in that buffer
	treeOff    []int32   // stack[treeOff[t]:treeOff[t+1]] is the tree of roots[t]
	sizes      []int32   // per root: its tree's size, scratch of chunks
	stack      []int32   // the trees in root order, each breadth-first: receivers first
	basin      []int32   // root of each node's stream tree (before carving)
	pos        []int32   // position of each node in stack

	// Lakes.
	lakeOf []int32 // lake of each node: 0 for outlet trees, 1..M for pits
	edges  []passEdge
	bedges [][]passEdge // per node block: its candidate passes
	adjOff []int32
	adj    []int32
	inTree []bool
	heap   passq.Queue
	lakes  int
	lk     []Lake  // the lakes of the last step, in the order T_L reached them
	lkIdx  []int32 // position in lk of each lake id, scratch
	lkOff  []int32 // the basin nodes of lk[k] are lkNode[lkOff[k]:lkOff[k+1]]
	lkNode []int32

	// Drainage-order layout.
	hs, ds []float32
	rp     []int32
	as     []float64
	us     []float32
	cs     []int32 // talus grid cell per position
	tcell  []int32 // talus grid cell per node
	tw, th int
	tsize  float64
	lim    *talus.Limiter

	// Hillslope diffusion (diffuse.go): the cotangent weights per Nbr
	// entry, computed on first use, and the solver's vectors.
	lapW []float64
	dif  diffScratch

	blockDh, blockMx []float64
	blockV           []float64 // per-block sums of volume
	blockCh          []int64
	clamped          []int     // per chunk: nodes the talus limit lowered
	dz               []float32 // per stack position: what the fused talus limit took, m

	// The lakes' water budget (Params.Rain > 0 or a rain map).
	wat     *water.Model
	win     water.Input
	rainMap []float32  // per node, m/yr
	rainFld *sim.Field // the raster rainMap was sampled from (SetRainField)
	watOK   bool

	ng nodeGeology // differential erosion (geology.go)

	// The soil terms (soil.go): k noise, sediment, creep.
	kn      []float32  // k's noise factor per node (Params.KNoise > 0), nil without
	knKey   [4]float64 // what kn was made for
	kOrigin float64    // offset of the node positions in the noise, m
	ksn     []float32  // k's noise factor in drainage order (no geology)
	hb      []float32  // drainage order: heights before the erosion (G > 0)
	dsrc    []float32  // drainage order: the deposition source G·Qs/(dt·A)
	depRate []float32  // per node: the source for the next step
	qs, out []float64  // drainage order: sediment reaching / leaving a node, m³
	lakeAt  []int32    // drainage order: the lake whose basin holds it, −1
	passOf  []int32    // drainage order: the lake it is the pass of, −1
	lvl     []float32  // per lake: level on the eroded heights
	vol     []float64  // per lake: volume below the level, m³
	trap    []float64  // per lake: sediment that reached it, m³
	frac    []float64  // per lake: the share of its volume it kept
	crp     creepScratch
	rnd     randomScratch // random hillslope routing (routing.go)

	// Progressive refinement (refine.go).
	sched      schedule
	stage      int // refinements done
	stageStart int // step count when the current nodes were made
}

// Lake is a closed depression of the last step's routing (Cordonnier et al.
// 2016, §4.3): a pit's stream tree, routed out through its pass.
type Lake struct {
	Pit     int32 // the bottom node (a root that is not an outlet)
	Pass    int32 // the pass node, inside the basin
	Outflow int32 // the node outside the basin the pass drains into
	Down    int32 // the lake it spills into (an earlier index), -1 for the outlets
}

// passEdge is a pass between lakes a and b: the neighbouring nodes ca (in
// a) and cb (in b), at pass height w = max(h_ca, h_cb).
type passEdge struct {
	a, b   int32
	ca, cb int32
	w      float32
}

// measureBlock is the number of nodes per block of the statistics loop.
const measureBlock = 1 << 14

// validate checks the parameters the graph engine uses.
func validate(p engine.Params) error {
	if err := (spl.Params{K: p.K, M: p.M, N: p.N, Dt: p.Dt}).Validate(); err != nil {
		return err
	}
	if err := (engine.Params{K: p.K, M: p.M, N: p.N, Dt: p.Dt, Kappa: p.Kappa, Talus: p.Talus, Rain: p.Rain, Evap: p.Evap,
		CreepSc: p.CreepSc, G: p.G, KNoise: p.KNoise, KNoiseWavelength: p.KNoiseWavelength,
		Routing: p.Routing, ChannelArea: p.ChannelArea}).Validate(); err != nil {
		return err
	}
	return p.Talus.Validate()
}

// New validates c and returns an engine at step 0.
func New(c Config) (*Engine, error) {
	m := c.Mesh
	if m == nil {
		return nil, errors.New("graph: no mesh: build one with NewMesh")
	}
	if math.IsNaN(c.InitNoise) || math.IsInf(c.InitNoise, 0) || c.InitNoise < 0 {
		return nil, fmt.Errorf("graph: initial noise %g m: must be finite and >= 0", c.InitNoise)
	}
	if err := validate(c.Params); err != nil {
		return nil, err
	}
	n := m.N
	e := &Engine{m: m, p: c.Params}
	e.hgt = make([]float32, n)
	e.prev = make([]float32, n)
	e.rec = make([]int32, n)
	e.prevRec = make([]int32, n)
	for i := range e.rec {
		e.rec[i] = int32(i)
		e.prevRec[i] = -1
	}
	e.area = make([]float64, n)
	copy(e.area, m.Area)
	if err := e.SetUplift(c.Up); err != nil {
		return nil, err
	}
	if c.Init != nil {
		if len(c.Init) != n {
			return nil, fmt.Errorf("graph: %d initial heights for %d nodes", len(c.Init), n)
		}
		if err := sim.CheckFinite("graph: initial heights", "node", c.Init); err != nil {
			return nil, err
		}
		copy(e.hgt, c.Init)
	}
	if c.InitNoise > 0 {
		rng := rand.New(rand.NewPCG(c.Seed, 0x6f726f67656e))
		for i := range e.hgt {
			r := rng.Float64()
			if !m.Outlet[i] {
				e.hgt[i] += float32(r * c.InitNoise)
			}
		}
	}
	e.stack = make([]int32, 0, n)
	e.basin = make([]int32, n)
	e.pos = make([]int32, n)
	e.lakeOf = make([]int32, n)
	e.hs = make([]float32, n)
	e.ds = make([]float32, n)
	e.rp = make([]int32, n)
	e.as = make([]float64, n)
	e.cs = make([]int32, n)
	// The talus noise field lives on a grid of about one node per cell.
	e.tsize = math.Sqrt(m.W * m.H / float64(n))
	e.tw = max(1, int(math.Ceil(m.W/e.tsize)))
	e.th = max(1, int(math.Ceil(m.H/e.tsize)))
	e.tcell = make([]int32, n)
	for i := range e.tcell {
		gx := min(int(m.X[i]/e.tsize), e.tw-1)
		gy := min(int(m.Y[i]/e.tsize), e.th-1)
		e.tcell[i] = int32(gy*e.tw + gx)
	}
	e.lim = e.p.Talus.Limiter(e.tw, e.th, e.tsize)
	return e, nil
}

// SetParams replaces the parameters from the next step on.
func (e *Engine) SetParams(p engine.Params) error {
	if err := validate(p); err != nil {
		return err
	}
	e.p = p
	e.crp.n = 0 // the creep's mean factor starts again
	e.lim = p.Talus.Limiter(e.tw, e.th, e.tsize)
	if e.wat != nil {
		return e.wat.SetParams(e.waterParams())
	}
	return nil
}

// Params returns the current parameters.
func (e *Engine) Params() engine.Params { return e.p }

// SetUplift replaces the uplift (m/yr, one per node; nil for none) from the
// next step on. The engine keeps its own copy.
func (e *Engine) SetUplift(u []float32) error {
	e.crp.n = 0 // the creep's mean factor starts again
	if u == nil {
		e.up = nil
		return nil
	}
	if len(u) != e.m.N {
		return fmt.Errorf("graph: %d uplift values for %d nodes", len(u), e.m.N)
	}
	if err := sim.CheckFinite("graph: uplift", "node", u); err != nil {
		return err
	}
	for i, v := range u {
		if math.Abs(float64(v)) > 1 {
			return fmt.Errorf("graph: uplift %g m/yr at node %d: absurd (|u| must be <= 1 m/yr)", v, i)
		}
	}
	e.up = append(e.up[:0], u...)
	if e.us == nil {
		e.us = make([]float32, e.m.N)
	}
	return nil
}

// Mesh returns the engine's mesh.
func (e *Engine) Mesh() *Mesh { return e.m }

// Heights returns the node heights, m. The caller must not modify them.
func (e *Engine) Heights() []float32 { return e.hgt }

// Receivers returns the receiver of every node in the last step, pass arcs
// included (rec[i] == i only for outlets); before the first step every node
// is its own receiver. The caller must not modify them.
func (e *Engine) Receivers() []int32 { return e.rec }

// Stack returns the drainage order of the last step: every node after its
// receiver. The caller must not modify it.
func (e *Engine) Stack() []int32 { return e.stack }

// DrainageArea returns the drainage area A_k of the last step in node
// order, m² (the rain areas a_k before the first step). The caller must not
// modify it.
func (e *Engine) DrainageArea() []float64 { return e.area }

// Stats returns the statistics of the last step.
func (e *Engine) Stats() engine.StepStats { return e.stats }

// Err returns why the engine stopped, or nil.
func (e *Engine) Err() error { return e.err }

// Converged reports whether the last step changed no height faster than tol
// m/yr and left every receiver as it was (Cordonnier et al. 2016, §5:
// "tracking changes in the topology of the stream graph is an accurate
// predictor"). While a refinement schedule has stages left (SetRefinement) it
// reports false.
func (e *Engine) Converged(tol float64) bool {
	return e.sched.stages == 0 && e.converged(tol)
}

// converged is Converged for the current nodes, whatever the schedule.
func (e *Engine) converged(tol float64) bool {
	return e.step > e.stageStart+1 && e.stats.MaxDh/e.p.Dt < tol && e.stats.RecvChanged == 0
}

// Step advances the terrain by one time step. After an error (see Err) it
// does nothing and returns the last statistics.
func (e *Engine) Step() engine.StepStats {
	if e.err != nil {
		return e.stats
	}
	t0 := time.Now()
	if e.refineDue() {
		if err := e.refineNow(); err != nil {
			e.err = fmt.Errorf("graph: refinement stage %d: %w", e.stage+1, err)
			return e.stats
		}
	}
	var st engine.StepStats
	// The rock account (engine.Mass): the volume before and after each
	// phase that changes heights. The stream power applies the uplift in
	// its implicit solve, so Eroded is the uplift less that solve's change.
	v0 := e.volume(e.hgt, false)
	mark := time.Now() // a refinement counts in Total only
	lap := func(ph engine.Phase) {
		now := time.Now()
		st.Phase[ph] += now.Sub(mark)
		mark = now
	}
	copy(e.prev, e.hgt)
	// With sediment the hillslope goes first, as on the grid, so that the
	// sediment account below sees only the stream power and the talus.
	sediment := e.p.G > 0
	vh := v0
	if sediment && e.p.Kappa > 0 {
		e.hillslope(e.hgt)
		vh = e.volume(e.hgt, false)
	}
	lap(engine.PhaseHillslope)
	// With random routing the receivers are chosen on the heights the
	// step starts from, not on what the creep made of them (see route),
	// as sim/grid's routeHeights does.
	hr := e.hgt
	if e.p.Routing == flow.RoutingRandom {
		hr = e.prev
	}
	e.route(hr)
	if e.p.Routing == flow.RoutingRandom {
		e.randomize(e.area, hr)
	}
	lap(engine.PhaseRouting)
	e.trees(true)
	lap(engine.PhaseStack)
	e.connectLakes()
	if e.lakes > 0 {
		e.trees(false) // the carved receivers: the outlets are the only roots
	}
	lap(engine.PhaseLakes)
	e.assemble()
	lap(engine.PhaseStack)
	e.layout()
	lap(engine.PhaseLayout)
	// From here on, chunks of whole trees run concurrently: a node's
	// result depends only on its tree, so not on the chunks.
	chunks := e.chunks(parallel.Workers())
	nc := len(chunks) - 1
	e.accumulate(chunks)
	lap(engine.PhaseArea)
	var us []float32
	if e.up != nil {
		us = e.us
	}
	sp := spl.Params{K: e.p.K, M: e.p.M, N: e.p.N, Dt: e.p.Dt, Hold: sediment}
	sp.KFactor = e.kFactors()
	if e.ng.geo != nil {
		lap(engine.PhaseGeology)
	}
	if us != nil {
		st.Mass.Uplift = e.upliftIn()
	}
	if sediment {
		// The uplift first (hb: the heights the erosion starts from),
		// then the erosion with the deposition source.
		src := e.sedimentPrep()
		e.upliftStacked()
		us = src
	}
	// The talus limit joins the erosion node by node, receivers first,
	// where nothing runs between them (no diffusion after the erosion):
	// each node erodes towards its receiver's final, limited height. Apart,
	// a limited receiver's unlimited height (uplifted by u·dt) fed its
	// donors, so the steady state moved with dt and the adaptive scheme's
	// long steps never settled (talusFused).
	fused := e.p.Talus.Mode != talus.ModeOff && (e.p.Kappa == 0 || sediment)
	if fused {
		e.clamped = sim.Resize(e.clamped, nc)
		e.dz = sim.Resize(e.dz, e.m.N)
		parallel.Do(nc, func(c int) {
			e.clamped[c] = e.erodeClamp(us, chunks[c], chunks[c+1], sp)
		})
	} else {
		parallel.Do(nc, func(c int) {
			spl.Erode(e.hs, e.rp, e.ds, e.as, us, chunks[c], chunks[c+1], sp)
		})
	}
	lap(engine.PhaseErosion)
	v1 := e.volume(e.hs, true)
	if fused {
		v1 += e.talusVolume()
	}
	v2 := v1
	if e.p.Kappa > 0 && !sediment {
		// Diffusion works in node order: through hgt and back.
		e.unstack(e.hgt, e.hs)
		e.hillslope(e.hgt)
		stack, hgt, hs := e.stack, e.hgt, e.hs
		parallel.Blocks(e.m.N, stackBlock, func(_, lo, hi int) {
			for k, i := range stack[lo:hi] {
				hs[lo+k] = hgt[i]
			}
		})
		v2 = e.volume(e.hgt, false)
	}
	lap(engine.PhaseHillslope)
	v3 := v2
	if fused {
		for _, v := range e.clamped {
			st.Clamped += v
		}
		v3 = e.volume(e.hs, true)
	} else if e.p.Talus.Mode != talus.ModeOff {
		e.clamped = sim.Resize(e.clamped, nc)
		parallel.Do(nc, func(c int) {
			if e.ng.geo != nil && e.ng.talFac != nil {
				e.clamped[c] = e.lim.ClampOrderedScaled(e.hs, e.rp, e.ds, e.cs, e.ng.ts, chunks[c], chunks[c+1])
				return
			}
			e.clamped[c] = e.lim.ClampOrdered(e.hs, e.rp, e.ds, e.cs, chunks[c], chunks[c+1])
		})
		for _, v := range e.clamped {
			st.Clamped += v
		}
		v3 = e.volume(e.hs, true)
	}
	lap(engine.PhaseTalus)
	if sediment {
		e.lakeLayout()
		parallel.Do(nc, func(c int) { e.depositChunk(chunks[c], chunks[c+1]) })
		e.fillLakes()
		st.Mass.SedimentOut = e.sedimentOut()
		st.Mass.Talus = v2 - v3
		lowered, raised := e.yields()
		st.Mass.Eroded, st.Mass.Deposited = lowered-st.Mass.Talus, raised
		lap(engine.PhaseDeposit)
	}
	stack, hgt, hs, area, as := e.stack, e.hgt, e.hs, e.area, e.as
	parallel.Blocks(e.m.N, stackBlock, func(_, lo, hi int) {
		for k, i := range stack[lo:hi] {
			hgt[i] = hs[lo+k]
			area[i] = as[lo+k]
		}
	})
	lap(engine.PhaseLayout)
	if e.ng.geo != nil || sediment {
		e.deposit()
		lap(engine.PhaseGeology)
	}
	v4 := e.volume(e.hgt, false)
	if sediment {
		st.Mass.Diffused, st.Mass.Stored = v0-vh, v4-v0
	} else {
		st.Mass.Eroded = v0 + st.Mass.Uplift - v1
		st.Mass.Diffused, st.Mass.Talus, st.Mass.Stored = v1-v2, v2-v3, v4-v0
	}
	e.measure(&st)
	if math.IsNaN(st.MeanDh) || math.IsInf(st.MeanDh, 0) {
		e.err = fmt.Errorf("graph: step %d produced non-finite heights: the parameters (k %g, m %g, n %g, dt %g) or the uplift are too extreme", e.step+1, e.p.K, e.p.M, e.p.N, e.p.Dt)
		copy(e.hgt, e.prev)
		st.Mass = engine.Mass{}
	}
	e.step++
	e.time += e.p.Dt
	st.Step, st.Time, st.Dt = e.step, e.time, e.p.Dt
	if e.p.Rain > 0 || e.rainMap != nil {
		// The lakes' water budget on the heights this step routed (prev);
		// it never changes them.
		mark = time.Now()
		if e.wat == nil {
			e.wat, _ = water.New(e.waterParams()) // validated with the Params
		}
		e.wat.Step(e.WaterInput(&e.win), e.p.Dt)
		e.watOK = true
		lap(engine.PhaseWater)
	} else {
		e.wat, e.watOK = nil, false
	}
	st.Lakes = e.lakes
	st.MaxDh2 = math.NaN()
	st.Total = time.Since(t0)
	e.stats = st
	return st
}

// route sets every node's receiver to its steepest downhill neighbour on
// heights h, slope (h_i − h_j)/|p_i − p_j| (Cordonnier et al. 2016, §4.2),
// but keeps the last step's receiver while it is downhill and nearly as
// steep (routeHold; flow.ChannelKeep for a node the random hillslope
// routing holds a channel, as the grid's flow.Graph.Route does); nodes
// with no lower neighbour and outlets are their own receivers. Ties go to
// the lowest index.
//
// A channel's rest height hangs on its receiver's by the rest slope times
// their distance, and the Poisson mesh's neighbours lie at distances that
// differ by tens of percent: where two downhill neighbours of a channel
// node lie near the heights at which they tie, the rest height the one
// gives makes the other the steeper, and with the one-step lag of the
// deposition rate the node alternated between them. Measured on the
// default preset at 512² with one node per 2 cells (131 072 nodes): a
// channel node of 8 and more channel areas switched receivers every few
// steps and the heights moved 30–40 m a step at step 1 000 with the 1 %
// hold alone (not settled in 4 000 steps); kept within 5 % it settled in
// 516 steps.
//
// With random routing Step passes the heights the step starts from, not
// what the creep (which goes first with sediment) made of them, as
// sim/grid's routeHeights does (with steepest descent everywhere the grid
// keeps the crept heights, whose Lie-split rest state is nearer the
// small-dt one; so does the graph). At κ·dt = 5 000 m² (the default
// preset's 0.02 m²/yr at 2.5·10⁵ yr) the creep fills an incised channel
// by tens of metres before the erosion takes it out again, so that on the
// crept heights a channel node's drops to its neighbours are a few metres
// and their order is the creep's, not the channel's: measured on the
// default preset at 512², seed 2, one node per 2 cells, a channel node on
// weak rock (kn 3.6) at rest 20 m above its receiver (slope 0.17) lay 1.2
// and 1.8 m above two neighbours after the creep, took the other (14 %
// steeper there, uphill of it at rest), rose 20 m on it, and went back two
// steps later: a three-step cycle of 20 m, for ever. On the step's own
// heights, which at rest are the rest state, the receivers are the
// steepest descent of the terrain the erosion holds at rest.
func (e *Engine) route(h []float32) {
	m, rec := e.m, e.rec
	outlet, nbrOff, nbr, invDist := m.Outlet, m.NbrOff, m.Nbr, m.invDist
	var channel []uint8 // random routing's channels: kept within flow.ChannelKeep
	if e.p.Routing == flow.RoutingRandom && len(e.rnd.hold) == m.N {
		channel = e.rnd.hold
	}
	parallel.Blocks(m.N, stackBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			r := int32(i)
			if !outlet[i] {
				hv := float64(h[i])
				best, kept, old := 0.0, -1.0, rec[i]
				hold := 1 - routeHold
				if channel != nil && channel[i] > 0 {
					hold = 1 - flow.ChannelKeep
				}
				for k := nbrOff[i]; k < nbrOff[i+1]; k++ {
					j := nbr[k]
					s := (hv - float64(h[j])) * invDist[k]
					if s > best {
						best, r = s, j
					}
					if j == old {
						kept = s
					}
				}
				if kept > 0 && kept >= hold*best {
					r = old
				}
			}
			rec[i] = r
		}
	})
}

// routeHold is the routing's hysteresis: a node keeps the last step's
// receiver while that is downhill and its slope within this share of the
// steepest. On the Poisson mesh two downhill neighbours often lie within
// a fraction of a percent of each other; a node between two such then
// flips from step to step, each choice moving drainage area and heights
// so that the other becomes the steeper (measured with creep on the
// default preset at 128²: slopes 0.01842 and 0.01841 one step, 0.01870
// and 0.01875 the next, forever), and the terrain never converges. A
// percent is below what the mesh resolves of a slope.
const routeHold = 0.01

// connectLakes joins every pit (a root that is not an outlet) to the tree
// of outlets through its lowest passes (Cordonnier et al. 2016, §4.3): the
// trees are lakes of the super graph G_L (all outlet trees are its node 0),
// every pair of neighbouring nodes in different lakes a candidate pass at
// height max(h_i, h_j). Prim's algorithm grows the tree of lakes T_L from
// node 0 taking the lowest candidate arc into a lake not yet reached, with a
// binary heap instead of the paper's red-black tree; each lake reached is
// carved so its water leaves through the pass (see carve).
func (e *Engine) connectLakes() {
	m, h := e.m, e.hgt
	// Number the lakes: outlet trees are 0, pits 1..M in root order.
	nl := int32(1)
	for _, i := range e.roots {
		if m.Outlet[i] {
			e.lakeOf[i] = 0
		} else {
			e.lakeOf[i] = nl
			nl++
		}
	}
	e.lakes = int(nl - 1)
	e.lk = e.lk[:0]
	if nl == 1 {
		e.lkOff = append(e.lkOff[:0], 0)
		e.lkNode = e.lkNode[:0]
		return
	}
	parallel.Blocks(m.N, measureBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if b := e.basin[i]; int(b) != i {
				e.lakeOf[i] = e.lakeOf[b]
			}
		}
	})
	// Candidate passes: every edge between two lakes, seen from its lower
	// index end, listed per block of nodes and joined in block order.
	e.bedges = sim.Resize(e.bedges, parallel.NumBlocks(m.N, measureBlock))
	parallel.Blocks(m.N, measureBlock, func(bk, lo, hi int) {
		ed := e.bedges[bk][:0]
		for i := lo; i < hi; i++ {
			a := e.lakeOf[i]
			for _, j := range m.Nbr[m.NbrOff[i]:m.NbrOff[i+1]] {
				if int(j) <= i {
					continue
				}
				b := e.lakeOf[j]
				if a == b {
					continue
				}
				ed = append(ed, passEdge{a: a, b: b, ca: int32(i), cb: j, w: max(h[i], h[j])})
			}
		}
		e.bedges[bk] = ed
	})
	e.edges = e.edges[:0]
	for _, ed := range e.bedges {
		e.edges = append(e.edges, ed...)
	}
	// Adjacency of G_L in CSR form.
	e.adjOff = sim.Resize(e.adjOff, int(nl)+1)
	clear(e.adjOff)
	for _, p := range e.edges {
		e.adjOff[p.a+1]++
		e.adjOff[p.b+1]++
	}
	for i := 1; i <= int(nl); i++ {
		e.adjOff[i] += e.adjOff[i-1]
	}
	e.adj = sim.Resize(e.adj, int(e.adjOff[nl]))
	fill := sim.Resize(e.rp, int(nl)) // borrowed as a cursor; layout rewrites rp
	copy(fill, e.adjOff[:nl])
	for k, p := range e.edges {
		e.adj[fill[p.a]] = int32(k)
		fill[p.a]++
		e.adj[fill[p.b]] = int32(k)
		fill[p.b]++
	}
	e.inTree = sim.Resize(e.inTree, int(nl))
	clear(e.inTree)
	e.heap = e.heap[:0]
	push := func(l int32) {
		for _, k := range e.adj[e.adjOff[l]:e.adjOff[l+1]] {
			p := &e.edges[k]
			other := p.a
			if other == l {
				other = p.b
			}
			if !e.inTree[other] {
				e.heap.Push(passq.Item{W: p.w, E: k})
			}
		}
	}
	e.lkIdx = sim.Resize(e.lkIdx, int(nl))
	e.lkIdx[0] = -1
	e.inTree[0] = true
	push(0)
	for len(e.heap) > 0 {
		p := e.edges[e.heap.Pop().E]
		x, from, to := p.a, p.ca, p.cb
		if e.inTree[x] {
			if e.inTree[p.b] {
				continue
			}
			x, from, to = p.b, p.cb, p.ca
		}
		e.inTree[x] = true
		e.lkIdx[x] = int32(len(e.lk))
		e.lk = append(e.lk, Lake{Pit: e.basin[from], Pass: from, Outflow: to, Down: e.lkIdx[e.lakeOf[to]]})
		e.carve(from, to)
		push(x)
	}
	e.basinNodes()
}

// basinNodes lists the nodes of every lake's basin (its pit's stream tree
// before carving) in CSR form, lakes in e.lk order, nodes ascending.
func (e *Engine) basinNodes() {
	nk := len(e.lk)
	e.lkOff = sim.Resize(e.lkOff, nk+1)
	clear(e.lkOff)
	for _, l := range e.lakeOf {
		if l > 0 {
			e.lkOff[e.lkIdx[l]+1]++
		}
	}
	for k := 1; k <= nk; k++ {
		e.lkOff[k] += e.lkOff[k-1]
	}
	e.lkNode = sim.Resize(e.lkNode, int(e.lkOff[nk]))
	fill := sim.Resize(e.rp, nk) // borrowed as a cursor; layout rewrites rp
	copy(fill, e.lkOff[:nk])
	for i, l := range e.lakeOf {
		if l > 0 {
			k := e.lkIdx[l]
			e.lkNode[fill[k]] = int32(i)
			fill[k]++
		}
	}
}

// Lakes returns the lakes of the last step, each after the lake it spills
// into. The caller must not modify them.
func (e *Engine) Lakes() []Lake { return e.lk }

// Basin returns the nodes of lake k's basin (the pit's stream tree before
// the lake was routed out), ascending. The caller must not modify them.
func (e *Engine) Basin(k int) []int32 { return e.lkNode[e.lkOff[k]:e.lkOff[k+1]] }

// Levels sets dst[k] to the water level of lake k measured on heights h
// (one per node) and returns dst: the spill over its pass,
// max(h[Pass], h[Outflow]), or the level of the lake it spills into when
// that is higher. On the heights the step routed, this is the pass height
// Prim's algorithm took; on the current heights (the step has since
// eroded and uplifted them) the lakes follow their passes, as sim/flow's
// Levels does on the grid.
func (e *Engine) Levels(dst, h []float32) []float32 {
	if len(h) != e.m.N {
		panic("graph: heights length differs from the node count")
	}
	dst = sim.Resize(dst, len(e.lk))
	for k, lk := range e.lk {
		dst[k] = max(h[lk.Pass], h[lk.Outflow])
		if lk.Down >= 0 {
			dst[k] = max(dst[k], dst[lk.Down])
		}
	}
	return dst
}

// WaterDepth sets dst[i] to the depth of lake water over node i, m (0
// where dry), with every basin of the last step filled to its level on the
// current heights (see Levels), and returns dst. Before the first step
// every node is dry.
func (e *Engine) WaterDepth(dst []float32) []float32 {
	return e.waterDepth(dst, e.hgt)
}

// waterDepth is WaterDepth on heights h.
func (e *Engine) waterDepth(dst, h []float32) []float32 {
	dst = sim.Resize(dst, e.m.N)
	clear(dst)
	levels := e.Levels(nil, h)
	for k, lvl := range levels {
		for _, i := range e.Basin(k) {
			if d := lvl - h[i]; d > 0 {
				dst[i] = d
			}
		}
	}
	return dst
}

// carve routes a lake out through its pass, as sim/flow does on the grid:
// the path of receivers from the pass node down to the lake's bottom is
// reversed, so the bottom drains up the path to the pass node, which drains
// into the neighbouring lake's node to. The arc of Cordonnier et al. 2016,
// Fig. 7 (bottom → pass) thus follows graph edges, and the path nodes take
// the lake's drainage area and erode the sill.
func (e *Engine) carve(from, to int32) {
	prev, c := to, from
	for {
		next := e.rec[c]
		e.rec[c] = prev
		if next == c {
			return
		}
		prev, c = c, next
	}
}

// layout copies heights, receiver positions, distances, rain areas, uplift
// and talus cells into drainage order.
func (e *Engine) layout() {
	m := e.m
	stack, rec, pos, hgt, tcell, up := e.stack, e.rec, e.pos, e.hgt, e.tcell, e.up
	rp, ds, hs, as, cs, us := e.rp, e.ds, e.hs, e.as, e.cs, e.us
	parallel.Blocks(m.N, stackBlock, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			i := stack[k]
			r := rec[i]
			rp[k] = pos[r]
			if r == i {
				ds[k] = 0
			} else {
				ds[k] = float32(m.Dist(int(i), int(r)))
			}
			hs[k] = hgt[i]
			as[k] = m.Area[i]
			cs[k] = tcell[i]
		}
		if up != nil {
			for k := lo; k < hi; k++ {
				us[k] = up[stack[k]]
			}
		}
	})
}

// unstack copies src, in drainage order, to dst in node order.
func (e *Engine) unstack(dst, src []float32) {
	parallel.Blocks(e.m.N, stackBlock, func(_, lo, hi int) {
		for k, i := range e.stack[lo:hi] {
			dst[i] = src[lo+k]
		}
	})
}

// accumulate sums the drainage areas from the leaves to the roots, in
// reverse stack order (Cordonnier et al. 2016, §5, A_k = a_k + Σ A_children),
// each chunk of whole trees on its own: a node's sum takes its donors in
// the same order whatever the chunks.
func (e *Engine) accumulate(chunks []int) {
	rp, as := e.rp, e.as
	parallel.Do(len(chunks)-1, func(c int) {
		lo := chunks[c]
		for k := chunks[c+1] - 1; k >= lo; k-- {
			if r := rp[k]; int(r) != k {
				as[r] += as[k]
			}
		}
	})
}

// volume returns Σ h·area over the nodes, m³: v in node order, or in
// drainage order when stacked. Partial sums per fixed block are added in
// block order: the same for any number of workers.
func (e *Engine) volume(v []float32, stacked bool) float64 {
	m, stack := e.m, e.stack
	return e.blockSum(func(lo, hi int) float64 {
		var s float64
		for k := lo; k < hi; k++ {
			i := k
			if stacked {
				i = int(stack[k])
			}
			s += float64(v[k]) * m.Area[i]
		}
		return s
	})
}

// upliftIn returns Σ u·Δt·area over the nodes the uplift raises (all but
// the fixed base level: roots at distance 0, see spl.Erode), m³.
func (e *Engine) upliftIn() float64 {
	m, stack, rp, ds, us, dt := e.m, e.stack, e.rp, e.ds, e.us, e.p.Dt
	return e.blockSum(func(lo, hi int) float64 {
		var s float64
		for k := lo; k < hi; k++ {
			if int(rp[k]) == k && ds[k] == 0 {
				continue
			}
			s += dt * float64(us[k]) * m.Area[stack[k]]
		}
		return s
	})
}

// blockSum adds fn over fixed blocks of the nodes in block order.
func (e *Engine) blockSum(fn func(lo, hi int) float64) float64 {
	n := e.m.N
	e.blockV = sim.Resize(e.blockV, parallel.NumBlocks(n, measureBlock))
	parallel.Blocks(n, measureBlock, func(b, lo, hi int) { e.blockV[b] = fn(lo, hi) })
	var s float64
	for _, x := range e.blockV {
		s += x
	}
	return s
}

// measure fills the height and receiver change statistics, with partial
// sums per fixed block merged in block order.
func (e *Engine) measure(st *engine.StepStats) {
	n := e.m.N
	nb := parallel.NumBlocks(n, measureBlock)
	e.blockDh = sim.Resize(e.blockDh, nb)
	e.blockMx = sim.Resize(e.blockMx, nb)
	e.blockCh = sim.Resize(e.blockCh, nb)
	parallel.Blocks(n, measureBlock, func(b, lo, hi int) {
		var sum, mx float64
		var ch int64
		for i := lo; i < hi; i++ {
			d := math.Abs(float64(e.hgt[i]) - float64(e.prev[i]))
			sum += d
			mx = max(mx, d)
			if e.rec[i] != e.prevRec[i] {
				ch++
			}
			e.prevRec[i] = e.rec[i]
		}
		e.blockDh[b], e.blockMx[b], e.blockCh[b] = sum, mx, ch
	})
	var sum, mx float64
	var ch int64
	for b := 0; b < nb; b++ {
		sum += e.blockDh[b]
		mx = max(mx, e.blockMx[b])
		ch += e.blockCh[b]
	}
	st.MaxDh = mx
	st.MeanDh = sum / float64(n)
	st.RecvChanged = float64(ch) / float64(n)
}

// waterParams are the water budget's parameters.
func (e *Engine) waterParams() water.Params {
	return water.Params{Rain: e.p.Rain, RainMap: e.rainMap, Evap: e.p.Evap}
}

// Water returns the lakes' water budget (on with Params.Rain > 0 or a rain
// map), or nil. Its lakes and stored water are indexed by node.
func (e *Engine) Water() *water.Model { return e.wat }

// BudgetDepth sets dst[i] to the depth of the water budget's lakes over
// node i, m, and returns dst; all zero when the budget is off or before the
// first step.
func (e *Engine) BudgetDepth(dst []float32) []float32 {
	if e.wat == nil || !e.watOK {
		dst = sim.Resize(dst, e.m.N)
		clear(dst)
		return dst
	}
	return e.wat.WaterDepth(dst, &e.win)
}

// Discharge sets dst[i] to the rain from upstream flowing through node i,
// m³/yr (Błaszczuk et al. 2023, Fig. 6), along the last step's receivers, and
// returns dst.
func (e *Engine) Discharge(dst []float64) []float64 {
	return water.Discharge(dst, e.stack, e.rec, e.m.Area, 0, e.waterParams())
}
