package hillslope

import (
	"fmt"
	"math"
	"slices"
	"sync"

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
// Scheme: an x sweep then a y sweep over the full (sub-)step, each one
// Newton step of its one-dimensional problem. A face's flux is κ·f(S)·Δ/
// cell, Δ the difference across it and S its slope (Δ/cell and the mean
// central difference of its two cells along it); f = 1/(1 − (S/S_c)²) is
// the secant factor and g = ∂(f·Δ)/∂Δ = f + 2(Δ/(cell·S_c))²f² the tangent,
// both of the heights the sweep starts from. Each line solves
//
//	(I + r·L_g) h' = h + r·(L_g − L_f) h,   r = κ·dt/cell²,
//
// L_φ the negative second difference with the factor φ on each face: a
// symmetric tridiagonal M-matrix with unit row sums, by the Thomas
// algorithm in float64. With all edges free the sum of heights is
// conserved up to float32 rounding (fixed edges as in Diffuser); with
// S_c = +Inf (or slopes far below it) f = g = 1 and a sub-step is
// Diffuser's. The Newton step converges to the true rest state (the
// right-hand side's correction vanishes there), which a lagged factor
// (Picard) does not reach at large r: it alternates.
//
// Sub-steps: see CreepBound. Rows are solved one per worker block and
// columns in blocks of colBlock, each line alone: the result is
// bit-identical for any number of workers. A Creeper is not safe for
// concurrent use.
type Creeper struct {
	w, h     int
	fx       []float32 // the secant factor of each cell's east face
	fy       []float32 // the secant factor of each cell's south face
	gx       []float32 // the tangent factor of each cell's east face
	gy       []float32 // the tangent factor of each cell's south face
	d        []float32 // scratch heights
	substeps int
	fmax     []float32 // per block of rows
	pool     sync.Pool // *[]float64 scratch
}

// NewCreeper returns a Creeper for w×h grids. It panics unless w, h > 0.
func NewCreeper(w, h int) *Creeper {
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("hillslope: bad grid size %d×%d", w, h))
	}
	n := w * h
	return &Creeper{w: w, h: h, fx: make([]float32, n), fy: make([]float32, n),
		gx: make([]float32, n), gy: make([]float32, n), d: make([]float32, n)}
}

// Step advances h (w×h heights in metres, row-major) by dt years of
// nonlinear creep with κ = kappa m²/yr and critical slope sc (tangent;
// +Inf gives linear diffusion) on cells of cell metres, in place. Cells
// of the edges set in fixed keep their values bit for bit; the other
// edges are zero-flux. kappa == 0 or dt == 0 is a no-op. Step panics on a
// wrong slice length or parameters that are negative, not finite (sc may
// be +Inf) or overflow κ·dt/cell².
func (c *Creeper) Step(h []float32, cell, kappa, sc, dt float64, fixed Edges) {
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
		return
	}
	r := kappa * dt / (cell * cell)
	if math.IsInf(r, 0) {
		panic(fmt.Sprintf("hillslope: kappa·dt/cell² = %v·%v/%v² overflows", kappa, dt, cell))
	}
	fmax := max(c.factors(h, cell, sc, true), c.factors(h, cell, sc, false))
	m := min(MaxCreepSubsteps, max(1, int(math.Ceil(r*float64(fmax)/CreepBound))))
	r /= float64(m)
	for k := range m {
		if k > 0 {
			c.factors(h, cell, sc, true)
		}
		// x then y (Lie splitting), each a Newton step of its 1D
		// problem with the factors of the heights it starts from.
		c.rates(h, r, fixed, true)
		c.solveTangent(c.d, r, fixed, true)
		copy(h, c.d)
		c.factors(h, cell, sc, false)
		c.rates(h, r, fixed, false)
		c.solveTangent(c.d, r, fixed, false)
		copy(h, c.d)
	}
	c.substeps = m
}

// Sub-steps of Creeper.Step: a step of r = κ·dt/cell² is split into m =
// ⌈r·f_max/CreepBound⌉ equal sub-steps (at most MaxCreepSubsteps), f_max
// the largest face factor at the start of the step, so that the factors
// change little within a sub-step. Every sub-step is stable; with
// r·f_max/m above about CreepBound (measured: 4 fails, 2 settles, on the
// default preset at 128² with κ = 1 m²/yr, S_c = 0.5) slopes near S_c
// alternate from step to step instead of settling.
const (
	CreepBound       = 2
	MaxCreepSubsteps = 16
)

