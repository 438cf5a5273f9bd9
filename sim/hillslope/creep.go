package hillslope

import (
	"fmt"
	"math"
	"sync/atomic"

	"orogen/sim/parallel"
)

// MaxCreepRatio caps S/S_c in the creep law's factor 1/(1 − (S/S_c)²),
// which diverges at the critical slope: the factor is at most
// 1/(1 − 0.9²) ≈ 5.3, and beyond the cap the flux grows linearly with
// the slope. Slopes near or beyond S_c (which the stream power can cut)
// are the talus limit's to guard, when it is on.
const MaxCreepRatio = 0.9

// Creeper applies nonlinear hillslope creep (Roering, Kirchner and
// Dietrich 1999) to a w×h grid:
//
//	∂h/∂t = −∇·q,   q = −κ ∇h / (1 − (|∇h|/S_c)²)
//
// κ in m²/yr, S_c the critical slope (a tangent). For |∇h| ≪ S_c it is
// linear diffusion κ∇²h.
//
// Scheme: one linearised (Picard) backward-Euler step per Step, split in
// an x sweep then a y sweep as Diffuser's, with each face's diffusivity
// κ·f frozen from the start of the step: a face's flux is κ·f·Δ/cell, Δ
// the difference across it, f = 1/(1 − (S/S_c)²) of its slope S (Δ/cell
// and the mean central difference of its two cells along it). Each line
// solves (I + r·L_f) h' = h, r = κ·dt/cell², L_f the negative second
// difference with the factor f on each face: a symmetric tridiagonal
// M-matrix with unit row sums, by the Thomas algorithm in float64. So
// every sweep is stable and free of new extrema for any dt, and with all
// edges free it conserves the sum of heights up to float32 rounding
// (fixed edges as in Diffuser); with S_c = +Inf (f = 1) a Step is
// Diffuser's.
//
// A factor frozen at each step's start (Picard) makes the scheme
// oscillate where r is large and the slope steep: at large r a step sets
// f·S to the flux the uplift and erosion feed, so a slope error δS comes
// back as −a·δS with a = S·f′/f = 2(S/S_c)²·f, above 1 beyond S/S_c =
// 0.58. Relaxing the factor by a constant share ω per step is stable by
// that analysis, and settles the creep alone (TestCreepStableAtLongSteps),
// but not the grid engine: measured on the default preset at 128² (κ = 1
// m²/yr, S_c = 0.5, r = 1.6), ω = 0.01 … 1 leave 0.1–5 % of the receivers
// flipping and 150–400 m height changes per step after 800 steps, as does
// one Newton step per Step, while a constant factor (linear diffusion)
// settles in 160 steps: a factor that follows the slopes feeds the
// stream power's captures back. So a face's factor is the mean of f over
// the Steps since the Creeper was made or Reset, f̄ ← f̄ + (f(S) − f̄)/n
// at the n-th (after the 64th, every 8th Step updates it, by 8/n): it
// follows the slopes while the terrain forms and freezes
// as it settles, so that near rest the creep is linear diffusion with a
// diffusivity κ·f̄ that varies in space, whose split step is a
// contraction. Every variant of the default preset at 128² then settles
// (creep alone, with k noise, random routing or deposition: 730–1 270
// steps). The price: the mean remembers the transient, so the rest state
// is that of a factor a little below f of the rest slopes; the engine
// Resets the Creeper when the uplift or the parameters change.
//
// Rows are solved one per worker block and columns in blocks of
// yBlock, each line alone: the result is bit-identical for any number
// of workers. A Creeper is not safe for concurrent use.
type Creeper struct {
	w, h int
	fx   []float32   // the mean factor of each cell's east face
	fy   []float32   // the mean factor of each cell's south face
	n    int         // Steps since NewCreeper or Reset
	last int         // the Step of the last update of fx and fy
	bufs [][]float64 // scratch per worker, kept between steps
	team *team

	// The pass in progress (factors, x or y sweep), read by the workers:
	// blocks of size lines from lo up to hi, claimed through next.
	next           atomic.Int64
	blocks         int
	size, lo, hi   int
	data           []float32
	r              float64
	fixed          Edges
	inv            float64
	isc2f, cap2, o float32 // the factors' 1/S_c², cap and ω
	workF          func(w int)
	workX, workY   func(w int)
}

