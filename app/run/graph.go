package run

import (
	"errors"
	"fmt"
	"math"

	"orogen/app/engines"
	"orogen/sim"
	"orogen/sim/engine"
)

// GraphJob is the stream-graph side of a run with engine "graph"
// (Cordonnier et al. 2016): the Poisson sample, its mesh and the engine
// (engines.Graph), and its refinement stages. Job.Engine is the engine seen
// on the run's grid, which the outputs are written on.
type GraphJob struct {
	*engines.Graph
	Refine int // refinement stages (SetRefine)
}

// MaxRefine is the largest --refine: each stage quarters the first
// stage's node count.
const MaxRefine = 6

// SetRefine makes the graph run progressive (Cordonnier et al. 2016, §6.3,
// --refine k): it starts on about Samples/4^k nodes (Poisson distance R·2^k)
// and, k times, halves the distance and refines the nodes (graph.Refine: old
// nodes keep their heights, new ones interpolate them linearly, uplift
// included), to end on about Samples nodes at distance R. The steps are split
// equally: each of the first k stages runs Steps/(k+1) steps, or fewer when
// the run is --until-converged and the stage converges to the tolerance
// first; the last stage runs the rest. k = 0 leaves the run as it is.
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
	gg, err := j.Graph.Rebuild(coarse)
	if err != nil {
		return fmt.Errorf("--refine %d: %w", k, err)
	}
	g := &GraphJob{Graph: gg}
	tol := 0.0
	if j.Scene.UntilConverged {
		tol = j.Tolerance
	}
	if err := g.Engine.SetRefinement(g.R, k, every, tol, j.Scene.Seed); err != nil {
		return err
	}
	g.Samples, g.Refine = j.Graph.Samples, k
	j.Graph, j.Engine = g, g.Grid
	return nil
}

// raster returns node values rasterized (graph.Mesh.Linear) on the run's
// grid.
func (j *Job) raster(values []float32) *sim.Field {
	w, h, cell := j.Engine.Size()
	return &sim.Field{W: w, H: h, Cell: cell, Data: j.Graph.Grid.Raster(values)}
}

// Snapshot returns the state of the run's engine on its grid: the grid
// engine's snapshot, or the stream graph's rasterized with its arcs.
func (j *Job) Snapshot() *engine.Snapshot {
	return j.Engine.Snapshot()
}

// heights is the heightmap of a run: the snapshot's, or for a graph run
// with --raster gaussian the Gaussian-kernel interpolation of its nodes.
func (j *Job) heights(s *engine.Snapshot) []float32 {
	if j.Graph == nil || j.Opt.Raster != "gaussian" {
		return s.Height
	}
	g := j.Graph.Engine
	return g.Mesh().Gaussian(sim.NewField(s.W, s.H, s.Cell), g.Heights(), 0).Data
}

// finishGraph fills the report's terrain figures from the graph's nodes.
func (r *Report) finishGraph(j *Job) {
	g := j.Graph.Engine
	r.Engine = engine.Graph.String()
	hs := g.Heights()
	// The mean is over the nodes: Poisson samples are near-uniform, so it
	// estimates the areal mean (the raster's would smooth the maximum).
	r.Final.MinHeight, r.MaxHeight, r.MeanHeight = heightFigures(hs)
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
	r.closeBudgets(g.Water())
}
