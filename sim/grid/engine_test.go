package grid

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

func mustNew(t testing.TB, c Config) *Engine {
	t.Helper()
	e, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSteadyStateSlope runs uniform uplift to convergence and checks the
// analytic steady state of the stream power law, s = (u/k)^(1/n) A^(-m/n),
// at every cell that is not an outlet.
func TestSteadyStateSlope(t *testing.T) {
	for _, mn := range [][2]float64{{0.5, 1}, {0.4, 1.5}} {
		t.Run(fmt.Sprintf("m=%g,n=%g", mn[0], mn[1]), func(t *testing.T) {
			const w, h, cell, u = 48, 40, 100.0, 5e-4
			p := engine.DefaultParams()
			p.M, p.N = mn[0], mn[1]
			p.K = 2e-6
			p.Talus = talus.Model{Mode: talus.ModeOff}
			p.Kappa = 0
			e := mustNew(t, Config{W: w, H: h, Cell: cell, Up: simtest.Uniform(w, h, u), InitNoise: 1, Seed: 3, Params: p})
			// Converged when no height moves faster than 1e-4 of the
			// uplift rate: slopes then sit within ~1e-4 of steady state,
			// far inside the 1 % the test demands.
			steps := 0
			for ; steps < 5000 && !(steps > 10 && e.Converged(u*1e-4)); steps++ {
				e.Step()
			}
			if !e.Converged(u * 1e-4) {
				t.Fatalf("not converged after %d steps: max |Δh|/dt = %g m/yr", steps, e.Stats().MaxDh/p.Dt)
			}
			s := e.Snapshot()
			worst, checked := 0.0, 0
			for i := range s.Height {
				r := s.Receivers[i]
				if r == int32(i) {
					continue
				}
				d := float64(e.Graph().Dist[i])
				slope := (float64(s.Height[i]) - float64(s.Height[r])) / d
				want := math.Pow(u/p.K, 1/p.N) * math.Pow(float64(e.Area()[i]), -p.M/p.N)
				rel := math.Abs(slope-want) / want
				worst = max(worst, rel)
				checked++
			}
			if checked < (w-2)*(h-2) {
				t.Fatalf("checked %d cells; want all %d interior cells", checked, (w-2)*(h-2))
			}
			if worst > 0.01 {
				t.Fatalf("worst relative slope error %.3g after %d steps; want <= 1%%", worst, steps)
			}
			t.Logf("converged in %d steps, worst slope error %.2g", steps, worst)
		})
	}
}

// TestEveryStepDrains checks after every step, from a start with thousands
// of depressions, that all water reaches an outlet.
func TestEveryStepDrains(t *testing.T) {
	for _, edges := range []flow.Edges{
		{},
		{North: flow.Natural, South: flow.Closed, East: flow.Natural, West: flow.Outlet},
		{North: flow.Closed, South: flow.Closed, East: flow.Closed, West: flow.Natural},
	} {
		const w, h = 160, 150
		p := engine.DefaultParams()
		p.Edges = edges
		p.Kappa = 0.05
		e := mustNew(t, Config{W: w, H: h, Cell: 200, Up: simtest.Uniform(w, h, 5e-4), Init: simtest.Noisy(w, h, 50, 2), Params: p})
		for step := 0; step < 30; step++ {
			st := e.Step()
			if step == 0 && st.Lakes < 2000 {
				t.Fatalf("first step had %d lakes; want thousands from a noisy start", st.Lakes)
			}
			if err := e.Graph().Check(); err != nil {
				t.Fatalf("edges %+v, step %d: %v", edges, step, err)
			}
		}
	}
}

// TestDeterministicAcrossWorkers demands identical bytes after 60 steps for
// GOMAXPROCS 1, 2 and 5, with every term switched on, from a smooth start
// (few pits) and from a noisy one (thousands of lakes at first, hundreds
// later), and identical step statistics at every step.
func TestDeterministicAcrossWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const w, h = 160, 120
	p := engine.DefaultParams()
	p.Kappa = 0.02
	p.Edges = flow.Edges{North: flow.Natural, South: flow.Outlet, East: flow.Closed, West: flow.Outlet}
	p.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 5000, Octaves: 4, Seed: 7}
	up := simtest.Scale(simtest.Cone(w, h, 1, 1, 1.0/float64(w)), 5e-4)
	for _, tc := range []struct {
		name string
		init []float32
	}{{"smooth", nil}, {"noisy", simtest.Noisy(w, h, 50, 2)}} {
		t.Run(tc.name, func(t *testing.T) {
			var ref *engine.Snapshot
			var refStats []engine.StepStats
			var refStack []int32
			lakes := 0
			for _, procs := range []int{1, 2, 5} {
				runtime.GOMAXPROCS(procs)
				e := mustNew(t, Config{W: w, H: h, Cell: 250, Up: up, Init: tc.init, InitNoise: 1, Seed: 42, Params: p})
				var stats []engine.StepStats
				for range 60 {
					st := e.Step()
					st.Phase, st.Total = [engine.NumPhases]time.Duration{}, 0
					if math.IsNaN(st.MaxDh2) { // the first step's
						st.MaxDh2 = -1
					}
					stats = append(stats, st)
					lakes += st.Lakes
				}
				s := e.Snapshot()
				if ref == nil {
					ref, refStats, refStack = s, stats, slices.Clone(e.Graph().Stack)
					continue
				}
				if !slices.Equal(s.Height, ref.Height) || !slices.Equal(s.Area, ref.Area) ||
					!slices.Equal(s.Receivers, ref.Receivers) || !slices.Equal(s.Water, ref.Water) ||
					!slices.Equal(e.Graph().Stack, refStack) {
					t.Fatalf("Mismatch concurrent: GOMAXPROCS %d differs from GOMAXPROCS 1 after 60 steps", procs)
				}
				for k := range stats {
					if stats[k] != refStats[k] {
						t.Fatalf("GOMAXPROCS %d, step %d: statistics %+v; want %+v as with GOMAXPROCS 1", procs, k+1, stats[k], refStats[k])
					}
				}
			}
			if tc.init != nil && lakes < 1000 {
				t.Fatalf("%d lakes over all steps; want a case that keeps the lake code busy", lakes)
			}
		})
	}
}