// NewCreeper returns a Creeper for w×h grids. It panics unless w, h > 0.
func NewCreeper(w, h int) *Creeper {
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("hillslope: bad grid size %d×%d", w, h))
	}
	n := w * h
	c := &Creeper{w: w, h: h, fx: make([]float32, n), fy: make([]float32, n)}
	c.workF, c.workX, c.workY = c.factorWork, c.rowWork, c.columnWork
	return c
}

// Reset forgets the mean factors: the next Step uses those of its
// heights.
func (c *Creeper) Reset() { c.n, c.last = 0, 0 }

// The mean factors are updated every Step up to the creepEveryAfter-th
// since NewCreeper or Reset, then every creepEvery-th, the slopes of that
// Step standing for those of the Steps since the last update (weight
// k/n for k Steps): by then a Step moves the mean by well under 1/64, and
// the factors' pass is half of a Step's work.
const (
	creepEveryAfter = 64
	creepEvery      = 8
)

// Step advances h (w×h heights in metres, row-major) by dt years of
// nonlinear creep with κ = kappa m²/yr and critical slope sc (tangent;
// +Inf gives linear diffusion) on cells of cell metres, in place. Cells
// of the edges set in fixed keep their values bit for bit; the other
// edges are zero-flux. kappa == 0 or dt == 0 is a no-op. Step panics on a
// wrong slice length or parameters that are negative, not finite (sc may
// be +Inf) or overflow κ·dt/cell².
func (c *Creeper) Step(h []float32, cell, kappa, sc, dt float64, fixed Edges) {
	r := c.Begin(h, cell, kappa, sc, dt)
	if r == 0 {
		return
	}
	c.Sweep(h, r, fixed, true)
	c.Sweep(h, r, fixed, false)
}

// Begin is the first part of Step, for a caller that acts between the
// sweeps (sim/grid's rebalanced splitting): it checks the arguments as
// Step does, updates the mean factors from h and returns r = κ·dt/cell²,
// or 0 for a no-op (kappa or dt 0). Step is Begin, then Sweep along x,
// then along y, with that r.
func (c *Creeper) Begin(h []float32, cell, kappa, sc, dt float64) (r float64) {
	w, ht := c.w, c.h
	if len(h) != w*ht {
		panic(fmt.Sprintf("hillslope: %d heights for a %d×%d creeper", len(h), w, ht))
	}
	if !(cell > 0) || math.IsInf(cell, 0) {
		panic(fmt.Sprintf("hillslope: cell size %v m must be positive and finite", cell))
	}
	if !(kappa >= 0) || !(dt >= 0) || math.IsInf(kappa, 0) || math.IsInf(dt, 0) || !(sc > 0) {
		panic(fmt.Sprintf("hillslope: kappa %v m²/yr, dt %v yr and S_c %v must be non-negative, finite and S_c > 0", kappa, dt, sc))
	}
	if kappa == 0 || dt == 0 {
		return 0
	}
	r = kappa * dt / (cell * cell)
	if math.IsInf(r, 0) {
		panic(fmt.Sprintf("hillslope: kappa·dt/cell² = %v·%v/%v² overflows", kappa, dt, cell))
	}
	c.n++
	if c.n <= creepEveryAfter || c.n-c.last >= creepEvery {
		c.factors(h, cell, sc)
		c.last = c.n
	}
	return r
}

// Sweep solves one direction of Step on h in place, (I + r·Lx) h' = h
// along x or (I + r·Ly) h' = h along y, with the factors of the last
// Begin and the r it returned. It panics on a wrong slice length or an r
// that is not positive and finite.
func (c *Creeper) Sweep(h []float32, r float64, fixed Edges, x bool) {
	if len(h) != c.w*c.h {
		panic(fmt.Sprintf("hillslope: %d heights for a %d×%d creeper", len(h), c.w, c.h))
	}
	if !(r > 0) || math.IsInf(r, 0) {
		panic(fmt.Sprintf("hillslope: sweep with r = %v: must be positive and finite (Begin's)", r))
	}
	c.solve(h, r, fixed, x)
}

