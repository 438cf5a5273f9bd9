package graph

import (
	"math"
	"sync/atomic"

	"orogen/sim"
	"orogen/sim/parallel"
)

// Rasterization: turning node values into a grid (Cordonnier et al. 2016,
// §3.2, §6.2).
//
// The grid is dst: dst.W×dst.H cells of dst.Cell metres whose centres are
// ((i+0.5)·Cell, (j+0.5)·Cell) in the mesh's coordinates; it normally covers
// the domain (W·Cell = m.W). Both methods write every cell of dst.Data and
// give the same bytes for any GOMAXPROCS.

// triBlock is the number of triangles per block of Linear's cover pass.
const triBlock = 4096

// rowPixels is the number of cells per block of the row loops.
const rowPixels = 1 << 14

// noOwner marks a cell whose centre no triangle covers.
const noOwner = math.MaxInt32

// done marks a cell Linear's pass 1 has written.
const done = -1

// checkRaster panics on a dst or values no caller should pass.
func (m *Mesh) checkRaster(dst *sim.Field, values []float32) {
	if dst == nil {
		panic("graph: nil destination field")
	}
	if dst.W <= 0 || dst.H <= 0 || len(dst.Data) != dst.W*dst.H || !(dst.Cell > 0) {
		panic("graph: destination field has a bad shape or cell size")
	}
	if len(values) != m.N {
		panic("graph: values length differs from the node count")
	}
}

// Linear writes into dst the piecewise-linear interpolation of values (one
// per node) over the Delaunay triangles (Cordonnier et al. 2016, §3.2) and
// returns dst. A cell takes the value at its centre, interpolated with the
// barycentric coordinates of the triangle that covers it; a centre on a
// shared edge or vertex belongs to the covering triangle of lowest index, so
// the output does not depend on scheduling. Centres outside the hull (none
// when the border is sampled, as poisson.Bridson does) take the nearest
// node's value. A plane is reproduced to float32 rounding.
//
// Pass 1 walks the triangles' bounding boxes; a centre deep inside its
// triangle (farther than 1e-7 of the domain's diagonal from every edge,
// so no other triangle can cover it) is interpolated there and then; only
// centres near an edge take the atomic lowest-index owner and pass 2. The
// interpolation is the same function in both passes, so the output is the
// owner rule's to the bit.
func (m *Mesh) Linear(dst *sim.Field, values []float32) *sim.Field {
	m.checkRaster(dst, values)
	w, h, c := dst.W, dst.H, dst.Cell
	owner := make([]int32, w*h)
	rows := max(1, rowPixels/w)
	parallel.Blocks(h, rows, func(_, y0, y1 int) {
		o := owner[y0*w : y1*w]
		for i := range o {
			o[i] = noOwner
		}
	})
	nt := len(m.Tri) / 3
	// A centre farther than margin from every edge of its triangle lies
	// in no other triangle, even with the cover test's tolerance (at most
	// 1e-9 of a triangle's height, so 1e-9 of the domain's diagonal): no
	// triangle but this one can own it, and pass 1 writes its value right
	// away. Only centres near an edge go through the owner rule.
	margin := 1e-7 * math.Hypot(m.W, m.H)
	// Pass 1: each cell's owner is the lowest covering triangle (atomic
	// minimum, so the result is the same in any order); cells deep inside
	// a triangle are interpolated at once and marked done.
	parallel.Blocks(nt, triBlock, func(_, lo, hi int) {
		for t := lo; t < hi; t++ {
			a, b, cc := m.Tri[3*t], m.Tri[3*t+1], m.Tri[3*t+2]
			ax, ay, bx, by, cx, cy := m.X[a], m.Y[a], m.X[b], m.Y[b], m.X[cc], m.Y[cc]
			area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
			if area == 0 {
				continue
			}
			oa, va, vb, vc := area, values[a], values[b], values[cc]
			ox, oy := [3]float64{ax, bx, cx}, [3]float64{ay, by, cy}
			ccw := area > 0
			if !ccw {
				bx, by, cx, cy, area = cx, cy, bx, by, -area
			}
			eps := -1e-9 * area
			// Inner thresholds: margin times each edge's length, or more:
			// the L1 length bounds it and needs no square root.
			ma := margin * (math.Abs(cx-bx) + math.Abs(cy-by))
			mb := margin * (math.Abs(ax-cx) + math.Abs(ay-cy))
			mc := margin * (math.Abs(bx-ax) + math.Abs(by-ay))
			i0 := max(0, ceil(min(ax, bx, cx)/c-0.5))
			i1 := min(w-1, floor(max(ax, bx, cx)/c-0.5))
			j0 := max(0, ceil(min(ay, by, cy)/c-0.5))
			j1 := min(h-1, floor(max(ay, by, cy)/c-0.5))
			// The edge functions, with the products kept apart
			// (float64 conversions forbid fused multiply-adds), so that
			// hoisting the row terms changes no bit and bary, which
			// writes them the same way, sees the same numerators.
			dax, day := cx-bx, cy-by
			dbx, dby := ax-cx, ay-cy
			dcx, dcy := bx-ax, by-ay
			for j := j0; j <= j1; j++ {
				py := (float64(j) + 0.5) * c
				ra, rb, rc := float64(dax*(py-by)), float64(dbx*(py-cy)), float64(dcx*(py-ay))
				row := owner[j*w : (j+1)*w]
				out := dst.Data[j*w : (j+1)*w]
				for i := i0; i <= i1; i++ {
					px := (float64(i) + 0.5) * c
					ea := ra - float64(day*(px-bx))
					eb := rb - float64(dby*(px-cx))
					ec := rc - float64(dcy*(px-ax))
					if ea > ma && eb > mb && ec > mc {
						row[i] = done
						if ccw {
							// ea and eb are bary's numerators, to the bit.
							out[i] = baryOf(ea, eb, oa, va, vb, vc)
						} else {
							out[i] = bary(ox[0], oy[0], ox[1], oy[1], ox[2], oy[2], oa, va, vb, vc, px, py)
						}
						continue
					}
					if ea < eps || eb < eps || ec < eps {
						continue
					}
					atomicMin(&row[i], int32(t))
				}
			}
		}
	})
	// Pass 2: interpolate in the owner, by rows.
	missing := make([]bool, parallel.NumBlocks(h, rows))
	parallel.Blocks(h, rows, func(blk, y0, y1 int) {
		for j := y0; j < y1; j++ {
			py := (float64(j) + 0.5) * c
			for i := 0; i < w; i++ {
				t := owner[j*w+i]
				if t == done {
					continue
				}
				if t == noOwner {
					missing[blk] = true
					continue
				}
				px := (float64(i) + 0.5) * c
				dst.Data[j*w+i] = m.barycentric(int(t), px, py, values)
			}
		}
	})
	gap := false
	for _, b := range missing {
		gap = gap || b
	}
	if gap {
		g := m.newBuckets(m.spacing())
		parallel.Blocks(h, rows, func(_, y0, y1 int) {
			for j := y0; j < y1; j++ {
				py := (float64(j) + 0.5) * c
				for i := 0; i < w; i++ {
					if owner[j*w+i] == noOwner {
						dst.Data[j*w+i] = values[g.nearest(m, (float64(i)+0.5)*c, py)]
					}
				}
			}
		})
	}
	return dst
}

