package uplifttree

// TypeSegment is the JSON type of a Segment.
const TypeSegment = "segment"

var segmentKind = kind{TypeSegment, func() Shape { return &Segment{} }, 0, 0}

// Segment is the segment mountain range of Schott et al. 2022, §4: for a
// point p with projection parameter t* on [A, B] (clamped to [0, 1]) and
// distance d to the skeleton point, U(t*)·(1 − d²/R(t*)²)³ within R(t*), 0
// beyond. R and U interpolate Ctrls monotonically (Fritsch–Butland) and are
// constant before the first and after the last control point.
type Segment struct {
	A, B  Point
	Ctrls []Ctrl // at least one, T strictly increasing
}

func (*Segment) Type() string { return TypeSegment }

func (s *Segment) clone() Shape {
	c := *s
	c.Ctrls = append([]Ctrl(nil), s.Ctrls...)
	return &c
}

func (s *Segment) params() []param {
	return []param{
		{"a", ParamPoint, true, &s.A},
		{"b", ParamPoint, true, &s.B},
		{"ctrl", ParamCtrls, true, &s.Ctrls},
	}
}

func (s *Segment) check() *fieldError {
	return first(point("a", s.A), point("b", s.B), checkCtrls("ctrl", s.Ctrls, "radius"))
}

func (s *Segment) compile(h hdr, _ []enode, _ enode) enode {
	n := &eSegment{skel: newSkel(s.A, s.B)}
	var rmax float64
	n.r, n.u, rmax = ctrlCurves(s.Ctrls)
	n.rmax, n.rmax2 = rmax, rmax*rmax
	h.box = skelBox(s.A, s.B, rmax)
	h.lo, h.hi = valueRange(0, n.u.y...)
	h.cost = 2
	n.hdr = h
	return n
}

type eSegment struct {
	hdr
	skel
	rmax  float64
	rmax2 float64
	r, u  mono
}

func (n *eSegment) reach(b Rect) bool {
	return n.box.Overlaps(b) && nearSkel(&n.skel, n.rmax, b)
}

func (n *eSegment) eval(_ *work, xs, ys []float64, _ Rect, dst []float64) {
	bx := &n.box
	for i := range dst {
		x, y := xs[i], ys[i]
		if !(x >= bx.X0 && x <= bx.X1 && y >= bx.Y0 && y <= bx.Y1) {
			dst[i] = 0
			continue
		}
		t, d2 := n.project(x, y)
		if !(d2 < n.rmax2) {
			dst[i] = 0
			continue
		}
		k, s := n.r.find(t)
		f := falloff(d2, n.r.local(k, s))
		if f == 0 {
			dst[i] = 0
			continue
		}
		dst[i] = n.u.local(k, s) * f
	}
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Segment) place(at func(x, y float64) Point, size float64, _ ID) {
	s.A, s.B = at(-1, 0), at(1, 0)
	s.Ctrls = []Ctrl{{T: 0, R: size / 2, U: 1}, {T: 1, R: size / 2, U: 1}}
}
