package uplifttree

import (
	"math"

	"orogen/sim/noise"
)

// Evaluation works on spans: slices of sample points (xs[i], ys[i]) in the
// frame of the node, together with b, a rectangle holding all of them. Every
// compiled node knows its box (outside of which it equals its constant out
// value exactly), so a parent skips a child whose box misses b and uses the
// constant instead. Rasterize hands the root one 32×32 tile at a time;
// Eval hands it a single point. Because a node outside its box takes
// exactly its out value, skipping never changes a result beyond the sign of
// a zero, which Eval and Rasterize normalize away: a pixel gets the same
// bits whatever span it was computed in.

// hdr is what every compiled node knows about itself.
type hdr struct {
	id     ID
	src    *node   // the node compiled
	box    Rect    // outside box the node's value is exactly out
	out    float64 // the value outside box
	lo, hi float64 // bounds on every value the node takes
	cost   int64   // per-point work, instances expanded (saturating)
	depth  int     // longest path below, instances expanded
}

// enode is a compiled node.
type enode interface {
	h() *hdr
	// eval writes the node's value at the points (xs[i], ys[i]), all inside
	// b, into dst. len(xs) == len(ys) == len(dst) ≥ 1.
	eval(w *work, xs, ys []float64, b Rect, dst []float64)
	// reach reports whether the node may differ from out somewhere in b;
	// false is a promise that it equals out on all of b. The default tests
	// the box; primitives refine it with their shape.
	reach(b Rect) bool
}

func (h *hdr) h() *hdr { return h }

func (h *hdr) reach(b Rect) bool { return h.box.Overlaps(b) }

