package graph

import (
	"errors"
	"fmt"
	"math"

	"orogen/sim/poisson"
)

// Progressive refinement (Cordonnier et al. 2016, §6.3: "a solution to
// accelerate convergence could be to progressively refine the sampling grid
// ... this refinement needs to be uniform").

// Refine returns a new engine that continues e on its nodes refined to the
// minimum distance r2 by poisson.Refine: e's nodes keep their indices and
// exact heights, and new samples (interior ones, and border ones splitting
// the gaps between the border nodes, which are outlets) are appended. r2
// must not exceed the minimum distance of e's nodes (half of it is the
// usual step).
//
// A new node takes the linear interpolation of the heights over the old
// triangle that covers it (the lowest-index one on a shared edge), so its
// height lies within that triangle's; a new outlet interpolates the old
// triangle's outlet nodes only, so outlets stay at base level. The uplift
// is carried over the same way (callers that know the uplift field may
// sample it at the new nodes and call SetUplift instead). The new engine
// has e's parameters, step count and time; its first step sees every
// receiver as changed, and it reports Converged only after two steps of
// its own. e is not modified.
func Refine(e *Engine, r2 float64, seed uint64) (*Engine, error) {
	old := e.m
	pts := make([]poisson.Point, old.N)
	for i := range pts {
		pts[i] = poisson.Point{X: old.X[i], Y: old.Y[i]}
	}
	s, err := poisson.Refine(&poisson.Sample{Points: pts, Border: old.Outlet}, old.W, old.H, r2, seed)
	if err != nil {
		return nil, fmt.Errorf("graph: refining the nodes: %w", err)
	}
	n := len(s.Points)
	if n <= old.N {
		return nil, fmt.Errorf("graph: refining to r2 = %g m added no node: r2 must be below the nodes' spacing", r2)
	}
	x, y := make([]float64, n), make([]float64, n)
	for i, p := range s.Points {
		if i < old.N && (p.X != old.X[i] || p.Y != old.Y[i]) {
			return nil, errors.New("graph: poisson.Refine reordered the nodes")
		}
		x[i], y[i] = p.X, p.Y
	}
	m, err := NewMesh(x, y, s.Border, old.W, old.H)
	if err != nil {
		return nil, err
	}
	tri := old.locate(x[old.N:], y[old.N:])
	hgt := old.carry(make([]float32, n), e.hgt, tri, x, y, s.Border)
	ne, err := New(Config{Mesh: m, Init: hgt, Params: e.p})
	if err != nil {
		return nil, err
	}
	if e.up != nil {
		if err := ne.SetUplift(old.carry(make([]float32, n), e.up, tri, x, y, s.Border)); err != nil {
			return nil, err
		}
	}
	if e.ng.geo != nil {
		ne.SetGeology(e.ng.geo)
	}
	if e.ng.alluv != nil { // a geology's alluvium or the sediment (G > 0)
		ne.ng.alluv = old.carry(make([]float32, n), e.ng.alluv, tri, x, y, s.Border)
	}
	ne.kOrigin = e.kOrigin
	ne.step, ne.time, ne.stageStart = e.step, e.time, e.step
	ne.stats = e.stats
	return ne, nil
}

// locate returns, for each point (x[k], y[k]), the lowest-index triangle of
// m that covers it (edges and vertices included, to a relative 1e-9 of the
// triangle's doubled area), or -1 if none does. Points are bucketed and
// every triangle visits the buckets under its bounding box.
func (m *Mesh) locate(x, y []float64) []int32 {
	out := make([]int32, len(x))
	for k := range out {
		out[k] = -1
	}
	if len(x) == 0 {
		return out
	}
	size := m.spacing()
	bw := max(1, int(math.Ceil(m.W/size)))
	bh := max(1, int(math.Ceil(m.H/size)))
	col := func(v float64) int { return min(bw-1, max(0, int(v/size))) }
	row := func(v float64) int { return min(bh-1, max(0, int(v/size))) }
	off := make([]int32, bw*bh+1)
	for k := range x {
		off[row(y[k])*bw+col(x[k])+1]++
	}
	for q := 1; q < len(off); q++ {
		off[q] += off[q-1]
	}
	fill := append([]int32(nil), off[:bw*bh]...)
	idx := make([]int32, len(x))
	for k := range x {
		q := row(y[k])*bw + col(x[k])
		idx[fill[q]] = int32(k)
		fill[q]++
	}
	for t := 0; t < len(m.Tri)/3; t++ {
		a, b, c := m.Tri[3*t], m.Tri[3*t+1], m.Tri[3*t+2]
		ax, ay, bx, by, cx, cy := m.X[a], m.Y[a], m.X[b], m.Y[b], m.X[c], m.Y[c]
		area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
		if area == 0 {
			continue
		}
		if area < 0 {
			bx, by, cx, cy, area = cx, cy, bx, by, -area
		}
		eps := -1e-9 * area
		for qy := row(min(ay, by, cy)); qy <= row(max(ay, by, cy)); qy++ {
			for qx := col(min(ax, bx, cx)); qx <= col(max(ax, bx, cx)); qx++ {
				q := qy*bw + qx
				for _, k := range idx[off[q]:off[q+1]] {
					if out[k] >= 0 {
						continue
					}
					px, py := x[k], y[k]
					if (cx-bx)*(py-by)-(cy-by)*(px-bx) < eps ||
						(ax-cx)*(py-cy)-(ay-cy)*(px-cx) < eps ||
						(bx-ax)*(py-ay)-(by-ay)*(px-ax) < eps {
						continue
					}
					out[k] = int32(t)
				}
			}
		}
	}
	return out
}

