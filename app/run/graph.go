package run

import (
	"fmt"

	"orogen/app/engines"
	"orogen/sim/engine"
)

// MaxRefine is the largest --refine (engines.MaxRefine).
const MaxRefine = engines.MaxRefine

// SetRefine makes a stream-graph run progressive (--refine k,
// engines.Refine): it starts on about Samples/4^k nodes and refines them
// k times, the steps split equally between the stages (a stage of an
// --until-converged run ends early when it converges). k = 0 leaves the
// run as it is.
func (j *Job) SetRefine(k int) error {
	if k == 0 {
		return nil
	}
	if j.Refine != 0 {
		return fmtRefined(k, j.Refine)
	}
	tol := 0.0
	if j.Scene.UntilConverged {
		tol = j.Tolerance
	}
	e, err := engines.Refine(j.Engine, k, j.Steps, tol, j.Scene.Seed)
	if err != nil {
		return err
	}
	j.Engine, j.Refine = e, k
	return nil
}

// Snapshot returns the state of the run's engine on its grid: the grid
// engine's snapshot, or the stream graph's rasterized with its arcs.
func (j *Job) Snapshot() *engine.Snapshot {
	return j.Engine.Snapshot()
}

// heights is the heightmap of a run: the snapshot's, or for a graph run
// with --raster gaussian the Gaussian-kernel interpolation of its nodes.
func (j *Job) heights(s *engine.Snapshot) []float32 {
	if j.Opt.Raster != "gaussian" {
		return s.Height
	}
	if g, ok := engines.Gaussian(j.Engine); ok {
		return g
	}
	return s.Height
}

func fmtRefined(k, done int) error {
	return fmt.Errorf("--refine %d: the run is already refined %d times", k, done)
}
