package run

import (
	"errors"
	"fmt"
	"math"

	"orogen/sim/constrain"
	"orogen/sim/grid"
)

// ConstraintEvery is the number of steps between two adjustments of the
// uplift to the scene's elevation constraints (package constrain), unless
// the terrain settles first.
const ConstraintEvery = 100

// ConstraintTol is how close, as a fraction of the relief, every
// constraint must be for a settled run with constraints to count as
// converged.
const ConstraintTol = 0.02

// constraints is a run's elevation constraints.
type constraints struct {
	s          *constrain.Solver
	n          int       // constraints in the scene
	base       []float32 // the scene's uplift, m/yr
	u          []float32
	last       int // step of the last adjustment
	Adjustment int
}

// ConstraintFigure is one constraint's figures in the report.
type ConstraintFigure struct {
	Kind      string  `json:"kind"` // "point" or "curve"
	Cells     int     `json:"cells"`
	MaxErrorM float64 `json:"max_error_m"`
}

// prepareConstraints rasterizes the scene's constraints on the run's grid.
func (j *Job) prepareConstraints(w, h int, cell float64, up []float32) error {
	if len(j.Scene.Constraints) == 0 {
		return nil
	}
	if _, ok := j.Engine.(*grid.Engine); !ok {
		return errors.New("constraints need the grid engine")
	}
	if up == nil {
		return errors.New("constraints adjust the uplift: the scene has none; give it an uplift")
	}
	ts, err := constrain.Rasterize(j.Scene.ConstraintList(), w, h, cell)
	if err != nil {
		return fmt.Errorf("scene: %w", err)
	}
	cs, err := constrain.New(ts, w, h, cell)
	if err != nil {
		return err
	}
	j.cons = &constraints{s: cs, n: len(j.Scene.Constraints), base: append([]float32(nil), up...)}
	return nil
}

// constrainStep adjusts the uplift when it is due: ConstraintEvery steps
// after the last adjustment, or when the terrain has settled with a
// constraint still off by more than ConstraintTol of the relief. It
// reports whether the run may count as converged now.
func (j *Job) constrainStep(step int, settled bool) (converged bool, err error) {
	c := j.cons
	e := j.Engine.(*grid.Engine)
	hs := e.Heights()
	if settled {
		lo, hi := heightRange(hs)
		worst := 0.0
		for _, v := range c.s.Error(hs, c.n) {
			worst = max(worst, v)
		}
		if worst <= ConstraintTol*(hi-lo) {
			return true, nil
		}
	} else if step-c.last < ConstraintEvery {
		return false, nil
	}
	if err := c.s.Adjust(hs, e.Params()); err != nil {
		return false, err
	}
	c.u = c.s.Uplift(c.u, c.base, 1)
	c.last = step
	c.Adjustment++
	return false, e.SetUplift(c.u)
}

func heightRange(hs []float32) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range hs {
		lo, hi = min(lo, float64(v)), max(hi, float64(v))
	}
	return lo, hi
}

// constraintFigures are the report's figures of the constraints.
func (j *Job) constraintFigures() []ConstraintFigure {
	if j.cons == nil {
		return nil
	}
	hs := j.Engine.(*grid.Engine).Heights()
	errs := j.cons.s.Error(hs, j.cons.n)
	out := make([]ConstraintFigure, j.cons.n)
	for i, c := range j.Scene.Constraints {
		out[i] = ConstraintFigure{Kind: "curve", MaxErrorM: errs[i]}
		if c.Point != nil {
			out[i].Kind = "point"
		}
	}
	for _, t := range j.cons.s.Targets() {
		out[t.C].Cells++
	}
	return out
}
