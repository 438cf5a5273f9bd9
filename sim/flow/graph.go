package flow

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"orogen/sim"
	"orogen/sim/enum"
	"orogen/sim/parallel"
	"orogen/sim/passq"
)

// Boundary says what happens to water at one edge of the grid.
type Boundary uint8

const (
	Outlet  Boundary = iota // cells fixed at base level; water leaves
	Closed                  // no outflow
	Natural                 // virtual zero-height node at distance D (Błaszczuk et al. 2023, §III.B.5)
)

var boundaryNames = [...]string{Outlet: "outlet", Closed: "closed", Natural: "natural"}

func (b Boundary) String() string { return enum.Name(boundaryNames[:], b) }

// BoundaryNames lists the names ParseBoundary reads, in Boundary order.
func BoundaryNames() []string { return slices.Clone(boundaryNames[:]) }

// ParseBoundary parses "outlet", "closed" or "natural".
func ParseBoundary(s string) (Boundary, error) {
	b, err := enum.Parse[Boundary]("edge", boundaryNames[:], s)
	if err != nil {
		return 0, fmt.Errorf("flow: %w", err)
	}
	return b, nil
}

// Edges gives the boundary of each side of the grid.
type Edges struct{ North, South, East, West Boundary }

// AllClosed reports whether no edge lets water out.
func (e Edges) AllClosed() bool {
	return e.North == Closed && e.South == Closed && e.East == Closed && e.West == Closed
}

// onPath marks in dir the cells of a carved lake path.
const onPath = 9

// Cell kinds.
const (
	interior = iota // routes to a neighbour or is a pit
	fixed           // outlet on an Outlet edge: never moves
	natural         // on a Natural edge: drains out when it has no lower neighbour
)

// Lake is a basin rooted at a pit, connected to the rest of the network
// through its pass.
type Lake struct {
	Root    int32   // the pit (bottom) cell
	Pass    int32   // the pass cell inside this basin
	Outflow int32   // the cell the basin drains into, or -1 out of a Natural edge
	Spill   float32 // pass height: max(h[Pass], h[Outflow]), metres
	Level   float32 // water level: the highest spill on the way to the outlet
	Down    int32   // the lake the basin spills into (an earlier index), or -1 for an outlet
	Start   int32   // the basin's cells are Stack[Start : Start+Len]
	Len     int32
}

// Graph holds the flow structure of a W×H grid and the buffers to rebuild it.
// Call Route, then Order, then Lakes and Assemble in that order (Update does
// all four); Accumulate and WaterDepth read the result.
type Graph struct {
	W, H    int
	Cell    float64 // metres
	Edges   Edges
	Natural float64 // distance D to the virtual node of Natural edges, metres

	Rec    []int32   // receiver of each cell; Rec[i] == i for outlets
	Dist   []float32 // distance to the receiver, metres; for outlets 0 (fixed) or D (natural)
	Stack  []int32   // every cell once, after its receiver
	Pos    []int32   // Pos[i]: the position of cell i in Stack
	RecPos []int32   // RecPos[k]: the position in Stack of the receiver of Stack[k]
	Trees  []int32   // Stack[Trees[t]:Trees[t+1]] is the t-th independent tree
	Lakes  []Lake    // the basins of this routing, in the order they were connected
	Label  []int32   // the basin tree (pre-lake root number) of each cell (not set by OrderTrees)
	rdir   []uint8   // Randomize's last choice per cell (8: none)
	rhold  []uint8   // Randomize: calls left as a channel since the area last reached the threshold

	// PitLabels lets Order skip Label where the routing has no pit: the
	// labels are what ConnectLakes reads to find the passes out of pit
	// basins, and Assemble and WaterInput after it, so without a pit Order
	// leaves Label nil and WaterInput panics until the next Order. For a
	// user that reads Label only through ConnectLakes (the grid engine
	// without the water budget): the label is a random write per cell, a
	// sixth of the walk's time at 1024².
	PitLabels bool

	labelled bool // ConnectLakes may run: Label is the last Order's where it has pits (not OrderTrees')
	noLabels bool // Order skipped Label (PitLabels, no pit)

	kind    []uint8
	dir     []uint8 // D8 direction 0-7 of the receiver, 8 for none, onPath when carved
	donors  []uint8 // bit k set: neighbour k of the cell routes into it
	leaves  []uint8 // the donors' bits of those that have no donors, during Order's walk
	off     [8]int32
	offTab  [256][2]int32 // the offsets of a mask's first two directions, lowest first (0 past them)
	stepTab []float32     // see OrderedDist
	dlen    [8]float32

	roots  []int32    // pre-lake roots (outlets and pits) in index order
	segW   []uint16   // per root: worker buffer holding its tree
	segOff []int32    // per root: offset in that buffer
	segLen []int32    // per root: number of cells
	bufs   [][]int32  // per worker: the trees it listed, depth-first
	pars   [][]int32  // per worker: each entry's receiver, as a position in its tree
	stks   [][]uint64 // per worker: the depth-first walk's stack
	rowTmp [][]int32  // per row block roots
	rowLvs []int      // per row block: cells without donors
	walk   uint8      // tests: 1 Order walks by dfsWorker, 2 by dfsBranches, 0 as the leaves say

	node       []int32      // per root: 0 for outlets, 1..P for pits
	pits       []int32      // per pit node p (1-based, pits[p-1]): its root number
	blockEdges [][]passEdge // per row block: the lowest pass per pair of basins found in it
	candOff    []int32      // the passes of pit p are bucketed in edges[candOff[p]:candOff[p+1]]
	cursor     []int32
	edges      []passEdge // the lowest pass per pair of neighbouring basins, by pit
	tabs       []pairTab  // per worker: pairs of basins seen
	kept       []int32    // per worker: passes kept by the reduction
	adjOff     []int32
	adj        []int32
	heap       passq.Queue
	inTree     []bool
	level      []float32
	nodeLake   []int32 // per basin node: its lake's index, -1 for the outlet node
	final      []int32 // per root: final tree number
	weights    []int32 // scratch: work per pit, size per tree
	lakeTree   []int32
	reached    []bool
	lakeOf     []int32 // per root: 1 + its lake's number, 0 for outlets
	path       []int32 // carved paths of the lakes, pass first
	pathOff    []int32 // lake l's path is path[pathOff[l]:pathOff[l+1]]
	dest       []int32 // per root: destination offset in Stack
}

