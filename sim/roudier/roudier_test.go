package roudier

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/geology"
)

// tilted returns a w×h plane rising eastwards by slope per metre, with
// seeded noise of amp metres (Roudier et al. 1993 §3.1's start: "an
// inclined plane that we disturb by a slight altitude perturbation").
func tilted(w, h int, cell, slope, amp float64, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 7))
	z := make([]float32, w*h)
	for y := range h {
		for x := range w {
			z[y*w+x] = float32(slope*float64(x)*cell + amp*rng.Float64())
		}
	}
	return z
}

// westOutlet has the west edge as the outlet, the others closed.
func westOutlet() engine.Params {
	p := engine.DefaultParams()
	p.Edges = flow.Edges{North: flow.Closed, South: flow.Closed, East: flow.Closed, West: flow.Outlet}
	p.Dt = 1000
	return p
}

func newEngine(t testing.TB, c Config) *Engine {
	t.Helper()
	e, err := New(c)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestMassBalance: rock removed = detritus out + creep out + dissolved +
// alluvium stored, every step of 500 on strata of clay and quartzite with
// uplift, to 1e-6 relative (the state is float64: the residual is
// rounding, ~1e-12; 1e-6 is the bar).
func TestMassBalance(t *testing.T) {
	w, h, cell := 64, 48, 20.0
	up := make([]float32, w*h)
	for i := range up {
		up[i] = 2e-5 // 2 cm a step at Dt = 1000 yr
	}
	s, err := NewStrata(0, Layer{3, geology.Clay}, Layer{2, geology.Limestone}, Layer{1.5, geology.Quartzite})
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, Config{W: w, H: h, Cell: cell, Init: tilted(w, h, cell, 0.05, 1, 1), Up: up,
		Params: westOutlet(), Roudier: DefaultParams(), Lith: s})
	var total Budget
	var removed, alluvium, maxRel float64
	for step := range 500 {
		st := e.Step()
		if err := e.Err(); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		b := e.Budget()
		scale := math.Abs(b.RockRemoved) + b.Detritus + b.Dissolved + math.Abs(b.AlluviumStored) + b.Uplift
		if scale == 0 {
			continue
		}
		rel := math.Abs(b.Residual()) / scale
		maxRel = max(maxRel, rel)
		if rel > 1e-6 {
			t.Fatalf("step %d: residual %g m³ of %g: relative %g; want <= 1e-6 (%+v)", step, b.Residual(), scale, rel, b)
		}
		if m := st.Mass; math.Abs(m.Residual()) > 1e-6*scale {
			t.Fatalf("step %d: engine.Mass residual %g m³; want <= 1e-6 of %g (%+v)", step, m.Residual(), scale, m)
		}
		total = total.Add(b)
		removed += b.RockRemoved
		alluvium += b.AlluviumStored
	}
	if got := e.TotalBudget(); math.Abs(got.Residual()) > 1e-6*math.Abs(got.RockRemoved) {
		t.Errorf("500 steps: residual %g m³ of %g removed; want <= 1e-6 relative", got.Residual(), got.RockRemoved)
	}
	// The run must exercise every term, or the balance proves little.
	if !(total.Detritus > 0 && total.Dissolved > 0 && total.CreepOut > 0 && removed > 0) {
		t.Errorf("500 steps: a term is zero: %+v", total)
	}
	var all float64
	for _, a := range e.Alluvium() {
		all += a
	}
	if !(all > 0) || math.Abs(all*cell*cell-alluvium) > 1e-6*all*cell*cell {
		t.Errorf("alluvium on the map %g m³; the budget stored %g m³", all*cell*cell, alluvium)
	}
	t.Logf("500 steps: %+v; worst relative residual of a step %.3g", total, maxRel)
}

// chainLith is the lithology of the chain tests: the middle row of a
// w×3 grid is rock r; the rows beside it neither shed water (K_f = 1)
// nor erode (K_d = 0, K_e = 0).
type chainLith struct {
	cell float64
	r    geology.Rock
}

