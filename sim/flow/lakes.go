package flow

import (
	"math"
	"slices"
	"sync/atomic"

	"orogen/sim"
	"orogen/sim/parallel"
	"orogen/sim/passq"
)

// ConnectLakes finds the passes between basins, grows the tree of basins
// from the outlets in increasing pass height and routes the bottom of every
// pit basin through its pass (Cordonnier et al. 2016, §4.3). h are the
// heights Route saw.
func (g *Graph) ConnectLakes(h []float32) {
	if !g.labelled {
		panic("flow: ConnectLakes after OrderTrees: it needs Order's labels")
	}
	nr := len(g.roots)
	g.node = sim.ResizeSpare(g.node, nr)
	g.pits = g.pits[:0]
	for t, r := range g.roots {
		if g.kind[r] == interior {
			g.pits = append(g.pits, int32(t))
			g.node[t] = int32(len(g.pits))
		} else {
			g.node[t] = 0
		}
	}
	np := len(g.pits)
	g.Lakes = g.Lakes[:0]
	g.path = g.path[:0]
	g.pathOff = append(g.pathOff[:0], 0)
	if np == 0 {
		return
	}
	g.findPasses(h)
	g.growTree()
	// The search's tables and the tree of basins' adjacency and queue are
	// not read again: Assemble's memory (docs/MEMORY.md).
	g.ReleaseSearch()
}

// findPasses lists, for every pit basin, the lowest pass to each basin next
// to it. It scans the grid row by row for pairs of neighbouring cells in
// different basins (at least one a pit) and keeps, per row block, the
// lowest pair for each two basins, first found on ties; then it buckets
// the blocks' passes by pit, in block order, and keeps the lowest per
// neighbour again. The passes of a pit are listed in the order their two
// basins were first found in row-major order, and ties keep the first pair
// in that order, so the list does not depend on the number of workers.
//
// Only the pairs' reduction per block is kept, never every pair: early in a
// run, when about every ninth cell of a noisy flat start is a pit, there
// are 1.2 pairs a cell and a third as many passes (docs/MEMORY.md).
func (g *Graph) findPasses(h []float32) {
	np := len(g.pits)
	hgt := g.H
	nb := parallel.NumBlocks(hgt, rowBlock)
	for len(g.blockEdges) < nb {
		g.blockEdges = append(g.blockEdges, nil)
	}
	workers := min(parallel.Workers(), nb)
	for len(g.tabs) < workers {
		g.tabs = append(g.tabs, pairTab{})
	}
	var next atomic.Int64
	parallel.Do(workers, func(wk int) {
		tab := &g.tabs[wk]
		for {
			b := int(next.Add(1) - 1)
			if b >= nb {
				return
			}
			g.blockEdges[b] = g.blockPasses(h, b*rowBlock, min(hgt, (b+1)*rowBlock), tab, g.blockEdges[b][:0])
		}
	})
	// Bucket the blocks' passes by pit, keeping block order in each bucket.
	g.candOff = sim.ResizeSpare(g.candOff, np+2)
	clear(g.candOff)
	total := 0
	for b := 0; b < nb; b++ {
		for _, e := range g.blockEdges[b] {
			g.candOff[e.a+1]++
		}
		total += len(g.blockEdges[b])
	}
	for p := 1; p <= np+1; p++ {
		g.candOff[p] += g.candOff[p-1]
	}
	g.edges = sim.ResizeSpare(g.edges, total)
	cur := sim.ResizeSpare(g.cursor, np+1)
	copy(cur, g.candOff[:np+1])
	g.cursor = cur
	for b := 0; b < nb; b++ {
		for _, e := range g.blockEdges[b] {
			g.edges[cur[e.a]] = e
			cur[e.a]++
		}
		// Bucketed: the block's list goes back before the tree of basins
		// takes its memory (docs/MEMORY.md).
		g.blockEdges[b] = nil
	}
	// Reduce each pit's bucket to its lowest pass per neighbour, in place
	// at the start of each worker's range of buckets, then close the gaps.
	g.weights = sim.ResizeSpare(g.weights, np)
	weights := g.weights
	for p := range weights {
		weights[p] = g.candOff[p+2] - g.candOff[p+1]
	}
	bounds := parallel.Split(weights, parallel.Workers())
	nw := len(bounds) - 1
	for len(g.tabs) < nw {
		g.tabs = append(g.tabs, pairTab{})
	}
	g.kept = sim.ResizeSpare(g.kept, nw)
	parallel.Do(nw, func(wk int) {
		tab := &g.tabs[wk]
		lo := g.candOff[bounds[wk]+1]
		n := lo
		for p := bounds[wk]; p < bounds[wk+1]; p++ {
			n = g.reducePit(g.candOff[p+1], g.candOff[p+2], n, tab)
		}
		g.kept[wk] = n - lo
	})
	n := int32(0)
	for wk := 0; wk < nw; wk++ {
		lo := g.candOff[bounds[wk]+1]
		n += int32(copy(g.edges[n:], g.edges[lo:lo+g.kept[wk]]))
	}
	g.edges = g.edges[:n]
}