type passEdge struct {
	a, b   int32 // basin nodes, a is a pit
	ca, cb int32 // pass cells: ca in a, cb in b (-1 for the virtual outside)
	w      float32
}

// NewGraph returns a graph for a w×h grid of cells of the given size.
// natural is the distance D of Natural edges (0: the longer side of the grid).
func NewGraph(w, h int, cell float64, edges Edges, natural float64) *Graph {
	if w < 3 || h < 3 {
		panic(fmt.Sprintf("flow: grid %d×%d too small: need at least 3×3", w, h))
	}
	if int64(w)*int64(h) >= math.MaxInt32 {
		panic(fmt.Sprintf("flow: grid %d×%d too large", w, h))
	}
	if natural <= 0 {
		natural = float64(max(w, h)) * cell
	}
	n := w * h
	g := &Graph{
		W: w, H: h, Cell: cell, Edges: edges, Natural: natural,
		Rec: make([]int32, n), Dist: make([]float32, n),
		Label: make([]int32, n), kind: make([]uint8, n), donors: make([]uint8, n),
		dir: make([]uint8, n), Pos: make([]int32, n),
	}
	for i := range g.dir {
		g.dir[i] = 8 // no previous receiver
	}
	W := int32(w)
	g.off = [8]int32{1, W + 1, W, W - 1, -1, -W - 1, -W, -W + 1}
	for m := range g.offTab {
		t := dirTab[m]
		if m != 0 {
			g.offTab[m][0] = g.off[t&7]
		}
		if bits.OnesCount8(uint8(m)) > 1 {
			g.offTab[m][1] = g.off[t>>4&7]
		}
	}
	d, dd := float32(cell), float32(cell*math.Sqrt2)
	g.dlen = [8]float32{d, dd, d, dd, d, dd, d, dd}
	// stepTab[d+w+1] is the length of a step by d cells: orthogonal,
	// diagonal, or -1 for 0 (a root) and index gaps that are no step.
	g.stepTab = make([]float32, 2*w+3)
	for i := range g.stepTab {
		g.stepTab[i] = -1
	}
	for _, s := range []int{1, -1, w, -w} {
		g.stepTab[s+w+1] = g.dlen[0]
	}
	for _, s := range []int{w + 1, w - 1, -w + 1, -w - 1} {
		g.stepTab[s+w+1] = g.dlen[1]
	}
	g.setKinds()
	return g
}

// Neighbour offsets in the fixed order E, SE, S, SW, W, NW, N, NE.
var dxs = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
var dys = [8]int{0, 1, 1, 1, 0, -1, -1, -1}

