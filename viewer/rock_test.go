package viewer

import (
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/geology"
)

func rockSnapshot(t *testing.T) *engine.Snapshot {
	m, err := geology.Spec{Stack: []geology.Group{{Layers: []geology.Layer{{Thickness: 10, Rock: "Clay"}, {Thickness: 10, Rock: "Quartzite"}}}}}.Compile()
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 4, 3
	s := &engine.Snapshot{W: w, H: h, Cell: 10, Height: make([]float32, w*h), Rocks: engine.Rocks{Geology: m, Rock: make([]uint8, w*h)}}
	for i := range s.Rock {
		s.Rock[i] = uint8(i % 3) // clay, quartzite, alluvium
	}
	return s
}

// TestReliefByRock: on flat ground every pixel is its rock's colour times
// the same light.
func TestReliefByRock(t *testing.T) {
	s := rockSnapshot(t)
	o := DefaultOptions()
	o.Rivers, o.Lakes, o.Rock = false, false, true
	img := Relief(nil, s, o)
	pal := RockPalette(s)
	if len(pal) != 3 || pal[2] != geology.Alluvium.Color {
		t.Fatalf("palette %v; want clay, quartzite, alluvium", pal)
	}
	// Light of a flat cell: ambient + (1−ambient)·sin(45°), in 1/256.
	lf := 256*0.3 + 256*0.7*0.7071067811865476 + 0.5
	l := uint32(lf)
	for i, k := range s.Rock {
		c := pal[k]
		want := [3]uint8{uint8((uint32(c.R)*l + 128) >> 8), uint8((uint32(c.G)*l + 128) >> 8), uint8((uint32(c.B)*l + 128) >> 8)}
		p := img.Pix[4*i : 4*i+3]
		if [3]uint8{p[0], p[1], p[2]} != want {
			t.Fatalf("cell %d (rock %d): %v; want %v", i, k, p, want)
		}
	}
}

// TestRidges: on a hand-built 3×3 drainage, the cells nobody drains into
// are the ridges; outlets are not.
func TestRidges(t *testing.T) {
	// Everything drains to the centre's column and out at the bottom
	// middle (cell 7, an outlet).
	s := &engine.Snapshot{W: 3, H: 3, Receivers: []int32{4, 4, 4, 4, 7, 4, 7, 7, 7}}
	got := Ridges(nil, s)
	want := []bool{true, true, true, true, false, true, true, false, true}
	if !slices.Equal(got, want) {
		t.Fatalf("ridges %v; want %v", got, want)
	}
}
