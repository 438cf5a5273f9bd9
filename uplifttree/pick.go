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

// pick returns the primitive under (x, y), in n's frame, that contributes
// most to n's value there when n's value is scaled by gain, and how much.
func pick(w *work, n enode, x, y, gain float64) (ID, float64) {
	h := n.h()
	if !h.box.Contains(Point{x, y}) || gain == 0 {
		return 0, 0
	}
	if p, ok := n.(picker); ok {
		return p.pick(w, x, y, gain)
	}
	// A primitive.
	return h.id, abs(at(w, n, x, y)-h.out) * gain
}

// pickBest is pick over operands combined pointwise: the best of kids,
// ties going to the later one.
func pickBest(w *work, kids []enode, x, y, gain float64) (ID, float64) {
	var id ID
	var s float64
	for _, c := range kids {
		if ci, cs := pick(w, c, x, y, gain); cs > 0 && cs >= s {
			id, s = ci, cs
		}
	}
	return id, s
}