func (g *Graph) setKinds() {
	kindOf := func(b Boundary) uint8 {
		switch b {
		case Outlet:
			return fixed
		case Natural:
			return natural
		}
		return interior
	}
	// Corners: Outlet wins over Natural over Closed.
	pick := func(a, b uint8) uint8 {
		if a == fixed || b == fixed {
			return fixed
		}
		if a == natural || b == natural {
			return natural
		}
		return interior
	}
	w, h := g.W, g.H
	n, s, e, wst := kindOf(g.Edges.North), kindOf(g.Edges.South), kindOf(g.Edges.East), kindOf(g.Edges.West)
	for x := 0; x < w; x++ {
		g.kind[x] = n
		g.kind[(h-1)*w+x] = s
	}
	for y := 0; y < h; y++ {
		g.kind[y*w] = wst
		g.kind[y*w+w-1] = e
	}
	g.kind[0] = pick(n, wst)
	g.kind[w-1] = pick(n, e)
	g.kind[(h-1)*w] = pick(s, wst)
	g.kind[(h-1)*w+w-1] = pick(s, e)
}

// Forget drops the receivers of the previous routing, so that the next
// Route picks the steepest neighbour of every cell, as the first Route of
// a new Graph does (no hysteresis).
func (g *Graph) Forget() {
	for i := range g.dir {
		g.dir[i] = 8
	}
}

// IsFixed reports whether cell i is held at base level (an Outlet edge cell).
func (g *Graph) IsFixed(i int) bool { return g.kind[i] == fixed }

// Update rebuilds receivers, lakes and the order from heights h.
func (g *Graph) Update(h []float32) {
	g.Route(h)
	g.Order()
	g.ConnectLakes(h)
	g.Assemble()
}

const rowBlock = 16 // rows per parallel block

// Route sets the steepest-descent receiver of every cell from heights h.
func (g *Graph) Route(h []float32) {
	if len(h) != g.W*g.H {
		panic(fmt.Sprintf("flow: %d heights for a %d×%d grid", len(h), g.W, g.H))
	}
	g.grow()
	parallel.Blocks(g.H, rowBlock, func(_, y0, y1 int) {
		for y := y0; y < y1; y++ {
			g.routeRow(h, y)
		}
	})
}

// Slopes are compared scaled by the cell size: drop for the 4 orthogonal
// neighbours, drop/√2 for the diagonals.
const invSqrt2 = float32(1 / math.Sqrt2)

func (g *Graph) routeRow(h []float32, y int) {
	w := g.W
	if y == 0 || y == g.H-1 {
		for x := 0; x < w; x++ {
			g.routeEdgeCell(h, x, y)
		}
		return
	}
	g.routeEdgeCell(h, 0, y)
	g.routeEdgeCell(h, w-1, y)
	row := y * w
	up := h[row-w : row]
	mid := h[row : row+w]
	dn := h[row+w : row+2*w]
	rec := g.Rec[row : row+w]
	dist := g.Dist[row : row+w]
	dir := g.dir[row : row+w]
	var offs [9]int32
	var lens [9]float32
	copy(offs[:], g.off[:])
	copy(lens[:], g.dlen[:])
	for x := 1; x < w-1; x++ {
		hi := mid[x]
		// Branch-free arg-max: a positive float's bits order like the
		// float, so key = bits(slope)<<4 | (7-k) picks the steepest
		// neighbour and, on ties, the first in the order E, SE, S, SW, W,
		// NW, N, NE. Slopes <= 0 give keys < 16: no receiver.
		// Keys are distinct, so the maximum is reduced pairwise: three
		// dependent steps instead of seven.
		k01 := maxKey(slopeKey(hi-mid[x+1], 0), slopeKey((hi-dn[x+1])*invSqrt2, 1))
		k23 := maxKey(slopeKey(hi-dn[x], 2), slopeKey((hi-dn[x-1])*invSqrt2, 3))
		k45 := maxKey(slopeKey(hi-mid[x-1], 4), slopeKey((hi-up[x-1])*invSqrt2, 5))
		k67 := maxKey(slopeKey(hi-up[x], 6), slopeKey((hi-up[x+1])*invSqrt2, 7))
		key := maxKey(maxKey(k01, k23), maxKey(k45, k67))
		bk := 7 - int(key&15)
		if key < 16 {
			bk = 8
		}
		if pd := int(dir[x]); pd != bk && pd < 8 {
			bk = g.keep(h, row+x, pd, bk, math.Float32frombits(uint32(key>>4)))
		}
		dir[x] = uint8(bk)
		rec[x] = int32(row+x) + offs[bk]
		dist[x] = lens[bk]
	}
}

