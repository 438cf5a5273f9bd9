package invert

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"orogen/sim"
	"orogen/sim/engine"
)

// Fit on a terrain the engine grew from a flat start: it scores every
// iteration, returns the best one's uplift, non-negative and bounded, and
// growing that uplift scores Best.
func TestFit(t *testing.T) {
	const w, h, cell = 48, 40, 2000.0
	p := engine.DefaultParams()
	hs := steadyTerrain(t, w, h, cell, p, 60)
	dem := &sim.Field{W: w, H: h, Cell: cell, Data: hs}
	res, err := Fit(context.Background(), dem, FitOptions{Options: Options{Params: p}, Iterations: 4, Steps: 40, InitNoise: 1, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.R) != 5 {
		t.Fatalf("%d scores; want 5 (the first guess and 4 corrections)", len(res.R))
	}
	best := math.Inf(-1)
	for _, r := range res.R {
		best = max(best, r)
	}
	if res.Best != best {
		t.Errorf("Best %g; want the largest score %g of %v", res.Best, best, res.R)
	}
	for i, v := range res.Uplift.Data {
		if !(v >= 0 && v <= MaxUplift) {
			t.Fatalf("uplift %g at cell %d; want in [0, %g]", v, i, float64(MaxUplift))
		}
	}
	t.Logf("scores %.3f", res.R)
}

func TestFitBadInput(t *testing.T) {
	dem := &sim.Field{W: 8, H: 8, Cell: 100, Data: make([]float32, 64)}
	p := engine.DefaultParams()
	for _, c := range []struct {
		o    FitOptions
		want string
	}{
		{FitOptions{Options: Options{Params: p}, Iterations: -1}, "fit iterations"},
		{FitOptions{Options: Options{Params: p}, Steps: MaxFitSteps + 1}, "steps per fit"},
	} {
		if _, err := Fit(context.Background(), dem, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v; want one naming %q", err, c.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Fit(ctx, dem, FitOptions{Options: Options{Params: p}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled fit: error %v; want context.Canceled", err)
	}
}
