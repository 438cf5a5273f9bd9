package flow

import "fmt"

// Check verifies the invariants of the last Update and returns an error
// naming the first one broken: Stack holds every cell once, each after its
// receiver and in its receiver's tree; every tree starts at an outlet, so
// every cell's water reaches an outlet; and no pit is left unconnected.
func (g *Graph) Check() error {
	n := g.W * g.H
	if len(g.Stack) != n || len(g.Trees) == 0 || g.Trees[len(g.Trees)-1] != int32(n) {
		return fmt.Errorf("flow: stack of %d cells, trees up to %v; want %d", len(g.Stack), g.Trees, n)
	}
	pos := make([]int32, n)
	for i := range pos {
		pos[i] = -1
	}
	for k, i := range g.Stack {
		if i < 0 || int(i) >= n {
			return fmt.Errorf("flow: stack entry %d is %d, outside the grid", k, i)
		}
		if pos[i] >= 0 {
			return fmt.Errorf("flow: cell %d twice in the stack", i)
		}
		pos[i] = int32(k)
	}
	for k, i := range g.Stack {
		if g.Pos[i] != int32(k) {
			return fmt.Errorf("flow: Pos[%d] = %d; the cell is at stack position %d", i, g.Pos[i], k)
		}
	}
	for k, i := range g.Stack {
		if want := g.Pos[g.Rec[i]]; g.RecPos[k] != want {
			return fmt.Errorf("flow: RecPos[%d] = %d; want %d", k, g.RecPos[k], want)
		}
	}
	ds := g.OrderedDist(make([]float32, n), 0, n)
	for k, i := range g.Stack {
		if ds[k] != g.Dist[i] {
			return fmt.Errorf("flow: cell %d: distance %g to its receiver %d; OrderedDist says %g", i, g.Dist[i], g.Rec[i], ds[k])
		}
	}
	tree := make([]int32, n)
	for f := 0; f+1 < len(g.Trees); f++ {
		root := g.Stack[g.Trees[f]]
		if g.Rec[root] != root {
			return fmt.Errorf("flow: tree %d starts at cell %d, which drains to %d", f, root, g.Rec[root])
		}
		if g.kind[root] == interior && g.Dist[root] == 0 && !g.Edges.AllClosed() {
			return fmt.Errorf("flow: tree %d starts at pit %d, which reaches no outlet", f, root)
		}
		for k := g.Trees[f]; k < g.Trees[f+1]; k++ {
			tree[g.Stack[k]] = int32(f)
		}
	}
	for i := 0; i < n; i++ {
		r := g.Rec[i]
		if r == int32(i) {
			continue
		}
		if pos[r] >= pos[i] {
			return fmt.Errorf("flow: cell %d (stack %d) comes before its receiver %d (stack %d)", i, pos[i], r, pos[r])
		}
		if tree[r] != tree[i] {
			return fmt.Errorf("flow: cell %d in tree %d drains into tree %d", i, tree[i], tree[r])
		}
		if !(g.Dist[i] > 0) {
			return fmt.Errorf("flow: cell %d has receiver distance %g", i, g.Dist[i])
		}
	}
	return nil
}
