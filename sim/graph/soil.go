package graph

import (
	"math"

	"orogen/sim"
	"orogen/sim/hillslope"
	"orogen/sim/noise"
	"orogen/sim/parallel"
	"orogen/sim/spl"
)

// The soil terms of engine.Params on the graph's nodes, as the grid engine
// has them on its cells: k noise (KNoise), sediment transport and
// deposition (G) and nonlinear hillslope creep (CreepSc). All three act on
// the nodes; the raster only shows them.

// K noise: the grid engine's field (sim/grid's KNoise: the same seed,
// octaves, persistence and lacunarity), evaluated at the nodes.
const (
	kNoiseOctaves     = 6
	kNoisePersistence = 0.5
	kNoiseLacunarity  = 2
	kNoiseSalt        = 0x6b6e6f697365
)

// kNoise returns k's noise factor exp(KNoise·z) per node, z the seeded
// fractal field of sim/noise over its standard deviation, clamped to ±3,
// of first wavelength KNoiseWavelength (0: a quarter of the domain's
// longer side), at the node's position less kOrigin on both axes (the
// grid engine samples the field at its cells' corners: OnGrid sets half a
// cell, so both engines erode the same patches); nil when KNoise is 0.
// The field is cached until the parameters or the nodes change.
func (e *Engine) kNoise() []float32 {
	p, m := e.p, e.m
	if p.KNoise == 0 {
		e.kn = nil
		return nil
	}
	lam := p.KNoiseWavelength
	if lam == 0 {
		lam = max(m.W, m.H) / 4
	}
	key := [4]float64{p.KNoise, lam, float64(p.Seed), e.kOrigin}
	if e.kn != nil && key == e.knKey && len(e.kn) == m.N {
		return e.kn
	}
	f := noise.NewFractal(noise.FractalSpec{Seed: p.Seed ^ kNoiseSalt, Frequency: 1 / lam,
		Octaves: kNoiseOctaves, Persistence: kNoisePersistence, Lacunarity: kNoiseLacunarity})
	sigma := noise.FBMStd(noise.Std2, kNoiseOctaves, kNoisePersistence)
	kn := make([]float32, m.N)
	parallel.Blocks(m.N, stackBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			z := min(3, max(-3, f.At(m.X[i]-e.kOrigin, m.Y[i]-e.kOrigin)/sigma))
			kn[i] = float32(math.Exp(p.KNoise * z))
		}
	})
	e.kn, e.knKey = kn, key
	return kn
}

// kFactors returns k's factor in drainage order, or nil for uniform k:
// the rock's (rockFactors, with a geology) times the noise's.
func (e *Engine) kFactors() []float32 {
	kn := e.kNoise()
	var ks []float32
	if e.ng.geo != nil {
		ks = e.rockFactors()
	}
	if kn == nil {
		return ks
	}
	if ks == nil {
		e.ksn = sim.Resize(e.ksn, e.m.N)
		ks = e.ksn
		parallel.Blocks(e.m.N, stackBlock, func(_, lo, hi int) {
			for k := lo; k < hi; k++ {
				ks[k] = kn[e.stack[k]]
			}
		})
		return ks
	}
	parallel.Blocks(e.m.N, stackBlock, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			ks[k] *= kn[e.stack[k]]
		}
	})
	return ks
}

// Sediment (Params.G > 0): Yuan et al. 2019's transport and deposition,
// as the grid engine has it (sim/spl's Deposit and FillLakes), on nodes
// of their own areas a_k. The erosion holds nodes below their receiver
// (lake floors) and takes G·Qs/A of the previous step as a source; then,
// walking donors first, a node passes on V_k = Qs_k + (h_before − h)·a_k
// (taking back what it kept beyond what reached it). A node below its
// lake's level keeps what reaches it for the lake; at the lake's pass the
// lake keeps φ of its volume below the level, φ = min(1, trapped/volume),
// and the rest flows on; every node of the basin below the level then
// rises by φ of its depth (lake floors rise evenly). What reaches an
// outlet leaves the map. The graph's lakes are routed out through their
// passes (connectLakes), so every node of a basin drains through the pass:
// the pass comes after the whole basin in the donors-first walk.

