package hydro

import (
	"math"
	"testing"

	"orogen/sim/geology"
)

// TestRockSetsHardness: a plane sloping south, clay on the west half and
// quartzite on the east (a fault drops the east into the top layer). The
// hardness is each rock's K_d, and the rain wears the clay down more.
func TestRockSetsHardness(t *testing.T) {
	const n, cell = 40, 10.0
	terrain := make([]float32, n*n)
	for i := range terrain {
		terrain[i] = float32(n-i/n) * 2
	}
	start := append([]float32(nil), terrain...)
	p := DefaultParams(cell)
	p.Boundary = Open
	e := newEngine(t, Config{Terrain: field(n, n, cell, terrain), Params: p})
	m, err := geology.Spec{Base: -1e4, Stack: []geology.Group{{Layers: []geology.Layer{
		{Thickness: 2e4, Rock: "Clay"}, {Thickness: 10, Rock: "Quartzite"}}}},
		Deformations: []geology.Deformation{{Kind: geology.Fault, Offset: n * cell / 2, Throw: -1e5, Steps: 1}}}.Compile()
	if err != nil {
		t.Fatal(err)
	}
	e.SetGeology(m)
	e.rockHardness() // what Step does first
	for i, r := range e.Hardness() {
		want := float32(math.Max(p.RMin, geology.Clay.Kd))
		if i%n >= n/2 {
			want = float32(math.Max(p.RMin, geology.Quartzite.Kd))
		}
		if r != want {
			t.Fatalf("cell %d: hardness %g; want %g", i, r, want)
		}
	}
	for range 300 {
		e.Step()
	}
	var lost [2]float64
	for i, b := range e.Terrain() {
		x, y := i%n, i/n
		if y < 2 || y >= n-2 || x < 2 || x >= n-2 || x == n/2-1 || x == n/2 {
			continue // edges and the contact
		}
		side := 0
		if x >= n/2 {
			side = 1
		}
		lost[side] += float64(start[i] - b)
		if l := int(e.Rock()[i]); l != m.NumLayers() && m.Rock(l).Name != []string{"Clay", "Quartzite"}[side] {
			t.Fatalf("cell (%d, %d): rock %s", x, y, m.Rock(l).Name)
		}
	}
	// Not the ratio of K_d (9): the water's capacity, not the rock, limits
	// much of the clay's dissolution, and the eroded clay deposits
	// downslope. 1.5 is well above the uniform-rock ratio (1).
	if !(lost[0] > 1.5*lost[1]) || !(lost[1] > 0) {
		t.Fatalf("net loss clay %.4g m, quartzite %.4g m; want clay's more than 1.5 times quartzite's", lost[0], lost[1])
	}
	t.Logf("net loss clay %.4g m, quartzite %.4g m", lost[0], lost[1])
}
