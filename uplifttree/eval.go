package uplifttree

import "orogen/sim/noise"

// Evaluation works on spans: slices of sample points (xs[i], ys[i]) in the
// frame of the node, together with b, a rectangle holding all of them. Every
// compiled node knows its box (outside of which it equals its constant out
// value exactly), so a parent skips a child whose box misses b and uses the
// constant instead. Rasterize hands the root one 32×32 tile at a time;
// Eval hands it a single point. Because a node outside its box takes
// exactly its out value, skipping never changes a result beyond the sign of
// a zero, which Eval and Rasterize normalize away: a pixel gets the same
// bits whatever span it was computed in. This file holds what every
// compiled node shares; each node type's enode is in its node_<type>.go.

// hdr is what every compiled node knows about itself.
type hdr struct {
	id     ID
	src    *node   // the node compiled
	box    Rect    // outside box the node's value is exactly out
	out    float64 // the value outside box
	lo, hi float64 // bounds on every value the node takes
	cost   int64   // per-point work, instances expanded (saturating)
	depth  int     // longest path below, instances expanded
}

// enode is a compiled node.
type enode interface {
	h() *hdr
	// eval writes the node's value at the points (xs[i], ys[i]), all inside
	// b, into dst. len(xs) == len(ys) == len(dst) ≥ 1.
	eval(w *work, xs, ys []float64, b Rect, dst []float64)
	// reach reports whether the node may differ from out somewhere in b;
	// false is a promise that it equals out on all of b. The default tests
	// the box; primitives refine it with their shape.
	reach(b Rect) bool
	// kidsLive reports, for a node that reaches r, whether its children
	// (or instance target) may make it differ from out somewhere in r (see
	// live). The default, true, is right for primitives.
	kidsLive(r Rect) bool
	// toParent maps a non-empty rectangle in the frame of the node's
	// children to one in the node's own frame holding every point whose
	// value may depend on the child values inside it (see lift). The
	// default, the identity, is right for pointwise operators.
	toParent(r Rect) Rect
}

// picker is an enode with children, which Pick descends into; a node that
// is not a picker is a primitive and is picked itself.
type picker interface {
	// pick is Pick at (x, y) in the node's frame, which lies in its box,
	// for a node whose contribution is scaled by gain ≠ 0.
	pick(w *work, x, y, gain float64) (ID, float64)
}

func (h *hdr) h() *hdr { return h }

func (h *hdr) reach(b Rect) bool { return h.box.Overlaps(b) }

func (h *hdr) kidsLive(Rect) bool { return true }

func (h *hdr) toParent(r Rect) Rect { return r }

// margin is the slack of the shape tests in reach, relative to the
// magnitudes involved (see padRel).
func margin(vs ...float64) float64 {
	m := 0.0
	for _, v := range vs {
		m += abs(v)
	}
	return padRel * m
}

// spanMax is the largest span: one 32×32 tile.
const (
	tileSize = 32
	spanMax  = tileSize * tileSize
)

// work is one goroutine's scratch: a stack of span buffers and the layers
// to sample.
type work struct {
	free   [][]float64
	idx    []int32
	cols   noise.Axis // noise columns and rows (see span)
	rows   noise.Axis
	layers Layers
}

func (w *work) get(n int) []float64 {
	if k := len(w.free); k > 0 {
		b := w.free[k-1]
		w.free = w.free[:k-1]
		return b[:n]
	}
	return make([]float64, n, spanMax)
}

func (w *work) put(b []float64) { w.free = append(w.free, b[:cap(b)]) }

func fill(dst []float64, v float64) {
	for i := range dst {
		dst[i] = v
	}
}

// bounds returns the box of the points, ignoring NaN coordinates.
func bounds(xs, ys []float64) Rect {
	r := Empty
	for i, x := range xs {
		y := ys[i]
		if x < r.X0 {
			r.X0 = x
		}
		if x > r.X1 {
			r.X1 = x
		}
		if y < r.Y0 {
			r.Y0 = y
		}
		if y > r.Y1 {
			r.Y1 = y
		}
	}
	return r
}

// live reports whether n may differ from its out value somewhere in r (in
// n's frame). It looks through operators down to the primitives, so a
// warp or transform can skip its per-point work on a span where all of its
// subtree's primitives are out of reach.
func live(n enode, r Rect) bool {
	if !n.reach(r) {
		return false
	}
	return n.kidsLive(r)
}

// anyLive reports whether one of kids is live in r.
func anyLive(kids []enode, r Rect) bool {
	for _, k := range kids {
		if live(k, r) {
			return true
		}
	}
	return false
}

// evalOr evaluates c into dst when its box meets b and reports true, or
// leaves dst alone and reports false (c equals c.out on every point).
func evalOr(w *work, c enode, xs, ys []float64, b Rect, dst []float64) bool {
	if !c.reach(b) {
		return false
	}
	c.eval(w, xs, ys, b, dst)
	return true
}

// evalAll evaluates c into dst, filling its out value when it is skipped.
func evalAll(w *work, c enode, xs, ys []float64, b Rect, dst []float64) {
	if !evalOr(w, c, xs, ys, b, dst) {
		fill(dst, c.h().out)
	}
}
