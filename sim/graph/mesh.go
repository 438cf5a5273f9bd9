package graph

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"orogen/sim/delaunay"
	"orogen/sim/parallel"
)

// Mesh is the planar stream graph 𝒢 of Cordonnier et al. 2016, §4.1: nodes
// (Poisson samples), their Delaunay neighbours, the Voronoi cell areas
// clipped to the domain and the outlet flags. A Mesh is immutable after
// NewMesh and may be shared by several engines.
type Mesh struct {
	N    int
	X, Y []float64 // node positions, metres
	W, H float64   // the domain is [0,W]×[0,H], metres
	// NbrOff and Nbr are the Delaunay adjacency in CSR form: the neighbours
	// of node i are Nbr[NbrOff[i]:NbrOff[i+1]], sorted by index.
	NbrOff []int32
	Nbr    []int32
	// Area is the Voronoi cell area of each node clipped to the domain, m²:
	// the rain area a_k of Cordonnier et al. 2016, §4.1. The areas sum to
	// W·H.
	Area   []float64
	Outlet []bool // base-level outlets (border samples)
	// Tri holds the Delaunay triangles, 3 node indices each, counter-
	// clockwise: what Linear interpolates over.
	Tri []int32

	invDist []float64 // 1/|p_i − p_j| per Nbr entry, 1/m
}

// areaBlock is the number of nodes per block of the parallel area loop.
const areaBlock = 4096

// NewMesh triangulates the points (x[i], y[i]) of the domain [0,w]×[0,h],
// builds the adjacency and the clipped Voronoi areas. outlet flags the
// base-level nodes; at least one is required, or water could not leave.
func NewMesh(x, y []float64, outlet []bool, w, h float64) (*Mesh, error) {
	if len(x) != len(y) || len(x) != len(outlet) {
		panic("graph: x, y and outlet lengths differ")
	}
	if !(w > 0 && h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return nil, fmt.Errorf("graph: domain %g×%g m: sides must be finite and > 0", w, h)
	}
	n := len(x)
	if n < 3 {
		return nil, fmt.Errorf("graph: %d nodes: need at least 3", n)
	}
	if n > math.MaxInt32/8 {
		return nil, fmt.Errorf("graph: %d nodes: at most %d", n, math.MaxInt32/8)
	}
	if !slices.Contains(outlet, true) {
		return nil, errors.New("graph: no outlet node: water has nowhere to go; flag the border samples as outlets")
	}
	pts := make([]delaunay.Point, n)
	for i := range pts {
		if !(x[i] >= 0 && x[i] <= w && y[i] >= 0 && y[i] <= h) {
			return nil, fmt.Errorf("graph: node %d at (%g, %g) lies outside the domain [0,%g]×[0,%g]", i, x[i], y[i], w, h)
		}
		pts[i] = delaunay.Point{X: x[i], Y: y[i]}
	}
	t, err := delaunay.Triangulate(pts)
	if err != nil {
		return nil, fmt.Errorf("graph: triangulating the nodes: %w", err)
	}
	m := &Mesh{N: n, X: slices.Clone(x), Y: slices.Clone(y), W: w, H: h, Outlet: slices.Clone(outlet)}
	m.adjacency(t)
	m.Tri = make([]int32, len(t.Triangles))
	for i, v := range t.Triangles {
		m.Tri[i] = int32(v)
	}
	m.Area = make([]float64, n)
	parallel.Blocks(n, areaBlock, func(_, lo, hi int) {
		var a, b []vec
		for i := lo; i < hi; i++ {
			m.Area[i], a, b = m.cellArea(i, a, b)
		}
	})
	for i, a := range m.Area {
		if !(a > 0) {
			return nil, fmt.Errorf("graph: node %d at (%g, %g) has an empty Voronoi cell: nodes are too close (use a Poisson sample)", i, x[i], y[i])
		}
	}
	return m, nil
}

// adjacency builds the sorted CSR neighbour lists from the triangulation's
// halfedges: each undirected edge is seen once from the halfedge whose twin
// has a larger index or is missing (hull).
func (m *Mesh) adjacency(t *delaunay.Triangulation) {
	n := m.N
	tri, he := t.Triangles, t.Halfedges
	next := func(e int) int {
		if e%3 == 2 {
			return e - 2
		}
		return e + 1
	}
	deg := make([]int32, n+1)
	for e := range tri {
		if he[e] < e {
			deg[tri[e]+1]++
			deg[tri[next(e)]+1]++
		}
	}
	for i := 1; i <= n; i++ {
		deg[i] += deg[i-1]
	}
	m.NbrOff = deg
	m.Nbr = make([]int32, deg[n])
	fill := slices.Clone(deg[:n])
	for e := range tri {
		if he[e] < e {
			a, b := tri[e], tri[next(e)]
			m.Nbr[fill[a]] = int32(b)
			fill[a]++
			m.Nbr[fill[b]] = int32(a)
			fill[b]++
		}
	}
	m.invDist = make([]float64, len(m.Nbr))
	for i := 0; i < n; i++ {
		nb := m.Nbr[m.NbrOff[i]:m.NbrOff[i+1]]
		slices.Sort(nb)
		for k, j := range nb {
			m.invDist[int(m.NbrOff[i])+k] = 1 / m.Dist(i, int(j))
		}
	}
}

// Neighbours returns the sorted neighbours of node i; the caller must not
// modify them.
func (m *Mesh) Neighbours(i int) []int32 { return m.Nbr[m.NbrOff[i]:m.NbrOff[i+1]] }

// Dist returns the horizontal distance between nodes i and j, metres.
func (m *Mesh) Dist(i, j int) float64 {
	dx, dy := m.X[i]-m.X[j], m.Y[i]-m.Y[j]
	return math.Sqrt(dx*dx + dy*dy)
}

type vec struct{ x, y float64 }

// cellArea returns the area of node i's Voronoi cell clipped to the domain.
// The cell is the intersection of the half-planes closer to i than to each
// Delaunay neighbour; starting from the domain rectangle and clipping by
// each bisector (Sutherland–Hodgman against one edge at a time) gives the
// polygon whose vertices are the circumcentres around i, cut by the domain,
// for interior and hull nodes alike (a hull node's unbounded cell is closed
// by the box). a and b are scratch buffers, returned for reuse.
func (m *Mesh) cellArea(i int, a, b []vec) (float64, []vec, []vec) {
	// Work relative to p_i: smaller coordinates, smaller rounding.
	px, py := m.X[i], m.Y[i]
	a = append(a[:0], vec{-px, -py}, vec{m.W - px, -py}, vec{m.W - px, m.H - py}, vec{-px, m.H - py})
	for _, j := range m.Neighbours(i) {
		// Keep q with q·d <= |d|²/2, d = p_j − p_i.
		dx, dy := m.X[j]-px, m.Y[j]-py
		c := (dx*dx + dy*dy) / 2
		b = b[:0]
		for k := range a {
			p, q := a[k], a[(k+1)%len(a)]
			sp, sq := p.x*dx+p.y*dy-c, q.x*dx+q.y*dy-c
			if sp <= 0 {
				b = append(b, p)
			}
			if (sp < 0 && sq > 0) || (sp > 0 && sq < 0) {
				t := sp / (sp - sq)
				b = append(b, vec{p.x + t*(q.x-p.x), p.y + t*(q.y-p.y)})
			}
		}
		a, b = b, a
		if len(a) < 3 {
			return 0, a, b
		}
	}
	var s float64
	for k := range a {
		p, q := a[k], a[(k+1)%len(a)]
		s += p.x*q.y - q.x*p.y
	}
	return s / 2, a, b
}
