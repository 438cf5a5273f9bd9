package constrain

import (
	"context"

	"orogen/sim/engine"
)

// Engine is what Drive needs of an engine; *grid.Engine has it.
//
// Drive is the tests' harness of the solver on a bare engine; the app and
// the command line drive constraints through app/drive.
type Engine interface {
	Step() engine.StepStats
	Heights() []float32
	SetUplift([]float32) error
	Err() error
}

// DriveOptions tune Drive.
type DriveOptions struct {
	Every      int           // steps between adjustments (default 50)
	Iterations int           // adjustments at most (default 40)
	Tol        float64       // stop when every constraint is within Tol metres
	Params     engine.Params // the engine's, for the inversion
	Umax       float32       // bound on |u|, m/yr (default 1)
}

// Drive steps e under base uplift adjusted by s: Every steps, then Adjust,
// until every constraint is within Tol (checked after the steps) or
// Iterations adjustments. It returns, per iteration, the largest error of
// any constraint, metres; the last entry is the final terrain's.
func Drive(ctx context.Context, e Engine, s *Solver, base []float32, constraints int, o DriveOptions) ([]float64, error) {
	if o.Every <= 0 {
		o.Every = 50
	}
	if o.Iterations <= 0 {
		o.Iterations = 40
	}
	if o.Umax <= 0 {
		o.Umax = 1
	}
	var errs []float64
	u := s.Uplift(nil, base, o.Umax)
	if err := e.SetUplift(u); err != nil {
		return nil, err
	}
	for it := 0; ; it++ {
		for range o.Every {
			if err := ctx.Err(); err != nil {
				return errs, err
			}
			e.Step()
		}
		if err := e.Err(); err != nil {
			return errs, err
		}
		worst := 0.0
		for _, v := range s.Error(e.Heights(), constraints) {
			worst = max(worst, v)
		}
		errs = append(errs, worst)
		if worst <= o.Tol || it == o.Iterations {
			return errs, nil
		}
		if err := s.Adjust(e.Heights(), o.Params); err != nil {
			return errs, err
		}
		u = s.Uplift(u, base, o.Umax)
		if err := e.SetUplift(u); err != nil {
			return errs, err
		}
	}
}
