package uplifttree

import (
	"fmt"
	"math"
)

// TypeRegion is the JSON type of a Region.
const TypeRegion = "region"

var regionKind = kind{TypeRegion, func() Shape { return &Region{Value: 1} }, 0, 0}

// Region is a polygon with a smooth border: Value deeper than Border inside
// the polygon, 0 outside it, and Value·smoothstep(depth/Border) across the
// border band, where depth is the distance to the outline. Inside is decided
// by the even-odd rule. Border 0 gives a hard edge.
type Region struct {
	Polygon []Point // at least three vertices
	Border  float64 // metres, ≥ 0
	Value   float64
}

func (*Region) Type() string { return TypeRegion }

func (s *Region) clone() Shape {
	c := *s
	c.Polygon = append([]Point(nil), s.Polygon...)
	return &c
}

func (s *Region) params() []param {
	return []param{
		{"polygon", ParamPoints, true, &s.Polygon},
		{"border", ParamNumber, false, &s.Border},
		{"value", ParamNumber, false, &s.Value},
	}
}

func (s *Region) check() *fieldError {
	n := len(s.Polygon)
	if n < 3 || n > maxVertices {
		return ferr("polygon", "needs 3 to %d vertices, got %d", maxVertices, n)
	}
	for i, p := range s.Polygon {
		if e := point(fmt.Sprintf("polygon[%d]", i), p); e != nil {
			return e
		}
	}
	return first(nonNegative("border", s.Border), finite("value", s.Value))
}

func (s *Region) compile(h hdr, _ []enode, _ enode) enode {
	n := &eRegion{border: s.Border, value: s.Value}
	for i, a := range s.Polygon {
		b := s.Polygon[(i+1)%len(s.Polygon)]
		e := edge{ax: a.X, ay: a.Y, ex: b.X - a.X, ey: b.Y - a.Y}
		if l2 := e.ex*e.ex + e.ey*e.ey; l2 > 0 {
			e.il2 = 1 / l2
		}
		if e.ey != 0 {
			e.slope = e.ex / e.ey
		}
		e.near = Rect{min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y)}.
			expand(s.Border, s.Border).pad()
		n.edges = append(n.edges, e)
		h.box = h.box.Union(Rect{a.X, a.Y, a.X, a.Y})
	}
	h.box = h.box.pad()
	h.lo, h.hi = valueRange(0, s.Value)
	h.cost = int64(2 * len(s.Polygon))
	n.hdr = h
	return n
}

type edge struct {
	ax, ay, ex, ey, il2 float64
	slope               float64 // ex/ey, for the crossing test
	near                Rect    // the edge's box grown by the border
}

type eRegion struct {
	hdr
	edges         []edge
	border, value float64
}

func (n *eRegion) eval(_ *work, xs, ys []float64, b Rect, dst []float64) {
	// A span that no edge's near box reaches lies wholly inside or wholly
	// outside, farther than the border from the outline: one value for all.
	if len(dst) > 1 {
		far := true
		for k := range n.edges {
			if n.edges[k].near.Overlaps(b) {
				far = false
				break
			}
		}
		if far {
			n.evalPoints(xs[:1], ys[:1], dst[:1])
			fill(dst[1:], dst[0])
			return
		}
	}
	n.evalPoints(xs, ys, dst)
}

func (n *eRegion) evalPoints(xs, ys []float64, dst []float64) {
	b2 := n.border * n.border
	bx := &n.box
	for i := range dst {
		x, y := xs[i], ys[i]
		if !(x >= bx.X0 && x <= bx.X1 && y >= bx.Y0 && y <= bx.Y1) {
			dst[i] = 0
			continue
		}
		inside := false
		for k := range n.edges {
			e := &n.edges[k]
			if (e.ay > y) != (e.ay+e.ey > y) && x < e.ax+(y-e.ay)*e.slope {
				inside = !inside
			}
		}
		if !inside {
			dst[i] = 0
			continue
		}
		if n.border == 0 {
			dst[i] = n.value
			continue
		}
		// Only edges closer than the border matter; the others are skipped
		// by their grown boxes, which cannot change whether d² < border².
		d2 := math.Inf(1)
		for k := range n.edges {
			e := &n.edges[k]
			if !(x >= e.near.X0 && x <= e.near.X1 && y >= e.near.Y0 && y <= e.near.Y1) {
				continue
			}
			px, py := x-e.ax, y-e.ay
			t := (px*e.ex + py*e.ey) * e.il2
			t = max(0, min(1, t))
			dx, dy := px-t*e.ex, py-t*e.ey
			d2 = min(d2, dx*dx+dy*dy)
		}
		if d2 >= b2 {
			dst[i] = n.value
			continue
		}
		dst[i] = n.value * smoothstep(math.Sqrt(d2)/n.border)
	}
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Region) place(at func(x, y float64) Point, size float64, _ ID) {
	s.Polygon = []Point{at(-1, -1), at(1, -1), at(1, 1), at(-1, 1)}
	s.Border = size / 4
}
