package grid

import (
	"testing"

	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
)

// TestConformance runs the engine contract's suite on the grid engine.
func TestConformance(t *testing.T) {
	enginetest.Run(t, func(t testing.TB, c enginetest.Config) engine.Engine {
		e, err := New(Config{W: c.W, H: c.H, Cell: c.Cell, Up: c.Up, InitNoise: 1, Seed: c.Seed, Params: engine.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}, enginetest.Options{})
}