// solve solves (I + r·Lx) x = h (xs) or (I + r·Ly) x = h in place on h,
// Lx and Ly the negative second differences with the face factors c.fx
// and c.fy.
func (c *Creeper) solve(d []float32, r float64, fixed Edges, xs bool) {
	w, ht := c.w, c.h
	// x sweep: every row not on a fixed north or south edge.
	y0, y1 := 0, ht
	if fixed.North {
		y0 = 1
	}
	if fixed.South {
		y1 = ht - 1
	}
	c.data, c.r, c.fixed = d, r, fixed
	if xs {
		c.run(y0, y1, rowBlock, c.workX)
		c.data = nil
		return
	}
	// y sweep: blocks of adjacent columns not on a fixed west or east
	// edge, walked down the rows.
	x0, x1 := 0, w
	if fixed.West {
		x0 = 1
	}
	if fixed.East {
		x1 = w - 1
	}
	c.run(x0, x1, c.yBlock(), c.workY)
	c.data = nil
}

// run hands the lines [lo, hi) in blocks of size (from lo) to fn on up
// to parallel.Workers() workers, one per minCells cells at most, each
// block to one worker: which worker solves a block does not change its
// result. Each worker's scratch is c.bufs[w].
func (c *Creeper) run(lo, hi, size int, fn func(w int)) {
	if lo >= hi {
		return
	}
	c.lo, c.hi, c.size = lo, hi, size
	c.blocks = parallel.NumBlocks(hi-lo, size)
	c.next.Store(0)
	workers := max(1, min(parallel.Workers(), c.blocks, c.w*c.h/minCells))
	n := max(8*c.w, (2*c.h+1)*c.yBlock(), 3*c.w)
	for len(c.bufs) < workers {
		c.bufs = append(c.bufs, make([]float64, n))
	}
	for i, b := range c.bufs[:workers] {
		if len(b) < n { // fewer workers than before: wider y blocks
			c.bufs[i] = make([]float64, n)
		}
	}
	if workers == 1 {
		fn(0)
		return
	}
	if c.team == nil {
		c.team = newTeam(c)
	}
	c.team.run(workers, fn)
}

// claim returns the next block's lines, or ok = false when none is left.
func (c *Creeper) claim() (lo, hi int, ok bool) {
	b := int(c.next.Add(1) - 1)
	if b >= c.blocks {
		return 0, 0, false
	}
	return c.lo + b*c.size, min(c.hi, c.lo+(b+1)*c.size), true
}

// rowWork solves blocks of rows of the x sweep, four rows at a time from
// each block's first.
func (c *Creeper) rowWork(wk int) {
	w, d, s, fixed := c.w, c.data, c.bufs[wk], c.fixed
	for {
		lo, hi, ok := c.claim()
		if !ok {
			return
		}
		y := lo
		if w >= 2 {
			for ; y+4 <= hi; y += 4 {
				o := y * w
				solveLines4(d[o:o+4*w], c.fx[o:o+4*w], w, s[:8*w], c.r, fixed.West, fixed.East)
			}
		}
		for ; y < hi; y++ {
			o := y * w
			solveLine(d[o:o+w], c.fx[o:o+w], s[:2*w], c.r, fixed.West, fixed.East)
		}
	}
}

// columnWork solves blocks of columns of the y sweep.
func (c *Creeper) columnWork(wk int) {
	s := c.bufs[wk]
	for {
		lo, hi, ok := c.claim()
		if !ok {
			return
		}
		c.solveColumns(c.data, s[:(2*c.h+1)*(hi-lo)], lo, hi, c.r, c.fixed.North, c.fixed.South)
	}
}

// factorWork updates the factors of blocks of rows.
func (c *Creeper) factorWork(wk int) {
	s := c.bufs[wk]
	for {
		lo, hi, ok := c.claim()
		if !ok {
			return
		}
		c.factorRows(c.data, s[:3*c.w], lo, hi, c.inv, c.isc2f, c.cap2, c.o)
	}
}

