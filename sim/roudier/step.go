package roudier

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"time"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/parallel"
)

// Budget is a step's (or a run's) account of rock and alluvium, m³, summed
// in float64 over fixed blocks of cells in a fixed order.
//
// RockRemoved is measured on the rock surface (uplift minus the change of
// the rock's volume), AlluviumStored on the alluvium thickness; Detritus,
// CreepOut and Dissolved are the fluxes the laws computed. Roudier et al.
// 1993's processes conserve matter, so RockRemoved = Detritus + CreepOut
// + Dissolved + AlluviumStored up to float64 rounding; Residual returns
// the difference.
type Budget struct {
	Uplift         float64 `json:"uplift_m3"`
	RockRemoved    float64 `json:"rock_removed_m3"`
	Detritus       float64 `json:"detritus_out_m3"` // detritus carried off the map (outlets)
	CreepOut       float64 `json:"creep_out_m3"`    // crept into fixed outlet cells
	Dissolved      float64 `json:"dissolved_m3"`
	AlluviumStored float64 `json:"alluvium_stored_m3"` // change of the alluvium's volume
}

// Residual returns RockRemoved − (Detritus + CreepOut + Dissolved +
// AlluviumStored), m³.
func (b Budget) Residual() float64 {
	return b.RockRemoved - (b.Detritus + b.CreepOut + b.Dissolved + b.AlluviumStored)
}

// Add returns the account of two runs one after the other.
func (b Budget) Add(o Budget) Budget {
	return Budget{Uplift: b.Uplift + o.Uplift, RockRemoved: b.RockRemoved + o.RockRemoved, Detritus: b.Detritus + o.Detritus,
		CreepOut: b.CreepOut + o.CreepOut, Dissolved: b.Dissolved + o.Dissolved, AlluviumStored: b.AlluviumStored + o.AlluviumStored}
}

// Mass is the budget as the engine contract's rock account: detritus out
// is Eroded, creep into the outlets Diffused (creep is the hillslope
// process), Stored the change of the terrain's volume.
func (b Budget) Mass() engine.Mass {
	return engine.Mass{Uplift: b.Uplift, Eroded: b.Detritus, Diffused: b.CreepOut, Dissolved: b.Dissolved,
		Stored: b.Uplift - b.RockRemoved + b.AlluviumStored, Alluvium: b.AlluviumStored}
}

// blockSums are the partial sums of one fixed block of cells.
type blockSums struct {
	dRock, dAlluv, up    float64
	sumDh, maxDh, maxDh2 float64
	bad                  int // first non-finite cell + 1, or 0
}

// treeSums are what one drainage tree sent off the map, m³.
// pitLoad is the detritus that reached the tree's pit, if its root is
// one, m³, which fill spreads over the pit's depression.
type treeSums struct{ out, cout, diss, pitLoad float64 }

// cell is a cell's state: its rock surface and alluvium thickness, m.
type cell struct{ rock, alluv float64 }

// cellCoef is what the sweep needs of a cell besides its heights, set
// before the sweep from the exposed rock and the slope tanθ to the
// receiver: the running water the cell's rain makes, q0, or q1 in a river
// bed (K_v = 0), m; Creep·K_d·tanθ, m; α·K_d·tanθ; γ·K_e·K_f;
// r·√(1 + tan²θ) (= r/cos φ).
type cellCoef struct {
	q0, q1, creep, wash, diss, capacity float32
}

// node is a cell during the sweep, in drainage order (node k is the cell
// at Stack[k]), so that the sweep reads and writes memory in order: its
// rock surface and alluvium, m (uplifted, then as the laws change them);
// what arrives from upstream: the running water (then, once the sweep
// reached the cell, the running water through it, Q), m, the detritus
// load, m³, and the lowest donor's height, m; its coefficients. A node
// is 64 bytes, a cache line; its kind is kept beside it (a byte more
// would make it 72 and spread nodes over two lines).
type node struct {
	rock, alluv float64
	q, s, low   float64
	cellCoef
}

