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
	return ErodeLimit(hs, he, rp, ds, as, nil, l, p, Limit{Tan: tan})
}

// Limit is the talus limit ErodeLimit applies after a node's erosion:
// with Field nil the tangent Tan everywhere (<= 0 or NaN: no limit), else
// Field[Cell[k]] at position k (a tangent per grid cell, Cell[k] the
// grid cell of position k: talus.Limiter.NoiseField and the drainage
// order), as talus.Limiter.ClampOrdered applies them.
type Limit struct {
	Tan   float64
	Field []float32
	Cell  []int32
}

// ErodeLimit is Erode (n = 1, the uplift or deposition rate us, which may
// be nil, and Params.Hold) followed by the talus limit lim, in one pass
// over both lanes of l, as ErodeClamp: bit for bit Erode then
// talus.Limiter.ClampOrdered. he may be us: a node reads its own rate
// before it writes its eroded height, and no other node's.
func ErodeLimit(hs, he []float32, rp []int32, ds []float32, as []float64, us []float32, l Lanes, p Params, lim Limit) (clamped int) {
	if p.N != 1 {
		panic("spl: ErodeLimit needs n = 1")
	}
	if p.Bottom != nil {
		panic("spl: ErodeLimit does not cross contacts (Params.Bottom): use Erode")
	}
	hi := max(l.A1, l.B1)
	hs, he, rp, ds, as = hs[:hi], he[:hi], rp[:hi], ds[:hi], as[:hi]
	kf := p.KFactor
	if kf != nil {
		kf = kf[:hi]
	}
	if us != nil {
		us = us[:hi]
	}
	cell := lim.Cell
	if lim.Field != nil {
		cell = cell[:hi]
	}
	x := eroder{hs: hs, he: he, rp: rp, ds: ds, as: as, kf: kf, us: us, field: lim.Field, cell: cell,
		k: p.K, dt: p.Dt, m: p.M, sqrtM: p.M == 0.5, hold: p.Hold, limit: lim.Tan > 0, tan: lim.Tan}
	a, b := l.A0, l.B0
	if x.sqrtM && x.kf != nil && x.us != nil && x.field != nil && x.hold {
		// The presets' soil physics (k noise, deposition, a noisy
		// talus limit), written out.
		a, b, clamped = x.pairsSoil(a, b, min(l.A1-a, l.B1-b))
		return clamped + x.serial(a, l.A1) + x.serial(b, l.B1)
	}
	if !x.sqrtM || x.kf != nil || x.us != nil || x.field != nil || x.hold {
		// The general case: both lanes in one loop with its fields in
		// registers, then what is left of the longer one.
		a, b, clamped = x.pairsAll(a, b, min(l.A1-a, l.B1-b))
		return clamped + x.serial(a, l.A1) + x.serial(b, l.B1)
	}
	a, b, clamped = x.pairs(a, b, min(l.A1-a, l.B1-b))
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

// eroder holds ErodeLimit's fields; node does one node (roots, and the
// tails of the pair loop), pairs and pairsAll two lanes at a time.
type eroder struct {
	hs, he             []float32
	rp                 []int32
	ds                 []float32
	as                 []float64
	kf, us, field      []float32
	cell               []int32
	k, dt, m, tan      float64
	sqrtM, hold, limit bool
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

// pairsAll is pairs for every case: a k factor, a rate us, Hold, any m,
// a constant or noisy limit or none. Roots take node's path.
func (x *eroder) pairsAll(a, b, n int) (int, int, int) {
	hs, he, rp, ds, as := x.hs, x.he, x.rp, x.ds, x.as
	kf, us, field, cell := x.kf, x.us, x.field, x.cell
	kdt0, dt, m, tan := x.k*x.dt, x.dt, x.m, x.tan
	sqrtM, hold, limit := x.sqrtM, x.hold, x.limit || x.field != nil
	clamped := 0
	for end := a + n; a < end; a, b = a+1, b+1 {
		ra, rb := int(rp[a]), int(rp[b])
		if ra == a || rb == b {
			clamped += x.node(a) + x.node(b)
			continue
		}
		da, db := float64(ds[a]), float64(ds[b])
		ka, kb := kdt0, kdt0
		if kf != nil {
			ka *= float64(kf[a])
			kb *= float64(kf[b])
		}
		aa, ab := float64(hs[a]), float64(hs[b])
		if us != nil {
			aa += dt * float64(us[a])
			ab += dt * float64(us[b])
		}
		var ama, amb float64
		if sqrtM {
			ama, amb = math.Sqrt(as[a]), math.Sqrt(as[b])
		} else {
			ama, amb = math.Pow(as[a], m), math.Pow(as[b], m)
		}
		fa, fb := ka*ama/da, kb*amb/db
		ca, cb := 1/(1+fa), 1/(1+fb)
		hra, hrb := float64(he[ra]), float64(he[rb])
		var va, vb float32
		if hold && aa <= hra {
			va = float32(aa) // Erode's Params.Hold
		} else {
			va = sim.Flush(float32(aa*ca + (fa*ca)*hra))
		}
		if hold && ab <= hrb {
			vb = float32(ab)
		} else {
			vb = sim.Flush(float32(ab*cb + (fb*cb)*hrb))
		}
		he[a], he[b] = va, vb
		if limit {
			ta, tb := tan, tan
			if field != nil {
				ta, tb = float64(field[cell[a]]), float64(field[cell[b]])
			}
			if lim := float64(hs[ra]) + ta*da; float64(va) > lim {
				va = talus.RoundDown(lim)
				clamped++
			}
			if lim := float64(hs[rb]) + tb*db; float64(vb) > lim {
				vb = talus.RoundDown(lim)
				clamped++
			}
		}
		hs[a], hs[b] = va, vb
	}
	return a, b, clamped
}

// pairsSoil is pairsAll with m = 1/2, a k factor, a rate us, Hold and a
// noisy limit (Field), its options not tested node by node and each
// lane's fields read in order through slices of the lane, without
// bounds checks: the preset step's erosion 1.0–1.2 ms faster at 1024² on
// one core (thread CPU, paired medians of alternated steps). Roots take
// node's path.
func (x *eroder) pairsSoil(a0, b0, n int) (int, int, int) {
	hs, he := x.hs, x.he
	rpA, rpB := x.rp[a0:a0+n], x.rp[b0:b0+n]
	dsA, dsB := x.ds[a0:a0+n], x.ds[b0:b0+n]
	asA, asB := x.as[a0:a0+n], x.as[b0:b0+n]
	kfA, kfB := x.kf[a0:a0+n], x.kf[b0:b0+n]
	usA, usB := x.us[a0:a0+n], x.us[b0:b0+n]
	clA, clB := x.cell[a0:a0+n], x.cell[b0:b0+n]
	rpB, dsA, dsB, asA, asB = rpB[:len(rpA)], dsA[:len(rpA)], dsB[:len(rpA)], asA[:len(rpA)], asB[:len(rpA)]
	kfA, kfB, usA, usB, clA, clB = kfA[:len(rpA)], kfB[:len(rpA)], usA[:len(rpA)], usB[:len(rpA)], clA[:len(rpA)], clB[:len(rpA)]
	field := x.field
	kdt0, dt := x.k*x.dt, x.dt
	clamped := 0
	for j := range rpA {
		a, b := a0+j, b0+j
		ra, rb := int(rpA[j]), int(rpB[j])
		if ra == a || rb == b {
			clamped += x.node(a) + x.node(b)
			continue
		}
		da, db := float64(dsA[j]), float64(dsB[j])
		ka, kb := kdt0*float64(kfA[j]), kdt0*float64(kfB[j])
		aa, ab := float64(hs[a])+dt*float64(usA[j]), float64(hs[b])+dt*float64(usB[j])
		fa, fb := ka*math.Sqrt(asA[j])/da, kb*math.Sqrt(asB[j])/db
		ca, cb := 1/(1+fa), 1/(1+fb)
		hra, hrb := float64(he[ra]), float64(he[rb])
		var va, vb float32
		if aa <= hra {
			va = float32(aa) // Erode's Params.Hold
		} else {
			va = sim.Flush(float32(aa*ca + (fa*ca)*hra))
		}
		if ab <= hrb {
			vb = float32(ab)
		} else {
			vb = sim.Flush(float32(ab*cb + (fb*cb)*hrb))
		}
		he[a], he[b] = va, vb
		ta, tb := float64(field[clA[j]]), float64(field[clB[j]])
		if lim := float64(hs[ra]) + ta*da; float64(va) > lim {
			va = talus.RoundDown(lim)
			clamped++
		}
		if lim := float64(hs[rb]) + tb*db; float64(vb) > lim {
			vb = talus.RoundDown(lim)
			clamped++
		}
		hs[a], hs[b] = va, vb
	}
	return a0 + len(rpA), b0 + len(rpA), clamped
}

// serial erodes and limits nodes [lo, hi) in order, as node does each,
// and returns the number of nodes the limit lowered.
func (x *eroder) serial(lo, hi int) (clamped int) {
	if lo >= hi {
		return 0
	}
	hs, he, rp, ds, as := x.hs[:hi], x.he[:hi], x.rp[:hi], x.ds[:hi], x.as[:hi]
	kf, us, field, cell := x.kf, x.us, x.field, x.cell
	kdt0, dt, m, tan := x.k*x.dt, x.dt, x.m, x.tan
	sqrtM, hold, limit := x.sqrtM, x.hold, x.limit || x.field != nil
	for k := lo; k < hi; k++ {
		kdt := kdt0
		if kf != nil {
			kdt *= float64(kf[k])
		}
		r := int(rp[k])
		d := float64(ds[k])
		var hr float64
		if r == k {
			if d == 0 {
				he[k] = hs[k] // fixed base level
				continue
			}
		} else {
			hr = float64(he[r])
		}
		a := float64(hs[k])
		if us != nil {
			a += dt * float64(us[k])
		}
		var v float32
		if hold && a <= hr {
			v = float32(a) // Erode's Params.Hold
		} else {
			var am float64
			if sqrtM {
				am = math.Sqrt(as[k])
			} else {
				am = math.Pow(as[k], m)
			}
			f := kdt * am / d
			c := 1 / (1 + f)
			v = sim.Flush(float32(a*c + (f*c)*hr))
		}
		he[k] = v
		if limit && r != k {
			t := tan
			if field != nil {
				t = float64(field[cell[k]])
			}
			if lim := float64(hs[r]) + t*d; float64(v) > lim {
				v = talus.RoundDown(lim)
				clamped++
			}
		}
		hs[k] = v
	}
	return clamped
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
	a := float64(x.hs[k])
	if x.us != nil {
		a += x.dt * float64(x.us[k])
	}
	var v float32
	if x.hold && a <= hr {
		v = float32(a) // Erode's Params.Hold
	} else {
		var am float64
		if x.sqrtM {
			am = math.Sqrt(x.as[k])
		} else {
			am = math.Pow(x.as[k], x.m)
		}
		f := kdt * am / d
		c := 1 / (1 + f)
		v = sim.Flush(float32(a*c + (f*c)*hr))
	}
	x.he[k] = v
	n := 0
	if r != k && (x.limit || x.field != nil) {
		tan := x.tan
		if x.field != nil {
			tan = float64(x.field[x.cell[k]])
		}
		if lim := float64(x.hs[r]) + tan*d; float64(v) > lim {
			v = talus.RoundDown(lim)
			n = 1
		}
	}
	x.hs[k] = v
	return n
}
