package sim

import (
	"fmt"
	"math"
)

// FirstNonFinite returns the index of the first NaN or ±Inf value of v, or
// -1 when every value is finite.
func FirstNonFinite(v []float32) int {
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return i
		}
	}
	return -1
}

// CheckFinite returns nil when every value of v is finite, or else the error
// "what: value x at unit i is not finite" naming the first that is not.
// what carries the caller's prefix ("grid: uplift"); unit is what v is
// indexed by ("cell", "node").
func CheckFinite(what, unit string, v []float32) error {
	if i := FirstNonFinite(v); i >= 0 {
		return fmt.Errorf("%s: value %g at %s %d is not finite", what, v[i], unit, i)
	}
	return nil
}
