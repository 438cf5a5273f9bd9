package uplifttree

// The warps Fold, Fault and NoiseWarp share one evaluator, eWarp, which
// samples the child at displaced points; each warp supplies only its
// displacement.

// displacement is what a warp does to the points its child is sampled at.
type displacement interface {
	// at returns the point the child is sampled at for (x, y).
	at(x, y float64) (float64, float64)
	// displace writes at(xs[i], ys[i]) into (tx[i], ty[i]) for every i,
	// with the same bits as at, but a span at a time.
	displace(w *work, xs, ys, tx, ty []float64)
	// toParent grows a non-empty rectangle r of the child's frame to one
	// holding every point whose sample point may lie in r.
	toParent(r Rect) Rect
	// toChild grows a rectangle r of the warp's frame to one holding the
	// sample points of all of r's points.
	toChild(r Rect) Rect
}

// eWarp is a warp: the child evaluated at d.at(p).
type eWarp struct {
	hdr
	kid enode
	d   displacement
}

// compileWarp builds the evaluator of a warp of kid by d whose
// displacement costs cost units per point.
func compileWarp(h hdr, kid enode, d displacement, cost int64) enode {
	k := kid.h()
	n := &eWarp{kid: kid, d: d}
	h.out, h.lo, h.hi = k.out, k.lo, k.hi
	h.cost = addCost(h.cost, cost)
	n.hdr = h
	n.box = lift(n, k.box)
	return n
}

func (n *eWarp) toParent(r Rect) Rect { return n.d.toParent(r) }

func (n *eWarp) kidsLive(r Rect) bool { return live(n.kid, n.d.toChild(r)) }

func (n *eWarp) pick(w *work, x, y, gain float64) (ID, float64) {
	px, py := n.d.at(x, y)
	return pick(w, n.kid, px, py, gain)
}

func (n *eWarp) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if !live(n, b) {
		fill(dst, n.out)
		return
	}
	tx, ty := w.get(len(dst)), w.get(len(dst))
	n.d.displace(w, xs, ys, tx, ty)
	evalAll(w, n.kid, tx, ty, bounds(tx, ty), dst)
	w.put(ty)
	w.put(tx)
}
