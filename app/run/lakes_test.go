package run

import (
	"orogen/app/export"
	"testing"
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