// sedimentPrep sizes the sediment arrays and returns the next step's
// source in drainage order (G·Qs/(dt·A) of the last step, 0 at first).
func (e *Engine) sedimentPrep() []float32 {
	n := e.m.N
	if len(e.depRate) != n {
		e.depRate = make([]float32, n) // a new engine or refined nodes: no flux yet
	}
	e.hb = sim.Resize(e.hb, n)
	e.qs = sim.Resize(e.qs, n)
	e.out = sim.Resize(e.out, n)
	e.dsrc = sim.Resize(e.dsrc, n)
	parallel.Blocks(n, stackBlock, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			e.dsrc[k] = e.depRate[e.stack[k]]
		}
	})
	if e.ng.alluv == nil {
		e.ng.alluv = make([]float32, n)
	}
	return e.dsrc
}

// upliftStacked raises the stacked heights by the uplift (but the fixed
// base level), as Erode would, and copies them to hb: the heights before
// the erosion.
func (e *Engine) upliftStacked() {
	hs, hb, us, rp, ds, dt := e.hs, e.hb, e.us, e.rp, e.ds, e.p.Dt
	parallel.Blocks(e.m.N, stackBlock, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			if us != nil && (int(rp[k]) != k || ds[k] != 0) {
				hs[k] = float32(float64(hs[k]) + dt*float64(us[k]))
			}
			hb[k] = hs[k]
		}
	})
}

// lakeLayout sets, per drainage position, the lake whose basin holds it
// (lakeAt, −1 outside) and the lake it is the pass of (passOf, −1), and
// per lake its level on the eroded heights hs (its pass's spill, or the
// lake it spills into when higher, as Levels), vol, trap and frac zero.
func (e *Engine) lakeLayout() {
	n, nl := e.m.N, len(e.lk)
	e.lakeAt = sim.Resize(e.lakeAt, n)
	e.passOf = sim.Resize(e.passOf, n)
	parallel.Blocks(n, stackBlock, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			e.lakeAt[k], e.passOf[k] = -1, -1
		}
	})
	e.lvl = sim.Resize(e.lvl, nl)
	e.vol, e.trap, e.frac = sim.Resize(e.vol, nl), sim.Resize(e.trap, nl), sim.Resize(e.frac, nl)
	clear(e.vol)
	clear(e.trap)
	clear(e.frac)
	for l, lk := range e.lk {
		v := max(e.hs[e.pos[lk.Pass]], e.hs[e.pos[lk.Outflow]])
		if lk.Down >= 0 {
			v = max(v, e.lvl[lk.Down])
		}
		e.lvl[l] = v
		e.passOf[e.pos[lk.Pass]] = int32(l)
		for _, i := range e.Basin(l) {
			e.lakeAt[e.pos[i]] = int32(l)
		}
	}
}

// depositChunk carries the sediment down the drainage positions [lo, hi)
// (whole trees), donors first, and sets the next step's source.
func (e *Engine) depositChunk(lo, hi int) {
	hs, hb, rp, qs, out := e.hs, e.hb, e.rp, e.qs, e.out
	clear(qs[lo:hi])
	for k := hi - 1; k >= lo; k-- {
		i := e.stack[k]
		a := e.m.Area[i]
		h := float64(hs[k])
		v := qs[k] + (float64(hb[k])-h)*a
		r := int(rp[k])
		if r == k {
			out[k] = v
			continue
		}
		if v < 0 {
			// More kept than arrived: take the excess back.
			nh := float32(h + v/a)
			v += (h - float64(nh)) * a
			hs[k] = nh
			h = float64(nh)
		}
		if l := e.lakeAt[k]; l >= 0 {
			if lv := float64(e.lvl[l]); lv > h {
				e.vol[l] += (lv - h) * a
				e.trap[l] += v
				v = 0
			}
		}
		if l := e.passOf[k]; l >= 0 {
			t := e.trap[l]
			if t > 0 && e.vol[l] > 0 {
				phi := math.Min(1, t/e.vol[l])
				e.frac[l] = phi
				t -= phi * e.vol[l]
			}
			v += t
		}
		qs[r] += v
	}
	// The next step's source, relaxed (spl.DepositRelax): taken whole,
	// the lagged rate and the flux alternate from step to step.
	gdt, relax := e.p.G/e.p.Dt, spl.DepositRelax(e.p.G)
	for k := lo; k < hi; k++ {
		i := e.stack[k]
		if e.p.PlainUplift > 0 && (e.up == nil || float64(e.up[i]) < e.p.PlainUplift) {
			e.depRate[i] = 0 // the base-level plain: the sediment crosses it
			continue
		}
		e.depRate[i] = float32((1-relax)*float64(e.depRate[i]) + relax*gdt*qs[k]/e.as[k])
	}
}