// Kinds of cells in the sweep.
const (
	kindFlow      uint8 = iota // drains into a cell of the map
	kindFlowFixed              // drains into a fixed outlet cell
	kindOutlet                 // a root whose load leaves the map: a natural edge cell
	kindPit                    // a root inside the map
	kindFixed                  // a root whose load leaves the map: a fixed outlet cell
)

const (
	cellBlock = 1 << 14 // cells per block of the fixed-order sums
	rowBlock  = 16      // rows per block of the per-cell passes
)

// clock times the phases of a step; the benchmarks swap in a thread's
// CPU time.
var clock = time.Now

// Step runs one iteration: uplift, routing, then the laws from upstream
// to downstream (see the package doc).
func (e *Engine) Step() engine.StepStats {
	if e.err != nil {
		return e.stats
	}
	start := clock()
	var st engine.StepStats
	// The heights rotate: the current ones become prev1 (no copy), and
	// the buffer of the oldest takes the uplifted heights (stage), then
	// the new ones (measure).
	e.prev2, e.prev1, e.hgt = e.prev1, e.hgt, e.prev2
	t := clock()
	e.stage()
	staging := clock().Sub(t)
	routed := e.prev1
	if e.up != nil {
		routed = e.hgt // uplifted by stage
	}

	t = clock()
	e.g.Route(routed)
	st.Phase[engine.PhaseRouting] = clock().Sub(t)
	t = clock()
	e.g.OrderTrees()
	e.g.AssembleTrees() // Pos is not used
	e.routed = true
	st.Phase[engine.PhaseStack] = clock().Sub(t)

	clamped, pits, err := e.laws(&st) // sets the phases geology and erosion
	st.Phase[engine.PhaseGeology] += staging
	if err != nil {
		// The step did not happen: the rock and alluvium are untouched.
		e.err = err
		e.hgt, e.prev1, e.prev2 = e.prev1, e.prev2, e.hgt
		return e.stats
	}
	t = clock()
	e.fillPits()
	st.Phase[engine.PhaseLakes] = clock().Sub(t)

	t = clock()
	b := e.measure(&st)
	st.Phase[engine.PhaseLayout] = clock().Sub(t)

	e.step++
	e.time += e.p.Dt
	st.Step, st.Time, st.Dt = e.step, e.time, e.p.Dt
	st.Clamped = clamped
	st.Lakes = pits
	st.Mass = b.Mass()
	st.Total = clock().Sub(start)
	e.last = b
	e.total = e.total.Add(b)
	e.stats = st
	return st
}

// upliftAt is the uplift of cell i in a step, m.
func (e *Engine) upliftAt(i int) float64 {
	if e.up == nil || e.g.IsFixed(i) {
		return 0
	}
	return float64(e.up[i]) * e.p.Dt
}

// stage runs in grid order, before the routing, what needs only the
// cell: with an uplift, the uplifted rock and the heights the routing
// sees; with a geology model, the layer at the uplifted rock surface
// (cells with less than geology.MinAlluvium of alluvium). The uplifted
// state goes to cellsN, which prepare reads and the sweep then
// overwrites, cell by cell, in the same chunk. Reading memory in order
// here spares prepare, in drainage order, the uplift, the fixed cells
// and the geology's displacement of every cell. Without uplift or
// geology there is nothing to stage: prepare reads cells.
func (e *Engine) stage() {
	e.staged = e.up != nil || e.gmap != nil
	if !e.staged {
		return
	}
	n := len(e.cells)
	e.cellsN = sim.ResizeSpare(e.cellsN, n)
	if e.gmap != nil {
		e.layer = sim.ResizeSpare(e.layer, n)
	}
	parallel.Blocks(n, cellBlock, func(_, lo, hi int) {
		cells, cellsN := e.cells[lo:hi], e.cellsN[lo:hi]
		for k, c := range cells {
			i := lo + k
			c.rock += e.upliftAt(i)
			cellsN[k] = c
			if e.up != nil {
				e.hgt[i] = float32(c.rock + c.alluv)
			}
			if e.gmap != nil && c.alluv < geology.MinAlluvium {
				e.layer[i] = uint8(e.gmap.LayerAt(i, c.rock))
			}
		}
	})
}