// steepest returns the direction of the receiver of interior cell
// row+x (8: none) on heights h whose rows y−1, y and y+1 are up, mid and
// dn, its last direction pd (8: none) kept within Hysteresis: routeRow's
// work on one cell, which routeRow keeps inline (it is too large to
// inline, and Route calls it for every cell; RouteRandom only for the
// channels and pits).
func (g *Graph) steepest(h, up, mid, dn []float32, row, x, pd int) int {
	hi := mid[x]
	// The arg-max as routeRow's.
	k01 := maxKey(slopeKey(hi-mid[x+1], 0), slopeKey((hi-dn[x+1])*invSqrt2, 1))
	k23 := maxKey(slopeKey(hi-dn[x], 2), slopeKey((hi-dn[x-1])*invSqrt2, 3))
	k45 := maxKey(slopeKey(hi-mid[x-1], 4), slopeKey((hi-up[x-1])*invSqrt2, 5))
	k67 := maxKey(slopeKey(hi-up[x], 6), slopeKey((hi-up[x+1])*invSqrt2, 7))
	key := maxKey(maxKey(k01, k23), maxKey(k45, k67))
	bk := 7 - int(key&15)
	if key < 16 {
		bk = 8
	}
	if pd != bk && pd < 8 {
		bk = g.keep(h, row+x, pd, bk, math.Float32frombits(uint32(key>>4)))
	}
	return bk
}

// Hysteresis is how much steeper, relatively, a neighbour must be to take
// over from a cell's previous receiver. Without it, two receivers whose
// slopes tie to rounding swap at every step, and under the talus limit
// (which sets heights from the receiver) the swap becomes a two-step cycle
// that never converges.
const Hysteresis = 1e-3

// ChannelKeep is how much less steep, relatively, than the steepest
// neighbour the last receiver of a channel under random routing may be
// and stay its receiver (a cell Randomize holds a channel: Route keeps
// every other cell's within Hysteresis). A channel's rest height hangs
// on its receiver's by the rest slope times the distance, √2 longer to a
// diagonal neighbour; where a cardinal and a diagonal neighbour lie near
// the heights at which they tie, the rest height the one gives makes the
// other the steeper, and with the one-step lag of the deposition rate the
// channel alternated between them for ever: measured on the default
// preset at 512² (the receivers routed on the state, sim/grid), a channel
// of 544 cells between slopes 0.669 against 0.705 and 0.828 against
// 0.816, 16 m a step, while nothing else moved. Kept within 5 %, it
// settled. D8 resolves a flow's direction to 45°: a flow half way
// between two neighbours has cos 22.5° ≈ 0.92 of its slope towards
// either, so 5 % is below what the routing can tell.
const ChannelKeep = 0.05

// keepChannel is 1/(1 − ChannelKeep) in float32, as keep compares.
var keepChannel = float32(1 / (1 - ChannelKeep))

// keep returns the previous direction pd of cell i if its slope is still
// downhill and within Hysteresis of the steepest slope best (scaled like
// the keys: drop, or drop/√2 on diagonals), within ChannelKeep for a
// channel Randomize holds; otherwise bk.
func (g *Graph) keep(h []float32, i, pd, bk int, best float32) int {
	s := h[i] - h[i+int(g.off[pd])]
	if pd&1 == 1 {
		s *= invSqrt2
	}
	f := float32(1 + Hysteresis)
	if g.rhold != nil && g.rhold[i] > 0 {
		f = keepChannel
	}
	if s > 0 && best <= s*f {
		return pd
	}
	return bk
}

// maxKey is max without a branch (keys stay far from overflow).
func maxKey(a, b int64) int64 {
	d := a - b
	return a - (d & (d >> 63))
}

// slopeKey packs a slope and a direction into an integer whose order is the
// slope's, ties going to the lower direction.
func slopeKey(s float32, k int) int64 {
	return int64(int32(math.Float32bits(s)))<<4 | int64(7-k)
}

func (g *Graph) routeEdgeCell(h []float32, x, y int) {
	i := y*g.W + x
	switch g.kind[i] {
	case fixed:
		g.Rec[i], g.Dist[i], g.dir[i] = int32(i), 0, 8
		return
	}
	hi := h[i]
	best := float32(0)
	r := int32(i)
	bk := 8
	for k := 0; k < 8; k++ {
		nx, ny := x+dxs[k], y+dys[k]
		if nx < 0 || ny < 0 || nx >= g.W || ny >= g.H {
			continue
		}
		j := int32(i) + g.off[k]
		s := hi - h[j]
		if k&1 == 1 {
			s *= invSqrt2
		}
		if s > best {
			best, r, bk = s, j, k
		}
	}
	if pd := int(g.dir[i]); pd != bk && pd < 8 {
		nx, ny := x+dxs[pd], y+dys[pd]
		if nx >= 0 && ny >= 0 && nx < g.W && ny < g.H {
			if bk = g.keep(h, i, pd, bk, best); bk == pd {
				r = int32(i) + g.off[pd]
			}
		}
	}
	g.dir[i] = uint8(bk)
	g.Rec[i] = r
	switch {
	case r != int32(i):
		g.Dist[i] = g.dlen[bk]
	case g.kind[i] == natural:
		g.Dist[i] = float32(g.Natural)
	default:
		g.Dist[i] = 0
	}
}

