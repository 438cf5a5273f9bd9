package uplifttree

// TypeMix is the JSON type of a Mix.
const TypeMix = "mix"

var mixKind = kind{TypeMix, func() Shape { return &Mix{} }, 1, 3}

// Mix blends its two children through a gradient or a mask: (1 − t)·c₀ +
// t·c₁. With two children t is the smoothstep of the position projected on
// the segment from A (t = 0) to B (t = 1), clamped beyond its ends; A and
// B equal give t = 0 everywhere. With one child, c₁ is 0: the child fades
// out from A to B. With three, the third is the mask and A and B are not
// used: t = its value clamped to [0, 1], whatever subtree it is (a Raster
// of a painted layer or an imported image, a shape, a sum). It is the
// Uplift Tree's form of blending two terrains in the uplift domain (Schott
// et al. 2022, §4 and Fig. 7): the simulation then carves one consistent
// drainage network across the seam, where blending elevations leaves pits.
type Mix struct {
	A, B Point // world coordinates, metres
}

func (*Mix) Type() string   { return TypeMix }
func (s *Mix) clone() Shape { c := *s; return &c }

func (s *Mix) params() []param {
	return []param{
		{"a", ParamPoint, false, &s.A},
		{"b", ParamPoint, false, &s.B},
	}
}

func (s *Mix) check() *fieldError {
	for _, f := range []struct {
		name string
		v    float64
	}{{"a", s.A.X}, {"a", s.A.Y}, {"b", s.B.X}, {"b", s.B.Y}} {
		if e := finite(f.name, f.v); e != nil {
			return e
		}
	}
	return nil
}

func (s *Mix) compile(h hdr, kids []enode, _ enode) enode {
	k0 := kids[0].h()
	box1, out1, lo1, hi1 := Rect{}, 0.0, 0.0, 0.0
	if len(kids) == 2 {
		k1 := kids[1].h()
		box1, out1, lo1, hi1 = k1.box, k1.out, k1.lo, k1.hi
	}
	h.box = k0.box.Union(box1)
	h.out = k0.out // only used where both are out and equal
	h.lo, h.hi = min(k0.lo, lo1), max(k0.hi, hi1)
	if len(kids) == 3 {
		// Outside every child's box t is the mask's outside value, so
		// the mix is constant there.
		m := kids[2].h()
		tm := min(1, max(0, m.out))
		if k0.out != out1 {
			h.box = h.box.Union(m.box)
		}
		h.out = (1-tm)*k0.out + tm*out1
		fixRange(&h)
		return &eMix{hdr: h, kids: kids, mask: true}
	}
	if k0.out != out1 {
		h.box = Everywhere // the gradient of the two outside values
	}
	fixRange(&h)
	dx, dy := s.B.X-s.A.X, s.B.Y-s.A.Y
	n := &eMix{hdr: h, kids: kids, ax: s.A.X, ay: s.A.Y, varies: k0.out != out1}
	if l2 := dx*dx + dy*dy; l2 > 0 {
		n.ux, n.uy = dx/l2, dy/l2
	}
	return n
}

type eMix struct {
	hdr
	kids   []enode
	ax, ay float64
	ux, uy float64 // (B − A)/|B − A|²: t = (p − A)·u
	varies bool    // the children's outside values differ
	mask   bool    // t from the third child, not the gradient
}

// kidsLive: with different outside values the gradient alone makes the
// value vary everywhere.
func (n *eMix) kidsLive(r Rect) bool { return n.varies || anyLive(n.kids, r) }

func (n *eMix) t(x, y float64) float64 {
	t := min(1, max(0, (x-n.ax)*n.ux+(y-n.ay)*n.uy))
	return t * t * (3 - 2*t)
}

func (n *eMix) pick(w *work, x, y, gain float64) (ID, float64) {
	var t float64
	if n.mask {
		var m [1]float64
		if !evalOr(w, n.kids[2], []float64{x}, []float64{y}, Rect{x, y, x, y}, m[:]) {
			m[0] = n.kids[2].h().out
		}
		t = min(1, max(0, m[0]))
	} else {
		t = n.t(x, y)
	}
	id, s := pick(w, n.kids[0], x, y, gain*(1-t))
	if len(n.kids) == 2 {
		if id1, s1 := pick(w, n.kids[1], x, y, gain*t); s1 > 0 && s1 >= s {
			id, s = id1, s1
		}
	}
	return id, s
}

func (n *eMix) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	tmp := w.get(len(dst))
	if !evalOr(w, n.kids[0], xs, ys, b, dst) {
		fill(dst, n.kids[0].h().out)
	}
	switch {
	case len(n.kids) == 1:
		fill(tmp, 0)
	case !evalOr(w, n.kids[1], xs, ys, b, tmp):
		fill(tmp, n.kids[1].h().out)
	}
	if n.mask {
		m := w.get(len(dst))
		if !evalOr(w, n.kids[2], xs, ys, b, m) {
			fill(m, n.kids[2].h().out)
		}
		for i := range dst {
			t := min(1, max(0, m[i]))
			dst[i] = dst[i]*(1-t) + tmp[i]*t
		}
		w.put(m)
		w.put(tmp)
		return
	}
	for i := range dst {
		t := n.t(xs[i], ys[i])
		dst[i] = dst[i]*(1-t) + tmp[i]*t
	}
	w.put(tmp)
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Mix) place(at func(x, y float64) Point, _ float64, _ ID) {
	s.A, s.B = at(-1, 0), at(1, 0)
}
