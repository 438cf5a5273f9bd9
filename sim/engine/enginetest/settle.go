package enginetest

import (
	"math"
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

// RestShift settles e at its dt (at most 3 000 steps), then at factor
// times it (at most 500 more), and returns the mean |Δh| between the two
// rest states and the steps each took: how far a longer step moves an
// engine's rest state (the splitting error that rebalanced splitting
// removes). e is left at the long dt, settled.
func RestShift(t testing.TB, e engine.Engine, factor float64) (shift float64, steps, long int) {
	t.Helper()
	steps = SettleAt(t, e, 3000)
	h1 := append([]float32(nil), e.Heights()...)
	q := e.Params()
	q.Dt *= factor
	if err := e.SetParams(q); err != nil {
		t.Fatal(err)
	}
	long = SettleAt(t, e, 500)
	var sum float64
	for i, v := range e.Heights() {
		sum += math.Abs(float64(v - h1[i]))
	}
	return sum / float64(len(h1)), steps, long
}
