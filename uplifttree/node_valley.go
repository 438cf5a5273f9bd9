package uplifttree

// TypeValley is the JSON type of a Valley.
const TypeValley = "valley"

var valleyKind = kind{TypeValley, func() Shape { return &Valley{Outside: 1} }, 0, 0}

// Valley is the valley primitive of Schott et al. 2022, §4: a segment
// skeleton [A, B] with half-width R(t) and floor U(t) from Ctrls
// (interpolated as for Segment). Its profile across the valley is the disc
// falloff turned upside down:
//
//	v(d) = Outside + (U(t*) − Outside)·(1 − d²/R(t*)²)³   for d < R(t*)
//	v(d) = Outside                                        beyond,
//
// flat at the floor on the skeleton, steepest at d ≈ 0.45·R and meeting
// Outside with zero slope at d = R. Put it under a Min (or Scale) to cut a
// range; steep walls need a narrow R relative to the cell size.
type Valley struct {
	A, B    Point
	Ctrls   []Ctrl
	Outside float64
}

func (*Valley) Type() string { return TypeValley }

func (s *Valley) clone() Shape {
	c := *s
	c.Ctrls = append([]Ctrl(nil), s.Ctrls...)
	return &c
}

func (s *Valley) params() []param {
	return []param{
		{"a", ParamPoint, true, &s.A},
		{"b", ParamPoint, true, &s.B},
		{"ctrl", ParamCtrls, true, &s.Ctrls},
		{"outside", ParamNumber, false, &s.Outside},
	}
}

func (s *Valley) check() *fieldError {
	return first(point("a", s.A), point("b", s.B), checkCtrls("ctrl", s.Ctrls, "half-width"),
		finite("outside", s.Outside))
}

func (s *Valley) compile(h hdr, _ []enode, _ enode) enode {
	n := &eValley{skel: newSkel(s.A, s.B), outside: s.Outside}
	var rmax float64
	n.r, n.u, rmax = ctrlCurves(s.Ctrls)
	n.rmax, n.rmax2 = rmax, rmax*rmax
	h.box = skelBox(s.A, s.B, rmax)
	h.out = s.Outside
	h.lo, h.hi = valueRange(s.Outside, n.u.y...)
	h.cost = 2
	n.hdr = h
	return n
}

type eValley struct {
	hdr
	skel
	rmax    float64
	rmax2   float64
	r, u    mono
	outside float64
}

func (n *eValley) reach(b Rect) bool {
	return n.box.Overlaps(b) && nearSkel(&n.skel, n.rmax, b)
}

func (n *eValley) eval(_ *work, xs, ys []float64, _ Rect, dst []float64) {
	bx := &n.box
	for i := range dst {
		x, y := xs[i], ys[i]
		if !(x >= bx.X0 && x <= bx.X1 && y >= bx.Y0 && y <= bx.Y1) {
			dst[i] = n.outside
			continue
		}
		t, d2 := n.project(x, y)
		if !(d2 < n.rmax2) {
			dst[i] = n.outside
			continue
		}
		k, s := n.r.find(t)
		f := falloff(d2, n.r.local(k, s))
		if f == 0 {
			dst[i] = n.outside
			continue
		}
		fl := n.u.local(k, s)
		v := n.outside + (fl-n.outside)*f
		dst[i] = max(min(fl, n.outside), min(max(fl, n.outside), v))
	}
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Valley) place(at func(x, y float64) Point, size float64, _ ID) {
	s.A, s.B = at(-1, 0), at(1, 0)
	s.Ctrls = []Ctrl{{T: 0, R: size / 4, U: -0.6}, {T: 1, R: size / 4, U: -0.6}}
}
