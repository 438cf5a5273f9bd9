package graph

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/poisson"
	"orogen/sim/talus"
)

// The steady state does not depend on the step. Settled at dt = 2.5·10⁵
// years, with the talus limit holding 40 % of the nodes (k noise makes
// hard patches whose stream-power slope exceeds the angle) and varying
// uplift, a step of 10⁹ years (the adaptive scheme's longest) and one at
// 2.5·10⁵ again leave the terrain settled: the short step changes no
// height faster than the 10⁻⁶ m/yr tolerance and no receiver. With the
// limit applied after the erosion of the whole stack, a limited
// receiver's unlimited height, u·dt above its limit, fed its donors, and
// that short step moved heights at 6·10⁻⁵ m/yr (erodeClamp).
func TestTalusSteadyAnyDt(t *testing.T) {
	skipNumericsUnderRace(t)
	const side, nodes = 50e3, 4000
	r := math.Sqrt(poisson.Density * side * side / nodes)
	m := sampleMesh(t, side, side, r, 3)
	p := engine.DefaultParams()
	p.KNoise, p.KNoiseWavelength = 0.8, 3000
	p.Talus = talus.Model{Mode: talus.ModeConstant, AngleDeg: 30}
	up := make([]float32, m.N)
	for i := range up {
		up[i] = float32(5e-4 * (0.55 + 0.45*math.Sin(m.X[i]/7000)*math.Cos(m.Y[i]/9000)))
	}
	e, err := New(Config{Mesh: m, Up: up, InitNoise: 1, Seed: 1, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	const tol = 1e-6
	for e.Step(); !e.Converged(tol); e.Step() {
		if e.Stats().Step > 2000 {
			t.Fatalf("not settled after 2000 steps at dt %g", p.Dt)
		}
	}
	if e.Stats().Clamped == 0 {
		t.Fatal("no node at the talus limit: the test tests nothing")
	}
	long := p
	long.Dt = 1e9
	for _, q := range []engine.Params{long, p} {
		if err := e.SetParams(q); err != nil {
			t.Fatal(err)
		}
		e.Step()
	}
	st := e.Stats()
	if !e.Converged(tol) {
		t.Errorf("after a step of %g yr, one of %g yr changed heights by %.3g m/yr and %g of the receivers; want under %g m/yr and none",
			long.Dt, p.Dt, st.MaxDh/p.Dt, st.RecvChanged, tol)
	}
	t.Logf("%d nodes, %d at the talus limit; the short step after the long one: %.3g m/yr", m.N, st.Clamped, st.MaxDh/p.Dt)
}
