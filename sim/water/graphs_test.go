package water

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// edmondsKarp is the reference maximum flow: shortest augmenting paths on a
// dense residual matrix.
func edmondsKarp(n int, arcs [][3]float64, s, t int) float64 {
	c := make([][]float64, n)
	for i := range c {
		c[i] = make([]float64, n)
	}
	for _, a := range arcs {
		c[int(a[0])][int(a[1])] += a[2]
	}
	var total float64
	for {
		prev := make([]int, n)
		for i := range prev {
			prev[i] = -1
		}
		prev[s] = s
		q := []int{s}
		for k := 0; k < len(q) && prev[t] < 0; k++ {
			u := q[k]
			for v := range n {
				if prev[v] < 0 && c[u][v] > 0 {
					prev[v] = u
					q = append(q, v)
				}
			}
		}
		if prev[t] < 0 {
			return total
		}
		d := math.Inf(1)
		for v := t; v != s; v = prev[v] {
			d = min(d, c[prev[v]][v])
		}
		for v := t; v != s; v = prev[v] {
			c[prev[v]][v] -= d
			c[v][prev[v]] += d
		}
		total += d
	}
}

// TestMaxFlow compares push-relabel with Edmonds–Karp on random networks
// (integer capacities, some infinite inside, cycles and parallel arcs
// allowed), and checks that the flow respects capacities and conserves
// water at every node (a preflow: keeps its excess there). Integer
// capacities below 2^20 keep every sum exact in float64, so the values must
// agree exactly.
func TestMaxFlow(t *testing.T) {
	for _, preflow := range []bool{false, true} {
		testMaxFlow(t, preflow)
	}
}

func testMaxFlow(t *testing.T, preflow bool) {
	rng := rand.New(rand.NewPCG(1, 1))
	var g network
	for trial := range 3000 {
		n := 2 + rng.IntN(12)
		m := rng.IntN(4 * n)
		var arcs [][3]float64
		g.reset(n)
		var ids []int32
		for range m {
			u, v := rng.IntN(n), rng.IntN(n)
			if u == v || v == 0 || u == 1 {
				continue
			}
			c := float64(rng.IntN(20))
			if u != 0 && rng.IntN(6) == 0 {
				c = math.Inf(1)
			}
			arcs = append(arcs, [3]float64{float64(u), float64(v), c})
			ids = append(ids, g.addArc(int32(u), int32(v), c))
		}
		// An infinite s–t path would make the flow unbounded: skip those.
		want := edmondsKarp(n, arcs, 0, 1)
		if math.IsInf(want, 1) {
			continue
		}
		got := g.maxFlow(0, 1, preflow)
		if got != want {
			t.Fatalf("trial %d, preflow %v: push-relabel %g; want Edmonds–Karp %g (arcs %v)", trial, preflow, got, want, arcs)
		}
		bal := make([]float64, n)
		for k, a := range ids {
			f := g.flow(a)
			if f < 0 || f > arcs[k][2] {
				t.Fatalf("trial %d arc %v: flow %g", trial, arcs[k], f)
			}
			bal[int(arcs[k][0])] -= f
			bal[int(arcs[k][1])] += f
		}
		for v := 2; v < n; v++ {
			if bal[v] != g.excess[v] || (!preflow && bal[v] != 0) {
				t.Fatalf("trial %d: node %d keeps %g (arcs %v, labels %v excess %v)", trial, v, bal[v], arcs, g.label, g.excess)
			}
		}
		if bal[1] != want {
			t.Fatalf("trial %d: sink gets %g; want %g", trial, bal[1], want)
		}
	}
}

// TestTarjan compares the components with mutual reachability computed by
// brute force (Floyd–Warshall closure) on random sparse graphs, self-loops
// and parallel arcs included.
func TestTarjan(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	var tj tarjan
	for trial := range 2000 {
		n := 1 + rng.IntN(15)
		out := make([][]int32, n)
		reach := make([][]bool, n)
		for v := range n {
			reach[v] = make([]bool, n)
			reach[v][v] = true
		}
		for range rng.IntN(2 * n) {
			u, v := rng.IntN(n), rng.IntN(n)
			out[u] = append(out[u], int32(v))
			reach[u][v] = true
		}
		for k := range n {
			for i := range n {
				for j := range n {
					reach[i][j] = reach[i][j] || reach[i][k] && reach[k][j]
				}
			}
		}
		off := []int32{0}
		var adj []int32
		for v := range n {
			adj = append(adj, out[v]...)
			off = append(off, int32(len(adj)))
		}
		comp := make([]int32, n)
		nc := tj.run(n, off, adj, comp)
		seen := map[int32]bool{}
		for i := range n {
			seen[comp[i]] = true
			for j := range n {
				if same := reach[i][j] && reach[j][i]; same != (comp[i] == comp[j]) {
					t.Fatalf("trial %d: nodes %d, %d: components %d, %d; mutually reachable %v", trial, i, j, comp[i], comp[j], same)
				}
			}
		}
		if len(seen) != nc || slices.Max(comp) != int32(nc-1) {
			t.Fatalf("trial %d: %d components numbered up to %d", trial, nc, slices.Max(comp))
		}
		// Reverse topological numbering: an arc never goes to a later component.
		for u := range n {
			for _, v := range out[u] {
				if comp[v] > comp[u] {
					t.Fatalf("trial %d: arc %d→%d from component %d to %d", trial, u, v, comp[u], comp[v])
				}
			}
		}
	}
}
