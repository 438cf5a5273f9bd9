package uplifttree

import (
	"math"

	"orogen/sim"
)

// Layers supplies the raster layers that Raster nodes sample, by name.
// Layer returns nil for a name it does not know; such nodes evaluate to 0.
// Rasterize may call Layer from several goroutines at once.
type Layers interface {
	Layer(name string) *sim.Field
}

// LayerMap is the simplest Layers.
type LayerMap map[string]*sim.Field

// Layer returns m[name].
func (m LayerMap) Layer(name string) *sim.Field { return m[name] }

// lookupLayer returns the named layer, or nil when it is missing or not a
// usable field.
func lookupLayer(l Layers, name string) *sim.Field {
	if l == nil {
		return nil
	}
	f := l.Layer(name)
	if f == nil || f.W <= 0 || f.H <= 0 || len(f.Data) < f.W*f.H {
		return nil
	}
	return f
}

const costCap = math.MaxInt64 / 4

func addCost(a, b int64) int64 { return min(costCap, a+b) }

// valueRange returns the smallest and largest of vs and extra.
func valueRange(extra float64, vs ...float64) (lo, hi float64) {
	lo, hi = extra, extra
	for _, v := range vs {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// mulRange bounds the product of a value in [a0, a1] and one in [b0, b1].
func mulRange(a0, a1, b0, b1 float64) (lo, hi float64) {
	p := [4]float64{a0 * b0, a0 * b1, a1 * b0, a1 * b1}
	lo, hi = p[0], p[0]
	for _, v := range p {
		if math.IsNaN(v) {
			return math.Inf(-1), math.Inf(1)
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// lift maps a rectangle in the frame of n's children to a rectangle in n's
// own frame holding every point whose value may depend on the child
// values inside r: the identity for pointwise operators, the forward image
// for transforms and instances, and r grown by the largest displacement for
// warps.
func lift(n enode, r Rect) Rect {
	if r.IsEmpty() {
		return r
	}
	switch n := n.(type) {
	case *eAffine:
		return n.fwd.rect(r)
	case *eFold:
		return r.expand(abs(n.amp*n.ex), abs(n.amp*n.ey)).pad()
	case *eFault:
		return r.Union(r.shift(Point{n.ox, n.oy})).pad()
	case *eWarp:
		return r.expand(abs(n.amp), abs(n.amp)).pad()
	}
	return r
}

// compile builds the evaluator of one node from its shape and its compiled
// children (and, for an instance, its compiled target).
func compile(id ID, s Shape, kids []enode, ref enode) enode {
	h := hdr{id: id, box: Empty, cost: 1, depth: 1}
	for _, k := range kids {
		h.cost = addCost(h.cost, k.h().cost)
		h.depth = max(h.depth, 1+k.h().depth)
	}
	if ref != nil {
		h.cost = addCost(h.cost, ref.h().cost)
		h.depth = max(h.depth, 1+ref.h().depth)
	}
	switch s := s.(type) {
	case *Disc:
		h.box = around(s.Center, s.Radius).pad()
		h.lo, h.hi = valueRange(0, s.Value)
		r2 := s.Radius * s.Radius
		return &eDisc{hdr: h, cx: s.Center.X, cy: s.Center.Y, r2: r2, inv: 1 / r2, u: s.Value}

	case *Segment:
		n := &eSegment{skel: newSkel(s.A, s.B)}
		var rmax float64
		n.r, n.u, rmax = ctrlCurves(s.Ctrls)
		n.rmax, n.rmax2 = rmax, rmax*rmax
		h.box = Rect{min(s.A.X, s.B.X), min(s.A.Y, s.B.Y), max(s.A.X, s.B.X), max(s.A.Y, s.B.Y)}.expand(rmax, rmax).pad()
		h.lo, h.hi = valueRange(0, n.u.y...)
		h.cost = 2
		n.hdr = h
		return n

	case *Valley:
		n := &eValley{skel: newSkel(s.A, s.B), outside: s.Outside}
		var rmax float64
		n.r, n.u, rmax = ctrlCurves(s.Ctrls)
		n.rmax, n.rmax2 = rmax, rmax*rmax
		h.box = Rect{min(s.A.X, s.B.X), min(s.A.Y, s.B.Y), max(s.A.X, s.B.X), max(s.A.Y, s.B.Y)}.expand(rmax, rmax).pad()
		h.out = s.Outside
		h.lo, h.hi = valueRange(s.Outside, n.u.y...)
		h.cost = 2
		n.hdr = h
		return n

	case *Curve:
		return compileCurve(h, s)

	case *Region:
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

	case *Noise:
		h.box = Everywhere
		h.out = s.Offset
		h.lo, h.hi = s.Offset-abs(s.Amplitude), s.Offset+abs(s.Amplitude)
		h.cost = int64(3 * s.Octaves)
		return &eNoise{hdr: h, f: newFractal(s.Seed, s.Frequency, s.Octaves, s.Persistence, s.Lacunarity, 0),
			amp: s.Amplitude, off: s.Offset}

	case *Raster:
		h.box = s.Rect.pad()
		h.lo, h.hi = math.Inf(-1), math.Inf(1)
		if s.Value == 0 {
			h.lo, h.hi = 0, 0
		}
		h.cost = 4
		return &eRaster{hdr: h, layer: s.Layer, rect: s.Rect, value: s.Value}

	case *Sum:
		for _, k := range kids {
			kh := k.h()
			h.box = h.box.Union(kh.box)
			h.lo += kh.lo
			h.hi += kh.hi
		}
		h.out = sumOut(kids)
		fixRange(&h)
		return &eSum{hdr: h, kids: kids}

	case *Max, *Min:
		isMin := s.Type() == TypeMin
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

	case *Blend:
		isMin := s.Mode == "min"
		var loLo, loHi, hiLo, hiHi float64 // ranges of the children's lo and hi
		for i, k := range kids {
			kh := k.h()
			h.box = h.box.Union(kh.box)
			switch {
			case i == 0:
				h.out = kh.out
				loLo, loHi, hiLo, hiHi = kh.lo, kh.lo, kh.hi, kh.hi
			default:
				if isMin {
					h.out = smin(h.out, kh.out, s.Radius)
				} else {
					h.out = smax(h.out, kh.out, s.Radius)
				}
				loLo, loHi = min(loLo, kh.lo), max(loHi, kh.lo)
				hiLo, hiHi = min(hiLo, kh.hi), max(hiHi, kh.hi)
			}
		}
		if len(kids) > 0 {
			// Each fold step moves at most 2k/27 from the exact max (min), and
			// never beyond the mean of its two inputs.
			slack := float64(len(kids)-1) * 2 * s.Radius / 27
			if isMin {
				h.lo, h.hi = loLo, min(hiLo+slack, hiHi)
			} else {
				h.lo, h.hi = max(loHi-slack, loLo), hiHi
			}
			m := 1e-9 * (1 + max(abs(h.lo), abs(h.hi)))
			h.lo, h.hi = h.lo-m, h.hi+m
		}
		fixRange(&h)
		return &eBlend{hdr: h, kids: kids, k: s.Radius, min: isMin}

	case *Scale:
		k0 := kids[0].h()
		if len(kids) == 1 {
			h.box = k0.box
			h.out = k0.out * s.Factor
			h.lo, h.hi = mulRange(k0.lo, k0.hi, s.Factor, s.Factor)
			return &eScale{hdr: h, kids: kids, k: s.Factor}
		}
		k1 := kids[1].h()
		switch {
		case k0.out == 0 && k1.out == 0:
			h.box = k0.box.Intersect(k1.box)
		case k0.out == 0:
			h.box = k0.box
		case k1.out == 0:
			h.box = k1.box
		default:
			h.box = k0.box.Union(k1.box)
		}
		h.out = k0.out * k1.out * s.Factor
		lo, hi := mulRange(k0.lo, k0.hi, k1.lo, k1.hi)
		h.lo, h.hi = mulRange(lo, hi, s.Factor, s.Factor)
		return &eScale{hdr: h, kids: kids, k: s.Factor}

	case *Transform:
		return compileAffine(h, &s.Frame, kids[0], false)

	case *Instance:
		return compileAffine(h, &s.Frame, ref, true)

	case *Fold:
		k := kids[0].h()
		sn, cs := math.Sincos(s.Angle * math.Pi / 180)
		n := &eFold{kid: kids[0], ex: cs, ey: sn, px: -sn, py: cs, amp: s.Amplitude,
			omega: 2 * math.Pi / s.Wavelength, phase: s.Phase * math.Pi / 180}
		h.out, h.lo, h.hi = k.out, k.lo, k.hi
		h.cost += 2
		n.hdr = h
		n.box = lift(n, k.box)
		return n

	case *Fault:
		k := kids[0].h()
		sn, cs := math.Sincos(s.Angle * math.Pi / 180)
		n := &eFault{kid: kids[0], px: s.Point.X, py: s.Point.Y, nx: sn, ny: -cs,
			ox: s.Offset.X, oy: s.Offset.Y, width: s.Width}
		h.out, h.lo, h.hi = k.out, k.lo, k.hi
		n.hdr = h
		n.box = lift(n, k.box)
		return n

	case *NoiseWarp:
		k := kids[0].h()
		n := &eWarp{kid: kids[0], amp: s.Amplitude,
			fx: newFractal(s.Seed, s.Frequency, s.Octaves, s.Persistence, s.Lacunarity, 0),
			fy: newFractal(s.Seed, s.Frequency, s.Octaves, s.Persistence, s.Lacunarity, 0.5)}
		h.out, h.lo, h.hi = k.out, k.lo, k.hi
		h.cost = addCost(h.cost, int64(6*s.Octaves))
		n.hdr = h
		n.box = lift(n, k.box)
		return n

	case *Clamp:
		k := kids[0].h()
		cl := func(v float64) float64 { return min(max(v, s.Lo), s.Hi) }
		h.box = k.box
		h.out, h.lo, h.hi = cl(k.out), cl(k.lo), cl(k.hi)
		return &eClamp{hdr: h, kid: kids[0], lo: s.Lo, hi: s.Hi}
	}
	panic("uplifttree: compile: unknown shape")
}

// fixRange widens a range that lost its meaning (NaN) to the whole line.
func fixRange(h *hdr) {
	if math.IsNaN(h.lo) || math.IsNaN(h.hi) {
		h.lo, h.hi = math.Inf(-1), math.Inf(1)
	}
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

func compileCurve(h hdr, s *Curve) enode {
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
		a, b := s.Vertices[i], s.Vertices[i+1]
		rmax := max(a.R, b.R)
		seg := curveSeg{skel: newSkel(Point{a.X, a.Y}, Point{b.X, b.Y}), rmax: rmax, rmax2: rmax * rmax}
		seg.box = Rect{min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y)}.expand(rmax, rmax).pad()
		h.box = h.box.Union(seg.box)
		n.segs = append(n.segs, seg)
	}
	h.lo, h.hi = valueRange(0, us...)
	h.cost = int64(2 * nv)
	n.hdr = h
	return n
}

func compileAffine(h hdr, f *Frame, kid enode, instance bool) enode {
	k := kid.h()
	n := &eAffine{kid: kid, fwd: f.forward(), inv: f.inverse(), instance: instance}
	h.out, h.lo, h.hi = k.out, k.lo, k.hi
	h.cost = addCost(h.cost, 1)
	n.hdr = h
	n.box = lift(n, k.box)
	return n
}