// TestTalusLimitsSlopes checks that no slope along a receiver exceeds the
// talus angle after a step, for the three angle models.
func TestTalusLimitsSlopes(t *testing.T) {
	models := []talus.Model{
		{Mode: talus.ModeConstant, AngleDeg: 30},
		{Mode: talus.ModeHeight, LowDeg: 10, HighDeg: 45, HeightM: 300, BlendM: 50},
		{Mode: talus.ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 3000, Octaves: 3, Seed: 1},
	}
	for _, m := range models {
		t.Run(string(m.Mode), func(t *testing.T) {
			const w, h = 80, 80
			p := engine.DefaultParams()
			p.Talus = m
			// A strong uplift on a small domain makes slopes that the
			// stream power law alone leaves far steeper than 30°.
			e := mustNew(t, Config{W: w, H: h, Cell: 50, Up: simtest.Uniform(w, h, 5e-3), InitNoise: 1, Params: p})
			lim := m.Limiter(w, h, 50)
			clamped := 0
			for range 20 {
				clamped += e.Step().Clamped
				g, hs := e.Graph(), e.Heights()
				for i := range hs {
					r := g.Rec[i]
					if r == int32(i) {
						continue
					}
					s := (float64(hs[i]) - float64(hs[r])) / float64(g.Dist[i])
					// Heights are float32: the clamp sets h_i = h_r +
					// tan·d rounded to float32, an error of half an ulp
					// of h_i (< 1e-4 m below 2000 m) over d >= 50 m.
					tol := 1e-4 / float64(g.Dist[i])
					if tan := float64(lim.Tan(i, hs[i])); s > tan+tol {
						t.Fatalf("cell %d: slope %g along its receiver exceeds tan = %g", i, s, tan)
					}
				}
			}
			if clamped == 0 {
				t.Fatal("the talus limit never acted; the test terrain is too gentle")
			}
		})
	}
}

// TestErodeWithoutUplift runs stream power on an existing heightmap with no
// uplift (Cordonnier et al. 2016, §6.4, Fig. 14): nothing rises except lake
// bottoms filling, and the relief wears down.
func TestErodeWithoutUplift(t *testing.T) {
	const w, h = 128, 128
	init := simtest.Rough(w, h, 800, 6)
	p := engine.DefaultParams()
	p.Dt = 2e4
	e := mustNew(t, Config{W: w, H: h, Cell: 100, Init: init, Params: p})
	prevMax := float32(math.Inf(1))
	for step := 0; step < 10; step++ {
		before := append([]float32(nil), e.Heights()...)
		e.Step()
		// The lakes of this step were found on the heights before it.
		water := e.Graph().WaterDepth(nil, before)
		level := func(i int) float32 { return before[i] + water[i] }
		var mx float32
		for i, v := range e.Heights() {
			mx = max(mx, v)
			// Only lake floors may rise, filling toward (never above) the
			// water level; the hillslope term is off.
			if v > before[i] && (water[i] == 0 || v > level(i)) {
				t.Fatalf("step %d: cell %d rose from %g to %g without uplift (lake level %g)", step, i, before[i], v, level(i))
			}
		}
		if mx > prevMax {
			t.Fatalf("step %d: max height rose from %g to %g", step, prevMax, mx)
		}
		prevMax = mx
	}
	if e.Stats().MeanDh <= 0 {
		t.Fatal("nothing eroded")
	}
}