func (c chainLith) RockAt(_, y, _ float64) geology.Rock {
	if int(y/c.cell) == 1 {
		return c.r
	}
	return geology.Rock{Name: "inert", Kf: 1}
}

// chain is a w×3 grid whose middle row climbs 1 m a cell eastwards from
// the fixed west outlet; the rows beside it stand 1000 m high and drain
// into it without water or detritus.
func chain(t *testing.T, w int, p Params) *Engine {
	const cell = 10.0
	init := make([]float32, w*3)
	for x := range w {
		init[x], init[w+x], init[2*w+x] = 1000, float32(x), 1000
	}
	rock := geology.Rock{Name: "chain", Kd: 0.5, Kf: 0.2, Ke: 0}
	return newEngine(t, Config{W: w, H: 3, Cell: cell, Init: init, Params: westOutlet(), Roudier: p, Lith: chainLith{cell, rock}})
}

// TestDetritusByHand: on a single flow path every cell is lowered by what
// it produces, α·K_d·tanθ·Q, with Q the running water of it and all
// upstream cells, and the outlet receives the sum, S^n of Roudier et al.
// 1993 §3.3. Tolerance 1e-6 relative: the engine keeps each cell's slope
// and rock coefficients in float32 (1.2e-7 relative each).
func TestDetritusByHand(t *testing.T) {
	p := Params{Rain: 1, Alpha: 0.01, Transport: 1e3, SnowLine: 1e6}
	e := chain(t, 6, p)
	e.Step()
	const tan, kd, q = 0.1, 0.5, 0.8 // q = (1 - K_f - K_v)·W, K_v = 0 (Veg 0)
	var sum float64
	for x := 1; x < 6; x++ {
		Q := q * float64(6-x)
		zw := p.Alpha * kd * tan * Q
		sum += zw * 100
		if got := float64(x) - e.Rock()[6+x]; math.Abs(got-zw) > 1e-6*zw {
			t.Errorf("cell %d lowered by %g m; want α·K_d·tanθ·Q = %g", x, got, zw)
		}
		if got := e.Runoff()[6+x]; math.Abs(float64(got)-Q) > 1e-6 {
			t.Errorf("cell %d running water %g; want %g", x, got, Q)
		}
	}
	if b := e.Budget(); math.Abs(b.Detritus-sum) > 1e-6*sum || b.AlluviumStored != 0 {
		t.Errorf("detritus out %g m³, alluvium %g; want %g and 0", b.Detritus, b.AlluviumStored, sum)
	}
}

// TestDepositionSheds: with a small transport coefficient every cell of
// the chain carries more than its capacity C = r·Q/cos φ; each sheds
// h_s = min(C, S − C) (the paper's h_s, never leaving the stream below
// capacity), by hand on the five cells: productions α·K_d·tanθ·Q·area,
// capacities r·√(1 + tan²θ)·Q·area. The donors' heights do not bind (1 m
// steps, centimetres of deposit). Tolerance 1e-6 relative: float32
// coefficients.
func TestDepositionSheds(t *testing.T) {
	p := Params{Rain: 1, Alpha: 0.01, Transport: 1e-4, SnowLine: 1e6}
	e := chain(t, 6, p)
	e.Step()
	const tan, kd, q, area = 0.1, 0.5, 0.8, 100
	var load float64
	for x := 5; x >= 1; x-- {
		Q := q * float64(6-x)
		s := load + p.Alpha*kd*tan*Q*area
		c := p.Transport * math.Sqrt(1+tan*tan) * Q * area
		dep := 0.0
		if s > c {
			dep = min(c, s-c)
		}
		load = s - dep
		if load < c {
			t.Fatalf("by hand, cell %d leaves %g below its capacity %g", x, load, c)
		}
		if got := e.Alluvium()[6+x] * area; math.Abs(got-dep) > 1e-6*dep {
			t.Errorf("cell %d: %g m³ of alluvium; want h_s = min(C, S − C) = %g", x, got, dep)
		}
	}
	if b := e.Budget(); math.Abs(b.Detritus-load) > 1e-6*load {
		t.Errorf("detritus out %g m³; want %g", b.Detritus, load)
	}
}

