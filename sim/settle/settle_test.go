package settle

import (
	"errors"
	"math"
	"slices"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
)

// fake is an engine whose steps report what the test scripts: the
// receivers changed and the height change of each step, and whether a
// step at the dt it was given converged.
type fake struct {
	engine.Engine // nil: only the methods below are called
	p             engine.Params
	maxDt         float64 // SetParams refuses a longer dt
	script        []engine.StepStats
	dts           []float64
	step          int
}

func (f *fake) Params() engine.Params { return f.p }
func (f *fake) SetParams(p engine.Params) error {
	if p.Dt > f.maxDt {
		return errors.New("too long")
	}
	f.p = p
	return nil
}
func (f *fake) Err() error { return nil }
func (f *fake) Step() engine.StepStats {
	st := f.script[min(f.step, len(f.script)-1)]
	f.step++
	st.Step = f.step
	f.dts = append(f.dts, f.p.Dt)
	return st
}
func (f *fake) Converged(tol float64) bool {
	st := f.script[min(f.step-1, len(f.script)-1)]
	return st.MaxDh/f.p.Dt < tol
}

func TestSchemeRegimes(t *testing.T) {
	const base = 100.0
	busy := engine.StepStats{RecvChanged: 0.5, MaxDh: 50, MaxDh2: math.NaN()}
	calm := engine.StepStats{RecvChanged: 0.01, MaxDh: 50, MaxDh2: math.NaN()}
	still := engine.StepStats{MaxDh: 1e-6, MaxDh2: math.NaN()} // below tol·base = 1e-4
	f := &fake{p: engine.Params{Dt: base}, maxDt: 1000, script: []engine.StepStats{
		busy, busy, calm, calm, calm, calm, calm, still, calm, calm, still, still,
	}}
	s, err := New(f, Options{Tol: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	for range 12 {
		s.Step()
		if s.Settled() {
			break
		}
	}
	// organize (base while busy), grow ×2 per calm step up to the engine's
	// limit (1600 refused: halved to 800), confirm at base after a still
	// step, which is not converged (calm: grows again), confirms again and
	// settles.
	want := []float64{100, 100, 100, 200, 400, 800, 800, 800, 100, 200, 400, 100}
	if len(f.dts) != len(want) {
		t.Fatalf("dts %v; want %v", f.dts, want)
	}
	for i := range want {
		if f.dts[i] != want[i] {
			t.Fatalf("dts %v; want %v", f.dts, want)
		}
	}
	if !s.Settled() {
		t.Fatal("not settled after a still step at the base dt")
	}
	if n, _ := s.SettledAfter(); n != 12 {
		t.Fatalf("settled after %d steps; want 12", n)
	}
	s.Step()
	if f.dts[len(f.dts)-1] != base || !s.Settled() {
		t.Fatal("a settled scheme must stay at the base dt")
	}
	s.Restart()
	if s.Settled() || s.Dt() != base || s.Steps() != 0 {
		t.Fatalf("after Restart: settled %v, dt %g, steps %d", s.Settled(), s.Dt(), s.Steps())
	}
}

func TestSchemeFixedAndDiffusion(t *testing.T) {
	calm := engine.StepStats{RecvChanged: 0.01, MaxDh: 50, MaxDh2: math.NaN()}
	for _, tc := range []struct {
		name  string
		o     Options
		kappa float64
	}{{"fixed", Options{Fixed: true}, 0}, {"diffusion", Options{}, 1}} {
		f := &fake{p: engine.Params{Dt: 100, Kappa: tc.kappa}, maxDt: 1e9, script: []engine.StepStats{calm}}
		s, err := New(f, tc.o)
		if err != nil {
			t.Fatal(err)
		}
		for range 10 {
			if st := s.Step(); st.Dt != 100 {
				t.Fatalf("%s: a step of %g; want the base 100", tc.name, st.Dt)
			}
		}
	}
}

func TestSchemeSetParamsAndFinish(t *testing.T) {
	calm := engine.StepStats{RecvChanged: 0.01, MaxDh: 50, MaxDh2: math.NaN()}
	f := &fake{p: engine.Params{Dt: 100}, maxDt: 1e9, script: []engine.StepStats{calm}}
	s, _ := New(f, Options{})
	for range 5 {
		s.Step()
	}
	if f.p.Dt <= 100 {
		t.Fatalf("dt %g after 5 calm steps; want it grown", f.p.Dt)
	}
	if err := s.SetParams(engine.Params{Dt: 2e9}); err == nil {
		t.Fatal("the engine refused dt 2e9; SetParams must say so")
	}
	if f.p.Dt != 100 || s.Params().Dt != 100 {
		t.Fatalf("after a refused SetParams: engine dt %g, base %g; want 100", f.p.Dt, s.Params().Dt)
	}
	if err := s.SetParams(engine.Params{Dt: 50}); err != nil || s.Dt() != 50 {
		t.Fatalf("SetParams dt 50: %v, next dt %g", err, s.Dt())
	}
	s.Step()
	s.Step()
	s.Finish()
	if f.p.Dt != 50 {
		t.Fatalf("Finish left dt %g in the engine; want the base 50", f.p.Dt)
	}
}

func TestOptionsRefused(t *testing.T) {
	f := &fake{p: engine.Params{Dt: 100}, maxDt: 1e9}
	for _, o := range []Options{
		{Tol: -1}, {Tol: math.NaN()}, {Tol: math.Inf(1)}, {Calm: 2}, {Calm: -0.1},
		{Grow: 1}, {Grow: 100}, {MaxFactor: 0.5}, {MaxFactor: math.NaN()},
	} {
		if _, err := New(f, o); err == nil {
			t.Errorf("options %+v accepted", o)
		}
	}
}

// TestStalled scripts a terrain that never gets closer (a steady 50 m a
// step) and one that halves its change every 4 steps: only the first
// stalls, after exactly Patience steps without halving, and a restart
// gives it Patience steps again.
func TestStalled(t *testing.T) {
	const base, patience = 100.0, 10
	stuck := engine.StepStats{RecvChanged: 0.5, MaxDh: 50, MaxDh2: math.NaN()}
	f := &fake{p: engine.Params{Dt: base}, maxDt: base, script: []engine.StepStats{stuck}}
	s, err := New(f, Options{Tol: 1e-6, Patience: patience})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 3*patience; i++ {
		s.Step()
		stalled, rate := s.Stalled()
		// The first step sets the mark; patience steps later it stalls.
		if want := i-1 >= patience; stalled != want {
			t.Fatalf("step %d: stalled %v; want %v", i, stalled, want)
		}
		if rate != 50/base {
			t.Fatalf("step %d: rate %g; want %g", i, rate, 50/base)
		}
	}
	s.Restart()
	if stalled, _ := s.Stalled(); stalled {
		t.Fatal("stalled right after a restart")
	}

	var script []engine.StepStats
	for i := range 200 {
		script = append(script, engine.StepStats{RecvChanged: 0.5, MaxDh: 1e6 * math.Pow(0.5, float64(i/4)), MaxDh2: math.NaN()})
	}
	f = &fake{p: engine.Params{Dt: base}, maxDt: base, script: script}
	if s, err = New(f, Options{Tol: 1e-6, Patience: 5}); err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		s.Step()
		if stalled, _ := s.Stalled(); stalled {
			t.Fatalf("step %d: stalled while the change halves every 4 steps", i+1)
		}
	}
	if _, err := New(f, Options{Patience: -1}); err == nil {
		t.Fatal("patience -1 accepted")
	}
}

// balancedFake is a fake that is an engine.Rebalanced: it records the
// balance of every step.
type balancedFake struct {
	fake
	on       bool
	balanced []bool
}

func (f *balancedFake) SetRebalanced(on bool) { f.on = on }
func (f *balancedFake) Step() engine.StepStats {
	f.balanced = append(f.balanced, f.on)
	return f.fake.Step()
}

// TestRebalancedGrowsWithDiffusion: with κ > 0 an engine.Rebalanced may
// take long steps, rebalanced, and every step at the base dt (the
// user's physics, which alone may say settled) is Lie-split.
func TestRebalancedGrowsWithDiffusion(t *testing.T) {
	const base = 100.0
	calm := engine.StepStats{RecvChanged: 0.01, MaxDh: 50, MaxDh2: math.NaN()}
	f := &balancedFake{fake: fake{p: engine.Params{Dt: base, Kappa: 1}, maxDt: 1e9, script: []engine.StepStats{calm}}}
	s, err := New(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 10 {
		s.Step()
	}
	s.Finish()
	if f.dts[len(f.dts)-1] <= base {
		t.Fatalf("dts %v: want grown with κ > 0 on a rebalanced engine", f.dts)
	}
	for i, dt := range f.dts {
		if f.balanced[i] != (dt > base) {
			t.Fatalf("step %d at dt %g: rebalanced %v; want only the long steps", i+1, dt, f.balanced[i])
		}
	}
	if f.on {
		t.Fatal("Finish left the balance on")
	}
}

// TestLongStepsStall: long steps whose change never halves (receivers near
// a tie switching: each long step lands on the rest state of the other)
// send the scheme back to the base dt after LongPatience of them, for
// good until Restart; steps growing the dt do not count (their rate
// halves as dt doubles).
func TestLongStepsStall(t *testing.T) {
	const base, patience = 100.0, 5
	calm := engine.StepStats{RecvChanged: 0.01, MaxDh: 50, MaxDh2: 50}
	f := &fake{p: engine.Params{Dt: base}, maxDt: 1e9, script: []engine.StepStats{calm}}
	s, err := New(f, Options{MaxFactor: 8, LongPatience: patience})
	if err != nil {
		t.Fatal(err)
	}
	for range 30 {
		s.Step()
	}
	// base, 200, 400, 800, then 800 until the rate has gone patience
	// long steps without halving (the first 800 step halved it), then
	// the base for good.
	want := []float64{100, 200, 400, 800, 800, 800, 800, 800, 800}
	for len(want) < 30 {
		want = append(want, 100)
	}
	if !slices.Equal(f.dts, want) {
		t.Fatalf("dts %v; want %v", f.dts, want)
	}
	s.Restart()
	s.Step()
	s.Step()
	if f.dts[len(f.dts)-1] != 200 {
		t.Fatalf("after Restart: dts %v; want growing again", f.dts[30:])
	}
	if _, err := New(f, Options{LongPatience: -1}); err == nil {
		t.Fatal("long patience -1 accepted")
	}
}

// restFake is a fake whose long steps come to rest (no change) where a
// step at the base dt does not (a change of 10 m), with few receivers
// changing: every long step asks for a confirmation that fails.
type restFake struct{ fake }

func (f *restFake) Step() engine.StepStats {
	st := engine.StepStats{RecvChanged: 0.01, MaxDh: 10, MaxDh2: 10}
	if f.p.Dt > 100 {
		st.MaxDh, st.MaxDh2 = 0, 0
	}
	f.step++
	st.Step = f.step
	f.dts = append(f.dts, f.p.Dt)
	f.script = []engine.StepStats{st}
	return st
}

// TestFailedConfirmationsHold: confirmations that keep failing by the
// same change hold the base dt after ConfirmPatience of them; the scheme
// used to alternate between the base dt and twice it for ever, each
// confirmation starting the long steps' patience again.
func TestFailedConfirmationsHold(t *testing.T) {
	f := &restFake{fake{p: engine.Params{Dt: 100}, maxDt: 1e9}}
	s, err := New(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 40 {
		s.Step()
	}
	want := []float64{100}
	for range ConfirmPatience + 1 { // the first failure sets the mark
		want = append(want, 200, 100)
	}
	for len(want) < 40 {
		want = append(want, 100)
	}
	if !slices.Equal(f.dts, want) {
		t.Fatalf("dts %v; want %v", f.dts, want)
	}
	s.Restart()
	s.Step()
	s.Step()
	if f.dts[len(f.dts)-1] != 200 {
		t.Fatalf("after Restart: dts %v; want growing again", f.dts[40:])
	}
}

// TestLongStepsReceiversProgress: with D8 routing, long steps whose
// fastest change has stopped halving but whose receivers changing keep
// halving are a network still settling (the classic preset at 1024²), and
// the scheme keeps them until they come to rest; with random hillslope
// routing the same steps send it back to the base dt after LongPatience
// of them, as before.
func TestLongStepsReceiversProgress(t *testing.T) {
	const base, patience = 100.0, 5
	script := []engine.StepStats{}
	recv := 0.02
	for i := range 20 {
		if i >= 4 && i%3 == 1 {
			recv /= 2.1
		}
		script = append(script, engine.StepStats{RecvChanged: recv, MaxDh: 50, MaxDh2: 50})
	}
	still := engine.StepStats{MaxDh: 1e-6, MaxDh2: 1e-6} // below tol·base = 1e-4
	script = append(script, still, still)
	for _, routing := range []flow.Routing{flow.RoutingD8, flow.RoutingRandom} {
		f := &fake{p: engine.Params{Dt: base, Routing: routing}, maxDt: 1e9, script: script}
		s, err := New(f, Options{MaxFactor: 8, LongPatience: patience})
		if err != nil {
			t.Fatal(err)
		}
		for range 30 {
			if s.Step(); s.Settled() {
				break
			}
		}
		// D8: base, 200, 400, then 800 through the last step whose
		// receivers halved and the still step, which a step at the base
		// dt confirms. Random: 800 until the patience ran out, then the
		// base until the still steps.
		want := []float64{100, 200, 400}
		if routing == flow.RoutingD8 {
			for len(want) < 21 {
				want = append(want, 800)
			}
			want = append(want, 100)
		} else {
			for range patience + 1 {
				want = append(want, 800)
			}
			for len(want) < 21 {
				want = append(want, 100)
			}
		}
		if !slices.Equal(f.dts, want) || !s.Settled() {
			t.Errorf("%s: dts %v (settled %v); want %v, settled", routing, f.dts, s.Settled(), want)
		}
	}
}