func TestStepStatistics(t *testing.T) {
	const w, h = 64, 64
	e := mustNew(t, Config{W: w, H: h, Cell: 500, Up: simtest.Uniform(w, h, 5e-4), InitNoise: 1, Params: engine.DefaultParams()})
	first := e.Step()
	if first.Step != 1 || first.Time != engine.DefaultParams().Dt {
		t.Errorf("step %d at %g yr; want 1 at %g", first.Step, first.Time, engine.DefaultParams().Dt)
	}
	if first.RecvChanged != 1 {
		t.Errorf("first step: receivers changed %g; want 1 (all new)", first.RecvChanged)
	}
	// With the talus limit on, this terrain settles in about 400 steps
	// (measured: 350-400); 600 leaves room. What moves after that is float32
	// rounding: cells on talus-limited slopes whose neighbours tie to the
	// last bit swap receivers, moving heights by an ulp (2.4e-4 m at 2 km).
	var last engine.StepStats
	for range 600 {
		last = e.Step()
	}
	if last.RecvChanged > 0.01 || last.MaxDh > 1e-3 || last.MeanDh > last.MaxDh {
		t.Errorf("after 600 steps: receivers changed %g, max |Δh| %g (first %g), mean %g", last.RecvChanged, last.MaxDh, first.MaxDh, last.MeanDh)
	}
	var sum float64
	for _, d := range last.Phase {
		sum += d.Seconds()
	}
	if sum <= 0 || sum > last.Total.Seconds()*1.01 {
		t.Errorf("phases sum to %gs of a %gs step", sum, last.Total.Seconds())
	}
}

func TestBadInput(t *testing.T) {
	ok := Config{W: 8, H: 8, Cell: 10, Params: engine.DefaultParams()}
	mod := func(f func(c *Config)) Config { c := ok; f(&c); return c }
	cases := []struct {
		c    Config
		want string
	}{
		{mod(func(c *Config) { c.W = 2 }), "size"},
		{mod(func(c *Config) { c.Cell = math.NaN() }), "cell size"},
		{mod(func(c *Config) { c.Params.K = -1 }), "k = -1"},
		{mod(func(c *Config) { c.Params.Dt = math.Inf(1) }), "dt"},
		{mod(func(c *Config) { c.Params.N = math.NaN() }), "n = NaN"},
		{mod(func(c *Config) { c.Params.Kappa = -2 }), "diffusion"},
		{mod(func(c *Config) { c.Params.Kappa, c.Params.Dt = 1e300, 1e300 }), "κ·dt"},
		{mod(func(c *Config) {
			c.Params.Edges = flow.Edges{North: flow.Closed, South: flow.Closed, East: flow.Closed, West: flow.Closed}
		}), "closed"},
		{mod(func(c *Config) { c.Up = make([]float32, 7) }), "uplift"},
		{mod(func(c *Config) { c.Up = simtest.Uniform(8, 8, float32(math.NaN())) }), "not finite"},
		{mod(func(c *Config) { c.Up = simtest.Uniform(8, 8, 5) }), "absurd"},
		{mod(func(c *Config) { c.Init = make([]float32, 3) }), "initial heights"},
		{mod(func(c *Config) { c.InitNoise = -1 }), "noise"},
		{mod(func(c *Config) { c.Params.Talus = talus.Model{Mode: talus.ModeConstant, AngleDeg: 95} }), "talus"},
	}
	for _, tc := range cases {
		_, err := New(tc.c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New: error %v; want one mentioning %q", err, tc.want)
		}
	}
	e := mustNew(t, ok)
	bad := engine.DefaultParams()
	bad.M = math.NaN()
	if err := e.SetParams(bad); err == nil {
		t.Error("SetParams accepted m = NaN")
	}
	if e.Params().M != engine.DefaultParams().M {
		t.Error("a rejected SetParams changed the parameters")
	}
}

