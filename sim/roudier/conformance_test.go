package roudier

import (
	"testing"

	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
)

// TestConformance runs the engine contract's suite on Roudier's engine,
// at the small dt and cells its per-step laws are made for.
func TestConformance(t *testing.T) {
	enginetest.Run(t, func(t testing.TB, c enginetest.Config) engine.Engine {
		p := engine.DefaultParams()
		p.Dt = 500
		e, err := New(Config{W: c.W, H: c.H, Cell: c.Cell, Up: c.Up, InitNoise: 1, Seed: c.Seed, Params: p, Roudier: DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}, enginetest.Options{Cell: 10})
}