// Substeps returns the number of sub-steps the last Step took.
func (c *Creeper) Substeps() int { return c.substeps }

// solveTangent solves (I + r·Lx)(I + r·Ly) x = d in place on d, Lx and
// Ly the negative second differences with the tangent face factors c.gx
// and c.gy.
func (c *Creeper) solveTangent(d []float32, r float64, fixed Edges, xs bool) {
	w, ht := c.w, c.h
	// x sweep: every row not on a fixed north or south edge.
	y0, y1 := 0, ht
	if fixed.North {
		y0 = 1
	}
	if fixed.South {
		y1 = ht - 1
	}
	if xs {
		parallel.Blocks(y1-y0, rowBlock, func(_, lo, hi int) {
			s := c.scratch(2 * w)
			for y := y0 + lo; y < y0+hi; y++ {
				o := y * w
				solveLine(d[o:o+w], c.gx[o:o+w], (*s)[:2*w], r, fixed.West, fixed.East)
			}
			c.pool.Put(s)
		})
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
	parallel.Blocks(x1-x0, colBlock, func(_, lo, hi int) {
		s := c.scratch(2 * ht * colBlock)
		c.solveColumns(d, (*s)[:2*ht*(hi-lo)], x0+lo, x0+hi, r, fixed.North, fixed.South)
		c.pool.Put(s)
	})
}

// rates sets c.d to the right-hand side of the Newton step of the x
// faces (xs) or of the y faces: h_i + r·Σ (g − f)(h_i − h_nb) over those
// faces of every cell (h_i on fixed edges).
func (c *Creeper) rates(h []float32, r float64, fixed Edges, xs bool) {
	w, ht := c.w, c.h
	parallel.Blocks(ht, rowBlock, func(_, lo, hi int) {
		for y := lo; y < hi; y++ {
			o := y * w
			row, out := h[o:o+w], c.d[o:o+w]
			for x := range row {
				hv := float64(row[x])
				if (y == 0 && fixed.North) || (y == ht-1 && fixed.South) || (x == 0 && fixed.West) || (x == w-1 && fixed.East) {
					out[x] = row[x]
					continue
				}
				var s float64
				switch {
				case xs:
					if x < w-1 {
						s += float64(c.gx[o+x]-c.fx[o+x]) * (hv - float64(row[x+1]))
					}
					if x > 0 {
						s += float64(c.gx[o+x-1]-c.fx[o+x-1]) * (hv - float64(row[x-1]))
					}
				default:
					if y < ht-1 {
						s += float64(c.gy[o+x]-c.fy[o+x]) * (hv - float64(h[o+w+x]))
					}
					if y > 0 {
						s += float64(c.gy[o-w+x]-c.fy[o-w+x]) * (hv - float64(h[o-w+x]))
					}
				}
				out[x] = float32(hv + r*s)
			}
		}
	})
}

func (c *Creeper) scratch(n int) *[]float64 {
	if s, ok := c.pool.Get().(*[]float64); ok && len(*s) >= n {
		return s
	}
	s := make([]float64, n)
	return &s
}

// factors sets the face factors from the gradient of h: with xs, c.fx[i]
// and c.gx[i] of the face between cell i and its east neighbour, else
// c.fy[i] and c.gy[i] of the face between cell i and its south neighbour.
// A face's slope has the difference across it as one component and the
// mean of the two cells' central differences (one-sided on the edges)
// along it as the other. It returns the largest secant factor.
func (c *Creeper) factors(h []float32, cell, sc float64, xs bool) float32 {
	w, ht := c.w, c.h
	inv := 1 / cell
	isc := 1 / sc
	fcap := float32(1 / (1 - MaxCreepRatio*MaxCreepRatio))
	nb := parallel.NumBlocks(ht, rowBlock)
	if len(c.fmax) < nb {
		c.fmax = make([]float32, nb)
	}
	parallel.Blocks(ht, rowBlock, func(b, lo, hi int) {
		s := c.scratch(2 * w)
		g0, g1 := (*s)[:w], (*s)[w:2*w]
		var fm float32 = 1
		// face sets the factors of a face: a across (scaled), along
		// its other component.
		face := func(a, along float64, f, t *float32) {
			q2 := (a*a + along*along) * isc * isc
			if q2 >= MaxCreepRatio*MaxCreepRatio {
				*f, *t = fcap, fcap
				fm = fcap
				return
			}
			v := 1 / (1 - q2)
			qa := a * isc
			*f, *t = float32(v), float32(v+2*qa*qa*v*v)
			fm = max(fm, *f)
		}
		for y := lo; y < hi; y++ {
			o := y * w
			row := h[o : o+w]
			if xs {
				// g0: central differences along y of row y.
				yn, ys := max(y-1, 0), min(y+1, ht-1)
				if ys == yn {
					clear(g0)
				} else {
					sn, ss := h[yn*w:yn*w+w], h[ys*w:ys*w+w]
					k := inv / float64(ys-yn)
					for x := range g0 {
						g0[x] = (float64(ss[x]) - float64(sn[x])) * k
					}
				}
				fx, tx := c.fx[o:o+w], c.gx[o:o+w]
				for x := 0; x < w-1; x++ {
					face((float64(row[x+1])-float64(row[x]))*inv, 0.5*(g0[x]+g0[x+1]), &fx[x], &tx[x])
				}
				continue
			}
			if y == ht-1 {
				continue
			}
			// g0, g1: central differences along x of rows y and y+1.
			below := h[o+w : o+2*w]
			for r, gr := range [2][]float32{row, below} {
				g := g0
				if r == 1 {
					g = g1
				}
				if w == 1 {
					g[0] = 0
					continue
				}
				g[0] = (float64(gr[1]) - float64(gr[0])) * inv
				g[w-1] = (float64(gr[w-1]) - float64(gr[w-2])) * inv
				for x := 1; x < w-1; x++ {
					g[x] = (float64(gr[x+1]) - float64(gr[x-1])) * 0.5 * inv
				}
			}
			fy, ty := c.fy[o:o+w], c.gy[o:o+w]
			for x := range row {
				face((float64(below[x])-float64(row[x]))*inv, 0.5*(g0[x]+g1[x]), &fy[x], &ty[x])
			}
		}
		c.pool.Put(s)
		c.fmax[b] = fm
	})
	return slices.Max(c.fmax[:nb])
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

// solveColumns solves the y systems of columns [x0, x1) of h, going down
// the rows; s holds 2·H·(x1−x0) float64 of scratch at least.
func (c *Creeper) solveColumns(h []float32, s []float64, x0, x1 int, r float64, fixStart, fixEnd bool) {
	w, n, k := c.w, c.h, x1-x0
	cp, dp := s[:n*k], s[n*k:2*n*k]
	fac := c.gy
	for y := range n {
		free := !(y == 0 && fixStart) && !(y == n-1 && fixEnd)
		cur, src := y*k, h[y*w+x0:y*w+x1]
		var fn, fs []float32 // the factors of the north and south faces
		if y > 0 {
			fn = fac[(y-1)*w+x0 : (y-1)*w+x1]
		}
		if y < n-1 {
			fs = fac[y*w+x0 : y*w+x1]
		}
		for j, v := range src {
			a, b, cc := 0.0, 1.0, 0.0
			if free {
				if fn != nil {
					a = -r * float64(fn[j])
					b -= a
				}
				if fs != nil {
					cc = -r * float64(fs[j])
					b -= cc
				}
			}
			var pc, pd float64
			if y > 0 {
				pc, pd = cp[cur-k+j], dp[cur-k+j]
			}
			inv := 1 / (b - a*pc)
			cp[cur+j] = cc * inv
			dp[cur+j] = (float64(v) - a*pd) * inv
		}
	}
	for y := n - 1; y >= 0; y-- {
		cur := y * k
		write := !(y == 0 && fixStart) && !(y == n-1 && fixEnd)
		dst := h[y*w+x0 : y*w+x1]
		if y < n-1 {
			for j := range k {
				dp[cur+j] -= cp[cur+j] * dp[cur+k+j]
			}
		}
		if write {
			for j := range k {
				dst[j] = float32(dp[cur+j])
			}
		}
	}
}