// ceil is math.Ceil for |x| < 2^62 as an int, without the call math.Ceil
// is on amd64 v1.
func ceil(x float64) int {
	k := int(x)
	if float64(k) < x {
		k++
	}
	return k
}

// floor is math.Floor for |x| < 2^62 as an int.
func floor(x float64) int {
	k := int(x)
	if float64(k) > x {
		k--
	}
	return k
}

// atomicMin lowers *p to v if v is smaller.
func atomicMin(p *int32, v int32) {
	for {
		old := atomic.LoadInt32(p)
		if v >= old || atomic.CompareAndSwapInt32(p, old, v) {
			return
		}
	}
}

// barycentric returns the linear interpolation of values in triangle t at
// (px, py).
func (m *Mesh) barycentric(t int, px, py float64, values []float32) float32 {
	a, b, c := m.Tri[3*t], m.Tri[3*t+1], m.Tri[3*t+2]
	ax, ay, bx, by, cx, cy := m.X[a], m.Y[a], m.X[b], m.Y[b], m.X[c], m.Y[c]
	area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
	return bary(ax, ay, bx, by, cx, cy, area, values[a], values[b], values[c], px, py)
}

// bary interpolates va, vb, vc given at the vertices (ax, ay), (bx, by),
// (cx, cy) of a triangle of doubled signed area area at (px, py). Both of
// Linear's passes use it, so a cell's value does not depend on the pass.
func bary(ax, ay, bx, by, cx, cy, area float64, va, vb, vc float32, px, py float64) float32 {
	return baryOf(float64((cx-bx)*(py-by))-float64((cy-by)*(px-bx)), float64((ax-cx)*(py-cy))-float64((ay-cy)*(px-cx)), area, va, vb, vc)
}

// baryOf is bary from the doubled signed areas ea, eb of the sub-triangles
// opposite a and b.
func baryOf(ea, eb, area float64, va, vb, vc float32) float32 {
	la := ea / area
	lb := eb / area
	lc := 1 - la - lb
	return float32(la*float64(va) + lb*float64(vb) + lc*float64(vc))
}

// spacing returns the mean sample spacing √(W·H/N), metres.
func (m *Mesh) spacing() float64 { return math.Sqrt(m.W * m.H / float64(m.N)) }

