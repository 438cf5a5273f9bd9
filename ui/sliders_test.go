package ui

import (
	"math"
	"testing"
)

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

// TestSliderEnds: every slider's two ends are exactly its Min and Max,
// which the session accepts (the k slider's float32 end once failed the
// float64 range check), positions between map to values strictly inside
// and back, and log sliders spread their decades evenly.
func TestSliderEnds(t *testing.T) {
	for _, s := range sliders {
		if lo, hi := sliderValueAt(0, s.Min, s.Max, s.Log), sliderValueAt(1, s.Min, s.Max, s.Log); lo != s.Min || hi != s.Max {
			t.Errorf("slider %q: ends %v and %v; want exactly %v and %v", s.Name, lo, hi, s.Min, s.Max)
		}
		prev := s.Min
		for i := 1; i < 100; i++ {
			tp := float32(i) / 100
			v := sliderValueAt(tp, s.Min, s.Max, s.Log)
			if !(v > prev && v < s.Max) {
				t.Fatalf("slider %q at %v: %v after %v; want increasing inside (%v, %v)", s.Name, tp, v, prev, s.Min, s.Max)
			}
			prev = v
			if back := sliderPos(v, s.Min, s.Max, s.Log); math.Abs(float64(back-tp)) > 1e-6 {
				t.Errorf("slider %q: position %v → %v → %v", s.Name, tp, v, back)
			}
		}
		if s.Log {
			// The middle of a log slider is the geometric mean.
			mid := sliderValueAt(0.5, s.Min, s.Max, true)
			if g := math.Sqrt(s.Min * s.Max); math.Abs(mid-g) > 1e-6*g {
				t.Errorf("slider %q: middle %v; want the geometric mean %v", s.Name, mid, g)
			}
		}
	}
}
