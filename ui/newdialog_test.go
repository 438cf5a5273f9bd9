package ui

import (
	"fmt"
	"strings"
	"testing"

	"orogen/app/engines"
	"orogen/app/scene"
	"orogen/sim/engine"
	"orogen/sim/grid"
	"orogen/sim/roudier"
)

// TestNewCostIsRunEstimate: File → New says the memory `orogen run`
// estimates (engines.EstimateBytes), with the preset's own processes and
// the chosen engine's own figure, not a figure of its own.
func TestNewCostIsRunEstimate(t *testing.T) {
	params := func(name string) engine.Params {
		sc, err := scene.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := sc.EngineParams()
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	def, lakes := params("default"), params("lakes")
	for _, c := range []struct {
		kind engine.Kind
		p    engine.Params
	}{{grid.Kind, def}, {grid.Kind, lakes}, {roudier.Kind, def}} {
		est := float64(engines.EstimateBytes(engines.Spec{Kind: c.kind, W: 4096, H: 4096, Params: c.p}, 1))
		want := fmt.Sprintf("about %.1f GB of memory", est/1e9)
		if got := newCost(4096, c.kind, c.p); !strings.HasPrefix(got, want) {
			t.Errorf("%s: got %q; want it to start %q", c.kind, got, want)
		}
	}
	// The lakes' processes and Roudier's engine cost more than the
	// default scene on the grid engine.
	base := newCost(4096, grid.Kind, def)
	if newCost(4096, grid.Kind, lakes) == base || newCost(4096, roudier.Kind, def) == base {
		t.Error("the lakes scene or Roudier's engine costs what the default scene does on the grid engine")
	}
}
