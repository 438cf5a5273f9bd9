package analysis

import (
	"math"
	"strings"
	"testing"

	"orogen/sim"
	"orogen/sim/flow"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// verdictOf analyzes f with natural edges and returns the verdict and the
// names of the criteria outside their ranges.
func verdictOf(t *testing.T, f *sim.Field, fill bool) (Verdict, []string) {
	t.Helper()
	r, err := Analyze(f, Options{Edges: natural, Fill: fill})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range r.Verdict.Criteria {
		if !c.Inside {
			out = append(out, c.Name)
		}
		if c.Source == "" {
			t.Errorf("criterion %q has no source", c.Name)
		}
	}
	return r.Verdict, out
}

// The terrains a realism check must reject, each for the reason that makes
// it unreal: white noise has pits everywhere (11 % of its cells; real DEMs
// 0.3–1.3 %), a cone clamped to the talus angle is all threshold spike and
// planar facets, and a bilinear ramp is planar everywhere (its Laplacian
// is zero).
func TestVerdictUnnatural(t *testing.T) {
	const n, cell = 128, 90.0

	noise := &sim.Field{W: n, H: n, Cell: cell, Data: simtest.Noisy(n, n, 300, 1)}
	if _, err := Analyze(noise, Options{Edges: natural}); err == nil || !strings.Contains(err.Error(), "no drainage") {
		t.Errorf("white noise routed through its lakes: error %v; want no drainage", err)
	}
	v, out := verdictOf(t, noise, true)
	if v.Natural || !strings.HasPrefix(v.Line, "unnatural") || !contains(out, "pits") {
		t.Errorf("white noise, filled: %s; want unnatural with pits outside", v.Line)
	}

	cone := &sim.Field{W: n, H: n, Cell: cell, Data: simtest.Cone(n, n, cell, 20000, 2)}
	g := flow.NewGraph(n, n, cell, natural, 0)
	g.Update(cone.Data)
	m := talus.Model{Mode: talus.ModeConstant, AngleDeg: 30}
	if m.Limiter(n, n, cell).Clamp(cone.Data, g.Rec, g.Dist, g.Stack) == 0 {
		t.Fatal("the talus limit clamped nothing on a cone of slope 2")
	}
	v, out = verdictOf(t, cone, false)
	if v.Natural || !contains(out, "threshold spike") || !contains(out, "planar share") {
		t.Errorf("talus-clamped cone: %s; want unnatural with the spike and the planar share outside", v.Line)
	}

	ramp := sim.NewField(n, n, cell)
	for y := range n {
		for x := range n {
			u, w := float64(x)/(n-1), float64(y)/(n-1)
			ramp.Data[y*n+x] = float32(3000 * (0.3*u + 0.5*w + 0.4*u*w))
		}
	}
	v, out = verdictOf(t, ramp, false)
	if v.Natural || !contains(out, "planar share") {
		t.Errorf("bilinear ramp: %s; want unnatural with the planar share outside", v.Line)
	}
}

// Orogen's converged terrains stand on a base-level plain at 0 m; the
// plain ends the rivers rather than being routed as lakes, so Hack's law
// reads the mountain's rivers: on the analytic steady state of uniform
// uplift surrounded by a flat plain at 0 the fit is the steady state's,
// not the plain's (h about 0.2 and c about 7 when the plain is routed).
func TestBasePlainNotLakes(t *testing.T) {
	f := steadyState(t, 96, 80, 100, 1e-3, 2e-5, 0.5, 1)
	const pad = 40
	w, h := f.W+2*pad, f.H+2*pad
	big := sim.NewField(w, h, f.Cell)
	for y := range f.H {
		copy(big.Data[(y+pad)*w+pad:], f.Data[y*f.W:(y+1)*f.W])
	}
	plain, err := Analyze(big, Options{Edges: natural})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Analyze(f, Options{Edges: outlets})
	if err != nil {
		t.Fatal(err)
	}
	if want := w*h - (f.W-2)*(f.H-2); plain.Base != want {
		t.Errorf("%d base-level cells; want %d (the plain and the mountain's edge ring at 0)", plain.Base, want)
	}
	if plain.Drainage.Pits != 0 {
		t.Errorf("%d pits; want 0 (the flat plain is base level, not a field of pits)", plain.Drainage.Pits)
	}
	if plain.Hack == nil || alone.Hack == nil || math.Abs(plain.Hack.H-alone.Hack.H) > 1e-9 || math.Abs(plain.Hack.C-alone.Hack.C) > 1e-9 {
		t.Errorf("Hack on the plain %+v; want the mountain's alone, %+v", plain.Hack, alone.Hack)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
