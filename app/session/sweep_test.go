package session

import (
	"fmt"
	"math"
	"math/rand/v2"
	"orogen/sim/graph"
	"orogen/sim/grid"
	"orogen/sim/roudier"
	"strings"
	"testing"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/simtest"
)

// sweepValues returns the values a slider sweep tries for p: both ends,
// 0 when it takes it, and three seeded random values (by ratio on log
// sliders).
func sweepValues(p Param, r *rand.Rand) []float64 {
	vs := []float64{p.Min, p.Max}
	if p.Zeroable {
		vs = append(vs, 0)
	}
	for range 3 {
		u := r.Float64()
		if p.Log {
			vs = append(vs, p.Min*math.Pow(p.Max/p.Min, u))
		} else {
			vs = append(vs, p.Min+u*(p.Max-p.Min))
		}
	}
	return vs
}

// checkFrame fails unless the worker's frame is finite: heights, drainage
// and water, and a stopped engine's error is a message (the engine keeps
// its last good terrain, see grid's and graph's Err).
func checkFrame(t *testing.T, s *Session, what string) (stopped bool) {
	t.Helper()
	f := settle(t, s)
	if f.Err != nil && !strings.Contains(f.Err.Error(), "non-finite") {
		t.Errorf("%s: engine error %v; want none, or the non-finite heights message", what, f.Err)
	}
	for _, c := range []struct {
		name string
		v    []float32
	}{{"heights", f.Snap.Height}, {"drainage", f.Snap.Area}, {"water", f.Snap.Water}} {
		if i := sim.FirstNonFinite(c.v); i >= 0 {
			t.Fatalf("%s: %s[%d] = %v", what, c.name, i, c.v[i])
		}
	}
	return f.Err != nil
}

// TestParameterSweep sets every slider of the Simulation panel to its
// ends, to 0 where it takes it and to random values, one at a time and
// all at one end together, on the grid, the stream graph and Roudier's
// engine, and steps:
// no panic, no NaN or infinity in any frame, and values outside a
// slider's range (and NaN) are refused with a message naming the
// parameter.
func TestParameterSweep(t *testing.T) {
	simtest.SkipUnderRace(t, "numerics only")
	r := rand.New(rand.NewPCG(20, 20))
	for _, eng := range []struct {
		kind    engine.Kind
		samples int
	}{{grid.Kind, 0}, {graph.Kind, 400}, {roudier.Kind, 0}} {
		s, _, _ := open(t, 40)
		if err := s.SetEngine(eng.kind, eng.samples); err != nil {
			t.Fatal(err)
		}
		stops, tried := 0, 0
		defaults := map[string]float64{}
		for _, p := range Params {
			defaults[p.Name] = s.Param(p.Name)
		}
		for _, p := range Params {
			for _, v := range sweepValues(p, r) {
				what := fmt.Sprintf("%v: %s = %g", eng.kind, p.Name, v)
				if err := s.SetParam(p.Name, v); err != nil {
					t.Errorf("%s: refused: %v", what, err)
					continue
				}
				steps(t, s, 3)
				tried++
				if checkFrame(t, s, what) {
					stops++
					t.Logf("%s: %v", what, settle(t, s).Err)
				}
			}
			for _, v := range []float64{math.NaN(), math.Inf(1), p.Max * 10, p.Min - 1 - math.Abs(p.Min)} {
				if p.Zeroable && v == p.Min-1-math.Abs(p.Min) {
					continue // below the range is not 0 but still refused: checked on NaN
				}
				err := s.SetParam(p.Name, v)
				if err == nil || !strings.Contains(err.Error(), p.Name) {
					t.Errorf("%v: %s = %g: error %v; want one naming %s", eng.kind, p.Name, v, err, p.Name)
				}
			}
			if err := s.SetParam(p.Name, defaults[p.Name]); err != nil {
				t.Fatal(err)
			}
			// An engine stopped by non-finite heights is rebuilt from the
			// document with its good parameters.
			if f := settle(t, s); f.Err != nil {
				if err := s.ResetTerrain(); err != nil {
					t.Fatal(err)
				}
			}
		}
		t.Logf("%v: %d settings stepped, %d stopped the engine with a message", eng.kind, tried, stops)
		for _, end := range []string{"min", "max"} {
			for _, p := range Params {
				v := p.Min
				if end == "max" {
					v = p.Max
				}
				if err := s.SetParam(p.Name, v); err != nil {
					t.Errorf("%v: every slider at its %s: %s = %g refused: %v", eng.kind, end, p.Name, v, err)
				}
			}
			steps(t, s, 3)
			checkFrame(t, s, fmt.Sprintf("%v: every slider at its %s", eng.kind, end))
		}
	}
}
