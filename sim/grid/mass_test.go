package grid

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// TestMassBudgetCloses: over 500 steps with uplift, stream power,
// hillslope diffusion and the talus limit, the steps' rock accounts add
// up: uplift in = eroded + diffused + talus (out through the outlets) +
// stored, for outlets on every side and for closed and natural sides.
// Uplift is computed from the rates and the others from the heights, so
// the residual is the float32 rounding of the uplifted heights (≈ulp(h)/2
// per cell per step, random in sign). Tolerance 1e-6 of the rock that
// went through (uplift in + out). Once the terrain settles the account
// also balances physically: the last 100 steps store under 1% of their
// uplift, the rest leaving through the outlets.
func TestMassBudgetCloses(t *testing.T) {
	const w, h = 48, 40
	for _, c := range []struct {
		name  string
		edges flow.Edges
	}{
		{"outlets", flow.Edges{North: flow.Outlet, South: flow.Outlet, East: flow.Outlet, West: flow.Outlet}},
		{"closed", flow.Edges{North: flow.Closed, South: flow.Outlet, East: flow.Closed, West: flow.Natural}},
	} {
		p := engine.DefaultParams()
		p.Kappa = 0.02
		p.Edges = c.edges
		p.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 5000, Octaves: 4, Seed: 7}
		up := simtest.Scale(simtest.Cone(w, h, 1, 1, 1.0/float64(w)), 5e-4)
		e := mustNew(t, Config{W: w, H: h, Cell: 250, Up: up, InitNoise: 1, Seed: 42, Params: p})
		var total, late engine.Mass
		for k := range 500 {
			st := e.Step()
			total = total.Add(st.Mass)
			if k >= 400 {
				late = late.Add(st.Mass)
			}
		}
		t.Logf("%s: %+v; residual %.3g m³ = %.2g of the flux", c.name, total, total.Residual(), math.Abs(total.Residual())/(total.Uplift+total.Out()))
		if total.Uplift <= 0 || total.Eroded <= 0 || total.Talus < 0 {
			t.Errorf("%s: %+v: want uplift and erosion, talus >= 0", c.name, total)
		}
		if r := math.Abs(total.Residual()); r > 1e-6*(total.Uplift+total.Out()) {
			t.Errorf("%s: residual %g m³; want <= 1e-6 of %g", c.name, r, total.Uplift+total.Out())
		}
		if math.Abs(late.Stored) > 0.01*late.Uplift {
			t.Errorf("%s: the last 100 steps stored %g m³ of %g uplifted; want < 1%% at steady state", c.name, late.Stored, late.Uplift)
		}
	}
}