// factors moves c.fx[i] (the face between cell i and its east
// neighbour) and c.fy[i] (the face between cell i and its south
// neighbour) towards the factors f of the slopes of h, by k/n at the
// n-th Step since NewCreeper or Reset, k Steps after the last update
// (their mean, the slopes of an update standing for the k Steps since
// the one before). A face's slope has the difference
// across it as one component and the mean of the two cells' central
// differences (one-sided on the edges) along it as the other.
func (c *Creeper) factors(h []float32, cell, sc float64) {
	ht := c.h
	inv := 1 / cell
	isc2 := 1 / (sc * sc)
	omega := float32(float64(c.n-c.last) / float64(c.n))
	if c.n == 1 {
		clear(c.fx)
		clear(c.fy)
	}
	// A face's factor is 1/(1 − min(q², cap²)), q = S/S_c, computed in
	// float32 (what it is stored as), and averaged: f̄ + ω·(f − f̄).
	isc2f, cap2 := float32(isc2), float32(MaxCreepRatio*MaxCreepRatio)
	c.data, c.inv, c.isc2f, c.cap2, c.o = h, inv, isc2f, cap2, omega
	c.run(0, ht, rowBlock, c.workF)
	c.data = nil
}

// factorRows is factors' work on the faces of rows [lo, hi), s holding 3w
// float64 of scratch. The cap is an if rather than min: the same for the
// non-negative q (NaN stays NaN), and no call.
func (c *Creeper) factorRows(h []float32, s []float64, lo, hi int, inv float64, isc2f, cap2, omega float32) {
	w, ht := c.w, c.h
	gy, g0, g1 := s[:w], s[w:2*w], s[2*w:3*w]
	gradX(g0, h[lo*w:lo*w+w], inv)
	for y := lo; y < hi; y++ {
		o := y * w
		row := h[o : o+w]
		fx := c.fx[o : o+w]
		fx = fx[:len(row)]
		// The central differences along y of row y, g0 at x and g1 at
		// x+1, computed in the loop (a row of them in gy before).
		yn, ys := max(y-1, 0), min(y+1, ht-1)
		if ys == yn {
			clear(gy)
			gr := gy[:len(row)]
			for x := 0; x < len(row)-1; x++ {
				a := float32((float64(row[x+1]) - float64(row[x])) * inv)
				b := float32(0.5 * (gr[x] + gr[x+1]))
				q := (a*a + b*b) * isc2f
				if q > cap2 {
					q = cap2
				}
				v := 1 / (1 - q)
				fx[x] += omega * (v - fx[x])
			}
		} else {
			sn, ss := h[yn*w:yn*w+w], h[ys*w:ys*w+w]
			sn, ss = sn[:len(row)], ss[:len(row)]
			k := inv / float64(ys-yn)
			g0 := (float64(ss[0]) - float64(sn[0])) * k
			for x := 0; x < len(row)-1; x++ {
				g1 := (float64(ss[x+1]) - float64(sn[x+1])) * k
				a := float32((float64(row[x+1]) - float64(row[x])) * inv)
				b := float32(0.5 * (g0 + g1))
				q := (a*a + b*b) * isc2f
				if q > cap2 {
					q = cap2
				}
				v := 1 / (1 - q)
				fx[x] += omega * (v - fx[x])
				g0 = g1
			}
		}
		if y == ht-1 {
			continue
		}
		// g0, g1: central differences along x of rows y and y+1.
		below := h[o+w : o+2*w]
		gradX(g1, below, inv)
		fy := c.fy[o : o+w]
		fy, below, a0, a1 := fy[:len(row)], below[:len(row)], g0[:len(row)], g1[:len(row)]
		for x := range row {
			a := float32((float64(below[x]) - float64(row[x])) * inv)
			b := float32(0.5 * (a0[x] + a1[x]))
			q := (a*a + b*b) * isc2f
			if q > cap2 {
				q = cap2
			}
			v := 1 / (1 - q)
			fy[x] += omega * (v - fy[x])
		}
		g0, g1 = g1, g0
	}
}