// chunkCells is the size chunks of trees aim at: a chunk's nodes (72
// bytes each) stay in a core's cache from prepare to the sweep.
const chunkCells = 1 << 12

// badRock is a bad rock a lithology gave, at cell i.
type badRock struct {
	i   int
	err error
}

// chunkStats are what a chunk of trees counts, and the time prepare and
// the sweep took on it.
type chunkStats struct {
	clamped, pits int64
	prep, sweep   time.Duration
	bad           badRock
}

// laws runs prepare and the sweep (steps 3 and 4 of the package doc) on
// chunks of whole trees, each chunk's prepare right before its sweep, in
// a buffer of nodes of the worker's own, so that the nodes stay in the
// core's cache and never go to memory: chunks of about chunkCells cells,
// claimed as workers come free (a worker the OS holds back does not hold
// the others up). Results do not depend on the chunks: sums are per tree
// and a bad rock is the one of the lowest cell index. It sets the phases
// geology (prepare) and erosion (the sweep), splitting the wall time
// between them as their times add up over the chunks, and returns the
// cells whose lowering was clamped and the pits that received detritus.
func (e *Engine) laws(st *engine.StepStats) (clamped, pits int, err error) {
	t0 := clock()
	g := e.g
	nt := len(g.Trees) - 1
	n := len(e.cells)
	e.sizes = sim.ResizeSpare(e.sizes, nt)
	for t := range nt {
		e.sizes[t] = g.Trees[t+1] - g.Trees[t]
	}
	e.tb = parallel.Split(e.sizes, max(8*parallel.Workers(), n/chunkCells))
	nc := len(e.tb) - 1
	e.chunkS = sim.ResizeSpare(e.chunkS, nc)
	e.trees = sim.ResizeSpare(e.trees, nt)
	e.runoff = sim.ResizeSpare(e.runoff, n)
	e.cellsN = sim.ResizeSpare(e.cellsN, n)
	nw := min(parallel.Workers(), nc)
	for len(e.bufs) < nw {
		e.bufs = append(e.bufs, chunkBuf{})
	}
	// Every worker's buffer takes the largest chunk, so that buffers grow
	// only when chunks do, whichever worker a chunk falls to.
	var most int32
	for c := range nc {
		most = max(most, g.Trees[e.tb[c+1]]-g.Trees[e.tb[c]])
	}
	for w := range nw {
		e.bufs[w].nodes = sim.ResizeSpare(e.bufs[w].nodes, int(most))
		e.bufs[w].kinds = sim.ResizeSpare(e.bufs[w].kinds, int(most))
	}
	var next atomic.Int64
	parallel.Do(nw, func(w int) {
		for {
			c := int(next.Add(1) - 1)
			if c >= nc {
				return
			}
			lo, hi := g.Trees[e.tb[c]], g.Trees[e.tb[c+1]]
			b := &e.bufs[w]
			cs := &e.chunkS[c]
			t := clock()
			cs.bad = e.prepare(c, b)
			t1 := clock()
			cs.clamped, cs.pits = e.sweep(c, b.nodes[:hi-lo], b.kinds[:hi-lo])
			cs.prep, cs.sweep = t1.Sub(t), clock().Sub(t1)
		}
	})
	wall := clock().Sub(t0)
	var prep, sweep time.Duration
	first := badRock{i: -1}
	for _, cs := range e.chunkS[:nc] {
		clamped += int(cs.clamped)
		pits += int(cs.pits)
		prep += cs.prep
		sweep += cs.sweep
		if b := cs.bad; b.err != nil && (first.err == nil || b.i < first.i) {
			first = b
		}
	}
	if prep+sweep > 0 {
		st.Phase[engine.PhaseGeology] = time.Duration(float64(wall) * float64(prep) / float64(prep+sweep))
		st.Phase[engine.PhaseErosion] = wall - st.Phase[engine.PhaseGeology]
	}
	return clamped, pits, first.err
}

