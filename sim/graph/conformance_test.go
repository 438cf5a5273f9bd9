package graph

import (
	"testing"

	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
)

// TestConformance runs the engine contract's suite on the stream graph
// seen on its grid, about one node per 4 cells as the app builds it.
func TestConformance(t *testing.T) {
	enginetest.Run(t, func(t testing.TB, c enginetest.Config) engine.Engine {
		m := sampleMesh(t, float64(c.W)*c.Cell, float64(c.H)*c.Cell, 2*c.Cell, c.Seed)
		e, err := New(Config{Mesh: m, InitNoise: 1, Seed: c.Seed, Params: engine.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewOnGrid(e, c.W, c.H, c.Cell)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.SetUplift(c.Up); err != nil {
			t.Fatal(err)
		}
		return g
	}, enginetest.Options{})
}
