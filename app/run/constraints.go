package run

import (
	"errors"
	"fmt"

	"orogen/sim/constrain"
	"orogen/sim/engine"
)

// ConstraintFigure is one constraint's figures in the report.
type ConstraintFigure struct {
	Kind      string  `json:"kind"` // "point" or "curve"
	Cells     int     `json:"cells"`
	MaxErrorM float64 `json:"max_error_m"`
}

// prepareConstraints checks that the run's engine can take the scene's
// elevation constraints; the driver lays them on the grid and adjusts the
// uplift to them (app/drive).
func (j *Job) prepareConstraints() error {
	if len(j.Scene.Constraints) == 0 {
		return nil
	}
	if _, ok := j.Engine.(engine.Constrainable); !ok {
		return errors.New("constraints need the grid engine")
	}
	if j.spec.Up == nil {
		return errors.New("constraints adjust the uplift: the scene has none; give it an uplift")
	}
	cs := j.Scene.ConstraintList()
	w, h, cell := j.Engine.Size()
	if _, err := constrain.Rasterize(cs, w, h, cell); err != nil {
		return fmt.Errorf("scene: %w", err)
	}
	j.cons = cs
	return nil
}

// constraintFigures are the report's figures of the constraints.
func (j *Job) constraintFigures() []ConstraintFigure {
	if j.drv == nil || len(j.cons) == 0 {
		return nil
	}
	errs, cells := j.drv.ConstraintErrors(), j.drv.ConstraintCells()
	out := make([]ConstraintFigure, len(j.cons))
	for i, c := range j.Scene.Constraints {
		out[i] = ConstraintFigure{Kind: "curve", MaxErrorM: errs[i], Cells: cells[i]}
		if c.Point != nil {
			out[i].Kind = "point"
		}
	}
	return out
}