// Order builds donor masks, finds the roots (outlets and pits) and lists each
// root's tree by depth-first search.
func (g *Graph) Order() { g.order(true) }

// OrderTrees is Order without setting Label, for users that connect no
// lakes: it forgets the lakes of an earlier ConnectLakes, so that
// Assemble lists every root's tree as a tree of its own, and
// ConnectLakes panics until the next Order. Label is a random write per
// cell, a sixth of the walk's time at 1024².
func (g *Graph) OrderTrees() {
	g.order(false)
	g.Lakes = g.Lakes[:0]
}

// order is Order, setting Label if labels.
func (g *Graph) order(labels bool) {
	g.labelled = labels
	// The last routing's order is not read again: Assemble makes the new
	// one once the pass search's scratch is gone (docs/MEMORY.md).
	g.Stack, g.RecPos = nil, nil
	w, hgt := g.W, g.H
	nb := parallel.NumBlocks(hgt, rowBlock)
	if len(g.rowTmp) < nb {
		g.rowTmp = make([][]int32, nb)
	}
	g.rowLvs = sim.Resize(g.rowLvs, nb)
	parallel.Blocks(hgt, rowBlock, func(b, y0, y1 int) {
		roots := g.rowTmp[b][:0]
		lvs := 0
		for y := y0; y < y1; y++ {
			g.donorRow(y)
			lvs += zeroBytes(g.donors[y*w : (y+1)*w])
			row := g.dir[y*w : (y+1)*w]
			for x, d := range row {
				if d == 8 {
					roots = append(roots, int32(y*w+x))
				}
			}
		}
		g.rowTmp[b], g.rowLvs[b] = roots, lvs
	})
	g.roots = g.roots[:0]
	lvs := 0
	for b := 0; b < nb; b++ {
		g.roots = append(g.roots, g.rowTmp[b]...)
		lvs += g.rowLvs[b]
	}
	nr := len(g.roots)
	g.noLabels = false
	if labels && g.PitLabels && !g.hasPit() {
		labels, g.noLabels = false, true
		g.Label = nil
	}
	if labels && len(g.Label) != w*hgt {
		g.Label = make([]int32, w*hgt)
	}
	g.segW = sim.ResizeSpare(g.segW, nr)
	g.segOff = sim.ResizeSpare(g.segOff, nr)
	g.segLen = sim.ResizeSpare(g.segLen, nr)

	workers := parallel.Workers()
	for len(g.bufs) < workers {
		// A fair share of the cells to start with: growing from nothing
		// by doubling leaves up to twice the lists behind as garbage.
		share := w*hgt/workers + 1024
		g.bufs = append(g.bufs, make([]int32, 0, share))
		g.pars = append(g.pars, make([]int32, 0, share))
		g.stks = append(g.stks, nil)
	}
	// Workers claim blocks of roots dynamically, so which buffer holds a tree
	// varies between runs, but every tree's contents and order depend only on
	// the routing.
	const rootBlock = 64
	var next atomic.Int64
	walkLabels := labels || g.noLabels // Order: dfsWorker or dfsBranches, with or without labels
	// dfsWorker where a quarter of the cells or more have no donors (the
	// presets' random routing: 42 % at 1024², donors of a cell of every
	// count), dfsBranches below (steepest descent on the classic physics:
	// 9 %, three cells in four with one donor, itself with donors): the
	// branches dfsWorker spares are mispredicted on the first and
	// predicted on the second, where its unconditional slots' stores cost
	// more (Order 21 -> 13 ms and 2.5 ms more). Both list the same order.
	masks := walkLabels && (4*lvs >= w*hgt || g.walk == 1) && g.walk != 2
	if masks {
		// The leaf masks, from every row's donors, for dfsWorker.
		g.leaves = make([]uint8, w*hgt)
		parallel.Blocks(hgt, rowBlock, func(_, y0, y1 int) {
			for y := y0; y < y1; y++ {
				g.leafRow(y)
			}
		})
	}
	parallel.Do(min(workers, parallel.NumBlocks(nr, rootBlock)), func(wk int) {
		switch {
		case masks:
			g.dfsWorker(wk, &next, rootBlock)
		case walkLabels:
			g.dfsBranches(wk, &next, rootBlock)
		default:
			g.dfsTrees(wk, &next, rootBlock)
		}
	})
	// The leaf masks go with the walk: Assemble, the routing's memory
	// peak, does not hold them (docs/MEMORY.md).
	g.leaves = nil
}

// hasPit reports whether a root of the last Order is a pit (an interior
// cell without a receiver).
func (g *Graph) hasPit() bool {
	for _, r := range g.roots {
		if g.kind[r] == interior {
			return true
		}
	}
	return false
}

