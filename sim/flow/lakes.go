package flow

import (
	"math"

	"orogen/sim/parallel"
)

// ConnectLakes finds the passes between basins, grows the tree of basins
// from the outlets in increasing pass height and routes the bottom of every
// pit basin through its pass (000 §4.3). h are the heights Route saw.
func (g *Graph) ConnectLakes(h []float32) {
	nr := len(g.roots)
	g.node = resize(g.node, nr)
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
	if np == 0 {
		return
	}
	g.findPasses(h)
	g.growTree()
}

// findPasses lists, for every pit basin, the lowest pass to each basin next
// to it. Pits are split among workers in contiguous ranges and the edge
// lists are joined in pit order, so the list does not depend on the number
// of workers.
func (g *Graph) findPasses(h []float32) {
	np := len(g.pits)
	weights := make([]int32, np)
	for p, t := range g.pits {
		weights[p] = g.segLen[t]
	}
	bounds := parallel.Split(weights, parallel.Workers())
	nw := len(bounds) - 1
	for len(g.scratch) < nw {
		g.scratch = append(g.scratch, pitScratch{})
	}
	for len(g.wEdges) < nw {
		g.wEdges = append(g.wEdges, nil)
	}
	parallel.Do(nw, func(wk int) {
		sc := &g.scratch[wk]
		if len(sc.best) < np+1 {
			sc.best = make([]float32, np+1)
			sc.bestA = make([]int32, np+1)
			sc.bestB = make([]int32, np+1)
			for i := range sc.best {
				sc.best[i] = float32(math.Inf(1))
			}
		}
		out := g.wEdges[wk][:0]
		for p := bounds[wk]; p < bounds[wk+1]; p++ {
			out = g.scanPit(h, p, sc, out)
		}
		g.wEdges[wk] = out
	})
	g.edges = g.edges[:0]
	for wk := 0; wk < nw; wk++ {
		g.edges = append(g.edges, g.wEdges[wk]...)
	}
}

func (g *Graph) scanPit(h []float32, p int, sc *pitScratch, out []passEdge) []passEdge {
	t := g.pits[p]
	self := int32(p + 1)
	seg := g.bufs[g.segW[t]][g.segOff[t] : g.segOff[t]+g.segLen[t]]
	w, hgt := g.W, g.H
	inf := float32(math.Inf(1))
	consider := func(c int32, wgt float32, a, b int32) {
		if sc.best[c] == inf {
			sc.touched = append(sc.touched, c)
		}
		if wgt < sc.best[c] {
			sc.best[c], sc.bestA[c], sc.bestB[c] = wgt, a, b
		}
	}
	for _, i := range seg {
		x, y := int(i)%w, int(i)/w
		hi := h[i]
		inner := x > 0 && y > 0 && x < w-1 && y < hgt-1
		if !inner && g.kind[i] == natural {
			consider(0, hi, i, -1) // spill out of the grid here
		}
		for k := 0; k < 8; k++ {
			if !inner {
				nx, ny := x+dxs[k], y+dys[k]
				if nx < 0 || ny < 0 || nx >= w || ny >= hgt {
					continue
				}
			}
			j := i + g.off[k]
			lj := g.Label[j]
			if lj == t {
				continue
			}
			consider(g.node[lj], max(hi, h[j]), i, j)
		}
	}
	for _, c := range sc.touched {
		if c == 0 || c > self {
			out = append(out, passEdge{a: self, b: c, ca: sc.bestA[c], cb: sc.bestB[c], w: sc.best[c]})
		}
		sc.best[c] = inf
	}
	sc.touched = sc.touched[:0]
	return out
}

// growTree runs Prim's algorithm from the outlet node 0 over the pass edges
// and routes each newly reached basin into the basin it was reached from.
func (g *Graph) growTree() {
	np := len(g.pits)
	nn := np + 1
	// Adjacency in CSR form.
	g.adjOff = resize(g.adjOff, nn+1)
	clear(g.adjOff)
	for _, e := range g.edges {
		g.adjOff[e.a+1]++
		g.adjOff[e.b+1]++
	}
	for i := 1; i <= nn; i++ {
		g.adjOff[i] += g.adjOff[i-1]
	}
	g.adj = resize(g.adj, int(g.adjOff[nn]))
	fill := resize(g.dest, nn) // borrowed as a cursor; Assemble resizes dest again
	copy(fill, g.adjOff[:nn])
	for ei, e := range g.edges {
		g.adj[fill[e.a]] = int32(ei)
		fill[e.a]++
		g.adj[fill[e.b]] = int32(ei)
		fill[e.b]++
	}
	g.inTree = resize(g.inTree, nn)
	clear(g.inTree)
	g.level = resize(g.level, nn)
	g.level[0] = float32(math.Inf(-1))
	g.heap = g.heap[:0]
	push := func(n int32) {
		for _, ei := range g.adj[g.adjOff[n]:g.adjOff[n+1]] {
			e := &g.edges[ei]
			other := e.a
			if other == n {
				other = e.b
			}
			if !g.inTree[other] {
				g.heap.push(heapItem{w: e.w, e: ei})
			}
		}
	}
	g.inTree[0] = true
	push(0)
	for len(g.heap) > 0 {
		it := g.heap.pop()
		e := g.edges[it.e]
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
		if to < 0 {
			g.Rec[root] = root
			g.Dist[root] = float32(g.Natural)
		} else {
			g.Rec[root] = to
			dx := float64(root%int32(g.W) - to%int32(g.W))
			dy := float64(root/int32(g.W) - to/int32(g.W))
			g.Dist[root] = float32(math.Hypot(dx, dy) * g.Cell)
		}
		g.Lakes = append(g.Lakes, Lake{Root: root, Pass: from, Outflow: to, Spill: e.w, Level: lvl})
		push(x)
	}
}

