package uplifttree

// TypeDisc is the JSON type of a Disc.
const TypeDisc = "disc"

var discKind = kind{TypeDisc, func() Shape { return &Disc{Value: 1} }, 0, 0}

// Disc is the point primitive: Value·(1 − d²/R²)³ within Radius of Center,
// 0 beyond (Schott et al. 2022, eq. 5).
type Disc struct {
	Center Point
	Radius float64 // metres, > 0
	Value  float64 // u_S, the value at the centre
}

func (*Disc) Type() string   { return TypeDisc }
func (s *Disc) clone() Shape { c := *s; return &c }

func (s *Disc) params() []param {
	return []param{
		{"center", ParamPoint, true, &s.Center},
		{"radius", ParamNumber, true, &s.Radius},
		{"value", ParamNumber, false, &s.Value},
	}
}

func (s *Disc) check() *fieldError {
	return first(point("center", s.Center), positive("radius", s.Radius), finite("value", s.Value))
}

func (s *Disc) compile(h hdr, _ []enode, _ enode) enode {
	h.box = around(s.Center, s.Radius).pad()
	h.lo, h.hi = valueRange(0, s.Value)
	r2 := s.Radius * s.Radius
	return &eDisc{hdr: h, cx: s.Center.X, cy: s.Center.Y, r2: r2, inv: 1 / r2, u: s.Value}
}

type eDisc struct {
	hdr
	cx, cy, r2, inv, u float64
}

func (n *eDisc) reach(b Rect) bool {
	if !n.box.Overlaps(b) {
		return false
	}
	dx := max(b.X0-n.cx, 0, n.cx-b.X1)
	dy := max(b.Y0-n.cy, 0, n.cy-b.Y1)
	lim := n.r2 * (1 + 4*padRel)
	return !(dx*dx+dy*dy > lim+margin(n.cx*n.cx, n.cy*n.cy))
}

func (n *eDisc) eval(_ *work, xs, ys []float64, _ Rect, dst []float64) {
	for i := range dst {
		dx, dy := xs[i]-n.cx, ys[i]-n.cy
		q := dx*dx + dy*dy
		if q < n.r2 {
			t := 1 - q*n.inv
			dst[i] = n.u * t * t * t
		} else {
			dst[i] = 0
		}
	}
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Disc) place(at func(x, y float64) Point, size float64, _ ID) {
	s.Center, s.Radius = at(0, 0), size
}
