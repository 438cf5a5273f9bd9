package grid

import (
	"fmt"
	"math"
)

// SetAlluvium replaces the alluvium's thickness per cell, m (W·H finite
// values ≥ 0), from the next step on: an engine taking over another's
// terrain (app/engines moving the GPU engine to the CPU) keeps its
// sediment, which a geology erodes first and snapshots carry. A bad
// field is an error and changes nothing.
func (e *Engine) SetAlluvium(a []float32) error {
	if len(a) != e.w*e.h {
		return fmt.Errorf("grid: %d alluvium values for a %d×%d grid", len(a), e.w, e.h)
	}
	for i, v := range a {
		if !(v >= 0) || math.IsInf(float64(v), 1) {
			return fmt.Errorf("grid: alluvium %g m at cell %d: must be finite and >= 0", v, i)
		}
	}
	e.alluv = append(e.alluv[:0], a...)
	if e.geo != nil {
		e.geo.Exposed(e.exposed, e.hgt, e.alluv)
	}
	return nil
}