// Assemble writes the final Stack: each outlet's tree followed by the basins
// that drain into it, every basin after the basin it spills into.
func (g *Graph) Assemble() {
	nr := len(g.roots)
	g.final = resize(g.final, nr)
	g.dest = resize(g.dest, nr)
	// Final trees: outlet roots in index order, then basins that spill out
	// of a natural edge, in the order they were connected.
	nf := 0
	for t, r := range g.roots {
		if g.Rec[r] == r && g.kind[r] != interior {
			g.final[t] = int32(nf)
			nf++
		}
	}
	lakeTree := make([]int32, len(g.Lakes)) // root number of each lake
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
	reached := make([]bool, nr)
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
	g.Trees = resize(g.Trees, nf+1)
	clear(g.Trees)
	for t := range g.roots {
		g.Trees[g.final[t]+1] += g.segLen[t]
	}
	for f := 1; f <= nf; f++ {
		g.Trees[f] += g.Trees[f-1]
	}
	cursor := make([]int32, nf)
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
	for li, t := range lakeTree {
		place(t)
		g.Lakes[li].Start = g.dest[t]
		g.Lakes[li].Len = g.segLen[t]
	}
	parallel.Blocks(nr, 256, func(_, lo, hi int) {
		for t := lo; t < hi; t++ {
			src := g.bufs[g.segW[t]][g.segOff[t] : g.segOff[t]+g.segLen[t]]
			copy(g.Stack[g.dest[t]:], src)
		}
	})
}

// Chunks splits the trees into at most workers contiguous ranges of about
// equal size and returns the stack boundaries: chunk c is
// Stack[b[c]:b[c+1]]. Trees never straddle chunks.
func (g *Graph) Chunks(workers int) []int32 {
	nf := len(g.Trees) - 1
	sizes := make([]int32, nf)
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

// Accumulate sets dst[i] to the drainage area of every cell: its own area
// (cellArea, m²) plus the areas of all cells upstream. It returns dst.
func (g *Graph) Accumulate(dst []float64, cellArea float64) []float64 {
	dst = resize(dst, g.W*g.H)
	b := g.Chunks(parallel.Workers())
	parallel.Do(len(b)-1, func(c int) {
		seg := g.Stack[b[c]:b[c+1]]
		for _, i := range seg {
			dst[i] = cellArea
		}
		for k := len(seg) - 1; k >= 0; k-- {
			i := seg[k]
			if r := g.Rec[i]; r != i {
				dst[r] += dst[i]
			}
		}
	})
	return dst
}

// WaterDepth sets dst[i] to the depth of lake water over cell i (0 where
// dry) given heights h, using the lake levels of the last routing, and
// returns dst.
func (g *Graph) WaterDepth(dst, h []float32) []float32 {
	dst = resize(dst, g.W*g.H)
	clear(dst)
	parallel.Blocks(len(g.Lakes), 64, func(_, lo, hi int) {
		for _, lk := range g.Lakes[lo:hi] {
			for _, i := range g.Stack[lk.Start : lk.Start+lk.Len] {
				if d := lk.Level - h[i]; d > 0 {
					dst[i] = d
				}
			}
		}
	})
	return dst
}

type heapItem struct {
	w float32
	e int32
}

func (a heapItem) less(b heapItem) bool { return a.w < b.w || (a.w == b.w && a.e < b.e) }

// edgeHeap is a binary min-heap of pass edges by height, then edge number.
type edgeHeap []heapItem

func (q *edgeHeap) push(it heapItem) {
	*q = append(*q, it)
	s := *q
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (q *edgeHeap) pop() heapItem {
	s := *q
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s[r].less(s[l]) {
			m = r
		}
		if !s[m].less(s[i]) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*q = s
	return top
}
