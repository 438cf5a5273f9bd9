package uplifttree

import (
	"fmt"
	"math"
)

// The segment skeleton and control points shared by Segment, Valley and
// Curve.

// skel is a segment skeleton [a, a+e].
type skel struct {
	ax, ay, ex, ey, il2 float64
}

func newSkel(a, b Point) skel {
	s := skel{ax: a.X, ay: a.Y, ex: b.X - a.X, ey: b.Y - a.Y}
	if l2 := s.ex*s.ex + s.ey*s.ey; l2 > 0 {
		s.il2 = 1 / l2
	}
	return s
}

// project returns the clamped projection parameter of (x, y) and the squared
// distance to the projected point. The ends are taken exactly.
func (s *skel) project(x, y float64) (t, d2 float64) {
	px, py := x-s.ax, y-s.ay
	t = (px*s.ex + py*s.ey) * s.il2
	var qx, qy float64
	switch {
	case t <= 0:
		t = 0
	case t >= 1:
		t, qx, qy = 1, s.ex, s.ey
	default:
		qx, qy = t*s.ex, t*s.ey
	}
	dx, dy := px-qx, py-qy
	return t, dx*dx + dy*dy
}

// nearSkel reports whether the capsule of radius r around s may meet b:
// the distance from b's centre to the skeleton, less b's half-diagonal, is
// below r.
func nearSkel(s *skel, r float64, b Rect) bool {
	cx, cy := (b.X0+b.X1)/2, (b.Y0+b.Y1)/2
	hd := 0.5 * math.Hypot(b.X1-b.X0, b.Y1-b.Y0)
	_, d2 := s.project(cx, cy)
	lim := r + hd + margin(cx, cy, r, hd)
	return !(d2 > lim*lim)
}

// falloff is the primitive profile (1 − d²/r²)³ for d² < r², else 0.
func falloff(d2, r float64) float64 {
	r2 := r * r
	if !(d2 < r2) {
		return 0
	}
	t := 1 - d2/r2
	return t * t * t
}

// skelBox returns the padded box of the skeleton [a, b] grown by r.
func skelBox(a, b Point, r float64) Rect {
	return Rect{min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y)}.expand(r, r).pad()
}

func checkCtrls(field string, cs []Ctrl, what string) *fieldError {
	if len(cs) < 1 || len(cs) > maxCtrls {
		return ferr(field, "needs 1 to %d control points, got %d", maxCtrls, len(cs))
	}
	for i, c := range cs {
		f := fmt.Sprintf("%s[%d]", field, i)
		if e := first(inRange(f+".t", c.T, 0, 1), positive(f+".r", c.R), finite(f+".u", c.U)); e != nil {
			if e.field == f+".r" {
				e.msg = what + " " + e.msg
			}
			return e
		}
		if i > 0 && !(c.T > cs[i-1].T) {
			return ferr(f+".t", "must be greater than the previous control point's t (%g), got %g", cs[i-1].T, c.T)
		}
	}
	return nil
}

// ctrlCurves builds the radius and value interpolants of control points and
// returns the largest radius.
func ctrlCurves(cs []Ctrl) (r, u mono, rmax float64) {
	t := make([]float64, len(cs))
	rs := make([]float64, len(cs))
	us := make([]float64, len(cs))
	for i, c := range cs {
		t[i], rs[i], us[i] = c.T, c.R, c.U
		rmax = max(rmax, c.R)
	}
	return newMono(t, rs), newMono(t, us), rmax
}