// dfsWorker lists the trees of roots it claims in blocks of rootBlock
// from next, one after another, appending each tree depth-first to the
// worker's buffers: a node, then its donors that have none of their own
// (leaves, from the leaf masks) in direction order, then the subtrees of
// the others in reverse direction order (pushed in direction order).
// Both kinds are written from tables of the mask's first two offsets
// (offTab) and of its directions (dirTab) without a branch a donor: two
// slots each unconditionally, the ends moving by the counts, a loop only
// past two. The walk with a branch on each donor's count of donors
// (whether it is a leaf) and a loop over the donors (dfsBranches)
// mispredicted a good part of them on random routing's trees: 19 of the
// preset step's 127 ms at 1024² on one core. Interleaving several walks
// to overlap their loads was measured and did not help. The buffers keep
// room for nine more past their ends.
func (g *Graph) dfsWorker(wk int, next *atomic.Int64, rootBlock int) {
	nr := len(g.roots)
	buf, par, stk := g.bufs[wk], g.pars[wk], g.stks[wk]
	buf, par, stk = buf[:cap(buf)], par[:cap(par)], stk[:cap(stk)]
	label, donors, leaves, roots := g.Label, g.donors, g.leaves, g.roots
	labels := !g.noLabels // without, the walk is the same but for Label
	off, ot := g.off, &g.offTab
	segW, segOff, segLen := g.segW[:nr], g.segOff[:nr], g.segLen[:nr]
	n := 0 // cells listed
	for {
		lo := int(next.Add(int64(rootBlock))) - rootBlock
		if lo >= nr {
			break
		}
		for t := lo; t < min(nr, lo+rootBlock); t++ {
			start := n
			lt := int32(t)
			// Entries: cell | position of its receiver in the tree << 32.
			stk = grow(stk, 9)
			stk[0] = uint64(uint32(roots[t]))
			sp := 1
			for sp > 0 {
				sp--
				e := stk[sp]
				i := int32(uint32(e))
				if n+10 > len(buf) || sp+9 > len(stk) {
					buf, par, stk = grow(buf, n+10), grow(par, n+10), grow(stk, sp+9)
				}
				me := int32(n - start)
				buf[n], par[n] = i, int32(e>>32)
				n++
				lf := leaves[i]
				nl := donors[i] &^ lf
				// The leaves, listed now rather than pushed and popped.
				c, ol := bits.OnesCount8(lf), &ot[lf]
				b := buf[n : n+9 : n+9]
				p := par[n : n+9 : n+9]
				b[0], p[0] = i+ol[0], me
				b[1], p[1] = i+ol[1], me
				for k := 2; k < c; k++ {
					b[k], p[k] = i+off[dirTab[lf]>>(4*k)&7], me
				}
				if labels {
					// The two slots past the leaves hold i (offTab's
					// zeros): labelled as it is.
					label[i], label[b[0]], label[b[1]] = lt, lt, lt
					for k := 2; k < c; k++ {
						label[b[k]] = lt
					}
				}
				n += c
				// The others, pushed.
				c, on := bits.OnesCount8(nl), &ot[nl]
				s := stk[sp : sp+9 : sp+9]
				hi := uint64(me) << 32
				s[0] = uint64(uint32(i+on[0])) | hi
				s[1] = uint64(uint32(i+on[1])) | hi
				for k := 2; k < c; k++ {
					s[k] = uint64(uint32(i+off[dirTab[nl]>>(4*k)&7])) | hi
				}
				sp += c
			}
			segW[t] = uint16(wk)
			segOff[t] = int32(start)
			segLen[t] = int32(n - start)
		}
	}
	g.bufs[wk], g.pars[wk], g.stks[wk] = buf[:n], par[:n], stk[:0]
}

// dfsBranches is dfsWorker with a branch on each donor (whether it is a
// leaf) and a loop over a node's donors, for routings whose trees are
// mostly chains: there the branches are predicted, and it writes only
// what it lists. The order is dfsWorker's.
func (g *Graph) dfsBranches(wk int, next *atomic.Int64, rootBlock int) {
	nr := len(g.roots)
	buf, par, stk := g.bufs[wk][:0], g.pars[wk][:0], g.stks[wk][:0]
	label, donors, roots := g.Label, g.donors, g.roots
	labels := !g.noLabels // without, the walk is the same but for Label
	off := g.off
	segW, segOff, segLen := g.segW[:nr], g.segOff[:nr], g.segLen[:nr]
	for {
		lo := int(next.Add(int64(rootBlock))) - rootBlock
		if lo >= nr {
			break
		}
		for t := lo; t < min(nr, lo+rootBlock); t++ {
			start := len(buf)
			lt := int32(t)
			// Entries: cell | position of its receiver in the tree << 32.
			stk = append(stk[:0], uint64(uint32(roots[t])))
			for len(stk) > 0 {
				e := stk[len(stk)-1]
				stk = stk[:len(stk)-1]
				i := int32(uint32(e))
				if labels {
					label[i] = lt
				}
				me := int32(len(buf) - start)
				buf = append(buf, i)
				par = append(par, int32(e>>32))
				for m := donors[i]; m != 0; m &= m - 1 {
					j := i + off[bits.TrailingZeros8(m)&7]
					if donors[j] == 0 {
						// A leaf: list it now rather than push and pop it.
						if labels {
							label[j] = lt
						}
						buf = append(buf, j)
						par = append(par, me)
						continue
					}
					stk = append(stk, uint64(uint32(j))|uint64(me)<<32)
				}
			}
			segW[t] = uint16(wk)
			segOff[t] = int32(start)
			segLen[t] = int32(len(buf) - start)
		}
	}
	g.bufs[wk], g.pars[wk], g.stks[wk] = buf, par, stk
}