// TestPitFills: a hole in a slope takes no erosion, receives its donors'
// detritus as alluvium, and fills until it drains.
func TestPitFills(t *testing.T) {
	w, h, cell := 32, 32, 10.0
	init := tilted(w, h, cell, 0.1, 0.2, 3)
	c := 16*w + 16
	init[c] -= 3
	p := DefaultParams()
	p.Transport = 0.001
	p.Creep = 0.01 // little creep, so that the hole fills with detritus rather than crept rock
	e := newEngine(t, Config{W: w, H: h, Cell: cell, Init: init, Params: westOutlet(), Roudier: p})
	st := e.Step()
	if st.Lakes == 0 || !(e.Alluvium()[c] > 0) {
		t.Fatalf("after a step: %d pits filled, alluvium in the hole %g m; want >= 1 and > 0", st.Lakes, e.Alluvium()[c])
	}
	if e.Rock()[c] < float64(init[c]) {
		t.Errorf("the pit's rock was lowered from %g to %g m; a pit takes no erosion", init[c], e.Rock()[c])
	}
	lowest := func() float64 {
		m := math.Inf(1)
		for _, d := range []int{-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1} {
			m = min(m, e.Rock()[c+d]+e.Alluvium()[c+d])
		}
		return m
	}
	for step := 1; step < 200 && e.Rock()[c]+e.Alluvium()[c] <= lowest(); step++ {
		e.Step()
	}
	if hc := e.Rock()[c] + e.Alluvium()[c]; hc <= lowest() {
		t.Errorf("after 200 steps the hole at %g m is still below its neighbours (lowest %g m)", hc, lowest())
	}
	if e.Alluvium()[c] < 1 {
		t.Errorf("alluvium in the filled hole %g m; want the hole's depth mostly alluvium (>= 1 m)", e.Alluvium()[c])
	}
}

// TestCreepOnlyDownhill: with creep alone (no running water, dissolution
// or deposition) matter only moves down: the volume stays (closed edges
// but for a fixed outlet that nothing reaches... checked by the budget),
// the potential energy Σ h² never rises, and no cell falls below the
// receiver it crept into.
func TestCreepOnlyDownhill(t *testing.T) {
	w, h, cell := 40, 30, 5.0
	init := tilted(w, h, cell, 0.3, 2, 5)
	p := Params{Creep: 2, SnowLine: 1e6}
	e := newEngine(t, Config{W: w, H: h, Cell: cell, Init: init, Params: westOutlet(), Roudier: p})
	energy := func() float64 {
		var s float64
		for _, c := range e.cells {
			z := c.rock + c.alluv
			s += z * z
		}
		return s
	}
	prev := energy()
	for step := range 100 {
		before := e.Rock()
		e.Step()
		b := e.Budget()
		if b.Detritus != 0 || b.Dissolved != 0 || b.AlluviumStored != 0 {
			t.Fatalf("step %d: creep alone produced detritus %g, dissolution %g, alluvium %g", step, b.Detritus, b.Dissolved, b.AlluviumStored)
		}
		now := energy()
		if now > prev*(1+1e-12) {
			t.Fatalf("step %d: Σh² rose from %.17g to %.17g: matter moved uphill", step, prev, now)
		}
		prev = now
		rec := e.g.Rec
		for i, r := range rec {
			if int(r) == i {
				continue
			}
			// A cell that lost matter sent it to its receiver, which was
			// lower and stays no higher than the cell.
			if e.cells[i].rock < before[i] && !(before[int(r)] < before[i]) {
				t.Fatalf("step %d: cell %d lost %g m to a receiver that was not lower", step, i, before[i]-e.cells[i].rock)
			}
		}
	}
	if got := e.TotalBudget(); !(got.RockRemoved > 0) || math.Abs(got.RockRemoved-got.CreepOut) > 1e-9*got.RockRemoved {
		t.Errorf("creep only: rock removed %g m³; want > 0 and all of it crept out at the outlet (%g)", got.RockRemoved, got.CreepOut)
	}
}

