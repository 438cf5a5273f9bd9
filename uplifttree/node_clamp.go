package uplifttree

// TypeClamp is the JSON type of a Clamp.
const TypeClamp = "clamp"

var clampKind = kind{TypeClamp, func() Shape { return &Clamp{Hi: 1} }, 1, 1}

// Clamp limits its one child to [Lo, Hi].
type Clamp struct {
	Lo, Hi float64
}

func (*Clamp) Type() string   { return TypeClamp }
func (s *Clamp) clone() Shape { c := *s; return &c }

func (s *Clamp) params() []param {
	return []param{
		{"lo", ParamNumber, false, &s.Lo},
		{"hi", ParamNumber, false, &s.Hi},
	}
}

func (s *Clamp) check() *fieldError {
	if e := first(finite("lo", s.Lo), finite("hi", s.Hi)); e != nil {
		return e
	}
	if s.Lo > s.Hi {
		return ferr("hi", "must be ≥ lo (%g), got %g", s.Lo, s.Hi)
	}
	return nil
}

func (s *Clamp) compile(h hdr, kids []enode, _ enode) enode {
	k := kids[0].h()
	cl := func(v float64) float64 { return min(max(v, s.Lo), s.Hi) }
	h.box = k.box
	h.out, h.lo, h.hi = cl(k.out), cl(k.lo), cl(k.hi)
	return &eClamp{hdr: h, kid: kids[0], lo: s.Lo, hi: s.Hi}
}

type eClamp struct {
	hdr
	kid    enode
	lo, hi float64
}

func (n *eClamp) kidsLive(r Rect) bool { return live(n.kid, r) }

func (n *eClamp) pick(w *work, x, y, gain float64) (ID, float64) {
	return pick(w, n.kid, x, y, gain)
}

func (n *eClamp) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if !evalOr(w, n.kid, xs, ys, b, dst) {
		fill(dst, n.out)
		return
	}
	for i := range dst {
		dst[i] = min(max(dst[i], n.lo), n.hi)
	}
}