// blockPasses appends to out the lowest pass between each two basins
// found in rows [y0, y1), in the order the pairs were first found, and
// returns it: the pairs of each row from west to east (E, then S, SW and
// SE of each cell), then its cells on a Natural edge.
func (g *Graph) blockPasses(h []float32, y0, y1 int, tab *pairTab, out []passEdge) []passEdge {
	w, hgt := g.W, g.H
	// Room for a pair a cell, about what a noisy flat start has: the table
	// rarely grows.
	tab.reset(w * (y1 - y0))
	// keep adds the pair of cells i (in pit node a) and j (in basin node
	// b, or outside for j < 0) over height wt, or lowers the pass kept.
	keep := func(a, b, i, j int32, wt float32) {
		s, ok := tab.find(uint64(uint32(a))<<32 | uint64(uint32(b)))
		if !ok {
			tab.put(s, uint64(uint32(a))<<32|uint64(uint32(b)), int32(len(out)))
			out = append(out, passEdge{a: a, b: b, ca: i, cb: j, w: wt})
			return
		}
		if e := &out[tab.vals[s]]; wt < e.w {
			e.ca, e.cb, e.w = i, j, wt
		}
	}
	emit := func(i, j int32) {
		ni, nj := g.node[g.Label[i]], g.node[g.Label[j]]
		if ni == 0 && nj == 0 {
			return
		}
		wt := max(h[i], h[j])
		if ni == 0 || (nj != 0 && nj < ni) {
			keep(nj, ni, j, i, wt)
			return
		}
		keep(ni, nj, i, j, wt)
	}
	for y := y0; y < y1; y++ {
		row := y * w
		lab := g.Label[row : row+w]
		for x := 0; x+1 < w; x++ {
			if lab[x+1] != lab[x] {
				emit(int32(row+x), int32(row+x+1))
			}
		}
		if y+1 < hgt {
			dn := g.Label[row+w : row+2*w]
			for x := 0; x < w; x++ {
				l := lab[x]
				if dn[x] != l {
					emit(int32(row+x), int32(row+w+x))
				}
				if x > 0 && dn[x-1] != l {
					emit(int32(row+x), int32(row+w+x-1))
				}
				if x+1 < w && dn[x+1] != l {
					emit(int32(row+x), int32(row+w+x+1))
				}
			}
		}
		// Natural edge cells of pit basins may spill out of the grid.
		for x := 0; x < w; x++ {
			if x > 0 && x < w-1 && y > 0 && y < hgt-1 {
				x = w - 2 // inner cells are never on an edge
				continue
			}
			i := int32(row + x)
			if a := g.node[lab[x]]; g.kind[i] == natural && a != 0 {
				keep(a, 0, i, -1, h[i]) // spill out of the grid over this cell
			}
		}
	}
	return out
}

// reducePit moves the passes of g.edges[lo:hi], one pit's bucket, to
// g.edges[n:], keeping the lowest per neighbouring basin (the first on
// ties) at the place of its first, and returns the new end. n <= lo.
func (g *Graph) reducePit(lo, hi, n int32, tab *pairTab) int32 {
	tab.reset(int(hi - lo))
	for k := lo; k < hi; k++ {
		e := g.edges[k]
		s, ok := tab.find(uint64(uint32(e.b)))
		if !ok {
			tab.put(s, uint64(uint32(e.b)), n)
			g.edges[n] = e
			n++
			continue
		}
		if kept := &g.edges[tab.vals[s]]; e.w < kept.w {
			kept.ca, kept.cb, kept.w = e.ca, e.cb, e.w
		}
	}
	return n
}

