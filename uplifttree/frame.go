package uplifttree

import "math"

// What Transform and Instance share: the parameters, validation and
// evaluator of a Frame.

func frameParams(f *Frame) []param {
	return []param{
		{"translate", ParamPoint, false, &f.Translate},
		{"rotate", ParamNumber, false, &f.Rotate},
		{"scale", ParamPoint, false, &f.Scale},
		{"pivot", ParamPoint, false, &f.Pivot},
	}
}

func checkFrame(f *Frame) *fieldError {
	if e := first(point("translate", f.Translate), finite("rotate", f.Rotate), point("scale", f.Scale),
		point("pivot", f.Pivot)); e != nil {
		return e
	}
	if math.Abs(f.Scale.X) < minScale || math.Abs(f.Scale.Y) < minScale {
		return ferr("scale", "components must have magnitude at least %g, got [%g, %g]", minScale, f.Scale.X, f.Scale.Y)
	}
	return nil
}

func compileAffine(h hdr, f *Frame, kid enode, instance bool) enode {
	k := kid.h()
	n := &eAffine{kid: kid, fwd: f.forward(), inv: f.inverse(), instance: instance}
	h.out, h.lo, h.hi = k.out, k.lo, k.hi
	h.cost = addCost(h.cost, 1)
	n.hdr = h
	n.box = lift(n, k.box)
	return n
}

// eAffine is a Transform or an Instance: the child evaluated at inv·p.
type eAffine struct {
	hdr
	kid      enode
	fwd, inv affine
	instance bool
}

func (n *eAffine) toParent(r Rect) Rect { return n.fwd.rect(r) }

func (n *eAffine) kidsLive(r Rect) bool { return live(n.kid, n.inv.rect(r)) }

// pick reports a primitive reached through an instance as the instance.
func (n *eAffine) pick(w *work, x, y, gain float64) (ID, float64) {
	px, py := n.inv.apply(x, y)
	id, s := pick(w, n.kid, px, py, gain)
	if n.instance && s > 0 {
		id = n.id
	}
	return id, s
}

func (n *eAffine) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if !live(n, b) {
		fill(dst, n.out)
		return
	}
	tx, ty := w.get(len(dst)), w.get(len(dst))
	m := &n.inv
	for i := range dst {
		tx[i], ty[i] = m.apply(xs[i], ys[i])
	}
	evalAll(w, n.kid, tx, ty, bounds(tx, ty), dst)
	w.put(ty)
	w.put(tx)
}
