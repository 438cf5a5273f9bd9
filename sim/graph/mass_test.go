package graph

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/poisson"
	"orogen/sim/talus"
)

// TestMassBudgetCloses: over 500 steps with uplift, stream power,
// hillslope diffusion and the talus limit on the stream graph, the
// steps' rock accounts (heights times Voronoi areas) add up: uplift in =
// eroded + diffused + talus + stored, with every border sample an outlet
// and with only the south border's. The graph's stream power applies the
// uplift in its solve, so Eroded is derived from the volumes and the
// residual is the rounding of float64 sums: tolerance 1e-6 of the rock
// that went through (uplift in + out). Physics checks what the identity
// cannot: everything eroded leaves (at steady state the last 100 steps
// store under 1% of their uplift), and the uplift is Σ u·Δt·area over
// the nodes that are not outlets.
func TestMassBudgetCloses(t *testing.T) {
	skipNumericsUnderRace(t)
	const w, h, r = 12e3, 9e3, 250.0
	s, err := poisson.Bridson(w, h, r, 9)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, len(s.Points))
	y := make([]float64, len(s.Points))
	for i, p := range s.Points {
		x[i], y[i] = p.X, p.Y
	}
	south := make([]bool, len(x))
	for i, b := range s.Border {
		south[i] = b && y[i] > h-r/2
	}
	for _, c := range []struct {
		name   string
		outlet []bool
	}{{"outlets", s.Border}, {"closed", south}} {
		m, err := NewMesh(x, y, c.outlet, w, h)
		if err != nil {
			t.Fatal(err)
		}
		const u = 5e-4
		up := make([]float32, m.N)
		var want float64 // uplift per step, m³/yr
		for i := range up {
			up[i] = float32(u * (1 + 0.5*math.Sin(m.X[i]/2000)))
			if !m.Outlet[i] {
				want += float64(up[i]) * m.Area[i]
			}
		}
		p := engine.DefaultParams()
		p.Kappa = 0.02
		p.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 2000, Octaves: 3}
		e, err := New(Config{Mesh: m, Up: up, InitNoise: 10, Seed: 5, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		var total, late engine.Mass
		for k := range 500 {
			st := e.Step()
			if k == 0 && math.Abs(st.Mass.Uplift-want*p.Dt) > 1e-9*want*p.Dt {
				t.Errorf("%s: uplift %g m³ in a step; want Σ u·Δt·area = %g", c.name, st.Mass.Uplift, want*p.Dt)
			}
			total = total.Add(st.Mass)
			if k >= 400 {
				late = late.Add(st.Mass)
			}
		}
		flux := total.Uplift + total.Out()
		t.Logf("%s: %+v; residual %.3g m³ = %.2g of the flux", c.name, total, total.Residual(), math.Abs(total.Residual())/flux)
		if total.Uplift <= 0 || total.Eroded <= 0 || total.Talus < 0 {
			t.Errorf("%s: %+v: want uplift and erosion, talus >= 0", c.name, total)
		}
		if res := math.Abs(total.Residual()); res > 1e-6*flux {
			t.Errorf("%s: residual %g m³; want <= 1e-6 of %g", c.name, res, flux)
		}
		if math.Abs(late.Stored) > 0.01*late.Uplift {
			t.Errorf("%s: the last 100 steps stored %g m³ of %g uplifted; want < 1%% at steady state", c.name, late.Stored, late.Uplift)
		}
	}
}
