package run

import (
	"errors"
	"fmt"
	"math"

	"orogen/app/rasterio"
	"orogen/sim"
	"orogen/sim/graph"
	"orogen/sim/grid"
	"orogen/sim/poisson"
	"orogen/viewer"
)

// GraphJob is the stream-graph side of a run with engine "graph" (000):
// the Poisson sample, its mesh and the engine. The run's grid (Job.Engine's
// size and cell) is the raster the outputs are written on.
type GraphJob struct {
	// Mesh is the mesh the run starts on; with refinement (SetRefine) the
	// engine moves on to finer ones: Engine.Mesh() is the current one.
	Mesh    *graph.Mesh
	Engine  *graph.Engine
	Grid    *graph.OnGrid // Engine seen on the run's grid
	Samples int           // nodes asked for (--samples, or the default)
	R       float64       // Poisson minimum distance, metres
	Refine  int           // refinement stages (SetRefine)

	// rebuild prepares the same run on about samples nodes.
	rebuild func(samples int) (*GraphJob, error)
}

// MaxRefine is the largest --refine: each stage quarters the first
// stage's node count.
const MaxRefine = 6

// SetRefine makes the graph run progressive (000 §6.3, --refine k): it
// starts on about Samples/4^k nodes (Poisson distance R·2^k) and, k times,
// halves the distance and refines the nodes (graph.Refine: old nodes keep
// their heights, new ones interpolate them linearly, uplift included), to
// end on about Samples nodes at distance R. The steps are split equally:
// each of the first k stages runs Steps/(k+1) steps, or fewer when the run
// is --until-converged and the stage converges to the tolerance first; the
// last stage runs the rest. k = 0 leaves the run as it is.
func (j *Job) SetRefine(k int) error {
	if k == 0 {
		return nil
	}
	if j.Graph == nil {
		return errors.New("--refine applies to the stream graph only: add --engine graph")
	}
	if k < 0 || k > MaxRefine {
		return fmt.Errorf("--refine %d: must be between 0 and %d", k, MaxRefine)
	}
	if j.Graph.Refine != 0 {
		return fmt.Errorf("--refine %d: the run is already refined %d times", k, j.Graph.Refine)
	}
	every := j.Steps / (k + 1)
	if every < 1 {
		return fmt.Errorf("--refine %d: %d steps cannot be split into %d stages; ask for more --steps", k, j.Steps, k+1)
	}
	coarse := j.Graph.Samples >> (2 * k)
	if coarse < 16 {
		return fmt.Errorf("--refine %d: the first stage would have %d of the %d samples, fewer than 16; refine less or ask for more --samples", k, coarse, j.Graph.Samples)
	}
	g, err := j.Graph.rebuild(coarse)
	if err != nil {
		return fmt.Errorf("--refine %d: %w", k, err)
	}
	tol := 0.0
	if j.Scene.UntilConverged {
		tol = j.Tolerance
	}
	if err := g.Engine.SetRefinement(g.R, k, every, tol, j.Scene.Seed); err != nil {
		return err
	}
	g.Samples, g.Refine = j.Graph.Samples, k
	j.Graph = g
	return nil
}

// DefaultSamples is the node count of a graph run on a w×h grid when
// --samples is not given: one node per 4 cells, w·h/4. The mean node
// spacing is then √(0.65)·r ≈ 2 cells, which keeps the rasterized
// heightmap's triangles a few cells wide, and the engine's step costs
// about a quarter of the grid's node count.
func DefaultSamples(w, h int) int { return max(16, w*h/4) }

// stepper is what Run needs of an engine.
type stepper interface {
	Step() grid.StepStats
	Err() error
	Converged(tol float64) bool
}

