package roudier

import (
	"math"
	"math/rand/v2"
	"testing"

	"orogen/sim/geology"
)

// TestVegetationMatchesGeology: the engine's K_v (which avoids an arctangent
// outside 30°–60°) is package geology's Vegetation, to 1e-12 (the two
// compute the same line in the angle, one from the tangent).
func TestVegetationMatchesGeology(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	p := Params{Veg: 0.35, SnowLine: 800}
	for range 10000 {
		tn := math.Tan(r.Float64() * math.Pi / 2 * 0.999)
		z := r.Float64() * 1000
		want := geology.Vegetation(p.Veg, math.Atan(tn)*180/math.Pi, z, p.SnowLine, false)
		if got := p.vegetation(tn, z); math.Abs(got-want) > 1e-12 {
			t.Fatalf("tan %g, z %g: K_v %g; geology.Vegetation gives %g", tn, z, got, want)
		}
	}
}

// TestGeologyLookup: with a geology laid (SetGeology), the rock the engine
// erodes at a cell is the model's at that point (the map's constant-time
// lookup agrees with Model.RockAt), and the snapshot carries the model
// and the exposed layers; nil returns to the default strata.
func TestGeologyLookup(t *testing.T) {
	spec := geology.Spec{Base: -50, Stack: []geology.Group{{Repeat: 5, Layers: []geology.Layer{
		{Name: "clay", Thickness: 4, Rock: "Clay"}, {Name: "lime", Thickness: 3, Rock: "Limestone"}, {Name: "qz", Thickness: 2, Rock: "Quartzite"}}}},
		Deformations: []geology.Deformation{{Kind: geology.Fold, Azimuth: 20, Wavelength: 300, Amplitude: 6}}}
	m, err := spec.Compile()
	if err != nil {
		t.Fatal(err)
	}
	w, h, cell := 40, 30, 10.0
	e := newEngine(t, Config{W: w, H: h, Cell: cell, Init: tilted(w, h, cell, 0.05, 1, 2), Params: westOutlet(), Roudier: DefaultParams(), Geology: m})
	if e.Geology() != m {
		t.Fatal("Geology() is not the model given")
	}
	r := rand.New(rand.NewPCG(4, 4))
	for range 2000 {
		x, y := r.IntN(w), r.IntN(h)
		z := -40 + 80*r.Float64()
		got := e.rockAt(y*w+x, x, y, z)
		want := m.RockAt((float64(x)+0.5)*cell, (float64(y)+0.5)*cell, z)
		if got != want {
			t.Fatalf("cell (%d, %d) at %g m: %s; the model gives %s", x, y, z, got.Name, want.Name)
		}
	}
	for range 20 {
		e.Step()
	}
	s := e.Snapshot()
	if s.Geology != m || len(s.Rock) != w*h {
		t.Fatalf("snapshot geology %v, %d rock cells; want the model and every cell", s.Geology == m, len(s.Rock))
	}
	e.SetGeology(nil)
	if e.Geology() != nil || e.rockAt(0, 0, 0, 35).Name != "Quartzite" || e.Snapshot().Rock != nil {
		t.Error("SetGeology(nil): want the default strata back and no rock in snapshots")
	}
}

// TestExposedStrata: without a geology model, ExposedStrata gives every
// cell the layer of the engine's strata that prepare erodes there (the
// alluvium, index len(Layers), where it is at least MinAlluvium thick),
// and after a run on tilted strata both rocks and alluvium crop out; with
// a model there is none.
func TestExposedStrata(t *testing.T) {
	w, h, cell := 60, 40, 10.0
	e := newEngine(t, Config{W: w, H: h, Cell: cell, Init: tilted(w, h, cell, 0.05, 1, 5), Params: westOutlet(), Roudier: DefaultParams()})
	for range 40 {
		e.Step()
	}
	s := e.Strata()
	if s == nil {
		t.Fatal("no strata on the default lithology")
	}
	idx := e.ExposedStrata()
	rock, alluv := e.Rock(), e.Alluvium()
	seen := map[uint8]int{}
	for i, k := range idx {
		seen[k]++
		if alluv[i] >= geology.MinAlluvium {
			if int(k) != len(s.Layers) {
				t.Fatalf("cell %d: %g m of alluvium, index %d; want %d", i, alluv[i], k, len(s.Layers))
			}
			continue
		}
		if int(k) >= len(s.Layers) {
			t.Fatalf("cell %d: index %d for rock", i, k)
		}
		if got, want := s.Layers[k].Rock, e.rockAt(i, i%w, i/w, rock[i]); got != want {
			t.Fatalf("cell %d at %g m: layer %d is %s; the engine erodes %s", i, rock[i], k, got.Name, want.Name)
		}
	}
	if len(seen) != len(s.Layers)+1 {
		t.Errorf("exposed %v; want every layer of %d and alluvium", seen, len(s.Layers))
	}
	m, err := geology.Spec{Stack: []geology.Group{{Layers: []geology.Layer{{Thickness: 10, Rock: "Clay"}}}}}.Compile()
	if err != nil {
		t.Fatal(err)
	}
	e.SetGeology(m)
	if e.Strata() != nil || e.ExposedStrata() != nil {
		t.Error("with a geology model: want no strata")
	}
}