// dirTab lists the set bits of a donor mask, lowest first, 4 bits each
// (the direction in the low 3); the slots past them are 0.
var dirTab = func() (t [256]uint32) {
	for m := range t {
		s := 0
		for k := range 8 {
			if m>>k&1 == 1 {
				t[m] |= uint32(k) << (4 * s)
				s++
			}
		}
	}
	return t
}()

// dfsTrees is dfsWorker for OrderTrees: no labels, and a donor is
// written both to the list (a leaf, listed at once) and to the stack,
// only the end that takes it moving, so that the walk has no branch on
// whether a donor is a leaf: on Roudier's engine's tilted plane at
// 1024², OrderTrees 15.5 -> 11–12 ms on one core. On the default preset's
// terrain (the grid engine, with labels) it was slower than dfsWorker,
// 25.7–27.4 against 24.0–24.6 ms for Route and Order, so Order keeps
// dfsWorker. The order is dfsWorker's.
func (g *Graph) dfsTrees(wk int, next *atomic.Int64, rootBlock int) {
	nr := len(g.roots)
	// A node's donors are written both as listed and as pushed, and one
	// of the two ends advances, without a branch on which: the buffers
	// keep room for eight more past their ends.
	buf, par, stk := g.bufs[wk], g.pars[wk], g.stks[wk]
	buf, par, stk = buf[:cap(buf)], par[:cap(par)], stk[:cap(stk)]
	donors, roots := g.donors, g.roots
	off := g.off
	segW, segOff, segLen := g.segW[:nr], g.segOff[:nr], g.segLen[:nr]
	n := 0 // cells listed
	for {
		lo := int(next.Add(int64(rootBlock))) - rootBlock
		if lo >= nr {
			break
		}
		for t := lo; t < min(nr, lo+rootBlock); t++ {
			start := n
			// Entries: cell | position of its receiver in the tree << 32.
			stk = grow(stk, 1)
			stk[0] = uint64(uint32(roots[t]))
			sp := 1
			for sp > 0 {
				sp--
				e := stk[sp]
				i := int32(uint32(e))
				if n+9 > len(buf) || sp+8 > len(stk) {
					buf, par, stk = grow(buf, n+9), grow(par, n+9), grow(stk, sp+8)
				}
				me := int32(n - start)
				buf[n], par[n] = i, int32(e>>32)
				n++
				for m := donors[i]; m != 0; m &= m - 1 {
					j := i + off[bits.TrailingZeros8(m)&7]
					// A leaf is listed now rather than pushed and popped.
					leaf := b2i(donors[j] == 0)
					buf[n], par[n] = j, me
					stk[sp] = uint64(uint32(j)) | uint64(me)<<32
					n += leaf
					sp += 1 - leaf
				}
			}
			segW[t] = uint16(wk)
			segOff[t] = int32(start)
			segLen[t] = int32(n - start)
		}
	}
	g.bufs[wk], g.pars[wk], g.stks[wk] = buf[:n], par[:n], stk[:0]
}