// gradX sets g to the central differences along x of row r (one-sided
// at the ends), inv the inverse cell size.
func gradX(g []float64, r []float32, inv float64) {
	w := len(r)
	if w == 1 {
		g[0] = 0
		return
	}
	g = g[:w]
	g[0] = (float64(r[1]) - float64(r[0])) * inv
	g[w-1] = (float64(r[w-1]) - float64(r[w-2])) * inv
	for x := 1; x < w-1; x++ {
		g[x] = (float64(r[x+1]) - float64(r[x-1])) * 0.5 * inv
	}
}

// solveLine solves (I + r·L_f) x = d in place on the n cells of v, L_f
// the negative second difference with the factor fac[i] on the face
// between cells i and i+1; fixed ends keep their values. s holds 2n
// float64 of scratch.
func solveLine(v []float32, fac []float32, s []float64, r float64, fixStart, fixEnd bool) {
	n := len(v)
	cp, dp := s[:n], s[n:2*n]
	prevCp, prevDp := 0.0, 0.0
	for i := range n {
		a, b, cc := 0.0, 1.0, 0.0
		free := !(i == 0 && fixStart) && !(i == n-1 && fixEnd)
		if free {
			if i > 0 {
				a = -r * float64(fac[i-1])
				b -= a
			}
			if i < n-1 {
				cc = -r * float64(fac[i])
				b -= cc
			}
		}
		inv := 1 / (b - a*prevCp)
		prevCp = cc * inv
		prevDp = (float64(v[i]) - a*prevDp) * inv
		cp[i], dp[i] = prevCp, prevDp
	}
	x := dp[n-1]
	if !(n-1 == 0 && fixStart) && !fixEnd {
		v[n-1] = float32(x)
	}
	for i := n - 2; i >= 0; i-- {
		x = dp[i] - cp[i]*x
		if !(i == 0 && fixStart) {
			v[i] = float32(x)
		}
	}
}