// pairTab is an open-addressing hash table from keys to int32 values,
// reused from block to block.
type pairTab struct {
	keys []uint64 // key+1; 0: empty
	vals []int32
	used int
	mask uint64
}

// reset empties the table and gives it room for about n keys without
// growing.
func (t *pairTab) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if len(t.keys) < size {
		t.keys = make([]uint64, size)
		t.vals = make([]int32, size)
	} else {
		t.keys = t.keys[:size]
		t.vals = t.vals[:size]
		clear(t.keys)
	}
	t.used = 0
	t.mask = uint64(size - 1)
}

// find returns the slot of key and whether it is there; if not, the slot
// is where put may store it.
func (t *pairTab) find(key uint64) (int, bool) {
	k := key + 1
	s := (k * 0x9e3779b97f4a7c15) >> 32 & t.mask
	for {
		switch t.keys[s] {
		case k:
			return int(s), true
		case 0:
			return int(s), false
		}
		s = (s + 1) & t.mask
	}
}

// put stores key with value v in slot s, which find returned empty.
func (t *pairTab) put(s int, key uint64, v int32) {
	t.keys[s] = key + 1
	t.vals[s] = v
	t.used++
	if 2*t.used > len(t.keys) {
		t.grow()
	}
}

// grow doubles the table, keeping its keys.
func (t *pairTab) grow() {
	keys, vals := t.keys, t.vals
	size := 2 * len(keys)
	t.keys, t.vals = make([]uint64, size), make([]int32, size)
	t.mask = uint64(size - 1)
	for i, k := range keys {
		if k != 0 {
			s, _ := t.find(k - 1)
			t.keys[s], t.vals[s] = k, vals[i]
		}
	}
}

// growTree runs Prim's algorithm from the outlet node 0 over the pass edges
// and routes each newly reached basin into the basin it was reached from.
func (g *Graph) growTree() {
	np := len(g.pits)
	nn := np + 1
	// Adjacency in CSR form.
	g.adjOff = sim.ResizeSpare(g.adjOff, nn+1)
	clear(g.adjOff)
	for _, e := range g.edges {
		g.adjOff[e.a+1]++
		g.adjOff[e.b+1]++
	}
	for i := 1; i <= nn; i++ {
		g.adjOff[i] += g.adjOff[i-1]
	}
	g.adj = sim.ResizeSpare(g.adj, int(g.adjOff[nn]))
	fill := sim.ResizeSpare(g.dest, nn) // borrowed as a cursor; Assemble resizes dest again
	copy(fill, g.adjOff[:nn])
	for ei, e := range g.edges {
		g.adj[fill[e.a]] = int32(ei)
		fill[e.a]++
		g.adj[fill[e.b]] = int32(ei)
		fill[e.b]++
	}
	g.inTree = sim.ResizeSpare(g.inTree, nn)
	clear(g.inTree)
	g.level = sim.ResizeSpare(g.level, nn)
	g.level[0] = float32(math.Inf(-1))
	g.nodeLake = sim.ResizeSpare(g.nodeLake, nn)
	g.nodeLake[0] = -1
	g.heap = g.heap[:0]
	push := func(n int32) {
		for _, ei := range g.adj[g.adjOff[n]:g.adjOff[n+1]] {
			e := &g.edges[ei]
			other := e.a
			if other == n {
				other = e.b
			}
			if !g.inTree[other] {
				g.heap.Push(passq.Item{W: e.w, E: ei})
			}
		}
	}
	g.inTree[0] = true
	push(0)
	for len(g.heap) > 0 {
		it := g.heap.Pop()
		e := g.edges[it.E]
		// e.a is always a pit; the tree may have reached either end first.
		x, from, to, parent := e.a, e.ca, e.cb, e.b
		if g.inTree[x] {
			if g.inTree[e.b] {
				continue
			}
			x, from, to, parent = e.b, e.cb, e.ca, e.a
		}
		g.inTree[x] = true
		t := g.pits[x-1]
		root := g.roots[t]
		lvl := max(e.w, g.level[parent])
		g.level[x] = lvl
		g.carve(from, to)
		g.pathOff = append(g.pathOff, int32(len(g.path)))
		g.nodeLake[x] = int32(len(g.Lakes))
		g.Lakes = append(g.Lakes, Lake{Root: root, Pass: from, Outflow: to, Spill: e.w, Level: lvl, Down: g.nodeLake[parent]})
		push(x)
	}
}

