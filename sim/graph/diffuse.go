package graph

import (
	"math"

	"orogen/sim"
	"orogen/sim/parallel"
)

// Hillslope diffusion on the graph: ∂h/∂t = κ ∇²h, the same term as the
// grid engine's (Schott et al. 2022, §3), discretized by finite volumes on
// the Voronoi cells. The flux from node j into node i is κ (h_j − h_i) ℓ_ij /
// d_ij, with ℓ_ij the length of the Voronoi edge the two cells share and d_ij
// the distance between the nodes; on a Delaunay triangulation
// ℓ_ij / d_ij = (cot α + cot β)/2, α and β the angles opposite the edge in
// its two triangles (one on the hull), the weights are ≥ 0 and the scheme
// reproduces linear functions exactly. Each step solves the implicit
// (backward Euler) system
//
//	a_i h_i + dt κ Σ_j w_ij (h_i − h_j) = a_i h_i^old
//
// for every node that is not an outlet (outlets stay at their height),
// with a_i the Voronoi cell area: symmetric positive definite, solved by
// conjugate gradients with a Jacobi preconditioner, to a relative residual
// of diffTol. It is stable for any κ dt; the volume Σ a_i h_i changes only
// by what flows through the outlets.

// diffTol is the conjugate-gradient stopping rule: the residual's norm
// relative to the right-hand side's (about the heights' norm times the
// cell areas). Heights of kilometres then err by about a millimetre,
// below float32's resolution there.
const diffTol = 1e-7

// diffMaxIter bounds the iterations; extreme κ·dt (validated up to 1e15
// m²) may need more, and then keep the last iterate, which is finite.
const diffMaxIter = 2000