// grow returns s, or a copy twice as long, at least need long.
func grow[T any](s []T, need int) []T {
	if need <= len(s) {
		return s
	}
	return append(s, make([]T, max(need, 2*len(s))-len(s))...)
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// donorBits compares the 8 directions dir[j:j+8] with d, byte by byte in
// one 64-bit word, and returns bit 7−sh of each byte set where they are
// equal: neighbour k = 7−sh of 8 cells drains into them when its
// direction is d = (k+4) mod 8.
func donorBits(dir []uint8, j int, d uint64, sh uint) uint64 {
	const ones, low7, high = 0x0101010101010101, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	e := binary.LittleEndian.Uint64(dir[j:j+8]) ^ (d * ones) // zero bytes where equal
	z := ^(((e & low7) + low7) | e) & high
	return z >> sh
}

// donorRow sets the donor masks of row y from the directions of its
// neighbours: neighbour k of cell i drains into i when its direction is
// the opposite of k, (k+4) mod 8. Inner cells are done 8 at a time with
// byte-wise comparisons in 64-bit words.
func (g *Graph) donorRow(y int) {
	w, hgt := g.W, g.H
	row := y * w
	scalar := func(x int) {
		i := row + x
		var m uint8
		for k := 0; k < 8; k++ {
			nx, ny := x+dxs[k], y+dys[k]
			if nx < 0 || ny < 0 || nx >= w || ny >= hgt {
				continue
			}
			if g.dir[int32(i)+g.off[k]] == uint8((k+4)&7) {
				m |= 1 << k
			}
		}
		g.donors[i] = m
	}
	if y == 0 || y == hgt-1 {
		for x := 0; x < w; x++ {
			scalar(x)
		}
		return
	}
	scalar(0)
	x := 1
	// The eight neighbours written out, their offsets in locals: the
	// loop over k reloaded g.off and g.dir and shifted twice, 36
	// instructions a cell by cachegrind (the whole row, 256²), this
	// loop 20 (30 with the scalar ends).
	dir, donors := g.dir, g.donors
	o0, o1, o2, o3 := int(g.off[0]), int(g.off[1]), int(g.off[2]), int(g.off[3])
	o4, o5, o6, o7 := int(g.off[4]), int(g.off[5]), int(g.off[6]), int(g.off[7])
	for ; x+8 <= w-1; x += 8 {
		b := row + x
		m := donorBits(dir, b+o0, 4, 7) | donorBits(dir, b+o1, 5, 6) |
			donorBits(dir, b+o2, 6, 5) | donorBits(dir, b+o3, 7, 4) |
			donorBits(dir, b+o4, 0, 3) | donorBits(dir, b+o5, 1, 2) |
			donorBits(dir, b+o6, 2, 1) | donorBits(dir, b+o7, 3, 0)
		binary.LittleEndian.PutUint64(donors[b:b+8], m)
	}
	for ; x < w; x++ {
		scalar(x)
	}
}

// nonzeroBits returns bit k of each byte of b[j:j+8] set where the byte is
// not zero.
func nonzeroBits(b []uint8, j int, k uint) uint64 {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	v := binary.LittleEndian.Uint64(b[j : j+8])
	z := (((v & low7) + low7) | v) & high // bit 7 of each byte not zero
	return z >> (7 - k)
}

// leafRow sets the leaf masks of row y from the donor masks of its cells
// and their neighbours: bit k of a cell's donors where neighbour k has no
// donors of its own. Inner cells are done 8 at a time.
func (g *Graph) leafRow(y int) {
	w, hgt := g.W, g.H
	row := y * w
	donors, leaves := g.donors, g.leaves
	scalar := func(x int) {
		i := row + x
		var l uint8
		for m := donors[i]; m != 0; m &= m - 1 {
			k := bits.TrailingZeros8(m)
			if donors[int32(i)+g.off[k]] == 0 {
				l |= 1 << k
			}
		}
		leaves[i] = l
	}
	if y == 0 || y == hgt-1 {
		for x := 0; x < w; x++ {
			scalar(x)
		}
		return
	}
	scalar(0)
	x := 1
	o0, o1, o2, o3 := int(g.off[0]), int(g.off[1]), int(g.off[2]), int(g.off[3])
	o4, o5, o6, o7 := int(g.off[4]), int(g.off[5]), int(g.off[6]), int(g.off[7])
	for ; x+8 <= w-1; x += 8 {
		b := row + x
		nz := nonzeroBits(donors, b+o0, 0) | nonzeroBits(donors, b+o1, 1) |
			nonzeroBits(donors, b+o2, 2) | nonzeroBits(donors, b+o3, 3) |
			nonzeroBits(donors, b+o4, 4) | nonzeroBits(donors, b+o5, 5) |
			nonzeroBits(donors, b+o6, 6) | nonzeroBits(donors, b+o7, 7)
		binary.LittleEndian.PutUint64(leaves[b:b+8], binary.LittleEndian.Uint64(donors[b:b+8])&^nz)
	}
	for ; x < w; x++ {
		scalar(x)
	}
}

// zeroBytes counts the zero bytes of b.
func zeroBytes(b []uint8) int {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	n, k := 0, 0
	for ; k+8 <= len(b); k += 8 {
		v := binary.LittleEndian.Uint64(b[k : k+8])
		n += 8 - bits.OnesCount64((((v&low7)+low7)|v)&high)
	}
	for _, v := range b[k:] {
		if v == 0 {
			n++
		}
	}
	return n
}