// TestDeterministic: the same run at GOMAXPROCS 1 and 4 gives the same
// bits: on the default strata, and with an uplift and a folded geology
// (the staged path: stage lays the uplift and the layers out first)
// draining through natural edges.
func TestDeterministic(t *testing.T) {
	w, h, cell := 160, 120, 10.0
	up := make([]float32, w*h)
	for i := range up {
		up[i] = float32(2e-5 * float64(i%w) / float64(w))
	}
	spec := geology.Spec{Base: -50, Stack: []geology.Group{{Repeat: 5, Layers: []geology.Layer{
		{Name: "clay", Thickness: 4, Rock: "Clay"}, {Name: "lime", Thickness: 3, Rock: "Limestone"}, {Name: "qz", Thickness: 2, Rock: "Quartzite"}}}},
		Deformations: []geology.Deformation{{Kind: geology.Fold, Azimuth: 20, Wavelength: 300, Amplitude: 6}}}
	m, err := spec.Compile()
	if err != nil {
		t.Fatal(err)
	}
	nat := westOutlet()
	nat.Edges = flow.Edges{North: flow.Natural, South: flow.Closed, East: flow.Closed, West: flow.Natural}
	for _, c := range []Config{
		{W: w, H: h, Cell: cell, Init: tilted(w, h, cell, 0.05, 1, 9), Params: westOutlet(), Roudier: DefaultParams()},
		{W: w, H: h, Cell: cell, Init: tilted(w, h, cell, 0.03, 3, 2), Up: up, Params: nat, Roudier: DefaultParams(), Geology: m},
	} {
		run := func(procs int) (rock, alluv []float64, q []float32, b Budget) {
			old := runtime.GOMAXPROCS(procs)
			defer runtime.GOMAXPROCS(old)
			e := newEngine(t, c)
			for range 15 {
				e.Step()
			}
			return e.Rock(), e.Alluvium(), e.Runoff(), e.TotalBudget()
		}
		r1, a1, q1, b1 := run(1)
		r4, a4, q4, b4 := run(4)
		for i := range r1 {
			if math.Float64bits(r1[i]) != math.Float64bits(r4[i]) || math.Float64bits(a1[i]) != math.Float64bits(a4[i]) || q1[i] != q4[i] {
				t.Fatalf("Mismatch concurrent: cell %d: rock %v / %v, alluvium %v / %v, runoff %v / %v", i, r1[i], r4[i], a1[i], a4[i], q1[i], q4[i])
			}
		}
		if b1 != b4 {
			t.Errorf("Mismatch concurrent: budget %+v / %+v", b1, b4)
		}
	}
}

