package spl

import (
	"math"

	"orogen/sim"
	"orogen/sim/talus"
)

// Lanes is two independent ranges [A0, A1) and [B0, B1) of a drainage
// order: no node of one has its receiver in the other, and receivers lie
// in their node's range or are final already. Walking both at once gives
// the processor two independent dependency chains (each node waits for its
// receiver's new height, usually computed one node earlier), so their
// latencies overlap. B may be empty.
type Lanes struct{ A0, A1, B0, B1 int }

// ErodeClamp is Erode (no uplift, n = 1) followed by a constant talus
// limit (talus.Limiter.ClampOrdered with tangent tan), in one pass over
// both lanes of l. It writes the eroded heights to he and the limited
// heights over hs, and returns the number of nodes the limit lowered.
// tan <= 0 or NaN means no limit (hs then equals he). The results are bit
// for bit those of the two passes: the erosion of a node reads its
// receiver's eroded height (he), the limit its receiver's limited height
// (hs), and the arithmetic is the same.
func ErodeClamp(hs, he []float32, rp []int32, ds []float32, as []float64, l Lanes, p Params, tan float64) (clamped int) {
	if p.N != 1 {
		panic("spl: ErodeClamp needs n = 1")
	}
	if p.Bottom != nil {
		panic("spl: ErodeClamp does not cross contacts (Params.Bottom): use Erode")
	}
	hi := max(l.A1, l.B1)
	hs, he, rp, ds, as = hs[:hi], he[:hi], rp[:hi], ds[:hi], as[:hi]
	kf := p.KFactor
	if kf != nil {
		kf = kf[:hi]
	}
	x := eroder{hs: hs, he: he, rp: rp, ds: ds, as: as, kf: kf, k: p.K, dt: p.Dt, m: p.M,
		sqrtM: p.M == 0.5, limit: tan > 0, tan: tan}
	a, b := l.A0, l.B0
	if x.sqrtM && x.kf == nil {
		a, b, clamped = x.pairs(a, b, min(l.A1-a, l.B1-b))
	}
	for ; a < l.A1 && b < l.B1; a, b = a+1, b+1 {
		clamped += x.node(a)
		clamped += x.node(b)
	}
	for ; a < l.A1; a++ {
		clamped += x.node(a)
	}
	for ; b < l.B1; b++ {
		clamped += x.node(b)
	}
	return clamped
}

// eroder holds ErodeClamp's fields; node is small enough to inline into
// each lane's loop.
type eroder struct {
	hs, he        []float32
	rp            []int32
	ds            []float32
	as            []float64
	kf            []float32
	k, dt, m, tan float64
	sqrtM, limit  bool
}

// pairs does nodes a … a+n-1 and b … b+n-1 of the two lanes in
// alternation, with m = 0.5 and no k factor (the usual case), written out
// so both lanes' work sits in one loop body. Roots take the general path.
// It returns the next nodes of both lanes and the number of nodes lowered.
func (x *eroder) pairs(a, b, n int) (int, int, int) {
	kdt, tan, limit := x.k*x.dt, x.tan, x.limit
	hs, he, rp, ds, as := x.hs, x.he, x.rp, x.ds, x.as
	clamped := 0
	for end := a + n; a < end; a, b = a+1, b+1 {
		ra, rb := int(rp[a]), int(rp[b])
		if ra == a || rb == b {
			clamped += x.node(a) + x.node(b)
			continue
		}
		da, db := float64(ds[a]), float64(ds[b])
		fa, fb := kdt*math.Sqrt(as[a])/da, kdt*math.Sqrt(as[b])/db
		ca, cb := 1/(1+fa), 1/(1+fb)
		va := sim.Flush(float32(float64(hs[a])*ca + (fa*ca)*float64(he[ra])))
		vb := sim.Flush(float32(float64(hs[b])*cb + (fb*cb)*float64(he[rb])))
		he[a], he[b] = va, vb
		if limit {
			if lim := float64(hs[ra]) + tan*da; float64(va) > lim {
				va = talus.RoundDown(lim)
				clamped++
			}
			if lim := float64(hs[rb]) + tan*db; float64(vb) > lim {
				vb = talus.RoundDown(lim)
				clamped++
			}
		}
		hs[a], hs[b] = va, vb
	}
	return a, b, clamped
}

// node erodes and limits node k and returns 1 if the limit lowered it.
func (x *eroder) node(k int) int {
	kdt := x.k * x.dt
	if x.kf != nil {
		kdt *= float64(x.kf[k])
	}
	r := int(x.rp[k])
	d := float64(x.ds[k])
	var hr float64
	if r == k {
		if d == 0 {
			x.he[k] = x.hs[k] // fixed base level
			return 0
		}
	} else {
		hr = float64(x.he[r])
	}
	var am float64
	if x.sqrtM {
		am = math.Sqrt(x.as[k])
	} else {
		am = math.Pow(x.as[k], x.m)
	}
	f := kdt * am / d
	c := 1 / (1 + f)
	v := sim.Flush(float32(float64(x.hs[k])*c + (f*c)*hr))
	x.he[k] = v
	n := 0
	if x.limit && r != k {
		if lim := float64(x.hs[r]) + x.tan*d; float64(v) > lim {
			v = talus.RoundDown(lim)
			n = 1
		}
	}
	x.hs[k] = v
	return n
}