// carve routes a basin out through its pass: the path from the pass cell
// down to the basin's bottom is reversed, so the bottom drains up the path,
// the pass cell drains to (to, or out of a Natural edge when to < 0), and
// the sill on the path takes the whole basin's drainage area and erodes.
// The path cells are appended to g.path and marked in g.dir.
func (g *Graph) carve(from, to int32) {
	prev, c := to, from
	for {
		next := g.Rec[c]
		g.Pos[c] = int32(len(g.path) - int(g.pathOff[len(g.pathOff)-1]))
		g.path = append(g.path, c)
		g.dir[c] = onPath
		if prev < 0 {
			g.Rec[c], g.Dist[c] = c, float32(g.Natural)
		} else {
			g.Rec[c], g.Dist[c] = prev, g.stepLen(c, prev)
		}
		if next == c {
			return // the old bottom
		}
		prev, c = c, next
	}
}

// stepLen returns the distance between neighbouring cells a and b.
func (g *Graph) stepLen(a, b int32) float32 {
	w := int32(g.W)
	if a%w != b%w && a/w != b/w {
		return g.dlen[1]
	}
	return g.dlen[0]
}

// Assemble writes the final Stack: each outlet's tree followed by the basins
// that drain into it, every basin after the basin it spills into.
func (g *Graph) Assemble() { g.assemble(true) }

// AssembleTrees is Assemble without Pos, which it leaves stale, for a
// graph without lakes (after OrderTrees) whose user does not read Pos: a
// random write per cell, two thirds of Assemble's time at 1024² (2.1 ->
// 0.7 ms on one core). It panics if the graph has lakes.
func (g *Graph) AssembleTrees() {
	if len(g.Lakes) > 0 {
		panic("flow: AssembleTrees on a graph with lakes: carving them needs Pos")
	}
	g.assemble(false)
}

// assemble is Assemble, setting Pos if pos.
func (g *Graph) assemble(pos bool) {
	nr := len(g.roots)
	// Order let go of the last order; the pass search's scratch is gone.
	g.Stack = sim.Resize(g.Stack, g.W*g.H)
	g.RecPos = sim.Resize(g.RecPos, g.W*g.H)
	g.final = sim.ResizeSpare(g.final, nr)
	g.dest = sim.ResizeSpare(g.dest, nr)
	// Final trees: outlet roots in index order, then basins that spill out
	// of a natural edge, in the order they were connected.
	nf := 0
	for t, r := range g.roots {
		if g.Rec[r] == r && g.kind[r] != interior {
			g.final[t] = int32(nf)
			nf++
		}
	}
	g.lakeTree = sim.ResizeSpare(g.lakeTree, len(g.Lakes)) // root number of each lake
	lakeTree := g.lakeTree
	for li := range g.Lakes {
		lk := &g.Lakes[li]
		t := g.Label[lk.Root]
		lakeTree[li] = t
		if lk.Outflow < 0 {
			g.final[t] = int32(nf)
			nf++
		} else {
			g.final[t] = g.final[g.Label[lk.Outflow]]
		}
	}
	// Unreached pits (no outlet anywhere) stay roots of their own trees.
	g.reached = sim.ResizeSpare(g.reached, nr)
	reached := g.reached
	for t, r := range g.roots {
		reached[t] = g.kind[r] != interior
	}
	for _, t := range lakeTree {
		reached[t] = true
	}
	for t := range g.roots {
		if !reached[t] {
			g.final[t] = int32(nf)
			nf++
		}
	}
	g.Trees = sim.ResizeSpare(g.Trees, nf+1)
	clear(g.Trees)
	for t := range g.roots {
		g.Trees[g.final[t]+1] += g.segLen[t]
	}
	for f := 1; f <= nf; f++ {
		g.Trees[f] += g.Trees[f-1]
	}
	g.cursor = sim.ResizeSpare(g.cursor, nf)
	cursor := g.cursor
	copy(cursor, g.Trees[:nf])
	place := func(t int32) {
		f := g.final[t]
		g.dest[t] = cursor[f]
		cursor[f] += g.segLen[t]
	}
	for t, r := range g.roots {
		if g.kind[r] != interior || !reached[t] {
			place(int32(t))
		}
	}
	g.lakeOf = sim.ResizeSpare(g.lakeOf, nr)
	clear(g.lakeOf)
	for li, t := range lakeTree {
		place(t)
		g.Lakes[li].Start = g.dest[t]
		g.Lakes[li].Len = g.segLen[t]
		g.lakeOf[t] = int32(li + 1)
	}
	// A carved basin lists its path first, from the pass down to the old
	// bottom, then its other cells in their depth-first order, which keeps
	// every cell after its receiver. Receiver positions come from the
	// depth-first search, renumbered for carved basins; the pass cells'
	// receivers lie in other trees and are set once all are placed.
	parallel.Blocks(nr, 256, func(_, lo, hi int) {
		for t := lo; t < hi; t++ {
			off, n := g.segOff[t], g.segLen[t]
			src := g.bufs[g.segW[t]][off : off+n]
			par := g.pars[g.segW[t]][off : off+n]
			d := g.dest[t]
			dst := g.Stack[d : d+n]
			rp := g.RecPos[d : d+n]
			li := g.lakeOf[t]
			if li == 0 {
				copy(dst, src)
				for k := range src {
					rp[k] = d + par[k]
				}
				if pos {
					for k, i := range src {
						g.Pos[i] = d + int32(k)
					}
				}
				continue
			}
			// Every entry comes after its receiver's (par[k] < k), whose
			// Pos is then already its new position.
			next := g.pathOff[li] - g.pathOff[li-1]
			for k, i := range src {
				var nk int32
				if g.dir[i] == onPath {
					nk = g.Pos[i] // carve left the index on the path here
					if nk > 0 {
						rp[nk] = d + nk - 1
					}
				} else {
					nk = next
					next++
					rp[nk] = g.Pos[src[par[k]]]
				}
				dst[nk] = i
				g.Pos[i] = d + nk
			}
		}
	})
	for _, lk := range g.Lakes {
		if lk.Outflow < 0 {
			g.RecPos[lk.Start] = lk.Start
		} else {
			g.RecPos[lk.Start] = g.Pos[lk.Outflow]
		}
	}
}