// fillLakes raises every basin node below its lake's level by frac of its
// depth.
func (e *Engine) fillLakes() {
	parallel.Blocks(len(e.lk), 16, func(_, lo, hi int) {
		for l := lo; l < hi; l++ {
			phi := e.frac[l]
			if phi <= 0 {
				continue
			}
			lv := e.lvl[l]
			for _, i := range e.Basin(l) {
				k := e.pos[i]
				if h := e.hs[k]; lv > h {
					e.hs[k] = min(lv, float32(float64(h)+phi*(float64(lv)-float64(h))))
				}
			}
		}
	})
}

// sedimentOut returns what reached the outlets in the last walk, m³,
// summed in node order.
func (e *Engine) sedimentOut() float64 {
	var s float64
	for i, r := range e.rec {
		if int(r) == i {
			s += e.out[e.pos[i]]
		}
	}
	return s
}

// yields returns Σ max(0, hb − hs)·a and Σ max(0, hs − hb)·a over the
// nodes, m³: what the stream power and the talus limit took and what the
// sediment left, gross (partial sums per fixed block, in block order).
func (e *Engine) yields() (lowered, raised float64) {
	nb := parallel.NumBlocks(e.m.N, measureBlock)
	e.blockV = sim.Resize(e.blockV, nb)
	e.blockDh = sim.Resize(e.blockDh, nb)
	parallel.Blocks(e.m.N, measureBlock, func(b, lo, hi int) {
		var lw, rs float64
		for k := lo; k < hi; k++ {
			d := (float64(e.hb[k]) - float64(e.hs[k])) * e.m.Area[e.stack[k]]
			if d > 0 {
				lw += d
			} else {
				rs -= d
			}
		}
		e.blockV[b], e.blockDh[b] = lw, rs
	})
	for b := range nb {
		lowered += e.blockV[b]
		raised += e.blockDh[b]
	}
	return lowered, raised
}

// Nonlinear creep (Roering, Kirchner and Dietrich 1999) on the nodes:
//
//	∂h/∂t = −∇·q,   q = −κ ∇h / (1 − (|∇h|/S_c)²)
//
// discretized as the linear diffusion of diffuse.go with the flux through
// each Voronoi edge multiplied by a factor f̄ of the edge: the mean, over
// the steps since the engine was made or its parameters or uplift last
// changed, of the secant factor f = 1/(1 − (S/S_c)²) of the edge's slope
// S (the difference along the edge over its length, and across it the
// mean of the two nodes' gradients, each the area-weighted mean of its
// triangles'), capped as sim/hillslope caps it (S/S_c ≤
// hillslope.MaxCreepRatio). Each step is one backward-Euler solve with
// the factors frozen (Picard), by diffuse's conjugate gradients: stable
// and free of new extrema for any κ·dt. The mean is the rule
// sim/hillslope's Creeper adopts for the grid, for the reason it gives
// there: a factor that
// follows the slopes from step to step (frozen per step, relaxed, or one
// Newton step per step) feeds the stream power's captures back and the
// terrain never settles (measured here too: one Newton step per
// sub-step left the default preset at 128² with κ = 1 m²/yr, S_c = 0.5
// moving 29 m a step after 1 500 steps), while the mean follows the
// slopes as the terrain forms and freezes as it settles; the rest state
// is that of a factor a little below f of the rest slopes. Outlets keep
// their heights.