// carry sets dst[i] = v[i] for m's nodes and interpolates v at the new
// nodes i >= m.N over their triangles tri[i−m.N] (nearest old node where
// none covers it); new outlets use the triangle's outlets only. Each value
// is clamped to the min/max of the values it is made of. It returns dst.
func (m *Mesh) carry(dst, v []float32, tri []int32, x, y []float64, outlet []bool) []float32 {
	copy(dst, v)
	var g *buckets
	for k, t := range tri {
		i := m.N + k
		if t < 0 {
			if g == nil {
				g = m.newBuckets(m.spacing())
			}
			dst[i] = v[g.nearest(m, x[i], y[i])]
			continue
		}
		c := m.Tri[3*t : 3*t+3]
		ax, ay, bx, by, cx, cy := m.X[c[0]], m.Y[c[0]], m.X[c[1]], m.Y[c[1]], m.X[c[2]], m.Y[c[2]]
		area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
		px, py := x[i], y[i]
		w := [3]float64{
			((cx-bx)*(py-by) - (cy-by)*(px-bx)) / area,
			((ax-cx)*(py-cy) - (ay-cy)*(px-cx)) / area,
			((bx-ax)*(py-ay) - (by-ay)*(px-ax)) / area,
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		var sw, s float64
		for j, node := range c {
			if outlet[i] && !m.Outlet[node] {
				continue
			}
			wj := max(0, w[j])
			sw += wj
			s += wj * float64(v[node])
			lo, hi = min(lo, float64(v[node])), max(hi, float64(v[node]))
		}
		switch {
		case sw > 0:
			dst[i] = float32(min(hi, max(lo, s/sw)))
		case hi >= lo: // on a vertex with zero weights elsewhere
			dst[i] = float32(lo)
		default: // an outlet in a triangle without outlets
			if g == nil {
				g = m.newBuckets(m.spacing())
			}
			dst[i] = v[g.nearest(m, px, py)]
		}
	}
	return dst
}

// schedule is a progressive refinement plan (see SetRefinement).
type schedule struct {
	r      float64 // the nodes' current minimum distance, metres
	stages int     // refinements left
	every  int     // steps per stage
	tol    float64 // m/yr; a stage also ends once converged to tol (<= 0: never)
	seed   uint64
}

// SetRefinement schedules progressive refinement (Cordonnier et al. 2016,
// §6.3): stages times, once the current stage has run every steps, or sooner
// once it has converged to tol m/yr (tol <= 0: never), the next Step first
// halves the nodes' minimum distance r (metres, the distance the current
// nodes were sampled at) and continues on the refined nodes (see Refine;
// about four times as many). Converged reports false while refinements are
// left. stages 0 cancels the plan. Mesh, Heights and every other slice the
// engine returns belong to the current stage's nodes.
func (e *Engine) SetRefinement(r float64, stages, every int, tol float64, seed uint64) error {
	if stages == 0 {
		e.sched = schedule{}
		return nil
	}
	if stages < 0 || every < 1 || !(r > 0) || math.IsInf(r, 0) || math.IsNaN(tol) {
		return fmt.Errorf("graph: refinement of %d stages every %d steps from r = %g m: want stages >= 0, every >= 1, r > 0", stages, every, r)
	}
	e.sched = schedule{r: r, stages: stages, every: every, tol: tol, seed: seed}
	return nil
}

// Stage returns the number of refinements done by the schedule.
func (e *Engine) Stage() int { return e.stage }

// refineDue reports whether the schedule asks for a refinement before the
// next step.
func (e *Engine) refineDue() bool {
	s := e.sched
	if s.stages == 0 {
		return false
	}
	done := e.step - e.stageStart
	return done >= s.every || (s.tol > 0 && e.converged(s.tol))
}

// refineNow replaces e by its refinement at half the distance.
func (e *Engine) refineNow() error {
	s := e.sched
	ne, err := Refine(e, s.r/2, s.seed+uint64(e.stage)+1)
	if err != nil {
		return err
	}
	ne.sched = schedule{r: s.r / 2, stages: s.stages - 1, every: s.every, tol: s.tol, seed: s.seed}
	ne.stage = e.stage + 1
	f, rf, wat := e.upField, e.rainFld, e.wat
	*e = *ne
	// The water stays at its pits: old nodes keep their indices.
	e.wat = wat
	if rf != nil {
		if err := e.SetRainField(rf); err != nil {
			return err
		}
	}
	if f != nil {
		// Sample the uplift raster at the new nodes rather than keep
		// Refine's interpolation of the old ones.
		return e.SetUpliftField(f)
	}
	return nil
}