// prepare lays the uplifted state of chunk c's cells out in drainage
// order (nodes: node k-lo is the cell at Stack[k], lo the chunk's first
// position) and fills every node's coefficients from the exposed rock
// (alluvium where there is some, else the lithology at the rock surface),
// its slope to its receiver and its kind (kinds[k-lo]). K_v (§3.2) is set
// here on the heights of the routing but for the river-bed rule, which
// the sweep applies. Each node comes after its receiver (the drainage
// order), whose uplifted heights it reads from its node. It returns the
// bad rock of the lowest cell index the lithology gave, if any.
//
// It runs in two loops: the first copies the cells (alone in its loop, so
// that the processor has as many cells on their way from memory as it
// can; a lithology other than Strata or a geology model is asked for the
// rocks there too, into rocks), the second reads the nodes in order and
// sets their coefficients.
func (e *Engine) prepare(ch int, b *chunkBuf) badRock {
	g := e.g
	lo, hi := int(g.Trees[e.tb[ch]]), int(g.Trees[e.tb[ch+1]])
	st := g.Stack[lo:hi]
	nodes, kinds := b.nodes[:len(st)], b.kinds[:len(st)]
	var bad badRock
	cells := e.cells
	if e.staged {
		cells = e.cellsN
	}
	strata, layer, coef := e.strata, e.layer, e.layerCoef
	var rocks []geology.Rock
	switch {
	case e.gmap != nil:
		strata = nil
		for k, i := range st {
			nodes[k].rock, nodes[k].alluv = cells[i].rock, cells[i].alluv
		}
	case strata != nil:
		for k, i := range st {
			c := cells[i]
			nodes[k].rock, nodes[k].alluv = c.rock+0, c.alluv // +0: as the staged cells, -0 becomes +0
		}
	default:
		b.rocks = sim.ResizeSpare(b.rocks, len(st))
		rocks = b.rocks
		for k, i := range st {
			c := cells[i]
			c.rock += 0
			nodes[k].rock, nodes[k].alluv = c.rock, c.alluv
			if c.alluv < geology.MinAlluvium {
				x, y := int(i)%e.w, int(i)/e.w
				r := e.lith.RockAt((float64(x)+0.5)*e.cell, (float64(y)+0.5)*e.cell, c.rock)
				if !(r.Kd >= 0 && r.Kd <= 1 && r.Kf >= 0 && r.Kf <= 1 && r.Ke >= 0 && r.Ke <= 1) && (bad.err == nil || int(i) < bad.i) {
					bad = badRock{int(i), fmt.Errorf("roudier: the lithology gives cell (%d, %d) at %g m a bad rock: %w", x, y, c.rock, CheckRock(r))}
				}
				rocks[k] = r
			}
		}
	}

	p := e.rp
	rp := g.RecPos[lo:hi]
	dist := g.Dist
	// The distance to the receiver from the step between the indices
	// (the grid's arrays are read only for roots), as sim/flow sets it.
	w := int32(e.w)
	dtab := e.steps
	for k := range nodes {
		nd := &nodes[k]
		h := nd.rock + nd.alluv
		r := &geology.Alluvium
		if nd.alluv < geology.MinAlluvium {
			switch {
			case strata != nil:
				r = strata.rockAt(nd.rock)
			case coef != nil:
				r = &coef[layer[st[k]]] // staged
			default:
				r = &rocks[k]
			}
		}
		tn := 0.0
		switch j := int(rp[k]) - lo; {
		case j == k:
			i := int(st[k])
			switch {
			case g.IsFixed(i):
				kinds[k] = kindFixed
			case dist[i] > 0:
				kinds[k] = kindOutlet
			default:
				kinds[k] = kindPit
			}
		default:
			rn := &nodes[j]
			d := dtab[st[j]-st[k]+w+1]
			tn = max(0, (h-(rn.rock+rn.alluv))/float64(d))
			kinds[k] = kindFlow
			if kinds[j] == kindFixed {
				kinds[k] = kindFlowFixed
			}
		}
		kv := p.vegetation(tn, h)
		nd.q, nd.s, nd.low = 0, 0, math.Inf(1)
		nd.q0 = float32((1 - min(1, r.Kf+kv)) * p.Rain)
		nd.q1 = float32((1 - min(1, r.Kf)) * p.Rain)
		nd.creep = float32(p.Creep * r.Kd * tn)
		nd.wash = float32(p.Alpha * r.Kd * tn)
		nd.diss = float32(p.Gamma * r.Ke * r.Kf)
		nd.capacity = float32(p.Transport * math.Sqrt(1+tn*tn))
	}
	return bad
}

