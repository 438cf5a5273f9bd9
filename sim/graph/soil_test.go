package graph

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/talus"
)

// soilBump is an engine on a 12×12 km square (about 1 000 nodes) whose
// heights are a Gaussian bump of h0 m and width sigma m, erosion off (k
// tiny) so only the hillslope term acts: κ m²/yr, creep critical slope
// sc (0: linear diffusion).
func soilBump(t *testing.T, kappa, sc, dt, sigma, h0 float64) *Engine {
	t.Helper()
	const L = 12000.0
	m := sampleMesh(t, L, L, 400, 3)
	init := make([]float32, m.N)
	for i := range init {
		dx, dy := m.X[i]-L/2, m.Y[i]-L/2
		if !m.Outlet[i] {
			init[i] = float32(h0 * math.Exp(-(dx*dx+dy*dy)/(2*sigma*sigma)))
		}
	}
	e, err := New(Config{Mesh: m, Init: init, Params: engine.Params{K: 1e-30, M: 0.5, N: 1, Dt: dt, Kappa: kappa, CreepSc: sc}})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func peakAndVolume(e *Engine) (peak, vol float64) {
	for i, h := range e.hgt {
		peak = max(peak, float64(h))
		vol += float64(h) * e.m.Area[i]
	}
	return peak, vol
}

// Creep on the nodes: with S_c far above every slope it is linear
// diffusion (the factor 1/(1 − (S/S_c)²) is 1 to 1e-4 here: slopes under
// 0.3, S_c 30, so the peaks agree to 1e-4 of the bump); with S_c near the
// slopes the flux is larger (f ≥ 1), so the bump spreads faster; none
// makes rock (some leaves through the outlets) or new extrema.
func TestCreepOnNodes(t *testing.T) {
	const kappa, dt, sigma, h0, steps = 5.0, 2e4, 1500.0, 300.0, 10
	run := func(sc float64) (peak, vol, vol0 float64) {
		e := soilBump(t, kappa, sc, dt, sigma, h0)
		_, vol0 = peakAndVolume(e)
		for range steps {
			e.Step()
			if e.Err() != nil {
				t.Fatal(e.Err())
			}
		}
		for i, h := range e.hgt {
			if h < -1e-3 || h > h0 {
				t.Fatalf("S_c %g: node %d at %g m; want within [0, %g]", sc, i, h, h0)
			}
		}
		peak, vol = peakAndVolume(e)
		return peak, vol, vol0
	}
	lin, vl, v0 := run(0)
	far, vf, _ := run(30)
	near, vn, _ := run(0.35)
	t.Logf("peak after %d steps: linear %.4f m, S_c 30 %.4f m, S_c 0.35 %.4f m (from %g m)", steps, lin, far, near, h0)
	if math.Abs(far-lin) > 1e-4*h0 {
		t.Errorf("S_c 30: peak %.5f m; want the linear diffusion's %.5f m to 1e-4 of %g m", far, lin, h0)
	}
	if !(near < lin-1e-3*h0) {
		t.Errorf("S_c 0.35: peak %.4f m; want below the linear diffusion's %.4f m (the creep's flux is larger)", near, lin)
	}
	for _, v := range []float64{vl, vf, vn} {
		// Rock leaves only through the outlets (the bump's tail reaches
		// them: 1 to 2 % in these steps); none is made.
		if v > v0*(1+1e-6) || v < 0.95*v0 {
			t.Errorf("volume %g m³ after the steps; want at most %g m³ and not 5 %% less", v, v0)
		}
	}
}

// sedimentEngine is a 12×9 km engine (about 1 600 nodes, every border
// node an outlet) under uplift that sinks a basin in the middle
// (negative uplift: the lake there must fill with sediment), with the
// soil terms on: deposition G, creep, k noise and the talus limit.
func sedimentEngine(t *testing.T, g float64) *Engine {
	t.Helper()
	const w, h = 12e3, 9e3
	m := sampleMesh(t, w, h, 250, 9)
	up := make([]float32, m.N)
	for i := range up {
		dx, dy := m.X[i]-w/2, m.Y[i]-h/2
		up[i] = float32(5e-4 * (1 - 1.6*math.Exp(-(dx*dx+dy*dy)/(2*1200*1200))))
	}
	p := engine.DefaultParams()
	p.G, p.Kappa, p.CreepSc, p.KNoise, p.Seed = g, 0.05, 0.7, 0.5, 3
	p.Talus = talus.Model{Mode: talus.ModeConstant, AngleDeg: 35}
	e, err := New(Config{Mesh: m, Up: up, InitNoise: 20, Seed: 5, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSedimentBudgetCloses: with deposition on, every step's account
// closes both ways (Yuan et al. 2019's transport on the nodes): what the
// stream power and the talus limit took is what stayed on the map plus
// what left through the outlets (SedimentResidual, to 1e-6 of the
// eroded; its only error is float32 rounding of the lake fill), and
// uplift = out + stored (Residual, 1e-6 of the flux). Physics the
// identities cannot check: sediment is laid down (the sinking basin's
// lake fills: its floor ends above where the uplift alone would put it),
// and the snapshot's Alluvium carries its thickness.
func TestSedimentBudgetCloses(t *testing.T) {
	skipNumericsUnderRace(t)
	e := sedimentEngine(t, 1)
	var total engine.Mass
	for k := range 150 {
		st := e.Step()
		if e.Err() != nil {
			t.Fatal(e.Err())
		}
		m := st.Mass
		if res := math.Abs(m.SedimentResidual()); res > 1e-6*max(m.Eroded+m.Talus, 1) {
			t.Fatalf("step %d: eroded %g + talus %g − deposited %g − out %g = %g m³; want 0 to 1e-6", k+1, m.Eroded, m.Talus, m.Deposited, m.SedimentOut, res)
		}
		if res := math.Abs(m.Residual()); res > 1e-6*(m.Uplift+math.Abs(m.Out())) {
			t.Fatalf("step %d: %+v: residual %g m³; want 0 to 1e-6 of the flux", k+1, m, res)
		}
		total = total.Add(m)
	}
	t.Logf("150 steps: %+v", total)
	if !(total.Deposited > 1e-3*total.Eroded) || !(total.SedimentOut > 0) {
		t.Errorf("eroded %g, deposited %g, out %g m³; want deposits and sediment leaving", total.Eroded, total.Deposited, total.SedimentOut)
	}
	var thick float32
	for _, a := range e.Alluvium() {
		thick = max(thick, a)
	}
	if !(thick > 1) {
		t.Errorf("thickest sediment %g m; want the sinking basin filled by metres at least", thick)
	}
	// Without deposition the same basin stays a hole: its middle lies
	// below the filled one.
	bare := sedimentEngine(t, 0)
	for range 150 {
		bare.Step()
	}
	mid, best := 0, math.Inf(1)
	for i := range e.m.N {
		if d := math.Hypot(e.m.X[i]-6e3, e.m.Y[i]-4.5e3); d < best {
			mid, best = i, d
		}
	}
	if a, b := e.Heights()[mid], bare.Heights()[mid]; !(a > b+1) {
		t.Errorf("the basin's middle at %g m with deposition, %g m without; want it filled higher", a, b)
	} else {
		t.Logf("the basin's middle at %.1f m with deposition, %.1f m without", a, b)
	}
}

// TestKNoiseOnNodes: k's factor at the nodes is exp(KNoise·z) of a field
// z of unit spread (ln of the factor: mean about 0, standard deviation
// about KNoise, here with a wavelength of a tenth of the map so that
// there are many patches: within 30 %), nil without noise, and the same
// whatever the erosion does (a function of the position alone).
func TestKNoiseOnNodes(t *testing.T) {
	e := sedimentEngine(t, 0)
	e.p.KNoiseWavelength = 1200
	kn := e.kNoise()
	var s, s2 float64
	for _, v := range kn {
		l := math.Log(float64(v))
		s += l
		s2 += l * l
	}
	n := float64(len(kn))
	mean, sd := s/n, math.Sqrt(s2/n-(s/n)*(s/n))
	if math.Abs(mean) > 0.3*e.p.KNoise || math.Abs(sd-e.p.KNoise) > 0.3*e.p.KNoise {
		t.Errorf("ln k factor: mean %.3f, standard deviation %.3f; want 0 and %g to 30 %%", mean, sd, e.p.KNoise)
	}
	first := append([]float32(nil), kn...)
	e.Step()
	for i, v := range e.kNoise() {
		if v != first[i] {
			t.Fatalf("node %d: factor %g after a step; want %g", i, v, first[i])
		}
	}
	e.p.KNoise = 0
	if e.kNoise() != nil {
		t.Error("KNoise 0: a factor field; want nil")
	}
}

// TestSoilSameForAnyWorkers: with creep, deposition and k noise on, every
// output of every step is the same bytes at GOMAXPROCS 1, 2 and 3.
func TestSoilSameForAnyWorkers(t *testing.T) {
	c := stepCase{name: "soil", side: 20e3, nodes: 6000, noise: 50, kappa: 0.5, steps: 6, creepSc: 0.6, g: 1, kNoise: 0.5}
	procsList := []int{2, 3}
	if raceDetector && testing.Short() {
		// make race: half the nodes (still several parallel blocks), 2
		// workers.
		c.nodes, procsList = 3000, []int{2}
	}
	want := c.run(t, 1)
	for _, procs := range procsList {
		got := c.run(t, procs)
		for s := range want {
			if got[s] != want[s] {
				t.Fatalf("Mismatch concurrent: GOMAXPROCS %d, step %d: got digest %s; want %s (GOMAXPROCS 1)", procs, s+1, got[s], want[s])
			}
		}
	}
}

// TestRouteHold: a node keeps last step's receiver while it is downhill
// and within routeHold of the steepest slope, and takes the steepest
// once that is steeper by more (the hysteresis that lets the graph
// settle where two neighbours are all but tied).
func TestRouteHold(t *testing.T) {
	m := sampleMesh(t, 4000, 4000, 400, 1)
	e, err := New(Config{Mesh: m, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	i := -1
	for k := range m.N {
		if !m.Outlet[k] && m.NbrOff[k+1]-m.NbrOff[k] >= 4 {
			i = k
			break
		}
	}
	if i < 0 {
		t.Fatal("no interior node")
	}
	j1, j2 := m.Nbr[m.NbrOff[i]], m.Nbr[m.NbrOff[i]+1]
	set := func(s1, s2 float64) {
		for k := range e.hgt {
			e.hgt[k] = 500
		}
		e.hgt[i] = 100
		e.hgt[j1] = float32(100 - s1*m.Dist(i, int(j1)))
		e.hgt[j2] = float32(100 - s2*m.Dist(i, int(j2)))
	}
	for _, c := range []struct {
		s2   float64
		want int32
	}{
		{1.005 * 0.1, j1}, // within the hold: j1 stays
		{1.02 * 0.1, j2},  // 2 % steeper: taken
	} {
		set(0.1, c.s2)
		e.rec[i] = j1
		e.route(e.hgt)
		if e.rec[i] != c.want {
			t.Errorf("slopes 0.1 to %d and %g to %d, last receiver %d: receiver %d; want %d", j1, c.s2, j2, j1, e.rec[i], c.want)
		}
	}
}

// TestPlainUpliftStopsDeposition: the nodes uplifting slower than
// Params.PlainUplift take no deposition term (the base-level plain):
// with the threshold between the sinking basin's uplift and the rest,
// the basin's nodes keep a zero rate while the rest of the map, which
// carries sediment, does not.
func TestPlainUpliftStopsDeposition(t *testing.T) {
	e := sedimentEngine(t, 1)
	p := e.Params()
	p.PlainUplift = 1e-4
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		e.Step()
	}
	var plain, land int
	for i, r := range e.depRate {
		switch {
		case float64(e.up[i]) < p.PlainUplift && r != 0:
			t.Fatalf("node %d uplifting %g m/yr keeps a deposition rate %g m/yr; want 0 below %g", i, e.up[i], r, p.PlainUplift)
		case float64(e.up[i]) < p.PlainUplift:
			plain++
		case r > 0:
			land++
		}
	}
	if plain == 0 || land == 0 {
		t.Errorf("%d plain nodes, %d others with a deposition rate; want both", plain, land)
	}
}