// OrderedDist sets dst[k], for k in [lo, hi), to the distance from Stack[k]
// to its receiver, computed from the positions in Stack so that the grid
// arrays are touched only for roots. It returns dst.
func (g *Graph) OrderedDist(dst []float32, lo, hi int) []float32 {
	w := g.W
	tab := g.stepTab
	st, rp := g.Stack[:hi], g.RecPos[:hi]
	for k := lo; k < hi; k++ {
		i := st[k]
		v := tab[int(st[rp[k]]-i)+w+1]
		if v < 0 {
			v = g.Dist[i]
		}
		dst[k] = v
	}
	return dst
}

// GatherDist is OrderedDist that also gathers heights into drainage
// order, hs[k] = h[Stack[k]], in the same pass over the stack.
func (g *Graph) GatherDist(hs, h, dst []float32, lo, hi int) {
	w := g.W
	tab := g.stepTab
	st, rp := g.Stack[:hi], g.RecPos[:hi]
	hs, dst = hs[:hi], dst[:hi]
	for k := lo; k < hi; k++ {
		i := st[k]
		hs[k] = h[i]
		v := tab[int(st[rp[k]]-i)+w+1]
		if v < 0 {
			v = g.Dist[i]
		}
		dst[k] = v
	}
}

// Chunks splits the trees into at most workers contiguous ranges of about
// equal size and returns the stack boundaries: chunk c is
// Stack[b[c]:b[c+1]]. Trees never straddle chunks.
func (g *Graph) Chunks(workers int) []int32 {
	nf := len(g.Trees) - 1
	g.weights = sim.ResizeSpare(g.weights, nf)
	sizes := g.weights
	for f := 0; f < nf; f++ {
		sizes[f] = g.Trees[f+1] - g.Trees[f]
	}
	tb := parallel.Split(sizes, workers)
	b := make([]int32, len(tb))
	for i, t := range tb {
		b[i] = g.Trees[t]
	}
	return b
}

