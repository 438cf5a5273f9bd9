package uplifttree

import "math"

// Max and Min, the two kinds that share one evaluator, eMinMax.

// Node types of Max and Min.
const (
	TypeMax = "max"
	TypeMin = "min"
)

var (
	maxKind = kind{TypeMax, func() Shape { return &Max{} }, 0, -1}
	minKind = kind{TypeMin, func() Shape { return &Min{} }, 0, -1}
)

// Max is the largest of its children (no children: 0).
type Max struct{}

// Min is the smallest of its children (no children: 0).
type Min struct{}

func (*Max) Type() string         { return TypeMax }
func (s *Max) clone() Shape       { return &Max{} }
func (s *Max) params() []param    { return nil }
func (s *Max) check() *fieldError { return nil }

func (s *Max) compile(h hdr, kids []enode, _ enode) enode { return compileMinMax(h, kids, false) }

func (*Min) Type() string         { return TypeMin }
func (s *Min) clone() Shape       { return &Min{} }
func (s *Min) params() []param    { return nil }
func (s *Min) check() *fieldError { return nil }

func (s *Min) compile(h hdr, kids []enode, _ enode) enode { return compileMinMax(h, kids, true) }

func compileMinMax(h hdr, kids []enode, isMin bool) enode {
	for i, k := range kids {
		kh := k.h()
		h.box = h.box.Union(kh.box)
		if i == 0 {
			h.out, h.lo, h.hi = kh.out, kh.lo, kh.hi
		} else if isMin {
			h.out, h.lo, h.hi = min(h.out, kh.out), min(h.lo, kh.lo), min(h.hi, kh.hi)
		} else {
			h.out, h.lo, h.hi = max(h.out, kh.out), max(h.lo, kh.lo), max(h.hi, kh.hi)
		}
	}
	return &eMinMax{hdr: h, kids: kids, min: isMin}
}

type eMinMax struct {
	hdr
	kids []enode
	min  bool
}

func (n *eMinMax) kidsLive(r Rect) bool { return anyLive(n.kids, r) }

func (n *eMinMax) pick(w *work, x, y, gain float64) (ID, float64) {
	return pickBest(w, n.kids, x, y, gain)
}

func (n *eMinMax) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if len(n.kids) == 0 {
		fill(dst, 0)
		return
	}
	written := false
	floor := math.Inf(-1)
	if n.min {
		floor = math.Inf(1)
	}
	var tmp []float64
	for _, c := range n.kids {
		if !c.reach(b) {
			if n.min {
				floor = min(floor, c.h().out)
			} else {
				floor = max(floor, c.h().out)
			}
			continue
		}
		if !written {
			c.eval(w, xs, ys, b, dst)
			written = true
			continue
		}
		if tmp == nil {
			tmp = w.get(len(dst))
		}
		c.eval(w, xs, ys, b, tmp)
		if n.min {
			for i := range dst {
				dst[i] = min(dst[i], tmp[i])
			}
		} else {
			for i := range dst {
				dst[i] = max(dst[i], tmp[i])
			}
		}
	}
	if tmp != nil {
		w.put(tmp)
	}
	switch {
	case !written:
		fill(dst, floor)
	case n.min && floor != math.Inf(1):
		for i := range dst {
			dst[i] = min(dst[i], floor)
		}
	case !n.min && floor != math.Inf(-1):
		for i := range dst {
			dst[i] = max(dst[i], floor)
		}
	}
}
