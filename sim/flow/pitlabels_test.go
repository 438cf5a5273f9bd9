package flow

import (
	"slices"
	"testing"

	"orogen/sim/simtest"
	"orogen/sim/water"
)

// With PitLabels, Order on a routing without a pit leaves Label nil (and
// WaterInput refuses to run) and lists the same drainage order; with pits
// it labels every cell as without PitLabels, and the lakes are the same.
func TestPitLabels(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    []float32
		pits bool
	}{
		{"cone", simtest.Cone(48, 40, 10, 500, 0.3), false},
		{"noise", simtest.Noisy(48, 40, 100, 3), true},
	} {
		want := NewGraph(48, 40, 10, Edges{}, 0)
		want.Update(tc.h)
		got := NewGraph(48, 40, 10, Edges{}, 0)
		got.PitLabels = true
		got.Update(tc.h)
		if err := got.Check(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(got.Stack, want.Stack) || !slices.Equal(got.RecPos, want.RecPos) || !slices.Equal(got.Pos, want.Pos) || !slices.Equal(got.Trees, want.Trees) {
			t.Fatalf("%s: the drainage order differs with PitLabels", tc.name)
		}
		if !slices.Equal(got.Lakes, want.Lakes) || (len(want.Lakes) > 0) != tc.pits {
			t.Fatalf("%s: %d lakes with PitLabels, %d without; want pits %v", tc.name, len(got.Lakes), len(want.Lakes), tc.pits)
		}
		if tc.pits {
			if !slices.Equal(got.Label, want.Label) {
				t.Fatalf("%s: labels differ with PitLabels on a routing with pits", tc.name)
			}
			got.WaterInput(&water.Input{}, tc.h)
			continue
		}
		if got.Label != nil || want.Label == nil {
			t.Fatalf("%s: Label %d long with PitLabels, %d without; want nil and set", tc.name, len(got.Label), len(want.Label))
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: WaterInput ran without the labels", tc.name)
				}
			}()
			got.WaterInput(&water.Input{}, tc.h)
		}()
	}
}
