package run

import (
	"slices"
	"testing"

	"orogen/app/export"
)

// TestLakesPresets reproduces the sense of Błaszczuk et al. 2023, Fig. 5 with
// the presets: more rain stores more water in the lakes, more evaporation
// less, on the same terrain (the budget never changes the terrain).
func TestLakesPresets(t *testing.T) {
	vol := map[string]float64{}
	for _, name := range []string{"lakes-dry", "lakes", "lakes-wet"} {
		j, err := Prepare(Options{Scene: name, Size: 96, Steps: 60})
		if err != nil {
			t.Fatal(err)
		}
		for range j.Steps {
			j.Engine.Step()
		}
		f, err := export.Lakes(j.Snapshot())
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range f.Lakes {
			vol[name] += l.VolumeM3
		}
	}
	t.Logf("stored water: dry %.3g m³, base %.3g, wet %.3g", vol["lakes-dry"], vol["lakes"], vol["lakes-wet"])
	// Factors well inside what the presets give (about 10× and 2.5×).
	if !(vol["lakes-dry"]*2 < vol["lakes"] && vol["lakes"]*1.5 < vol["lakes-wet"]) {
		t.Errorf("stored water dry %.3g, base %.3g, wet %.3g m³; want dry < base/2 and wet > 1.5·base", vol["lakes-dry"], vol["lakes"], vol["lakes-wet"])
	}
}

// TestLakesBasinsBounded: the lakes presets' basins sink faster than the
// massif around them rises, and sediment (deposition_g) fills them as
// they sink: the lowest point stops going down. Over 400 steps at 64²
// the lowest height of steps 201–400 is within 5 % of the relief of the
// lowest of steps 1–200; with deposition_g 0 it sinks on (−30 km by step
// 200, −55 km by step 400: the test fails). The 256² run
// of the issue (the lowest point moving by less than 1 % of the relief
// between steps 1 500 and 2 000) is measured, not tested: minutes.
func TestLakesBasinsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("400 steps; make unit runs it")
	}
	j, err := Prepare(Options{Scene: "lakes", Size: 64})
	if err != nil {
		t.Fatal(err)
	}
	lo := [2]float32{}
	var hi float32
	for k := range 400 {
		j.Engine.Step()
		h := j.Engine.Heights()
		lo[k/200] = min(lo[k/200], slices.Min(h))
		hi = slices.Max(h)
	}
	relief := hi - min(lo[0], lo[1])
	if lo[1] < lo[0]-0.05*relief {
		t.Errorf("lowest point %g m in steps 1–200, %g m in steps 201–400 (relief %g m): the basins keep sinking", lo[0], lo[1], relief)
	}
}