// margin is the slack of the shape tests in reach, relative to the
// magnitudes involved (see padRel).
func margin(vs ...float64) float64 {
	m := 0.0
	for _, v := range vs {
		m += abs(v)
	}
	return padRel * m
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

// spanMax is the largest span: one 32×32 tile.
const (
	tileSize = 32
	spanMax  = tileSize * tileSize
)

// work is one goroutine's scratch: a stack of span buffers and the layers
// to sample.
type work struct {
	free   [][]float64
	idx    []int32
	cols   noise.Axis // noise columns and rows (see span)
	rows   noise.Axis
	layers Layers
}

func (w *work) get(n int) []float64 {
	if k := len(w.free); k > 0 {
		b := w.free[k-1]
		w.free = w.free[:k-1]
		return b[:n]
	}
	return make([]float64, n, spanMax)
}

func (w *work) put(b []float64) { w.free = append(w.free, b[:cap(b)]) }

func fill(dst []float64, v float64) {
	for i := range dst {
		dst[i] = v
	}
}

// bounds returns the box of the points, ignoring NaN coordinates.
func bounds(xs, ys []float64) Rect {
	r := Empty
	for i, x := range xs {
		y := ys[i]
		if x < r.X0 {
			r.X0 = x
		}
		if x > r.X1 {
			r.X1 = x
		}
		if y < r.Y0 {
			r.Y0 = y
		}
		if y > r.Y1 {
			r.Y1 = y
		}
	}
	return r
}

// live reports whether n may differ from its out value somewhere in r (in
// n's frame). It looks through operators down to the primitives, so a
// warp or transform can skip its per-point work on a span where all of its
// subtree's primitives are out of reach.
func live(n enode, r Rect) bool {
	if !n.reach(r) {
		return false
	}
	anyLive := func(kids []enode) bool {
		for _, k := range kids {
			if live(k, r) {
				return true
			}
		}
		return false
	}
	switch n := n.(type) {
	case *eSum:
		return anyLive(n.kids)
	case *eMinMax:
		return anyLive(n.kids)
	case *eBlend:
		return anyLive(n.kids)
	case *eScale:
		return anyLive(n.kids)
	case *eClamp:
		return live(n.kid, r)
	case *eAffine:
		return live(n.kid, n.inv.rect(r))
	case *eFold:
		return live(n.kid, r.expand(abs(n.amp*n.ex), abs(n.amp*n.ey)).pad())
	case *eFault:
		return live(n.kid, r.Union(r.shift(Point{-n.ox, -n.oy})).pad())
	case *eWarp:
		return live(n.kid, r.expand(abs(n.amp), abs(n.amp)).pad())
	}
	return true
}

// evalOr evaluates c into dst when its box meets b and reports true, or
// leaves dst alone and reports false (c equals c.out on every point).
func evalOr(w *work, c enode, xs, ys []float64, b Rect, dst []float64) bool {
	if !c.reach(b) {
		return false
	}
	c.eval(w, xs, ys, b, dst)
	return true
}

// evalAll evaluates c into dst, filling its out value when it is skipped.
func evalAll(w *work, c enode, xs, ys []float64, b Rect, dst []float64) {
	if !evalOr(w, c, xs, ys, b, dst) {
		fill(dst, c.h().out)
	}
}

// ---- primitives ----

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

// falloff is the primitive profile (1 − d²/r²)³ for d² < r², else 0.
func falloff(d2, r float64) float64 {
	r2 := r * r
	if !(d2 < r2) {
		return 0
	}
	t := 1 - d2/r2
	return t * t * t
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

type eNoise struct {
	hdr
	f        *noise.Fractal
	amp, off float64
}

func (n *eNoise) eval(w *work, xs, ys []float64, _ Rect, dst []float64) {
	span(n.f, w, xs, ys, dst)
	for i, v := range dst {
		dst[i] = n.off + n.amp*v
	}
}

type eRaster struct {
	hdr
	layer string
	rect  Rect
	value float64
}

func (n *eRaster) eval(w *work, xs, ys []float64, _ Rect, dst []float64) {
	var f = lookupLayer(w.layers, n.layer)
	if f == nil {
		fill(dst, 0)
		return
	}
	r := n.rect
	sx := float64(f.W) / (r.X1 - r.X0)
	sy := float64(f.H) / (r.Y1 - r.Y0)
	for i := range dst {
		x, y := xs[i], ys[i]
		if !(x >= r.X0 && x <= r.X1 && y >= r.Y0 && y <= r.Y1) {
			dst[i] = 0
			continue
		}
		dst[i] = n.value * f.Sample((x-r.X0)*sx-0.5, (y-r.Y0)*sy-0.5)
	}
}

// ---- operators ----

type eSum struct {
	hdr
	kids []enode
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

type eMinMax struct {
	hdr
	kids []enode
	min  bool
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

type eScale struct {
	hdr
	kids []enode
	k    float64
}

func (n *eScale) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if len(n.kids) == 1 {
		if !evalOr(w, n.kids[0], xs, ys, b, dst) {
			fill(dst, n.out)
			return
		}
		for i := range dst {
			dst[i] *= n.k
		}
		return
	}
	c0, c1 := n.kids[0], n.kids[1]
	if !evalOr(w, c0, xs, ys, b, dst) {
		o0 := c0.h().out
		if o0 == 0 {
			fill(dst, 0) // 0·c₁ (up to the sign of zero)
			return
		}
		if !evalOr(w, c1, xs, ys, b, dst) {
			fill(dst, o0*c1.h().out*n.k)
			return
		}
		for i := range dst {
			dst[i] = o0 * dst[i] * n.k
		}
		return
	}
	tmp := w.get(len(dst))
	defer w.put(tmp)
	if !evalOr(w, c1, xs, ys, b, tmp) {
		o1 := c1.h().out
		if o1 == 0 {
			fill(dst, 0)
			return
		}
		for i := range dst {
			dst[i] = dst[i] * o1 * n.k
		}
		return
	}
	for i := range dst {
		dst[i] = dst[i] * tmp[i] * n.k
	}
}

// eAffine is a Transform or an Instance: the child evaluated at inv·p.
type eAffine struct {
	hdr
	kid      enode
	fwd, inv affine
	instance bool
}

func (n *eAffine) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if !live(n, b) {
		fill(dst, n.out)
		return
	}
	tx, ty := w.get(len(dst)), w.get(len(dst))
	m := &n.inv
	for i := range dst {
		tx[i], ty[i] = m.apply(xs[i], ys[i])
	}
	evalAll(w, n.kid, tx, ty, bounds(tx, ty), dst)
	w.put(ty)
	w.put(tx)
}

type eFold struct {
	hdr
	kid               enode
	ex, ey, px, py    float64 // displacement direction e, fold axis e⊥
	amp, omega, phase float64
}

// at returns the point the child is sampled at for (x, y).
func (n *eFold) at(x, y float64) (float64, float64) {
	s := n.amp * math.Sin(n.omega*(x*n.px+y*n.py)+n.phase)
	return x - s*n.ex, y - s*n.ey
}

func (n *eFold) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if !live(n, b) {
		fill(dst, n.out)
		return
	}
	tx, ty := w.get(len(dst)), w.get(len(dst))
	for i := range dst {
		tx[i], ty[i] = n.at(xs[i], ys[i])
	}
	evalAll(w, n.kid, tx, ty, bounds(tx, ty), dst)
	w.put(ty)
	w.put(tx)
}

type eFault struct {
	hdr
	kid                    enode
	px, py, nx, ny, ox, oy float64
	width                  float64
}

func (n *eFault) at(x, y float64) (float64, float64) {
	s := (x-n.px)*n.nx + (y-n.py)*n.ny
	var f float64
	if n.width == 0 {
		if s > 0 {
			f = 1
		}
	} else {
		f = smoothstep(s/n.width + 0.5)
	}
	return x - f*n.ox, y - f*n.oy
}

func (n *eFault) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if !live(n, b) {
		fill(dst, n.out)
		return
	}
	tx, ty := w.get(len(dst)), w.get(len(dst))
	for i := range dst {
		tx[i], ty[i] = n.at(xs[i], ys[i])
	}
	evalAll(w, n.kid, tx, ty, bounds(tx, ty), dst)
	w.put(ty)
	w.put(tx)
}

type eWarp struct {
	hdr
	kid    enode
	fx, fy *noise.Fractal
	amp    float64
}

func (n *eWarp) at(x, y float64) (float64, float64) {
	return x + n.amp*n.fx.At(x, y), y + n.amp*n.fy.At(x, y)
}

func (n *eWarp) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if !live(n, b) {
		fill(dst, n.out)
		return
	}
	tx, ty := w.get(len(dst)), w.get(len(dst))
	span(n.fx, w, xs, ys, tx)
	span(n.fy, w, xs, ys, ty)
	for i := range dst {
		tx[i], ty[i] = xs[i]+n.amp*tx[i], ys[i]+n.amp*ty[i]
	}
	evalAll(w, n.kid, tx, ty, bounds(tx, ty), dst)
	w.put(ty)
	w.put(tx)
}

type eClamp struct {
	hdr
	kid    enode
	lo, hi float64
}

func (n *eClamp) eval(w *work, xs, ys []float64, b Rect, dst []float64) {
	if !evalOr(w, n.kid, xs, ys, b, dst) {
		fill(dst, n.out)
		return
	}
	for i := range dst {
		dst[i] = min(max(dst[i], n.lo), n.hi)
	}
}