// TestBadParams: NaN, infinite, negative and absurd values are refused
// with an error naming the parameter.
func TestBadParams(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		set  func(p *Params)
		want string
	}{
		{"NaN rain", func(p *Params) { p.Rain = nan }, "rain W"},
		{"negative rain", func(p *Params) { p.Rain = -1 }, "rain W"},
		{"NaN alpha", func(p *Params) { p.Alpha = nan }, "alpha"},
		{"negative alpha", func(p *Params) { p.Alpha = -0.1 }, "alpha"},
		{"infinite creep", func(p *Params) { p.Creep = inf }, "creep"},
		{"negative gamma", func(p *Params) { p.Gamma = -1 }, "gamma"},
		{"NaN transport", func(p *Params) { p.Transport = nan }, "transport r"},
		{"vegetation above 1", func(p *Params) { p.Veg = 1.5 }, "vegetation Kv"},
		{"NaN snow line", func(p *Params) { p.SnowLine = nan }, "snow line"},
		{"negative river cells", func(p *Params) { p.RiverCells = -3 }, "river cells"},
	}
	for _, c := range cases {
		p := DefaultParams()
		c.set(&p)
		err := p.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want an error naming %q", c.name, err, c.want)
		}
		if _, err := New(Config{W: 8, H: 8, Cell: 10, Params: westOutlet(), Roudier: p}); err == nil {
			t.Errorf("%s: New accepted it", c.name)
		}
		e := newEngine(t, Config{W: 8, H: 8, Cell: 10, Params: westOutlet(), Roudier: DefaultParams()})
		if err := e.SetRoudier(p); err == nil || e.Roudier() != DefaultParams() {
			t.Errorf("%s: SetRoudier: got %v, params %+v; want an error and the old params", c.name, err, e.Roudier())
		}
	}
	if err := DefaultParams().Validate(); err != nil {
		t.Errorf("DefaultParams: %v", err)
	}
	for _, c := range []Config{
		{W: 2, H: 8, Cell: 10},
		{W: 8, H: 8, Cell: nan},
		{W: 8, H: 8, Cell: 10, InitNoise: -1},
		{W: 8, H: 8, Cell: 10, Init: make([]float32, 5)},
		{W: 8, H: 8, Cell: 10, Init: []float32{float32(nan)}},
	} {
		c.Params, c.Roudier = westOutlet(), DefaultParams()
		if _, err := New(c); err == nil {
			t.Errorf("New(%dx%d, cell %g, noise %g, %d heights): no error", c.W, c.H, c.Cell, c.InitNoise, len(c.Init))
		}
	}
	if _, err := NewStrata(0, Layer{-1, geology.Clay}); err == nil {
		t.Error("NewStrata with a negative thickness: no error")
	}
	if _, err := NewStrata(0, Layer{1, geology.Rock{Name: "bad", Kd: nan}}); err == nil || !strings.Contains(err.Error(), "Kd") {
		t.Errorf("NewStrata with a NaN Kd: got %v; want an error naming Kd", err)
	}
}

// badLith gives a rock with a NaN coefficient.
type badLith struct{}

func (badLith) RockAt(_, _, _ float64) geology.Rock { return geology.Rock{Name: "bad", Kd: math.NaN()} }

// TestBadRockStops: a lithology that gives a rock with a NaN coefficient
// stops the engine with an error naming the cell, and the terrain stays.
func TestBadRockStops(t *testing.T) {
	init := tilted(8, 8, 10, 0.1, 0, 1)
	e := newEngine(t, Config{W: 8, H: 8, Cell: 10, Init: init, Params: westOutlet(), Roudier: DefaultParams(), Lith: badLith{}})
	e.Step()
	if err := e.Err(); err == nil || !strings.Contains(err.Error(), "Kd") {
		t.Fatalf("got %v; want an error naming Kd", err)
	}
	for i, v := range e.Heights() {
		if v != init[i] {
			t.Fatalf("cell %d: %g after the failed step; want %g", i, v, init[i])
		}
	}
}

// TestVegetation checks §3.2's rules but for river beds
// (TestRiverBed).
func TestVegetation(t *testing.T) {
	p := Params{Veg: 0.4, SnowLine: 100}
	cases := []struct {
		tan, z, want float64
	}{
		{0.1, 50, 0.4},                   // gentle slope
		{tan30, 50, 0.4},                 // 30°
		{math.Tan(math.Pi / 4), 50, 0.2}, // 45°: half way
		{tan60, 50, 0},                   // 60°
		{0.1, 100, 0},                    // snow line
	}
	for _, c := range cases {
		if got := p.vegetation(c.tan, c.z); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("vegetation(tan %g, z %g): got %g; want %g", c.tan, c.z, got, c.want)
		}
	}
}

// TestRiverBed: no vegetation holds rain back where the running water from
// upstream reaches RiverCells·W (§3.2's river beds): on the chain with
// K_v = 0.5 elsewhere, q = (1 − K_f − K_v)·W = 0.3 above the river and
// (1 − K_f)·W = 0.8 in it. Tolerance 1e-6: float32 coefficients.
func TestRiverBed(t *testing.T) {
	e := chain(t, 6, Params{Rain: 1, Veg: 0.5, RiverCells: 0.5, SnowLine: 1e6})
	e.Step()
	want := map[int]float64{5: 0.3, 4: 0.6, 3: 1.4, 2: 2.2, 1: 3.0}
	q := e.Runoff()
	for x, w := range want {
		if got := float64(q[6+x]); math.Abs(got-w) > 1e-6 {
			t.Errorf("cell %d: running water %g; want %g", x, got, w)
		}
	}
}