// solveLines4 solves four lines of n ≥ 2 cells at once, as solveLine
// each (v and fac hold the four one after the other), so that their four
// recurrences overlap in the pipeline. s holds 8n float64 of scratch. A
// fixed end's row is x = d (its value written back unchanged).
func solveLines4(v, fac []float32, n int, s []float64, r float64, fixStart, fixEnd bool) {
	v0, v1, v2, v3 := v[:n], v[n:2*n], v[2*n:3*n], v[3*n:4*n]
	f0, f1, f2, f3 := fac[:n], fac[n:2*n], fac[2*n:3*n], fac[3*n:4*n]
	c0, c1, c2, c3 := s[:n], s[n:2*n], s[2*n:3*n], s[3*n:4*n]
	d0, d1, d2, d3 := s[4*n:5*n], s[5*n:6*n], s[6*n:7*n], s[7*n:8*n]
	// Row 0: b x0 + c x1 = d0.
	var e0, e1, e2, e3 float64 // −r·f of the face after the cell
	var p0, p1, p2, p3 float64 // c'
	var q0, q1, q2, q3 float64 // d'
	if fixStart {
		q0, q1, q2, q3 = float64(v0[0]), float64(v1[0]), float64(v2[0]), float64(v3[0])
	} else {
		e0, e1, e2, e3 = -r*float64(f0[0]), -r*float64(f1[0]), -r*float64(f2[0]), -r*float64(f3[0])
		i0, i1, i2, i3 := 1/(1-e0), 1/(1-e1), 1/(1-e2), 1/(1-e3)
		p0, p1, p2, p3 = e0*i0, e1*i1, e2*i2, e3*i3
		q0, q1, q2, q3 = float64(v0[0])*i0, float64(v1[0])*i1, float64(v2[0])*i2, float64(v3[0])*i3
	}
	c0[0], c1[0], c2[0], c3[0] = p0, p1, p2, p3
	d0[0], d1[0], d2[0], d3[0] = q0, q1, q2, q3
	// Interior rows: a x_{i−1} + b x_i + c x_{i+1} = d_i, a the previous
	// face's −r·f, b = 1 − a − c.
	for i := 1; i < n-1; i++ {
		a0, a1, a2, a3 := -r*float64(f0[i-1]), -r*float64(f1[i-1]), -r*float64(f2[i-1]), -r*float64(f3[i-1])
		e0, e1, e2, e3 = -r*float64(f0[i]), -r*float64(f1[i]), -r*float64(f2[i]), -r*float64(f3[i])
		i0 := 1 / (1 - a0 - e0 - a0*p0)
		i1 := 1 / (1 - a1 - e1 - a1*p1)
		i2 := 1 / (1 - a2 - e2 - a2*p2)
		i3 := 1 / (1 - a3 - e3 - a3*p3)
		p0, p1, p2, p3 = e0*i0, e1*i1, e2*i2, e3*i3
		q0 = (float64(v0[i]) - a0*q0) * i0
		q1 = (float64(v1[i]) - a1*q1) * i1
		q2 = (float64(v2[i]) - a2*q2) * i2
		q3 = (float64(v3[i]) - a3*q3) * i3
		c0[i], c1[i], c2[i], c3[i] = p0, p1, p2, p3
		d0[i], d1[i], d2[i], d3[i] = q0, q1, q2, q3
	}
	// The last row: a x_{n−2} + b x_{n−1} = d.
	l := n - 1
	if fixEnd {
		q0, q1, q2, q3 = float64(v0[l]), float64(v1[l]), float64(v2[l]), float64(v3[l])
	} else {
		a0, a1, a2, a3 := -r*float64(f0[l-1]), -r*float64(f1[l-1]), -r*float64(f2[l-1]), -r*float64(f3[l-1])
		q0 = (float64(v0[l]) - a0*q0) / (1 - a0 - a0*p0)
		q1 = (float64(v1[l]) - a1*q1) / (1 - a1 - a1*p1)
		q2 = (float64(v2[l]) - a2*q2) / (1 - a2 - a2*p2)
		q3 = (float64(v3[l]) - a3*q3) / (1 - a3 - a3*p3)
	}
	v0[l], v1[l], v2[l], v3[l] = float32(q0), float32(q1), float32(q2), float32(q3)
	for i := l - 1; i >= 0; i-- {
		q0 = d0[i] - c0[i]*q0
		q1 = d1[i] - c1[i]*q1
		q2 = d2[i] - c2[i]*q2
		q3 = d3[i] - c3[i]*q3
		v0[i], v1[i], v2[i], v3[i] = float32(q0), float32(q1), float32(q2), float32(q3)
	}
}

