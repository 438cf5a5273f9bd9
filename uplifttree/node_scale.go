package uplifttree

// TypeScale is the JSON type of a Scale.
const TypeScale = "scale"

var scaleKind = kind{TypeScale, func() Shape { return &Scale{Factor: 1} }, 1, 2}

// Scale multiplies: Factor·c with one child, Factor·c₀·c₁ with two.
type Scale struct {
	Factor float64
}

func (*Scale) Type() string         { return TypeScale }
func (s *Scale) clone() Shape       { c := *s; return &c }
func (s *Scale) params() []param    { return []param{{"factor", ParamNumber, false, &s.Factor}} }
func (s *Scale) check() *fieldError { return finite("factor", s.Factor) }

func (s *Scale) compile(h hdr, kids []enode, _ enode) enode {
	k0 := kids[0].h()
	if len(kids) == 1 {
		h.box = k0.box
		h.out = k0.out * s.Factor
		h.lo, h.hi = mulRange(k0.lo, k0.hi, s.Factor, s.Factor)
		return &eScale{hdr: h, kids: kids, k: s.Factor}
	}
	k1 := kids[1].h()
	switch {
	case k0.out == 0 && k1.out == 0:
		h.box = k0.box.Intersect(k1.box)
	case k0.out == 0:
		h.box = k0.box
	case k1.out == 0:
		h.box = k1.box
	default:
		h.box = k0.box.Union(k1.box)
	}
	h.out = k0.out * k1.out * s.Factor
	lo, hi := mulRange(k0.lo, k0.hi, k1.lo, k1.hi)
	h.lo, h.hi = mulRange(lo, hi, s.Factor, s.Factor)
	return &eScale{hdr: h, kids: kids, k: s.Factor}
}

type eScale struct {
	hdr
	kids []enode
	k    float64
}

func (n *eScale) kidsLive(r Rect) bool { return anyLive(n.kids, r) }

// pick scales the gain by the factor and, with two children, each child's
// by the other's value.
func (n *eScale) pick(w *work, x, y, gain float64) (ID, float64) {
	if len(n.kids) == 1 {
		return pick(w, n.kids[0], x, y, gain*abs(n.k))
	}
	v0, v1 := at(w, n.kids[0], x, y), at(w, n.kids[1], x, y)
	id, s := pick(w, n.kids[0], x, y, gain*abs(n.k*v1))
	if id1, s1 := pick(w, n.kids[1], x, y, gain*abs(n.k*v0)); s1 > 0 && s1 >= s {
		id, s = id1, s1
	}
	return id, s
}

func (n *eScale) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if len(n.kids) == 1 {
		if !evalOr(w, n.kids[0], xs, ys, b, dst) {
			fill(dst, n.out)
			return
		}
		for i := range dst {
			dst[i] *= n.k
		}
		return
	}
	c0, c1 := n.kids[0], n.kids[1]
	if !evalOr(w, c0, xs, ys, b, dst) {
		o0 := c0.h().out
		if o0 == 0 {
			fill(dst, 0) // 0·c₁ (up to the sign of zero)
			return
		}
		if !evalOr(w, c1, xs, ys, b, dst) {
			fill(dst, o0*c1.h().out*n.k)
			return
		}
		for i := range dst {
			dst[i] = o0 * dst[i] * n.k
		}
		return
	}
	tmp := w.get(len(dst))
	defer w.put(tmp)
	if !evalOr(w, c1, xs, ys, b, tmp) {
		o1 := c1.h().out
		if o1 == 0 {
			fill(dst, 0)
			return
		}
		for i := range dst {
			dst[i] = dst[i] * o1 * n.k
		}
		return
	}
	for i := range dst {
		dst[i] = dst[i] * tmp[i] * n.k
	}
}