// creep applies nonlinear creep to the node heights h in place.
func (e *Engine) creep(h []float32, kappa, sc, dt float64) {
	m := e.m
	if e.lapW == nil {
		e.lapW = m.cotWeights()
	}
	c := &e.crp
	nn := len(m.Nbr)
	if len(c.fbar) != nn {
		c.fbar, c.n = make([]float64, nn), 0
	}
	c.wg = sim.Resize(c.wg, nn)
	c.f = sim.Resize(c.f, nn)
	c.gx, c.gy, c.ga = sim.Resize(c.gx, m.N), sim.Resize(c.gy, m.N), sim.Resize(c.ga, m.N)
	e.creepFactors(h, sc)
	c.n++
	inv := 1 / float64(c.n)
	w := e.lapW
	parallel.Blocks(nn, 1<<15, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			c.fbar[k] += (c.f[k] - c.fbar[k]) * inv
			c.wg[k] = w[k] * c.fbar[k]
		}
	})
	e.solveDiffusion(h, kappa*dt, c.wg, nil)
}

// creepFactors sets, per Nbr entry, the secant factor f of the edge from
// the heights h.
func (e *Engine) creepFactors(h []float32, sc float64) {
	m, c := e.m, &e.crp
	clear(c.gx)
	clear(c.gy)
	clear(c.ga)
	// Node gradients: the area-weighted mean of their triangles'
	// (serial: triangles share nodes; a fixed order).
	for t := 0; t+2 < len(m.Tri); t += 3 {
		a, b, d := m.Tri[t], m.Tri[t+1], m.Tri[t+2]
		x1, y1 := m.X[b]-m.X[a], m.Y[b]-m.Y[a]
		x2, y2 := m.X[d]-m.X[a], m.Y[d]-m.Y[a]
		det := x1*y2 - x2*y1
		if det == 0 {
			continue
		}
		h1, h2 := float64(h[b])-float64(h[a]), float64(h[d])-float64(h[a])
		gx, gy := (h1*y2-h2*y1)/det, (x1*h2-x2*h1)/det
		ar := math.Abs(det) / 2
		for _, v := range [3]int32{a, b, d} {
			c.gx[v] += ar * gx
			c.gy[v] += ar * gy
			c.ga[v] += ar
		}
	}
	isc2 := 1 / (sc * sc)
	const q2max = hillslope.MaxCreepRatio * hillslope.MaxCreepRatio
	fcap := 1 / (1 - q2max)
	parallel.Blocks(m.N, stackBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			gix, giy := c.gx[i]/max(c.ga[i], 1e-300), c.gy[i]/max(c.ga[i], 1e-300)
			for k := m.NbrOff[i]; k < m.NbrOff[i+1]; k++ {
				j := m.Nbr[k]
				ux, uy := m.X[j]-m.X[i], m.Y[j]-m.Y[i]
				d := math.Hypot(ux, uy)
				ux, uy = ux/d, uy/d
				along := (float64(h[j]) - float64(h[i])) / d
				mx := (gix + c.gx[j]/max(c.ga[j], 1e-300)) / 2
				my := (giy + c.gy[j]/max(c.ga[j], 1e-300)) / 2
				across := -mx*uy + my*ux
				q2 := (along*along + across*across) * isc2
				f := fcap
				if q2 < q2max {
					f = 1 / (1 - q2)
				}
				c.f[k] = f
			}
		}
	})
}

// creepScratch holds the creep's per-edge factors and node gradients.
type creepScratch struct {
	f, fbar, wg []float64 // per Nbr entry: this step's factor, the mean, weight × mean
	n           int       // steps in the mean (0: start again)
	gx, gy, ga  []float64 // per node: area-weighted gradient sums and area
}

// hillslope applies the hillslope term (κ > 0) to the node heights h:
// nonlinear creep with CreepSc > 0, else linear diffusion.
func (e *Engine) hillslope(h []float32) {
	if e.p.CreepSc > 0 {
		e.creep(h, e.p.Kappa, e.p.CreepSc, e.p.Dt)
		return
	}
	e.diffuse(h, e.p.Kappa*e.p.Dt)
}
