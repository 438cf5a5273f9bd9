package uplifttree

// Pick returns the primitive that contributes most to the tree's value at
// the world point (x, y), or 0 when none does. A primitive's contribution
// is how far its value there departs from its outside value, times the
// factors of the Scale nodes above it (for a two-child Scale, the other
// child's value); ties go to the later child, the one listed last. A
// primitive reached through an Instance is reported as the instance, which
// is what the user placed there. Pick samples the layers bound with
// SetLayers.
func (t *Tree) Pick(x, y float64) ID {
	an := t.analysis()
	w := getWork(t.layers)
	defer putWork(w)
	id, s := pick(w, an.root, x, y, 1)
	if s > 0 {
		return id
	}
	return 0
}

// at evaluates n at one point; Eval and Pick share it.
func at(w *work, n enode, x, y float64) float64 {
	xs, ys, out := w.get(1), w.get(1), w.get(1)
	xs[0], ys[0] = x, y
	evalAll(w, n, xs, ys, bounds(xs, ys), out)
	v := out[0]
	w.put(out)
	w.put(ys)
	w.put(xs)
	return v
}

func pick(w *work, n enode, x, y, gain float64) (ID, float64) {
	h := n.h()
	if !h.box.Contains(Point{x, y}) || gain == 0 {
		return 0, 0
	}
	best := func(kids []enode) (ID, float64) {
		var id ID
		var s float64
		for _, c := range kids {
			if ci, cs := pick(w, c, x, y, gain); cs > 0 && cs >= s {
				id, s = ci, cs
			}
		}
		return id, s
	}
	switch n := n.(type) {
	case *eSum:
		return best(n.kids)
	case *eMinMax:
		return best(n.kids)
	case *eBlend:
		return best(n.kids)
	case *eScale:
		if len(n.kids) == 1 {
			return pick(w, n.kids[0], x, y, gain*abs(n.k))
		}
		v0, v1 := at(w, n.kids[0], x, y), at(w, n.kids[1], x, y)
		id, s := pick(w, n.kids[0], x, y, gain*abs(n.k*v1))
		if id1, s1 := pick(w, n.kids[1], x, y, gain*abs(n.k*v0)); s1 > 0 && s1 >= s {
			id, s = id1, s1
		}
		return id, s
	case *eAffine:
		px, py := n.inv.apply(x, y)
		id, s := pick(w, n.kid, px, py, gain)
		if n.instance && s > 0 {
			id = h.id
		}
		return id, s
	case *eFold:
		px, py := n.at(x, y)
		return pick(w, n.kid, px, py, gain)
	case *eFault:
		px, py := n.at(x, y)
		return pick(w, n.kid, px, py, gain)
	case *eWarp:
		px, py := n.at(x, y)
		return pick(w, n.kid, px, py, gain)
	case *eClamp:
		return pick(w, n.kid, x, y, gain)
	}
	// A primitive.
	return h.id, abs(at(w, n, x, y)-h.out) * gain
}
