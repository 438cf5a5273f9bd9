package ui

import "testing"

func TestSlidersHaveNamesAndRanges(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range sliders {
		if seen[s.Name] {
			t.Errorf("slider %q twice", s.Name)
		}
		seen[s.Name] = true
		if !(s.Min < s.Max) || s.Log && s.Min <= 0 {
			t.Errorf("slider %q: range [%g, %g] (log %v) is not usable", s.Name, s.Min, s.Max, s.Log)
		}
		if s.Help == "" {
			t.Errorf("slider %q has no tooltip", s.Name)
		}
	}
	for _, want := range []string{"k", "m", "n", "dt", "talus", "diffusion", "rain", "evaporation", "umax", "threshold"} {
		if !seen[want] {
			t.Errorf("no slider %q (the issue lists it)", want)
		}
	}
}
