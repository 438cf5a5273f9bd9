package enginetest

import (
	"testing"

	"orogen/sim/engine"
	"orogen/sim/talus"
)

func toyParams() engine.Params {
	return engine.Params{K: 5.61e-7, M: 0.5, N: 1, Dt: 2.5e5, Talus: talus.Model{Mode: talus.ModeOff}}
}

func TestToy(t *testing.T) {
	Run(t, func(t testing.TB, c Config) engine.Engine {
		e, err := NewToy(c.W, c.H, c.Cell, toyParams(), c.Up)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}, Options{})
}

// TestToySteadyState checks the toy against the fixed point of its
// explicit step h' = (h + u·dt)(1 − k·dt): h = u·dt(1 − k·dt)/(k·dt), the
// continuous u/k less one step's decay.
func TestToySteadyState(t *testing.T) {
	up := []float32{1e-3, 0}
	e, err := NewToy(2, 1, 10, toyParams(), up)
	if err != nil {
		t.Fatal(err)
	}
	for range 2000 {
		e.Step()
	}
	kdt := 5.61e-7 * 2.5e5
	want := 1e-3 * 2.5e5 * (1 - kdt) / kdt
	if got := float64(e.Heights()[0]); got < 0.999*want || got > 1.001*want {
		t.Fatalf("steady height %g m; want u·dt(1 − k·dt)/(k·dt) = %g m within 0.1 %%", got, want)
	}
	if e.Heights()[1] != 0 {
		t.Fatalf("cell without uplift at %g m; want 0", e.Heights()[1])
	}
}