// cotWeights returns the weights ℓ_ij/d_ij per Nbr entry.
func (m *Mesh) cotWeights() []float64 {
	w := make([]float64, len(m.Nbr))
	slot := func(i, j int32) int {
		nb := m.Nbr[m.NbrOff[i]:m.NbrOff[i+1]]
		lo, hi := 0, len(nb)
		for lo < hi {
			mid := (lo + hi) / 2
			if nb[mid] < j {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		return int(m.NbrOff[i]) + lo
	}
	for t := 0; t+2 < len(m.Tri); t += 3 {
		v := [3]int32{m.Tri[t], m.Tri[t+1], m.Tri[t+2]}
		for k := range 3 {
			a, b, c := v[k], v[(k+1)%3], v[(k+2)%3]
			// The angle at a, opposite edge bc.
			ux, uy := m.X[b]-m.X[a], m.Y[b]-m.Y[a]
			vx, vy := m.X[c]-m.X[a], m.Y[c]-m.Y[a]
			cross := math.Abs(ux*vy - uy*vx)
			if cross == 0 {
				continue
			}
			cot := (ux*vx + uy*vy) / cross / 2
			w[slot(b, c)] += cot
			w[slot(c, b)] += cot
		}
	}
	return w
}

// diffuse applies one implicit diffusion step of κ·dt m² to the node
// heights h in place. Reductions run over fixed blocks merged in order, so
// the result does not depend on the number of workers. It returns the
// number of iterations.
func (e *Engine) diffuse(h []float32, kdt float64) int {
	if e.lapW == nil {
		e.lapW = e.m.cotWeights()
	}
	return e.solveDiffusion(h, kdt, e.lapW, nil)
}

// solveDiffusion solves the implicit step of diffuse with the weights w
// per Nbr entry (symmetric, ≥ 0) and, when extra is not nil, kdt·extra_i
// added to node i's right-hand side (creep's Newton step), in place.
func (e *Engine) solveDiffusion(h []float32, kdt float64, w, extra []float64) int {
	m := e.m
	n := m.N
	d := &e.dif
	if len(d.x) != n {
		d.x, d.r, d.z, d.p, d.q, d.diag = make([]float64, n), make([]float64, n), make([]float64, n),
			make([]float64, n), make([]float64, n), make([]float64, n)
		d.part = make([]float64, parallel.NumBlocks(n, measureBlock))
	}
	x, r, z, p, q, diag := d.x, d.r, d.z, d.p, d.q, d.diag
	// The operator on interior nodes: (A x)_i = a_i x_i + kdt Σ w_ij (x_i − x_j),
	// with x_j = h_j fixed at outlets (their terms go to the right-hand side).
	apply := func(dst, v []float64, lo, hi int) {
		for i := lo; i < hi; i++ {
			if m.Outlet[i] {
				dst[i] = 0
				continue
			}
			s := 0.0
			for k := m.NbrOff[i]; k < m.NbrOff[i+1]; k++ {
				j := m.Nbr[k]
				if m.Outlet[j] {
					s += w[k] * v[i]
				} else {
					s += w[k] * (v[i] - v[j])
				}
			}
			dst[i] = m.Area[i]*v[i] + kdt*s
		}
	}
	dot := func(a, b []float64) float64 {
		parallel.Blocks(n, measureBlock, func(bk, lo, hi int) {
			s := 0.0
			for i := lo; i < hi; i++ {
				s += a[i] * b[i]
			}
			d.part[bk] = s
		})
		s := 0.0
		for _, v := range d.part {
			s += v
		}
		return s
	}
	// Start from the current heights; r = b − A x, with b_i = a_i h_i +
	// kdt Σ_{j outlet} w_ij h_j.
	var bb float64
	nb := len(d.part)
	d.lo, d.hi = sim.Resize(d.lo, nb), sim.Resize(d.hi, nb)
	parallel.Blocks(n, measureBlock, func(bk, a, b int) {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i, v := range h[a:b] {
			x[a+i] = float64(v)
			lo, hi = min(lo, x[a+i]), max(hi, x[a+i])
		}
		d.lo[bk], d.hi[bk] = lo, hi
	})
	lo, hi := math.Inf(1), math.Inf(-1) // the range of the heights
	for bk := range nb {
		lo, hi = min(lo, d.lo[bk]), max(hi, d.hi[bk])
	}
	parallel.Blocks(n, measureBlock, func(bk, lo, hi int) {
		s := 0.0
		apply(q, x, lo, hi)
		for i := lo; i < hi; i++ {
			if m.Outlet[i] {
				r[i], z[i], p[i], diag[i] = 0, 0, 0, 1
				continue
			}
			b := m.Area[i] * x[i]
			if extra != nil {
				b += kdt * extra[i]
			}
			dg := m.Area[i]
			for k := m.NbrOff[i]; k < m.NbrOff[i+1]; k++ {
				dg += kdt * w[k]
				if j := m.Nbr[k]; m.Outlet[j] {
					b += kdt * w[k] * x[j]
				}
			}
			diag[i] = dg
			r[i] = b - q[i]
			z[i] = r[i] / dg
			p[i] = z[i]
			s += b * b
		}
		d.part[bk] = s
	})
	for _, v := range d.part {
		bb += v
	}
	if bb == 0 {
		return 0
	}
	rz := dot(r, z)
	it := 0
	for ; it < diffMaxIter; it++ {
		if dot(r, r) <= diffTol*diffTol*bb {
			break
		}
		parallel.Blocks(n, measureBlock, func(_, lo, hi int) { apply(q, p, lo, hi) })
		pq := dot(p, q)
		if !(pq > 0) {
			break
		}
		alpha := rz / pq
		parallel.Blocks(n, measureBlock, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				x[i] += alpha * p[i]
				r[i] -= alpha * q[i]
				z[i] = r[i] / diag[i]
			}
		})
		rz2 := dot(r, z)
		beta := rz2 / rz
		rz = rz2
		parallel.Blocks(n, measureBlock, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				p[i] = z[i] + beta*p[i]
			}
		})
	}
	// The exact solution obeys the discrete maximum principle (the
	// operator is an M-matrix): it lies within the range of the old
	// heights. An iterate stopped early (extreme κ·dt) is projected there.
	parallel.Blocks(n, measureBlock, func(_, a, b int) {
		for i := a; i < b; i++ {
			if !m.Outlet[i] {
				h[i] = float32(min(max(x[i], lo), hi))
			}
		}
	})
	return it
}

// diffScratch holds the conjugate-gradient vectors.
type diffScratch struct {
	x, r, z, p, q, diag []float64
	part                []float64 // per block: partial sums
	lo, hi              []float64 // per block: the range of the heights
}
