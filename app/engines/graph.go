package engines

import (
	"errors"
	"fmt"
	"math"

	"orogen/sim"
	"orogen/sim/engine"
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

// onGrid is the stream graph as New returns it: the engine seen on the
// grid, which keeps the Graph it was built from for Refine and Gaussian.
type onGrid struct {
	*graph.OnGrid
	g *Graph
}

// MaxRefine is the largest refinement: each stage quarters the first
// stage's node count.
const MaxRefine = 6

// Refine makes a stream-graph engine e progressive (Cordonnier et al.
// 2016, §6.3, `orogen run --refine k`): it returns a new engine that
// starts on about Samples/4^k nodes (Poisson distance R·2^k) and, k
// times, halves the distance and refines the nodes (graph.Refine: old
// nodes keep their heights, new ones interpolate them linearly, uplift
// included), to end on about Samples nodes at distance R. The steps are
// split equally: each of the first k stages runs steps/(k+1) steps, or
// fewer when tol > 0 and the stage converges to it first; the last stage
// runs the rest. Engines without nodes of their own refuse it.
func Refine(e engine.Engine, k, steps int, tol float64, seed uint64) (engine.Engine, error) {
	og, ok := e.(*onGrid)
	if !ok {
		return nil, errors.New("--refine applies to the stream graph only: add --engine graph")
	}
	if k < 1 || k > MaxRefine {
		return nil, fmt.Errorf("--refine %d: must be between 0 and %d", k, MaxRefine)
	}
	every := steps / (k + 1)
	if every < 1 {
		return nil, fmt.Errorf("--refine %d: %d steps cannot be split into %d stages; ask for more --steps", k, steps, k+1)
	}
	coarse := og.g.Samples >> (2 * k)
	if coarse < 16 {
		return nil, fmt.Errorf("--refine %d: the first stage would have %d of the %d samples, fewer than 16; refine less or ask for more --samples", k, coarse, og.g.Samples)
	}
	gg, err := og.g.Rebuild(coarse)
	if err != nil {
		return nil, fmt.Errorf("--refine %d: %w", k, err)
	}
	if err := gg.Engine.SetRefinement(gg.R, k, every, tol, seed); err != nil {
		return nil, err
	}
	gg.Samples = og.g.Samples
	return &onGrid{gg.Grid, gg}, nil
}

// Gaussian returns the heightmap of an engine on nodes of its own
// interpolated on its grid by the normalized Gaussian kernel of
// Cordonnier et al. 2016, §6.2 (σ the mean node spacing), and whether e
// has nodes of its own; the grid's engines return nil, false.
func Gaussian(e engine.Engine) ([]float32, bool) {
	og, ok := e.(*onGrid)
	if !ok {
		return nil, false
	}
	w, h, cell := og.Size()
	ge := og.OnGrid.Engine()
	return ge.Mesh().Gaussian(sim.NewField(w, h, cell), ge.Heights(), 0).Data, true
}

// GraphOf returns the stream graph e was built from (mesh, node count,
// Poisson distance), or nil when e is not a stream graph built by New.
func GraphOf(e engine.Engine) *Graph {
	if og, ok := e.(*onGrid); ok {
		return og.g
	}
	return nil
}
