package water

import "orogen/sim"

// tarjan finds the strongly connected components of a directed graph in
// CSR form (Tarjan 1972), iteratively so that long chains of lakes cannot
// overflow the goroutine stack. Its buffers are reused between calls.
type tarjan struct {
	index, low, it []int32
	onStack        []bool
	stack, call    []int32
}

// run sets comp[v], for every node v of the graph whose arcs from v are
// adj[off[v]:off[v+1]], to the number of v's strongly connected component
// and returns the number of components. Components are numbered in the
// order Tarjan's algorithm closes them: reverse topological order of the
// condensation, which depends only on the graph.
func (t *tarjan) run(n int, off, adj, comp []int32) int {
	t.index = sim.ResizeSpare(t.index, n)
	t.low = sim.ResizeSpare(t.low, n)
	t.it = sim.ResizeSpare(t.it, n)
	t.onStack = sim.ResizeSpare(t.onStack, n)
	for v := range t.index {
		t.index[v] = -1
		t.onStack[v] = false
	}
	next, nc := int32(0), int32(0)
	visit := func(v int32) {
		t.index[v], t.low[v] = next, next
		next++
		t.it[v] = off[v]
		t.stack = append(t.stack, v)
		t.onStack[v] = true
		t.call = append(t.call, v)
	}
	for r := int32(0); r < int32(n); r++ {
		if t.index[r] >= 0 {
			continue
		}
		t.stack, t.call = t.stack[:0], t.call[:0]
		visit(r)
		for len(t.call) > 0 {
			v := t.call[len(t.call)-1]
			if k := t.it[v]; k < off[v+1] {
				t.it[v]++
				w := adj[k]
				if t.index[w] < 0 {
					visit(w)
				} else if t.onStack[w] {
					t.low[v] = min(t.low[v], t.index[w])
				}
				continue
			}
			t.call = t.call[:len(t.call)-1]
			if t.low[v] == t.index[v] {
				for {
					w := t.stack[len(t.stack)-1]
					t.stack = t.stack[:len(t.stack)-1]
					t.onStack[w] = false
					comp[w] = nc
					if w == v {
						break
					}
				}
				nc++
			}
			if len(t.call) > 0 {
				u := t.call[len(t.call)-1]
				t.low[u] = min(t.low[u], t.low[v])
			}
		}
	}
	return int(nc)
}