// Gaussian writes into dst the normalized Gaussian-kernel interpolation of
// values (Cordonnier et al. 2016, §6.2) and returns dst:
//
//	h(p) = Σ w_k h_k / Σ w_k,   w_k = exp(−|p − x_k|² / (2σ²)),
//
// summed over the nodes within 3σ of the cell centre p, found in a bucket
// grid, in bucket then node order (so the output does not depend on
// scheduling). sigma ≤ 0 (or NaN) selects the mean sample spacing
// √(W·H/N). A centre with no node within 3σ takes the nearest node's value.
// It smooths: a constant is kept, a plane only away from the border.
func (m *Mesh) Gaussian(dst *sim.Field, values []float32, sigma float64) *sim.Field {
	m.checkRaster(dst, values)
	sp := m.spacing()
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		sigma = sp
	}
	rad := 3 * sigma
	g := m.newBuckets(math.Max(1.5*sigma, sp))
	reach := int(math.Ceil(rad / g.size))
	w, h, c := dst.W, dst.H, dst.Cell
	inv := 1 / (2 * sigma * sigma)
	rad2 := rad * rad
	parallel.Blocks(h, max(1, rowPixels/w), func(_, y0, y1 int) {
		for j := y0; j < y1; j++ {
			py := (float64(j) + 0.5) * c
			by := g.row(py)
			for i := 0; i < w; i++ {
				px := (float64(i) + 0.5) * c
				bx := g.col(px)
				var sw, swh float64
				for qy := max(0, by-reach); qy <= min(g.h-1, by+reach); qy++ {
					for qx := max(0, bx-reach); qx <= min(g.w-1, bx+reach); qx++ {
						q := qy*g.w + qx
						for _, k := range g.idx[g.off[q]:g.off[q+1]] {
							dx, dy := m.X[k]-px, m.Y[k]-py
							d2 := dx*dx + dy*dy
							if d2 > rad2 {
								continue
							}
							wk := math.Exp(-d2 * inv)
							sw += wk
							swh += wk * float64(values[k])
						}
					}
				}
				if sw > 0 {
					dst.Data[j*w+i] = float32(swh / sw)
				} else {
					dst.Data[j*w+i] = values[g.nearest(m, px, py)]
				}
			}
		}
	})
	return dst
}

// buckets is a uniform grid of square buckets over the domain holding the
// nodes, CSR: the nodes of bucket q are idx[off[q]:off[q+1]], ascending.
type buckets struct {
	size     float64
	w, h     int
	off, idx []int32
}

// newBuckets sorts the nodes into buckets of about size metres (at least
// W·H/(4N) m² each, so the grid stays no larger than 4N buckets).
func (m *Mesh) newBuckets(size float64) *buckets {
	size = math.Max(size, m.spacing()/2)
	g := &buckets{size: size}
	g.w = max(1, int(math.Ceil(m.W/size)))
	g.h = max(1, int(math.Ceil(m.H/size)))
	g.off = make([]int32, g.w*g.h+1)
	cell := make([]int32, m.N)
	for k := 0; k < m.N; k++ {
		q := int32(g.row(m.Y[k])*g.w + g.col(m.X[k]))
		cell[k] = q
		g.off[q+1]++
	}
	for q := 1; q < len(g.off); q++ {
		g.off[q] += g.off[q-1]
	}
	fill := append([]int32(nil), g.off[:len(g.off)-1]...)
	g.idx = make([]int32, m.N)
	for k, q := range cell {
		g.idx[fill[q]] = int32(k)
		fill[q]++
	}
	return g
}

func (g *buckets) col(x float64) int { return min(g.w-1, max(0, int(x/g.size))) }
func (g *buckets) row(y float64) int { return min(g.h-1, max(0, int(y/g.size))) }

// nearest returns the node closest to (px, py), the lowest index on ties:
// rings of buckets around p's bucket are searched until the next ring
// cannot hold anything closer.
func (g *buckets) nearest(m *Mesh, px, py float64) int {
	bx, by := g.col(px), g.row(py)
	best, bestD := -1, math.Inf(1)
	for r := 0; ; r++ {
		for qy := by - r; qy <= by+r; qy++ {
			if qy < 0 || qy >= g.h {
				continue
			}
			for qx := bx - r; qx <= bx+r; qx++ {
				if qx < 0 || qx >= g.w || (max(abs(qx-bx), abs(qy-by)) != r) {
					continue
				}
				q := qy*g.w + qx
				for _, k := range g.idx[g.off[q]:g.off[q+1]] {
					dx, dy := m.X[k]-px, m.Y[k]-py
					d := dx*dx + dy*dy
					if d < bestD || (d == bestD && int(k) < best) {
						best, bestD = int(k), d
					}
				}
			}
		}
		reach := float64(r) * g.size
		if best >= 0 && bestD <= reach*reach {
			return best
		}
		if r > g.w+g.h {
			return best
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
