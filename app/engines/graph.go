package engines

import (
	"fmt"
	"math"

	"orogen/sim"
	"orogen/sim/graph"
	"orogen/sim/poisson"
)

// Graph is a stream-graph engine (Cordonnier et al. 2016) built from a
// Spec: the Poisson sample's mesh, the engine, and the engine seen on the
// Spec's grid.
type Graph struct {
	// Mesh is the mesh the engine starts on; with refinement
	// (graph.Engine.SetRefinement) it moves on to finer ones:
	// Engine.Mesh() is the current one.
	Mesh    *graph.Mesh
	Engine  *graph.Engine
	Grid    *graph.OnGrid // Engine seen on the Spec's grid
	Samples int           // nodes asked for (Spec.Samples, or the default)
	R       float64       // Poisson minimum distance, metres

	spec Spec
}

// DefaultSamples is the node count of a stream graph on a w×h grid when
// none is given: one node per 4 cells, w·h/4. The mean node spacing is then
// √(0.65)·r ≈ 2 cells, which keeps the rasterized heightmap's triangles a
// few cells wide, and the engine's step costs about a quarter of the
// grid's node count.
func DefaultSamples(w, h int) int { return max(16, w*h/4) }

// NewGraph samples the domain of s with poisson.Bridson at the distance
// that gives about s.Samples nodes, the border samples being the outlets,
// and builds the graph engine with the uplift (and initial heights)
// sampled bilinearly at the nodes. s.Kind is not looked at.
func NewGraph(s Spec) (*Graph, error) {
	if err := s.Params.Validate(); err != nil {
		return nil, err
	}
	w, h, cell := s.W, s.H, s.Cell
	if w < 3 || h < 3 || !(cell > 0) {
		return nil, fmt.Errorf("engines: grid %d×%d of %g m cells: too small for a stream graph", w, h, cell)
	}
	var up *sim.Field
	if s.Up != nil {
		if len(s.Up) != w*h {
			return nil, fmt.Errorf("engines: %d uplift values for a %d×%d grid", len(s.Up), w, h)
		}
		up = &sim.Field{W: w, H: h, Cell: cell, Data: s.Up}
	}
	if s.Init != nil && len(s.Init) != w*h {
		return nil, fmt.Errorf("engines: %d initial heights for a %d×%d grid", len(s.Init), w, h)
	}
	samples := s.Samples
	if samples == 0 {
		samples = DefaultSamples(w, h)
	}
	if samples < 16 {
		return nil, fmt.Errorf("--samples %d: need at least 16 nodes for a stream graph", samples)
	}
	if samples > poisson.MaxPoints {
		return nil, fmt.Errorf("--samples %d: at most %d nodes", samples, poisson.MaxPoints)
	}
	W, H := float64(w)*cell, float64(h)*cell
	r := math.Sqrt(poisson.Density * W * H / float64(samples))
	if r >= math.Min(W, H)/2 {
		return nil, fmt.Errorf("--samples %d: too few nodes for a %g×%g m domain; ask for more", samples, W, H)
	}
	ps, err := poisson.Bridson(W, H, r, s.Seed)
	if err != nil {
		return nil, fmt.Errorf("sampling the graph nodes: %w", err)
	}
	n := len(ps.Points)
	x, y := make([]float64, n), make([]float64, n)
	for i, q := range ps.Points {
		x[i], y[i] = q.X, q.Y
	}
	// Nodes in Z-curve order: neighbours close in memory.
	graph.SortSamples(x, y, ps.Border, r)
	m, err := graph.NewMesh(x, y, ps.Border, W, H)
	if err != nil {
		return nil, err
	}
	c := graph.Config{Mesh: m, InitNoise: s.InitNoise, Seed: s.Seed, Params: s.Params}
	if s.Init != nil {
		c.Init = m.Sample(nil, &sim.Field{W: w, H: h, Cell: cell, Data: s.Init})
	}
	e, err := graph.New(c)
	if err != nil {
		return nil, err
	}
	og, err := graph.NewOnGrid(e, w, h, cell)
	if err != nil {
		return nil, err
	}
	if up != nil {
		if err := e.SetUpliftField(up); err != nil {
			return nil, err
		}
	}
	if s.Geology != nil {
		e.SetGeology(s.Geology)
	}
	return &Graph{Mesh: m, Engine: e, Grid: og, Samples: samples, R: r, spec: s}, nil
}

// Rebuild builds the same graph engine on about samples nodes.
func (g *Graph) Rebuild(samples int) (*Graph, error) {
	s := g.spec
	s.Samples = samples
	return NewGraph(s)
}