// TestStrata checks the default lithology's repeating layers.
func TestStrata(t *testing.T) {
	s := DefaultStrata()
	for _, c := range []struct {
		z    float64
		want string
	}{{0, "Clay"}, {29.9, "Clay"}, {30, "Quartzite"}, {49.9, "Quartzite"}, {50, "Clay"}, {-1, "Quartzite"}, {-21, "Clay"}} {
		if got := s.RockAt(0, 0, c.z).Name; got != c.want {
			t.Errorf("RockAt(z = %g): got %s; want %s", c.z, got, c.want)
		}
	}
}

// benchmarkStep times steps of an engine on c after warm steps. At -cpu 1
// the phases are timed by the CPU time of the benchmark's thread, locked
// (every phase runs on it when GOMAXPROCS is 1), and reported as
// <phase>-cpu-ms: on a loaded machine they count the work, not the waits
// for a core. cpu-ms is the CPU time of the whole process a step.
func benchmarkStep(b *testing.B, c Config, warm int) {
	e, err := New(c)
	if err != nil {
		b.Fatal(err)
	}
	for range warm {
		e.Step()
	}
	suffix := "-ms"
	if runtime.GOMAXPROCS(0) == 1 && threadClock != nil {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		clock = threadClock
		defer func() { clock = time.Now }()
		suffix = "-cpu-ms"
	}
	var phases [engine.NumPhases]float64
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for b.Loop() {
		st := e.Step()
		for i, d := range st.Phase {
			phases[i] += d.Seconds() * 1e3
		}
	}
	b.StopTimer()
	b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms")
	for i, name := range engine.PhaseNames {
		if phases[i] > 0 {
			b.ReportMetric(phases[i]/float64(b.N), name+suffix)
		}
	}
}

// BenchmarkStep: a tilted plane with 1 m of noise draining west, after 3
// steps.
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{256, 512, 1024} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			cell := 10.0
			benchmarkStep(b, Config{W: n, H: n, Cell: cell, Init: tilted(n, n, cell, 0.05, 1, 1), Params: westOutlet(), Roudier: DefaultParams()}, 3)
		})
	}
}

// BenchmarkFolded: the folded preset's kind of run (Roudier et al. 1993
// Fig. 3): a flat start with 0.3 m of noise under a dome of uplift, outlets
// all round, folded and faulted strata, 2560 m across, after 15 steps,
// when tens of thousands of pits are still filling.
func BenchmarkFolded(b *testing.B) {
	spec := geology.Spec{Base: -100, Stack: []geology.Group{{Repeat: 8, Layers: []geology.Layer{
		{Name: "clay", Thickness: 7, Rock: "Clay"}, {Name: "quartzite", Thickness: 3, Rock: "Quartzite"},
		{Name: "limestone", Thickness: 5, Rock: "Limestone"}, {Name: "marl", Thickness: 2, Rock: "Clay"},
		{Name: "granite", Thickness: 4, Rock: "Granite"}}}},
		Deformations: []geology.Deformation{
			{Kind: geology.Fold, Azimuth: 30, Wavelength: 900, Amplitude: 8},
			{Kind: geology.Fold, Azimuth: 120, Wavelength: 1400, Amplitude: 5},
			{Kind: geology.Fault, Azimuth: 75, Offset: 1100, Throw: 6, Steps: 1},
			{Kind: geology.Fault, Azimuth: 160, Offset: -700, Throw: -4, Steps: 2, Spacing: 150}}}
	m, err := spec.Compile()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{256, 1024} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			cell := 2560 / float64(n)
			up := make([]float32, n*n)
			for y := range n {
				for x := range n {
					dx, dy := 2*(float64(x)+0.5)/float64(n)-1, 2*(float64(y)+0.5)/float64(n)-1
					up[y*n+x] = float32(5e-5 * max(0, 1-dx*dx-dy*dy))
				}
			}
			p := westOutlet()
			p.Edges = flow.Edges{North: flow.Outlet, South: flow.Outlet, East: flow.Outlet, West: flow.Outlet}
			rp := Params{Rain: 1, Alpha: 0.1, Creep: 0.5, Gamma: 0.01, Transport: 0.01, Veg: 0.2, SnowLine: 3000, RiverCells: 100}
			benchmarkStep(b, Config{W: n, H: n, Cell: cell, Up: up, InitNoise: 0.3, Seed: 1, Params: p, Roudier: rp, Geology: m}, 15)
		})
	}
}

