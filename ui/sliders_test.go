package ui

import "testing"

func TestSlidersHaveNamesAndRanges(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range sliders {
		if seen[s.name] {
			t.Errorf("slider %q twice", s.name)
		}
		seen[s.name] = true
		if !(s.min < s.max) || s.log && s.min <= 0 {
			t.Errorf("slider %q: range [%g, %g] (log %v) is not usable", s.name, s.min, s.max, s.log)
		}
		if s.help == "" {
			t.Errorf("slider %q has no tooltip", s.name)
		}
	}
	for _, want := range []string{"k", "m", "n", "dt", "talus", "diffusion", "rain", "evaporation", "umax", "threshold"} {
		if !seen[want] {
			t.Errorf("no slider %q (the issue lists it)", want)
		}
	}
}