// prepareGraph samples the domain of w×h cells of cell metres with
// poisson.Bridson at the distance that gives about samples nodes, the
// border samples being the outlets, and builds the graph engine with the
// uplift (and initial heights) sampled bilinearly at the nodes.
func prepareGraph(samples, w, h int, cell float64, up *sim.Field, init []float32, noise float64, seed uint64, p grid.Params) (*GraphJob, error) {
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
	s, err := poisson.Bridson(W, H, r, seed)
	if err != nil {
		return nil, fmt.Errorf("sampling the graph nodes: %w", err)
	}
	n := len(s.Points)
	x, y := make([]float64, n), make([]float64, n)
	for i, q := range s.Points {
		x[i], y[i] = q.X, q.Y
	}
	m, err := graph.NewMesh(x, y, s.Border, W, H)
	if err != nil {
		return nil, err
	}
	c := graph.Config{Mesh: m, InitNoise: noise, Seed: seed, Params: p}
	if init != nil {
		c.Init = m.Sample(nil, &sim.Field{W: w, H: h, Cell: cell, Data: init})
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
	g := &GraphJob{Mesh: m, Engine: e, Grid: og, Samples: samples, R: r}
	g.rebuild = func(samples int) (*GraphJob, error) {
		return prepareGraph(samples, w, h, cell, up, init, noise, seed, p)
	}
	return g, nil
}

// raster returns node values rasterized (graph.Mesh.Linear) on the run's
// grid.
func (j *Job) raster(values []float32) *sim.Field {
	w, h, cell := j.Engine.Size()
	return &sim.Field{W: w, H: h, Cell: cell, Data: j.Graph.Grid.Raster(values)}
}

// graphSnapshot is a grid.Snapshot of the graph engine's state on the run's
// grid (graph.OnGrid.Snapshot).
func (j *Job) graphSnapshot() *grid.Snapshot { return j.Graph.Grid.Snapshot() }

// Snapshot returns the state of the run's engine on its grid: the grid
// engine's snapshot, or the stream graph's rasterized with its arcs.
func (j *Job) Snapshot() *grid.Snapshot {
	if j.Graph != nil {
		return j.graphSnapshot()
	}
	return j.Engine.Snapshot()
}

// writeGraphOutputs writes the outputs of a graph run, rasterized on the
// run's grid.
func (j *Job) writeGraphOutputs() error {
	if j.Opt.Out == "" && j.Opt.OutDrainage == "" && j.Opt.OutWater == "" && j.Opt.OutPreview == "" &&
		j.Opt.OutLakes == "" && j.Opt.OutRivers == "" {
		return nil
	}
	s := j.graphSnapshot()
	if err := j.writeWaterOutputs(s); err != nil {
		return err
	}
	if j.Opt.OutPreview != "" {
		if err := WritePNG(j.Opt.OutPreview, viewer.Relief(nil, s, viewer.DefaultOptions())); err != nil {
			return err
		}
	}
	for _, o := range []struct {
		path string
		data []float32
	}{{j.Opt.Out, j.graphHeights(s)}, {j.Opt.OutDrainage, s.Area}, {j.Opt.OutWater, s.Water}} {
		if o.path == "" {
			continue
		}
		if err := rasterio.Write(o.path, s.Field(o.data)); err != nil {
			return err
		}
	}
	return nil
}

// graphHeights is the heightmap of a graph run: the snapshot's (linear)
// or the Gaussian-kernel interpolation (--raster gaussian).
func (j *Job) graphHeights(s *grid.Snapshot) []float32 {
	if j.Opt.Raster != "gaussian" {
		return s.Height
	}
	g := j.Graph.Engine
	return g.Mesh().Gaussian(sim.NewField(s.W, s.H, s.Cell), g.Heights(), 0).Data
}

// finishGraph fills the report's terrain figures from the graph's nodes.
func (r *Report) finishGraph(j *Job) {
	g := j.Graph.Engine
	r.Engine = "graph"
	hs := g.Heights()
	lo, hi := math.Inf(1), math.Inf(-1)
	var sum float64
	for _, v := range hs {
		lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
		sum += float64(v)
	}
	// The mean is over the nodes: Poisson samples are near-uniform, so it
	// estimates the areal mean (the raster's would smooth the maximum).
	r.MaxHeight, r.MeanHeight = hi, sum/float64(len(hs))
	r.Final.MinHeight = lo
	if g.Stats().Step > 0 {
		for _, a := range g.DrainageArea() {
			r.Final.MaxDrainage = math.Max(r.Final.MaxDrainage, a)
		}
		// Lake figures as the grid run gives them: wet cells of the
		// rasterized depth, the deepest water at a node.
		wd := g.WaterDepth(nil)
		for _, d := range wd {
			r.Final.MaxLakeDepth = math.Max(r.Final.MaxLakeDepth, float64(d))
		}
		for _, d := range j.raster(wd).Data {
			if d > 0 {
				r.Final.LakeCells++
			}
		}
	}
	if !j.Scene.UntilConverged {
		r.Converged = g.Converged(j.Tolerance)
	}
}

var errSamplesGrid = errors.New("--samples applies to the stream graph only: add --engine graph")
