package session

import (
	"math"
	"testing"

	"orogen/app/engines"
	"orogen/sim/roudier"
)

// TestParamsTakeEveryValue: every live parameter takes both ends of its
// range and a value between, on an engine it applies to, and reads back
// what was set (a zeroable parameter's left end is 0, off); just outside
// the range is refused with its name.
func TestParamsTakeEveryValue(t *testing.T) {
	s, _, _ := open(t, 32)
	for _, own := range []bool{false, true} {
		if own {
			if err := s.SetEngine(roudier.Kind, 0); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range Params {
			if (p.Group == engines.Roudier) != own {
				continue
			}
			mid := (p.Min + p.Max) / 2
			if p.Log {
				mid = math.Sqrt(p.Min * p.Max)
			}
			for _, v := range []float64{p.Min, mid, p.Max} {
				if err := s.SetParam(p.Name, v); err != nil {
					t.Errorf("%s = %g: %v", p.Name, v, err)
					continue
				}
				want := v
				if p.Zeroable && v == p.Min {
					want = 0
				}
				if got := s.Param(p.Name); got != want {
					t.Errorf("%s set to %g reads %g; want %g", p.Name, v, got, want)
				}
			}
			if err := s.SetParam(p.Name, p.Max*1.001+1e-12); err == nil {
				t.Errorf("%s = just above %g: accepted; want an error", p.Name, p.Max)
			}
		}
	}
}