// chunkBuf is a worker's buffers for a chunk: the nodes, their kinds and,
// for a lithology other than Strata or a geology model, their rocks.
type chunkBuf struct {
	nodes []node
	kinds []uint8
	rocks []geology.Rock
}

// stepLengths returns the table of the distances between a cell and its
// neighbour on a grid w cells wide of cells cell metres: entry s+w+1 is
// the distance to the cell s indices away, as sim/flow sets Dist
// (orthogonal cell, diagonal cell·√2; 0 for other s).
func stepLengths(w int, cell float64) []float32 {
	t := make([]float32, 2*w+3)
	orth, diag := float32(cell), float32(cell*math.Sqrt2)
	for _, s := range []int{1, -1, w, -w} {
		t[s+w+1] = orth
	}
	for _, s := range []int{w + 1, w - 1, -w + 1, -w - 1} {
		t[s+w+1] = diag
	}
	return t
}

// sweep applies the laws to chunk c's trees, every node after all its
// donors (the reverse of the drainage order), and then writes the new
// state of the chunk's cells to cellsN. Trees are independent: a chunk
// writes only its own nodes and cells and its trees' sums. The chunk's
// trees are walked in two lanes at once (sim/flow's SplitTrees: two
// halves of whole trees, each from its last node to its first), so that
// the processor overlaps the two dependency chains: along a stream, a
// node waits for the running water, load and heights its donor has just
// left in it. Every node sees the same arithmetic in the same order as in
// one walk. It returns the cells whose lowering was clamped and the pits
// that received detritus.
func (e *Engine) sweep(c int, nodes []node, kinds []uint8) (nClamp, nPit int64) {
	g := e.g
	t0, t1 := e.tb[c], e.tb[c+1]
	lo, hi := g.Trees[t0], g.Trees[t1]
	m := g.SplitTrees(lo, hi)
	tm, _ := slices.BinarySearch(g.Trees[t0:t1+1], m)
	tm += t0
	p := e.rp
	s := sweeper{nodes: nodes, kinds: kinds, lo: int(lo), st: g.Stack, rp: g.RecPos, trees: g.Trees, sums: e.trees,
		runoff: e.runoff, river: p.RiverCells * p.Rain, a: e.area}
	la := lane{k: int(m) - 1, t: tm - 1}
	lb := lane{k: int(hi) - 1, t: t1 - 1}
	for la.k >= int(lo) && lb.k >= int(m) {
		s.apply(la.k, &la.sum)
		s.done(&la)
		s.apply(lb.k, &lb.sum)
		s.done(&lb)
	}
	for la.k >= int(lo) {
		s.apply(la.k, &la.sum)
		s.done(&la)
	}
	for lb.k >= int(m) {
		s.apply(lb.k, &lb.sum)
		s.done(&lb)
	}
	// The new state to the grid, in a loop of its own so that the
	// writes, scattered over the grid, do not hold the sweep up.
	cellsN := e.cellsN
	for k, i := range g.Stack[lo:hi] {
		cellsN[i] = cell{nodes[k].rock, nodes[k].alluv}
	}
	return s.clamped, s.pits
}

