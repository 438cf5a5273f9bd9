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
	var terrain []float32
	for _, name := range []string{"lakes-dry", "lakes", "lakes-wet"} {
		j, err := Prepare(Options{Scene: name, Size: 96, Steps: 60})
		if err != nil {
			t.Fatal(err)
		}
		for range j.Steps {
			j.Engine.Step()
		}
		if terrain == nil {
			terrain = slices.Clone(j.Engine.Heights())
		} else if !slices.Equal(terrain, j.Engine.Heights()) {
			t.Errorf("%s: the terrain differs from lakes-dry's: the water budget moved heights", name)
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

// TestLakesBasinsBounded: the lakes presets' basins fill with the
// sediment their massif sheds until their floors stop moving: at 64²
// the lowest point lies above a tenth of the relief below sea level
// after 500 steps and moved by under 1 % of the relief over the last
// 100 (−59 and −62 m, a relief of 2 878 m). Before session 15 the three basins subsided 9.2·10⁴ m³/yr, 83 %
// of the massif's uplift (1.1·10⁵ m³/yr at 256²), of which 17 % left
// through the map's edges: starved, they sank to −2 000 m and wandered
// by hundreds of metres (here −2 085 m after 400 steps, −1 753 m after
// 500, a relief of 3 622 m: the test fails). The 256² run of the issue
// (the lowest point moving by less than 1 % of the relief between steps
// 1 500 and 2 000) is measured, not tested: minutes.
func TestLakesBasinsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("500 steps; make unit runs it")
	}
	j, err := Prepare(Options{Scene: "lakes", Size: 64})
	if err != nil {
		t.Fatal(err)
	}
	var low400 float32
	for k := 1; k <= 500; k++ {
		j.Engine.Step()
		if k == 400 {
			low400 = slices.Min(j.Engine.Heights())
		}
	}
	h := j.Engine.Heights()
	low, relief := slices.Min(h), slices.Max(h)-slices.Min(h)
	if low < -relief/10 || max(low-low400, low400-low) > relief/100 {
		t.Errorf("lowest point %g m after 500 steps, %g m after 400 (relief %g m): want above %g m, moving under %g m: the basins keep sinking",
			low, low400, relief, -relief/10, relief/100)
	}
}