// TestMassBalanceEdges: the account closes (1e-6 relative a step, as in
// TestMassBalance) with natural and closed edges too, where the load
// leaves through natural edge cells that have no lower neighbour and
// nothing crosses the closed ones.
func TestMassBalanceEdges(t *testing.T) {
	for _, edges := range []flow.Edges{
		{North: flow.Natural, South: flow.Closed, East: flow.Closed, West: flow.Natural},
		{North: flow.Outlet, South: flow.Outlet, East: flow.Outlet, West: flow.Outlet},
	} {
		p := westOutlet()
		p.Edges = edges
		w, h, cell := 48, 40, 10.0
		e := newEngine(t, Config{W: w, H: h, Cell: cell, Init: tilted(w, h, cell, 0.08, 2, 5), Params: p, Roudier: DefaultParams()})
		for step := range 150 {
			e.Step()
			b := e.Budget()
			scale := math.Abs(b.RockRemoved) + b.Detritus + b.Dissolved + math.Abs(b.AlluviumStored)
			if math.Abs(b.Residual()) > 1e-6*scale {
				t.Fatalf("%+v, step %d: residual %g m³ of %g", edges, step, b.Residual(), scale)
			}
		}
		if tb := e.TotalBudget(); !(tb.Detritus > 0) {
			t.Errorf("%+v: no detritus left the map in 150 steps: %+v", edges, tb)
		}
	}
}

// TestFillSpreadsOverDepression: the detritus that reaches a pit fills
// its depression like water, up to the pass, instead of piling on the pit
// cell: after a step on a slope with a 7×7 bowl 3 m deep (its floor
// nearly flat, so several pits), the alluvium lies on many of the bowl's
// cells, no cell holds more than a quarter of the bowl's alluvium, and
// nothing rises above the bowl's rim.
func TestFillSpreadsOverDepression(t *testing.T) {
	w, h, cell := 40, 40, 10.0
	init := tilted(w, h, cell, 0.1, 0.05, 8)
	bowl := map[int]bool{}
	rim := math.Inf(1)
	for y := 17; y < 24; y++ {
		for x := 17; x < 24; x++ {
			bowl[y*w+x] = true
		}
	}
	for i := range bowl {
		init[i] = float32(0.1*cell*17 - 3 + 0.05*float64(i%7)/7) // a nearly flat floor below the rim
	}
	for y := 16; y < 25; y++ {
		for x := 16; x < 25; x++ {
			if i := y*w + x; !bowl[i] {
				rim = min(rim, float64(init[i]))
			}
		}
	}
	p := DefaultParams()
	p.Alpha = 0.05
	e := newEngine(t, Config{W: w, H: h, Cell: cell, Init: init, Params: westOutlet(), Roudier: p})
	e.Step()
	covered := 0
	var total, most float64
	top := math.Inf(-1)
	for i := range bowl {
		c := e.cells[i]
		top = max(top, c.rock+c.alluv)
		if c.alluv > 0 {
			covered++
			total += c.alluv
			most = max(most, c.alluv)
		}
	}
	t.Logf("alluvium on %d bowl cells, %.3f m in all, %.3f m at most (rim %.2f m, top %.2f m)", covered, total, most, rim, top)
	if covered < 5 || most > total/4 {
		t.Errorf("alluvium on %d of the bowl's 49 cells, %g m of %g m on one; want at least 5 cells and none holding a quarter", covered, most, total)
	}
	if top > rim {
		t.Errorf("the bowl rose to %g m, above its rim at %g m", top, rim)
	}
}