// sweeper is what the sweep of a chunk reads and writes.
type sweeper struct {
	nodes         []node // the chunk's nodes: node k-lo is the cell at Stack[k]
	kinds         []uint8
	lo            int
	st, rp, trees []int32
	sums          []treeSums
	runoff        []float32
	river, a      float64 // the running water of a river bed, m; the cell area, m²
	clamped, pits int64
}

// lane is a walk over whole trees, backwards: its next node k, the tree
// t it is in, and that tree's sums so far.
type lane struct {
	k, t int
	sum  treeSums
}

// done moves lane l on from the node it has just done, keeping the sums
// of its tree if that was the tree's first node.
func (s *sweeper) done(l *lane) {
	if int32(l.k) == s.trees[l.t] {
		s.sums[l.t] = l.sum
		l.sum = treeSums{}
		l.t--
	}
	l.k--
}

// apply applies the laws to node k, adding to its tree's sums.
func (s *sweeper) apply(k int, sum *treeSums) {
	nd := &s.nodes[k-s.lo]
	qUp, load := nd.q, nd.s
	kind := s.kinds[k-s.lo]
	switch kind {
	case kindOutlet, kindFixed:
		s.runoff[k] = float32(qUp)
		sum.out += load
		return
	case kindPit:
		s.runoff[k] = float32(qUp)
		// No erosion; all the detritus settles (Roudier et al. 1993: low
		// points get "only alluvial deposition"), spread over the
		// depression by fill once every tree is done.
		if load > 0 {
			sum.pitLoad = load
			s.pits++
		}
		return
	}
	a := s.a
	r := &s.nodes[int(s.rp[k])-s.lo]
	// The node's heights in locals: the compiler cannot keep them in
	// registers through the writes to r, which might be the same node.
	rock, alluv := nd.rock, nd.alluv
	// The cell's running water; none of it held by vegetation in a river
	// bed (§3.2).
	q := float64(nd.q0)
	if qUp > 0 && qUp >= s.river {
		q = float64(nd.q1)
	}
	Q := qUp + q
	// Gravity creep, at most half the drop, so that the cell stays above
	// its receiver.
	hi0 := rock + alluv
	drop := max(0, hi0-r.rock-r.alluv)
	zg := min(float64(nd.creep), drop/2)
	// Running water and dissolution, at most the drop left.
	zw := float64(nd.wash) * Q
	zc := float64(nd.diss) * q
	fixed := kind == kindFlowFixed
	room := drop - 2*zg
	if fixed {
		room = drop - zg
	}
	if zw+zc > room {
		f := max(0, room) / (zw + zc)
		zw, zc = zw*f, zc*f
		s.clamped++
	}
	if zg > 0 {
		var fromAlluv float64
		rock, alluv, fromAlluv = take(rock, alluv, zg)
		if fixed {
			sum.cout += zg * a
		} else {
			r.alluv += fromAlluv
			r.rock += zg - fromAlluv
		}
	}
	rock, alluv, _ = take(rock, alluv, zw+zc)
	load += zw * a
	sum.diss += zc * a
	// Deposition when the load exceeds the capacity C = r·Q/cos φ: the
	// paper's h_s = C, but never more than the excess, nor above the
	// lowest donor.
	capacity := float64(nd.capacity) * Q * a
	hNow := rock + alluv
	if low := nd.low; load > capacity && low > hNow && !math.IsInf(low, 1) {
		dep := min(load-capacity, capacity, (low-hNow)*a)
		alluv += dep / a
		load -= dep
		hNow = rock + alluv
	}
	s.runoff[k] = float32(Q)
	r.q += Q
	r.s += load
	r.low = min(r.low, hNow)
	nd.rock, nd.alluv = rock, alluv
}

