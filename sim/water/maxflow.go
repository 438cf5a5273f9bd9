package water

import (
	"math"

	"orogen/sim"
)

// network is a flow network for push-relabel maximum flow (Goldberg &
// Tarjan 1988): arcs in pairs, arc a^1 the residual reverse of arc a, with
// float64 capacities that may be +Inf. Its buffers are reused between
// calls: reset, addArc, maxFlow, then read flow.
type network struct {
	n    int
	tail []int32   // per arc: its tail node
	head []int32   // per arc: its head node
	res  []float64 // per arc: residual capacity

	off, arcs []int32 // arcs leaving each node, CSR
	excess    []float64
	label     []int32
	cur       []int32 // current arc of each node, an index into arcs
	queue     []int32 // FIFO of active nodes, as a ring
	inQ       []bool
	bfs       []int32
}

// reset empties the network and sizes it for n nodes.
func (g *network) reset(n int) {
	g.n = n
	g.tail, g.head, g.res = g.tail[:0], g.head[:0], g.res[:0]
}

// addArc adds an arc u→v of capacity c ≥ 0 and returns its number.
func (g *network) addArc(u, v int32, c float64) int32 {
	a := int32(len(g.tail))
	g.tail = append(g.tail, u, v)
	g.head = append(g.head, v, u)
	g.res = append(g.res, c, 0)
	return a
}

// flow returns the flow on arc a after maxFlow (the residual of its reverse).
func (g *network) flow(a int32) float64 { return g.res[a^1] }

// maxFlow computes a maximum flow from s to t and returns its value. The
// arcs leaving s must have finite capacities. It is the FIFO variant with
// exact global relabelling (a breadth-first search from t, then from s for
// nodes cut off from t) after the source arcs fill and after every n
// relabels. With preflow false, excess that cannot reach t returns to s and
// the result is a flow; with preflow true it stays where it got stuck
// (excess[v] > 0 at nodes cut off from t: a maximum preflow, the first
// phase, whose value is the maximum flow's). Every choice follows the arc
// order, so results are reproducible.
func (g *network) maxFlow(s, t int32, preflow bool) float64 {
	n := g.n
	// Arcs by tail, in insertion order.
	g.off = sim.ResizeSpare(g.off, n+1)
	clear(g.off)
	for _, u := range g.tail {
		g.off[u+1]++
	}
	for v := 1; v <= n; v++ {
		g.off[v] += g.off[v-1]
	}
	g.arcs = sim.ResizeSpare(g.arcs, len(g.tail))
	g.cur = sim.ResizeSpare(g.cur, n)
	copy(g.cur, g.off[:n])
	for a, u := range g.tail {
		g.arcs[g.cur[u]] = int32(a)
		g.cur[u]++
	}
	copy(g.cur, g.off[:n])
	g.excess = sim.ResizeSpare(g.excess, n)
	clear(g.excess)
	g.label = sim.ResizeSpare(g.label, n)
	g.inQ = sim.ResizeSpare(g.inQ, n)
	clear(g.inQ)
	g.queue = sim.ResizeSpare(g.queue, n)
	qh, ql := 0, 0 // ring head, length
	push := func(v int32) {
		if v != s && v != t && !g.inQ[v] {
			g.inQ[v] = true
			g.queue[(qh+ql)%n] = v
			ql++
		}
	}
	for k := g.off[s]; k < g.off[s+1]; k++ {
		a := g.arcs[k]
		if d := g.res[a]; d > 0 {
			if math.IsInf(d, 1) {
				panic("water: infinite capacity out of the source")
			}
			v := g.head[a]
			g.res[a] = 0
			g.res[a^1] += d
			g.excess[v] += d
			g.excess[s] -= d
			push(v)
		}
	}
	g.globalRelabel(s, t) // after the source arcs fill, so excess can go back
	relabels := 0
	for ql > 0 {
		v := g.queue[qh]
		qh = (qh + 1) % n
		ql--
		g.inQ[v] = false
		if g.label[v] >= int32(2*n) || (preflow && g.label[v] >= int32(n)) {
			continue // cut off from t (and from s): its excess stays
		}
		for g.excess[v] > 0 {
			if g.cur[v] == g.off[v+1] {
				// Relabel: one above the lowest residual neighbour.
				lo := int32(math.MaxInt32)
				for k := g.off[v]; k < g.off[v+1]; k++ {
					if a := g.arcs[k]; g.res[a] > 0 {
						lo = min(lo, g.label[g.head[a]])
					}
				}
				g.cur[v] = g.off[v]
				if lo == math.MaxInt32 {
					g.label[v] = int32(2 * n)
					break
				}
				g.label[v] = lo + 1
				if preflow && g.label[v] >= int32(n) {
					break
				}
				relabels++
				if relabels >= n {
					relabels = 0
					g.globalRelabel(s, t)
				}
				continue
			}
			a := g.arcs[g.cur[v]]
			w := g.head[a]
			if r := g.res[a]; r > 0 && g.label[v] == g.label[w]+1 {
				d := min(g.excess[v], r)
				g.res[a] -= d
				g.res[a^1] += d
				g.excess[v] -= d
				g.excess[w] += d
				push(w)
				if g.res[a] > 0 {
					continue // v is empty now
				}
			}
			g.cur[v]++
		}
	}
	return g.excess[t]
}

// globalRelabel sets every label to the exact residual distance to t, or
// n plus the distance to s for nodes that cannot reach t, or 2n for nodes
// that reach neither; current arcs restart.
func (g *network) globalRelabel(s, t int32) {
	n := g.n
	for v := range g.label {
		g.label[v] = int32(2 * n)
	}
	copy(g.cur, g.off[:n])
	bfs := func(root int32, base int32) {
		g.label[root] = base
		q := append(g.bfs[:0], root)
		for k := 0; k < len(q); k++ {
			w := q[k]
			// u can push to w when the arc u→w, the reverse of w→u, has
			// residual capacity.
			for j := g.off[w]; j < g.off[w+1]; j++ {
				a := g.arcs[j]
				u := g.head[a]
				if g.label[u] == int32(2*n) && g.res[a^1] > 0 && u != s && u != t {
					g.label[u] = g.label[w] + 1
					q = append(q, u)
				}
			}
		}
		g.bfs = q
	}
	bfs(t, 0)
	bfs(s, int32(n))
}
