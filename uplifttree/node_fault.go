package uplifttree

import "math"

// TypeFault is the JSON type of a Fault.
const TypeFault = "fault"

var faultKind = kind{TypeFault, func() Shape { return &Fault{} }, 1, 1}

// Fault is a warp: it samples its one child at p − w·Offset, where w is 1
// on the left of the directed line through Point at Angle degrees, 0 on
// its right, and smoothstep across a band of Width metres centred on the
// line (Width 0: a sharp step). "Left" is the side of the normal
// n = (sin θ, −cos θ), which points north for Angle 0.
type Fault struct {
	Point  Point
	Angle  float64 // degrees
	Offset Point   // metres
	Width  float64 // metres, ≥ 0
}

func (*Fault) Type() string   { return TypeFault }
func (s *Fault) clone() Shape { c := *s; return &c }

func (s *Fault) params() []param {
	return []param{
		{"point", ParamPoint, true, &s.Point},
		{"angle", ParamNumber, false, &s.Angle},
		{"offset", ParamPoint, true, &s.Offset},
		{"width", ParamNumber, false, &s.Width},
	}
}

func (s *Fault) check() *fieldError {
	return first(point("point", s.Point), finite("angle", s.Angle), point("offset", s.Offset),
		nonNegative("width", s.Width))
}

func (s *Fault) compile(h hdr, kids []enode, _ enode) enode {
	sn, cs := math.Sincos(s.Angle * math.Pi / 180)
	d := &faultWarp{px: s.Point.X, py: s.Point.Y, nx: sn, ny: -cs,
		ox: s.Offset.X, oy: s.Offset.Y, width: s.Width}
	return compileWarp(h, kids[0], d, 0)
}

// faultWarp is the displacement of a Fault.
type faultWarp struct {
	px, py, nx, ny, ox, oy float64
	width                  float64
}

func (d *faultWarp) at(x, y float64) (float64, float64) {
	s := (x-d.px)*d.nx + (y-d.py)*d.ny
	var f float64
	if d.width == 0 {
		if s > 0 {
			f = 1
		}
	} else {
		f = smoothstep(s/d.width + 0.5)
	}
	return x - f*d.ox, y - f*d.oy
}

func (d *faultWarp) displace(_ *work, xs, ys, tx, ty []float64) {
	for i := range tx {
		tx[i], ty[i] = d.at(xs[i], ys[i])
	}
}

func (d *faultWarp) toParent(r Rect) Rect { return r.Union(r.shift(Point{d.ox, d.oy})).pad() }
func (d *faultWarp) toChild(r Rect) Rect  { return r.Union(r.shift(Point{-d.ox, -d.oy})).pad() }

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Fault) place(at func(x, y float64) Point, size float64, _ ID) {
	s.Point = at(0, 0)
	s.Offset = Point{X: size / 4}
}