// solveColumns solves the y systems of columns [x0, x1) of h, going down
// the rows; s holds (2·H+1)·(x1−x0) float64 of scratch at least. The rows of
// the forward elimination come in four kinds (a fixed end, the first,
// an interior and the last row), each with a loop of its own so that the
// loop over the columns has no branch; every kind computes what the
// general row (a, b and c from the faces inside the line, zero flux
// beyond it) does, operation for operation, so the result is the same
// bit for bit (TestCreepColumnsMatchReference).
func (c *Creeper) solveColumns(h []float32, s []float64, x0, x1 int, r float64, fixStart, fixEnd bool) {
	w, n, k := c.w, c.h, x1-x0
	cp, dp := s[:n*k], s[n*k:2*n*k]
	fac := c.fy
	for y := range n {
		src := h[y*w+x0 : y*w+x1]
		ccp, cdp := cp[y*k:y*k+k], dp[y*k:y*k+k]
		free := !(y == 0 && fixStart) && !(y == n-1 && fixEnd)
		switch {
		case y == 0 && (!free || n == 1):
			// x = d: b = 1, no faces, nothing carried over.
			for j, v := range src {
				ccp[j], cdp[j] = 0, float64(v)
			}
		case !free:
			// A fixed last row: a = c = 0, b = 1.
			pcp, pdp := cp[(y-1)*k:y*k], dp[(y-1)*k:y*k]
			pcp, pdp = pcp[:len(src)], pdp[:len(src)]
			for j, v := range src {
				inv := 1 / (1 - 0*pcp[j])
				ccp[j], cdp[j] = 0*inv, (float64(v)-0*pdp[j])*inv
			}
		case y == 0:
			// b = 1 − c, nothing carried over.
			fs := fac[x0:x1]
			fs = fs[:len(src)]
			for j, v := range src {
				cc := -r * float64(fs[j])
				inv := 1 / (1 - cc)
				ccp[j], cdp[j] = cc*inv, float64(v)*inv
			}
		case y < n-1:
			fn, fs := fac[(y-1)*w+x0:(y-1)*w+x1], fac[y*w+x0:y*w+x1]
			pcp, pdp := cp[(y-1)*k:y*k], dp[(y-1)*k:y*k]
			fn, fs, pcp, pdp = fn[:len(src)], fs[:len(src)], pcp[:len(src)], pdp[:len(src)]
			ccp, cdp = ccp[:len(src)], cdp[:len(src)]
			for j, v := range src {
				a := -r * float64(fn[j])
				cc := -r * float64(fs[j])
				inv := 1 / (1 - a - cc - a*pcp[j])
				ccp[j] = cc * inv
				cdp[j] = (float64(v) - a*pdp[j]) * inv
			}
		default:
			// The last row: c = 0.
			fn := fac[(y-1)*w+x0 : (y-1)*w+x1]
			pcp, pdp := cp[(y-1)*k:y*k], dp[(y-1)*k:y*k]
			fn, pcp, pdp = fn[:len(src)], pcp[:len(src)], pdp[:len(src)]
			cdp = cdp[:len(src)]
			for j, v := range src {
				a := -r * float64(fn[j])
				inv := 1 / (1 - a - a*pcp[j])
				ccp[j] = 0 * inv
				cdp[j] = (float64(v) - a*pdp[j]) * inv
			}
		}
	}
	// Back substitution, x_y = d'_y − c'_y·x_{y+1}, with the row below's
	// x in xs rather than over its d' (one store a cell fewer).
	xs := s[2*n*k : 2*n*k+k]
	copy(xs, dp[(n-1)*k:n*k])
	if !(n == 1 && fixStart) && !fixEnd {
		dst := h[(n-1)*w+x0 : (n-1)*w+x1]
		dst = dst[:len(xs)]
		for j, v := range xs {
			dst[j] = float32(v)
		}
	}
	for y := n - 2; y >= 0; y-- {
		c, d := cp[y*k:y*k+k], dp[y*k:y*k+k]
		c, d = c[:len(xs)], d[:len(xs)]
		if y == 0 && fixStart {
			for j := range xs {
				xs[j] = d[j] - c[j]*xs[j]
			}
			continue
		}
		dst := h[y*w+x0 : y*w+x1]
		dst = dst[:len(xs)]
		for j := range xs {
			v := d[j] - c[j]*xs[j]
			xs[j] = v
			dst[j] = float32(v)
		}
	}
}

// creepColBlock is the y sweep's block of columns with creepColWorkers
// workers or more: narrower than Diffuser's (its scratch is two float64
// per cell of the block, 512 KiB at 1024 rows, and one row more).
const creepColBlock = 32

// creepColWorkers: with fewer workers the y sweep's blocks are wider by
// creepColWorkers over the workers (yBlock), so that all the workers'
// scratch together is no more than creepColWorkers' at creepColBlock.
// Each column is solved alone, so the width does not change the result.
// At 1024² on one core the sweep took 10.3 ms in blocks of 32 columns,
// 8.8 in 128 and 6.8 in 512 (alternated, the 2-core machine): a row of
// a block reads and writes the heights and the factors a grid row apart,
// and wider blocks do more with each.
const creepColWorkers = 16

// yBlock is the y sweep's block of columns for the workers the sweeps
// use: creepColBlock·creepColWorkers/workers, at least creepColBlock,
// at most the grid's width.
func (c *Creeper) yBlock() int {
	workers := max(1, min(parallel.Workers(), c.w*c.h/minCells))
	return min(c.w, creepColBlock*max(1, creepColWorkers/workers))
}