// take lowers a cell of rock surface rock and alluvium alluv by d metres,
// alluvium first, and returns its new heights and how much of d was
// alluvium.
func take(rock, alluv, d float64) (float64, float64, float64) {
	fa := min(alluv, d)
	return rock - (d - fa), alluv - fa, fa
}

// measure makes the new state the current one, refreshes the heights and
// fills the height statistics and the step's budget, from fixed blocks of
// cells and the trees in order, so the figures do not depend on the
// number of workers.
func (e *Engine) measure(st *engine.StepStats) Budget {
	n := len(e.cells)
	nb := parallel.NumBlocks(n, cellBlock)
	if len(e.blocks) < nb {
		e.blocks = make([]blockSums, nb)
	}
	cells, cellsN := e.cells, e.cellsN
	parallel.Blocks(n, cellBlock, func(b, lo, hi int) {
		var s blockSums
		if e.up != nil {
			for i := lo; i < hi; i++ {
				s.up += e.upliftAt(i)
			}
		}
		cells, cellsN := cells[lo:hi], cellsN[lo:hi]
		hgt, prev1, prev2 := e.hgt[lo:hi], e.prev1[lo:hi], e.prev2[lo:hi]
		for k, cn := range cellsN {
			c := cells[k]
			s.dRock += cn.rock - c.rock
			s.dAlluv += cn.alluv - c.alluv
			h := cn.rock + cn.alluv
			if !(math.Abs(h) <= math.MaxFloat32) { // NaN, infinite or beyond float32
				if s.bad == 0 {
					s.bad = lo + k + 1
				}
				hgt[k] = prev1[k] // the last good height
				continue
			}
			hgt[k] = float32(h)
			d := math.Abs(float64(hgt[k]) - float64(prev1[k]))
			s.sumDh += d
			// Not max, whose handling of NaN and signed zeros chains
			// every cell to the last: heights are finite, d >= +0.
			if d > s.maxDh {
				s.maxDh = d
			}
			if d2 := math.Abs(float64(hgt[k]) - float64(prev2[k])); d2 > s.maxDh2 {
				s.maxDh2 = d2
			}
		}
		e.blocks[b] = s
	})
	var t blockSums
	for _, s := range e.blocks[:nb] {
		t.dRock += s.dRock
		t.dAlluv += s.dAlluv
		t.up += s.up
		t.sumDh += s.sumDh
		t.maxDh = max(t.maxDh, s.maxDh)
		t.maxDh2 = max(t.maxDh2, s.maxDh2)
		if t.bad == 0 {
			t.bad = s.bad
		}
	}
	e.cells, e.cellsN = e.cellsN, e.cells
	var ts treeSums
	ts.out = e.spilled
	for _, s := range e.trees {
		ts.out += s.out
		ts.cout += s.cout
		ts.diss += s.diss
	}
	if t.bad != 0 {
		i := t.bad - 1
		e.err = fmt.Errorf("roudier: step %d: height %g at cell (%d, %d) is not finite: lower the coefficients", e.step+1, e.cells[i].rock+e.cells[i].alluv, i%e.w, i/e.w)
	}
	st.MaxDh, st.MaxDh2, st.MeanDh = t.maxDh, t.maxDh2, t.sumDh/float64(n)
	if e.step == 0 {
		st.MaxDh2 = math.NaN()
	}
	a := e.area
	return Budget{
		Uplift:         t.up * a,
		RockRemoved:    (t.up - t.dRock) * a,
		Detritus:       ts.out,
		CreepOut:       ts.cout,
		Dissolved:      ts.diss,
		AlluviumStored: t.dAlluv * a,
	}
}
