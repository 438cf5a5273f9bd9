package hydrogpu

import (
	"fmt"
	"math"
	"testing"

	"orogen/sim/geology"
	"orogen/sim/hydro"
)

// strata is a layered stack, soft clay and hard quartzite, tilted by 1°,
// spanning the test terrains' 0-300 m.
func strata(t *testing.T) *geology.Model {
	t.Helper()
	m, err := geology.Parse([]byte(`{"base":-200,"stack":[{"repeat":8,"layers":[{"name":"soft","thickness":60,"rock":"Clay"},{"name":"hard","thickness":25,"rock":"Quartzite"}]}],"deformations":[{"kind":"tilt","azimuth":30,"dip":1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// geoConfig is config with a geology and some alluvium already on the
// terrain (a third of the cells).
func geoConfig(t *testing.T, w, h int, b hydro.Boundary) hydro.Config {
	cfg := config(w, h, b, 4)
	cfg.Geology = strata(t)
	cfg.Alluvium = make([]float32, w*h)
	for i := range cfg.Alluvium {
		if i%3 == 0 {
			cfg.Alluvium[i] = 0.05
		}
	}
	return cfg
}

// TestGeologyMatchesCPU: with a geology the hardness comes from the rock
// exposed at each cell every step (the rock kernel) and the alluvium
// grows where the step deposited (move). After one step and after three,
// the hardness, alluvium and terrain agree with the CPU engine's to
// float32 rounding, the exposed rock at all but a few cells (a cell whose
// height rounds across a layer boundary), and the budgets close.
func TestGeologyMatchesCPU(t *testing.T) {
	for _, b := range []hydro.Boundary{hydro.Walls, hydro.Open} {
		t.Run(b.String(), func(t *testing.T) {
			ce, ge := pair(t, geoConfig(t, 37, 29, b))
			for step := 1; step <= 3; step++ {
				ce.Step()
				ge.Step()
				if err := ge.Err(); err != nil {
					t.Fatal(err)
				}
				if step == 2 {
					continue
				}
				near(t, fmt.Sprintf("step %d hardness", step), ce.Hardness(), ge.Hardness(), 1e-5, 0)
				near(t, fmt.Sprintf("step %d alluvium", step), ce.Alluvium(), ge.Alluvium(), 1e-3, 1e-6)
				near(t, fmt.Sprintf("step %d terrain", step), ce.Terrain(), ge.Terrain(), 1e-6, 0)
				cs, gs := ce.Snapshot(), ge.Snapshot()
				if gs.Geology == nil || len(gs.Rock) != len(cs.Rock) {
					t.Fatalf("GPU snapshot: geology %v, %d rock cells", gs.Geology, len(gs.Rock))
				}
				diff, layers := 0, map[uint8]bool{}
				for i := range cs.Rock {
					layers[cs.Rock[i]] = true
					if cs.Rock[i] != gs.Rock[i] {
						diff++
					}
				}
				if diff > len(cs.Rock)/200 || len(layers) < 3 {
					t.Errorf("step %d: exposed rock differs at %d of %d cells (%d layers exposed)", step, diff, len(cs.Rock), len(layers))
				}
			}
			// The hardness follows the rock, not the configuration's.
			cfgHard, moved := geoConfig(t, 37, 29, b).Hardness, 0
			for i, r := range ge.Hardness() {
				if r != cfgHard[i] {
					moved++
				}
			}
			if moved < len(cfgHard)*3/4 {
				t.Errorf("hardness: %d of %d cells differ from the configuration's; want it from the rock", moved, len(cfgHard))
			}
			bu, m := ge.Budget(), ge.Mass()
			if r := bu.Residual(); math.Abs(r) > 1e-4*(bu.RainIn+bu.Initial) {
				t.Errorf("water budget: residual %.4g m³ (%+v)", r, bu)
			}
			if r := m.Residual(); math.Abs(r) > 1e-6*m.RockInitial {
				t.Errorf("rock account: residual %.4g m³ (%+v)", r, m)
			}
		})
	}
}

// TestGeologySplitMatchesWhole: with a geology too, a grid split into
// bands gives the unsplit grid's hardness, alluvium and terrain bit for
// bit.
func TestGeologySplitMatchesWhole(t *testing.T) {
	cfg := geoConfig(t, 40, 140, hydro.Wrap)
	whole, err := New(device(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	split, err := New(capped{device(t), 64000}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer split.Close()
	if split.Bands() != 3 {
		t.Fatalf("%d bands; want 3", split.Bands())
	}
	for _, e := range []*Engine{whole, split} {
		if err := e.Run(6); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []struct {
		what string
		a, b []float32
	}{{"hardness", whole.Hardness(), split.Hardness()}, {"alluvium", whole.Alluvium(), split.Alluvium()}, {"terrain", whole.Terrain(), split.Terrain()}} {
		for i := range f.a {
			if math.Float32bits(f.a[i]) != math.Float32bits(f.b[i]) {
				t.Fatalf("%s: cell %d: unsplit %g, split %g", f.what, i, f.a[i], f.b[i])
			}
		}
	}
}
