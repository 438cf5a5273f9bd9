package uplifttree

// TypeSum is the JSON type of a Sum.
const TypeSum = "sum"

var sumKind = kind{TypeSum, func() Shape { return &Sum{} }, 0, -1}

// Sum adds its children in order (no children: 0).
type Sum struct{}

func (*Sum) Type() string         { return TypeSum }
func (s *Sum) clone() Shape       { return &Sum{} }
func (s *Sum) params() []param    { return nil }
func (s *Sum) check() *fieldError { return nil }

func (s *Sum) compile(h hdr, kids []enode, _ enode) enode {
	for _, k := range kids {
		kh := k.h()
		h.box = h.box.Union(kh.box)
		h.lo += kh.lo
		h.hi += kh.hi
	}
	h.out = sumOut(kids)
	fixRange(&h)
	return &eSum{hdr: h, kids: kids}
}

type eSum struct {
	hdr
	kids []enode
}

func (n *eSum) kidsLive(r Rect) bool { return anyLive(n.kids, r) }

func (n *eSum) pick(w *work, x, y, gain float64) (ID, float64) {
	return pickBest(w, n.kids, x, y, gain)
}

func (n *eSum) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	written := false
	var tmp []float64
	for _, c := range n.kids {
		if c.reach(b) {
			if !written {
				c.eval(w, xs, ys, b, dst)
				written = true
				continue
			}
			if tmp == nil {
				tmp = w.get(len(dst))
			}
			c.eval(w, xs, ys, b, tmp)
			for i := range dst {
				dst[i] += tmp[i]
			}
		} else if o := c.h().out; o != 0 {
			if !written {
				fill(dst, o)
				written = true
				continue
			}
			for i := range dst {
				dst[i] += o
			}
		}
	}
	if !written {
		fill(dst, 0)
	}
	if tmp != nil {
		w.put(tmp)
	}
}

// sumOut folds the out values as eSum.eval does on a point outside every
// child's box.
func sumOut(kids []enode) float64 {
	acc, written := 0.0, false
	for _, c := range kids {
		if o := c.h().out; o != 0 {
			if !written {
				acc, written = o, true
			} else {
				acc += o
			}
		}
	}
	return acc
}
