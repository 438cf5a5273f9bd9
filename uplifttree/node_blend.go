package uplifttree

// TypeBlend is the JSON type of a Blend.
const TypeBlend = "blend"

var blendKind = kind{TypeBlend, func() Shape { return &Blend{Mode: "max"} }, 0, -1}

// Blend folds its children left to right with a smooth maximum (Mode
// "max") or minimum ("min") of radius k = Radius. With d = a − b,
//
//	smax(a, b) = max(a, b)                   if |d| ≥ k
//	smax(a, b) = (a + b)/2 + d²/k − |d|³/(2k²) otherwise
//
// and smin(a, b) = −smax(−a, −b). The cubic joins max with a continuous
// slope at |d| = k, gives smax(a, a) = a exactly (so a blend never lifts
// the zero background of two primitives, unlike the quadratic polynomial
// smooth-min whose value at a = b is off by k/4), is commutative, and stays
// within max(a, b) − 2k/27 ≤ smax ≤ max(a, b). No children: 0.
type Blend struct {
	Mode   string  // "max" or "min"
	Radius float64 // k, value units, ≥ 0
}

func (*Blend) Type() string   { return TypeBlend }
func (s *Blend) clone() Shape { c := *s; return &c }

func (s *Blend) params() []param {
	return []param{
		{"mode", ParamString, false, &s.Mode},
		{"radius", ParamNumber, true, &s.Radius},
	}
}

func (s *Blend) check() *fieldError {
	if s.Mode != "max" && s.Mode != "min" {
		return ferr("mode", `must be "max" or "min", got %q`, s.Mode)
	}
	return nonNegative("radius", s.Radius)
}

func (s *Blend) compile(h hdr, kids []enode, _ enode) enode {
	isMin := s.Mode == "min"
	var loLo, loHi, hiLo, hiHi float64 // ranges of the children's lo and hi
	for i, k := range kids {
		kh := k.h()
		h.box = h.box.Union(kh.box)
		switch {
		case i == 0:
			h.out = kh.out
			loLo, loHi, hiLo, hiHi = kh.lo, kh.lo, kh.hi, kh.hi
		default:
			if isMin {
				h.out = smin(h.out, kh.out, s.Radius)
			} else {
				h.out = smax(h.out, kh.out, s.Radius)
			}
			loLo, loHi = min(loLo, kh.lo), max(loHi, kh.lo)
			hiLo, hiHi = min(hiLo, kh.hi), max(hiHi, kh.hi)
		}
	}
	if len(kids) > 0 {
		// Each fold step moves at most 2k/27 from the exact max (min), and
		// never beyond the mean of its two inputs.
		slack := float64(len(kids)-1) * 2 * s.Radius / 27
		if isMin {
			h.lo, h.hi = loLo, min(hiLo+slack, hiHi)
		} else {
			h.lo, h.hi = max(loHi-slack, loLo), hiHi
		}
		m := 1e-9 * (1 + max(abs(h.lo), abs(h.hi)))
		h.lo, h.hi = h.lo-m, h.hi+m
	}
	fixRange(&h)
	return &eBlend{hdr: h, kids: kids, k: s.Radius, min: isMin}
}

// smax is the smooth maximum of radius k documented on Blend.
func smax(a, b, k float64) float64 {
	d := a - b
	ad := abs(d)
	m := max(a, b)
	if !(ad < k) {
		return m
	}
	s := (a+b)*0.5 + ad*ad/k - ad*ad*ad/(2*k*k)
	return min(s, m)
}

func smin(a, b, k float64) float64 { return -smax(-a, -b, k) }

type eBlend struct {
	hdr
	kids []enode
	k    float64
	min  bool
}

func (n *eBlend) kidsLive(r Rect) bool { return anyLive(n.kids, r) }

func (n *eBlend) pick(w *work, x, y, gain float64) (ID, float64) {
	return pickBest(w, n.kids, x, y, gain)
}

func (n *eBlend) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if len(n.kids) == 0 {
		fill(dst, 0)
		return
	}
	evalAll(w, n.kids[0], xs, ys, b, dst)
	if len(n.kids) == 1 {
		return
	}
	tmp := w.get(len(dst))
	for _, c := range n.kids[1:] {
		if evalOr(w, c, xs, ys, b, tmp) {
			if n.min {
				for i := range dst {
					dst[i] = smin(dst[i], tmp[i], n.k)
				}
			} else {
				for i := range dst {
					dst[i] = smax(dst[i], tmp[i], n.k)
				}
			}
			continue
		}
		o := c.h().out
		if n.min {
			for i := range dst {
				dst[i] = smin(dst[i], o, n.k)
			}
		} else {
			for i := range dst {
				dst[i] = smax(dst[i], o, n.k)
			}
		}
	}
	w.put(tmp)
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Blend) place(_ func(x, y float64) Point, _ float64, _ ID) {
	s.Radius = 0.2
}