// AccumulateStack sets dst[k] to the drainage area of cell Stack[k]: its
// own area (cellArea, m²) plus the areas of all cells upstream. Working in
// stack order keeps memory access sequential. It returns dst.
func (g *Graph) AccumulateStack(dst []float64, cellArea float64) []float64 {
	dst = sim.Resize(dst, g.W*g.H)
	b := g.Chunks(parallel.Chunks(parallel.Workers()))
	parallel.Largest(b, func(c int) {
		lo, hi := b[c], b[c+1]
		seg := dst[lo:hi]
		for k := range seg {
			seg[k] = cellArea
		}
		// Two halves of whole trees at once, each in reverse order: the
		// additions of one do not wait for the other's. Every cell's
		// sum is added in the same order as by one walk.
		m := g.splitTrees(lo, hi)
		rp := g.RecPos[:hi]
		a, z := m-1, hi-1
		for ; a >= lo && z >= m; a, z = a-1, z-1 {
			if r := rp[a]; r != a {
				dst[r] += dst[a]
			}
			if r := rp[z]; r != z {
				dst[r] += dst[z]
			}
		}
		for ; a >= lo; a-- {
			if r := rp[a]; r != a {
				dst[r] += dst[a]
			}
		}
		for ; z >= m; z-- {
			if r := rp[z]; r != z {
				dst[r] += dst[z]
			}
		}
	})
	return dst
}

// SplitTrees returns the tree boundary in Stack[lo:hi] nearest its middle
// (lo when no boundary lies inside): [lo, m) and [m, hi) then hold whole
// trees, for walks that interleave two independent ranges. lo and hi must
// be tree boundaries.
func (g *Graph) SplitTrees(lo, hi int32) int32 { return g.splitTrees(lo, hi) }

func (g *Graph) splitTrees(lo, hi int32) int32 {
	trees := g.Trees
	mid := lo + (hi-lo)/2
	t, _ := slices.BinarySearch(trees, mid)
	m := lo
	if t < len(trees) && trees[t] <= hi && trees[t]-mid < mid-m {
		m = trees[t]
	}
	if t > 0 && trees[t-1] > lo && mid-trees[t-1] < abs32(m-mid) {
		m = trees[t-1]
	}
	return m
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

// Accumulate is AccumulateStack in grid order: dst[i] is the drainage
// area of cell i. It returns dst.
func (g *Graph) Accumulate(dst []float64, cellArea float64) []float64 {
	s := g.AccumulateStack(nil, cellArea)
	dst = sim.Resize(dst, g.W*g.H)
	for k, i := range g.Stack {
		dst[i] = s[k]
	}
	return dst
}

// Levels sets dst[k] to the water level of lake k on heights h and returns
// dst: its spill over its pass on h, or the level of the lake it spills
// into when that is higher. On the routed heights this is Lake.Level
// exactly; on heights a step has since raised or lowered, the lakes follow
// their passes. It only reads g.
func (g *Graph) Levels(dst, h []float32) []float32 {
	dst = sim.ResizeSpare(dst, len(g.Lakes))
	for k, lk := range g.Lakes {
		dst[k] = g.spill(lk, h)
		if lk.Down >= 0 {
			dst[k] = max(dst[k], dst[lk.Down])
		}
	}
	return dst
}

// spill is the height of lake lk's pass on h.
func (g *Graph) spill(lk Lake, h []float32) float32 {
	s := h[lk.Pass]
	if lk.Outflow >= 0 {
		s = max(s, h[lk.Outflow])
	}
	return s
}

// LakesOn returns a copy of the lakes with Spill and Level measured on
// heights h (see Levels).
func (g *Graph) LakesOn(h []float32) []Lake {
	out := append([]Lake(nil), g.Lakes...)
	levels := g.Levels(nil, h)
	for k := range out {
		out[k].Spill, out[k].Level = g.spill(out[k], h), levels[k]
	}
	return out
}

// WaterDepth sets dst[i] to the depth of lake water over cell i (0 where
// dry) given heights h, with the basins of the last routing filled to
// their Levels on h, and returns dst. It only reads g.
func (g *Graph) WaterDepth(dst, h []float32) []float32 {
	dst = sim.Resize(dst, g.W*g.H)
	clear(dst)
	levels := g.Levels(nil, h)
	parallel.Blocks(len(g.Lakes), 64, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			lk := &g.Lakes[k]
			lvl := levels[k]
			for _, i := range g.Stack[lk.Start : lk.Start+lk.Len] {
				if d := lvl - h[i]; d > 0 {
					dst[i] = d
				}
			}
		}
	})
	return dst
}