func TestSettersTakeEffect(t *testing.T) {
	const w, h = 32, 32
	e := mustNew(t, Config{W: w, H: h, Cell: 100, InitNoise: 0.5, Params: engine.DefaultParams()})
	e.Step()
	if _, hi := minMax(e.Heights()); hi > 1 {
		t.Fatalf("without uplift the terrain rose to %g", hi)
	}
	if err := e.SetUplift(simtest.Uniform(w, h, 1e-3)); err != nil {
		t.Fatal(err)
	}
	e.Step()
	if _, hi := minMax(e.Heights()); hi < 10 {
		t.Fatalf("after SetUplift the terrain only reached %g m", hi)
	}
	p := e.Params()
	p.Edges = flow.Edges{North: flow.Closed, South: flow.Closed, East: flow.Closed, West: flow.Outlet}
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	e.Step()
	if err := e.Graph().Check(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < w; i++ { // north edge is no longer an outlet: its cells drain west
		if e.Graph().Rec[i] == int32(i) && i != 0 {
			t.Fatalf("north edge cell %d is still an outlet after closing the edge", i)
		}
	}
}

func minMax(v []float32) (lo, hi float32) {
	lo, hi = v[0], v[0]
	for _, x := range v {
		lo, hi = min(lo, x), max(hi, x)
	}
	return
}

func TestSnapshotIsConsistent(t *testing.T) {
	const w, h = 40, 30
	e := mustNew(t, Config{W: w, H: h, Cell: 100, Up: simtest.Uniform(w, h, 1e-3), InitNoise: 1, Params: engine.DefaultParams()})
	s0 := e.Snapshot()
	for i, r := range s0.Receivers {
		if r != int32(i) || s0.Area[i] != 100*100 || s0.Water[i] != 0 {
			t.Fatalf("before any step cell %d: receiver %d area %g water %g; want itself, its own area, dry", i, r, s0.Area[i], s0.Water[i])
		}
	}
	for range 5 {
		e.Step()
	}
	s := e.Snapshot()
	want := e.Graph().Accumulate(nil, 100*100)
	for i := range want {
		if s.Area[i] != float32(want[i]) || s.Receivers[i] != e.Graph().Rec[i] {
			t.Fatalf("cell %d: snapshot area %g receiver %d; the graph says %g, %d", i, s.Area[i], s.Receivers[i], want[i], e.Graph().Rec[i])
		}
	}
	// The snapshot is a copy: stepping on leaves it unchanged.
	h0 := s.Height[7]
	e.Step()
	if s.Height[7] != h0 {
		t.Fatal("Step changed a snapshot taken before it")
	}
	// Changing the edges invalidates the routing until the next step.
	p := e.Params()
	p.Edges.North = flow.Natural
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	if s := e.Snapshot(); s.Receivers[w+1] != int32(w+1) || len(s.Lakes) != 0 {
		t.Fatal("snapshot after an edge change shows a stale routing")
	}
}

func TestNonFiniteHeightsStopTheEngine(t *testing.T) {
	const w, h = 16, 16
	e := mustNew(t, Config{W: w, H: h, Cell: 100, Up: simtest.Uniform(w, h, 1e-3), Params: engine.DefaultParams()})
	e.Step()
	e.hgt[5*w+5] = float32(math.Inf(1)) // what an overflow would leave
	e.Step()
	if e.Err() == nil || !strings.Contains(e.Err().Error(), "non-finite") {
		t.Fatalf("Err() = %v; want a non-finite heights error", e.Err())
	}
	n := e.Stats().Step
	e.Step()
	if e.Stats().Step != n {
		t.Fatal("a stopped engine went on stepping")
	}
}

// TestStepReportsDt: the step's statistics carry the dt it stepped with,
// also after SetParams changed it (the adaptive scheme does every step).
func TestStepReportsDt(t *testing.T) {
	const w, h = 32, 32
	p := engine.DefaultParams()
	e := mustNew(t, Config{W: w, H: h, Cell: 200, Up: simtest.Uniform(w, h, 5e-4), Params: p})
	if st := e.Step(); st.Dt != p.Dt {
		t.Fatalf("first step: Dt %g, want %g", st.Dt, p.Dt)
	}
	p.Dt *= 8
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	if st := e.Step(); st.Dt != p.Dt || st.Time != p.Dt/8+p.Dt {
		t.Fatalf("after SetParams: Dt %g, Time %g; want %g, %g", st.Dt, st.Time, p.Dt, p.Dt/8+p.Dt)
	}
}
