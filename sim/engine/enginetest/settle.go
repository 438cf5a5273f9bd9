package enginetest

import (
	"testing"

	"orogen/sim/engine"
)

// SettleAt steps e at its dt until Converged(1e-6), at most max steps,
// and returns the steps taken; an engine error or no convergence fails t.
func SettleAt(t testing.TB, e engine.Engine, max int) int {
	t.Helper()
	for k := 1; k <= max; k++ {
		e.Step()
		if err := e.Err(); err != nil {
			t.Fatal(err)
		}
		if e.Converged(1e-6) {
			return k
		}
	}
	t.Fatalf("not converged after %d steps at dt %g", max, e.Params().Dt)
	return 0
}
