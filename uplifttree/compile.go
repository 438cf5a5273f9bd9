package uplifttree

import "math"

// Compiling turns each node into an enode (see eval.go) bottom up: analyze
// compiles children and instance targets first and hands them to compile,
// which fills in what every node shares and lets the node's Shape do the
// rest (the compile method in the type's node_<type>.go).

const costCap = math.MaxInt64 / 4

func addCost(a, b int64) int64 { return min(costCap, a+b) }

// valueRange returns the smallest and largest of vs and extra.
func valueRange(extra float64, vs ...float64) (lo, hi float64) {
	lo, hi = extra, extra
	for _, v := range vs {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// mulRange bounds the product of a value in [a0, a1] and one in [b0, b1].
func mulRange(a0, a1, b0, b1 float64) (lo, hi float64) {
	p := [4]float64{a0 * b0, a0 * b1, a1 * b0, a1 * b1}
	lo, hi = p[0], p[0]
	for _, v := range p {
		if math.IsNaN(v) {
			return math.Inf(-1), math.Inf(1)
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// lift maps a rectangle in the frame of n's children to a rectangle in n's
// own frame holding every point whose value may depend on the child
// values inside r: the identity for pointwise operators, the forward image
// for transforms and instances, and r grown by the largest displacement for
// warps (see enode.toParent).
func lift(n enode, r Rect) Rect {
	if r.IsEmpty() {
		return r
	}
	return n.toParent(r)
}

// compile builds the evaluator of one node from its shape and its compiled
// children (and, for an instance, its compiled target).
func compile(id ID, s Shape, kids []enode, ref enode) enode {
	h := hdr{id: id, box: Empty, cost: 1, depth: 1}
	for _, k := range kids {
		h.cost = addCost(h.cost, k.h().cost)
		h.depth = max(h.depth, 1+k.h().depth)
	}
	if ref != nil {
		h.cost = addCost(h.cost, ref.h().cost)
		h.depth = max(h.depth, 1+ref.h().depth)
	}
	return s.compile(h, kids, ref)
}

// fixRange widens a range that lost its meaning (NaN) to the whole line.
func fixRange(h *hdr) {
	if math.IsNaN(h.lo) || math.IsNaN(h.hi) {
		h.lo, h.hi = math.Inf(-1), math.Inf(1)
	}
}
