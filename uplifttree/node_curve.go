package uplifttree

import (
	"fmt"
	"math"
)

// TypeCurve is the JSON type of a Curve.
const TypeCurve = "curve"

var curveKind = kind{TypeCurve, func() Shape { return &Curve{Blend: 0.1} }, 0, 0}

// Curve is a mountain range along a polyline. Radius and value interpolate
// the vertices monotonically along arc length. Each segment is evaluated as
// a Segment; the two largest segment values m₁ ≥ m₂ are combined by the
// smooth maximum of radius Blend (see Blend), which rounds the crease on
// the inner side of a bend and equals m₁ wherever m₁ − m₂ ≥ Blend. On the
// outer side of a bend both segments see the shared vertex, so the joins
// are round and smooth.
type Curve struct {
	Vertices []Vertex // at least two, consecutive ones distinct
	Blend    float64  // ≥ 0, in value units
}

func (*Curve) Type() string { return TypeCurve }

func (s *Curve) clone() Shape {
	c := *s
	c.Vertices = append([]Vertex(nil), s.Vertices...)
	return &c
}

func (s *Curve) params() []param {
	return []param{
		{"vertices", ParamVertices, true, &s.Vertices},
		{"blend", ParamNumber, false, &s.Blend},
	}
}

func (s *Curve) check() *fieldError {
	n := len(s.Vertices)
	if n < 2 || n > maxVertices {
		return ferr("vertices", "needs 2 to %d vertices, got %d", maxVertices, n)
	}
	for i, v := range s.Vertices {
		f := fmt.Sprintf("vertices[%d]", i)
		if e := first(finite(f+".x", v.X), finite(f+".y", v.Y), positive(f+".r", v.R), finite(f+".u", v.U)); e != nil {
			return e
		}
		if i > 0 {
			p := s.Vertices[i-1]
			if !(math.Hypot(v.X-p.X, v.Y-p.Y) > 0) {
				return ferr(f, "coincides with vertex %d; consecutive vertices must differ", i-1)
			}
		}
	}
	return nonNegative("blend", s.Blend)
}

func (s *Curve) compile(h hdr, _ []enode, _ enode) enode {
	nv := len(s.Vertices)
	n := &eCurve{k: s.Blend}
	x := make([]float64, nv)
	rs := make([]float64, nv)
	us := make([]float64, nv)
	for i, v := range s.Vertices {
		if i > 0 {
			p := s.Vertices[i-1]
			x[i] = x[i-1] + math.Hypot(v.X-p.X, v.Y-p.Y)
		}
		rs[i], us[i] = v.R, v.U
	}
	n.r, n.u = newMono(x, rs), newMono(x, us)
	for i := range nv - 1 {
		a, b := Point{s.Vertices[i].X, s.Vertices[i].Y}, Point{s.Vertices[i+1].X, s.Vertices[i+1].Y}
		rmax := max(s.Vertices[i].R, s.Vertices[i+1].R)
		seg := curveSeg{skel: newSkel(a, b), box: skelBox(a, b, rmax), rmax: rmax, rmax2: rmax * rmax}
		h.box = h.box.Union(seg.box)
		n.segs = append(n.segs, seg)
	}
	h.lo, h.hi = valueRange(0, us...)
	h.cost = int64(2 * nv)
	n.hdr = h
	return n
}

type curveSeg struct {
	skel
	box   Rect
	rmax  float64
	rmax2 float64
}

type eCurve struct {
	hdr
	segs []curveSeg
	r, u mono // over arc length; interval i belongs to segment i
	k    float64
}

func (n *eCurve) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	idx := w.idx[:0]
	for i := range n.segs {
		if sg := &n.segs[i]; sg.box.Overlaps(b) && nearSkel(&sg.skel, sg.rmax, b) {
			idx = append(idx, int32(i))
		}
	}
	w.idx = idx
	if len(idx) == 0 {
		fill(dst, 0)
		return
	}
	// Segments skipped here are exactly 0 on every point; the two largest
	// values of the whole set are found among the active values and (up to
	// two of) those zeros.
	zeros := min(2, len(n.segs)-len(idx))
	m1i, m2i := math.Inf(-1), math.Inf(-1)
	if zeros >= 1 {
		m1i = 0
	}
	if zeros >= 2 {
		m2i = 0
	}
	bx := &n.box
	for i := range dst {
		x, y := xs[i], ys[i]
		if !(x >= bx.X0 && x <= bx.X1 && y >= bx.Y0 && y <= bx.Y1) {
			dst[i] = 0
			continue
		}
		m1, m2 := m1i, m2i
		for _, j := range idx {
			s := &n.segs[j]
			t, d2 := s.project(x, y)
			v := 0.0
			if d2 < s.rmax2 {
				if f := falloff(d2, n.r.local(int(j), t)); f != 0 {
					v = n.u.local(int(j), t) * f
				}
			}
			if v > m1 {
				m1, m2 = v, m1
			} else if v > m2 {
				m2 = v
			}
		}
		if len(n.segs) == 1 {
			dst[i] = m1
		} else {
			dst[i] = smax(m1, m2, n.k)
		}
	}
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Curve) place(at func(x, y float64) Point, size float64, _ ID) {
	c := at(0, 0)
	s.Vertices = []Vertex{{X: c.X - size, Y: c.Y, R: size / 2, U: 1}, {X: c.X, Y: c.Y - size/2, R: size / 2, U: 1}, {X: c.X + size, Y: c.Y, R: size / 2, U: 1}}
}
