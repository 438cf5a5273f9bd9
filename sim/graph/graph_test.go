package graph

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/poisson"
	"orogen/sim/talus"
)

// sampleMesh returns the mesh of a Poisson sample of [0,w]×[0,h] at
// distance r with the border samples as outlets.
func sampleMesh(tb testing.TB, w, h, r float64, seed uint64) *Mesh {
	tb.Helper()
	return newSampledMesh(tb, w, h, r, seed, false)
}

// skipNumericsUnderRace skips, under make race (-race -short), a test of
// the numerics alone on a mesh of thousands of nodes: the race detector
// finds nothing there that the tests across GOMAXPROCS miss (those run on
// a coarser mesh there, raceSpacing), and together they ran past 10
// minutes on a loaded 2-core machine. make unit runs them all.
func skipNumericsUnderRace(tb testing.TB) {
	if raceDetector && testing.Short() {
		tb.Skip("numerics only: skipped under -race -short (make unit runs it)")
	}
}

// raceSpacing is the sample spacing r of a determinism test, coarser
// under -race -short: less than half the nodes, still several of the
// parallel loops' blocks (measureBlock, stackBlock).
func raceSpacing(r float64) float64 {
	if raceDetector && testing.Short() {
		return 1.5 * r
	}
	return r
}

// newSampledMesh is sampleMesh with the samples put in Z-curve order
// (SortSamples) when sorted is true, as app/engines does.
func newSampledMesh(tb testing.TB, w, h, r float64, seed uint64, sorted bool) *Mesh {
	tb.Helper()
	s, err := poisson.Bridson(w, h, r, seed)
	if err != nil {
		tb.Fatal(err)
	}
	x := make([]float64, len(s.Points))
	y := make([]float64, len(s.Points))
	for i, p := range s.Points {
		x[i], y[i] = p.X, p.Y
	}
	if sorted {
		SortSamples(x, y, s.Border, r)
	}
	m, err := NewMesh(x, y, s.Border, w, h)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func TestVoronoiAreas(t *testing.T) {
	for _, c := range []struct {
		w, h, r float64
		seed    uint64
	}{
		{1000, 1000, 50, 1},
		{1000, 1000, 20, 2},
		{3000, 1000, 30, 3},
		{500, 2000, 7, 4},
		{100e3, 100e3, 400, 5},
	} {
		m := sampleMesh(t, c.w, c.h, c.r, c.seed)
		var sum float64
		for i, a := range m.Area {
			if !(a > 0) {
				t.Errorf("%v: area of node %d: got %g; want > 0", c, i, a)
			}
			sum += a
		}
		// Tolerance: the cells tile the domain exactly; only the rounding
		// of the clipped vertices (relative 1e-16 per operation, a few
		// hundred thousand cells) separates the sum from W·H.
		if want := c.w * c.h; math.Abs(sum-want) > 1e-9*want {
			t.Errorf("%v: sum of areas: got %.12g; want %.12g (N = %d)", c, sum, want, m.N)
		}
	}
}

// TestMeshSquare checks a hand-computed mesh: the four corners of a square
// and its centre. The centre's cell is the diamond of half-diagonal 1 (area
// 2), each corner's cell the rest of its quadrant (1/2).
func TestMeshSquare(t *testing.T) {
	x := []float64{0, 2, 2, 0, 1}
	y := []float64{0, 0, 2, 2, 1}
	m, err := NewMesh(x, y, []bool{true, true, true, true, false}, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.5, 0.5, 0.5, 0.5, 2}
	for i, a := range m.Area {
		if math.Abs(a-want[i]) > 1e-12 {
			t.Errorf("area %d: got %g; want %g", i, a, want[i])
		}
	}
	if got := fmt.Sprint(m.Neighbours(4)); got != "[0 1 2 3]" {
		t.Errorf("neighbours of the centre: got %s; want [0 1 2 3]", got)
	}
	// One step with uplift u: the centre drains to a corner and, being
	// solved implicitly with A = 2 m², rises to dt·u/(1 + k√2·dt/√2).
	p := engine.Params{K: 1e-3, M: 0.5, N: 1, Dt: 100}
	e, err := New(Config{Mesh: m, Up: []float32{0, 0, 0, 0, 1e-2}, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	e.Step()
	F := p.K * math.Sqrt(2) * p.Dt / math.Sqrt(2)
	wantH := p.Dt * 1e-2 / (1 + F)
	if got := float64(e.Heights()[4]); math.Abs(got-wantH) > 1e-6*wantH {
		t.Errorf("centre height: got %g; want %g", got, wantH)
	}
	for i := 0; i < 4; i++ {
		if e.Heights()[i] != 0 {
			t.Errorf("outlet %d height: got %g; want 0", i, e.Heights()[i])
		}
	}
	if got := e.DrainageArea()[4]; got != 2 {
		t.Errorf("centre drainage area: got %g; want 2", got)
	}
}

// checkDrains follows the receivers from every node and fails unless each
// path ends at an outlet within N steps.
func checkDrains(t *testing.T, e *Engine, step int) {
	t.Helper()
	m, rec := e.m, e.Receivers()
	state := make([]byte, m.N) // 0 unknown, 1 on the current path, 2 drains
	path := []int32{}
	for s := range rec {
		path = path[:0]
		i := int32(s)
		for state[i] == 0 {
			state[i] = 1
			path = append(path, i)
			r := rec[i]
			if r == i {
				if !m.Outlet[i] {
					t.Fatalf("step %d: node %d is a root but no outlet", step, i)
				}
				break
			}
			if !isNbr(m, int(i), r) {
				t.Fatalf("step %d: receiver %d of node %d is not a neighbour", step, r, i)
			}
			i = r
		}
		if state[i] == 1 && rec[i] != i {
			t.Fatalf("step %d: cycle through node %d", step, i)
		}
		for _, p := range path {
			state[p] = 2
		}
	}
}

func isNbr(m *Mesh, i int, j int32) bool {
	for _, k := range m.Neighbours(i) {
		if k == j {
			return true
		}
	}
	return false
}

func TestDrainsToOutlets(t *testing.T) {
	skipNumericsUnderRace(t)
	for _, seed := range []uint64{1, 2, 3} {
		m := sampleMesh(t, 20e3, 15e3, 100, seed)
		up := make([]float32, m.N)
		for i := range up {
			up[i] = 5e-4
		}
		// Rough random terrain: noise of 500 m over 100 m spacing leaves
		// a pit at about one node in six.
		p := engine.DefaultParams()
		e, err := New(Config{Mesh: m, Up: up, InitNoise: 500, Seed: seed, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		for s := 1; s <= 20; s++ {
			st := e.Step()
			if s == 1 && st.Lakes < m.N/20 {
				t.Errorf("seed %d: lakes in step 1: got %d; want many (>= %d)", seed, st.Lakes, m.N/20)
			}
			checkDrains(t, e, s)
			var sum float64
			for i, o := range m.Outlet {
				if o {
					sum += e.DrainageArea()[i]
				}
			}
			// All the rain leaves through the outlets.
			if want := m.W * m.H; math.Abs(sum-want) > 1e-9*want {
				t.Fatalf("seed %d step %d: area reaching outlets: got %g; want %g", seed, s, sum, want)
			}
		}
	}
}

// TestSteadyState runs uniform uplift to steady state and checks the
// slope–area law s = (u/k)^(1/n) A^(−m/n) at every node, along its receiver.
func TestSteadyState(t *testing.T) {
	skipNumericsUnderRace(t)
	for _, c := range []struct {
		m, n, k float64
	}{
		{0.5, 1, 5.61e-7},
		{0.4, 1.5, 2e-6},
	} {
		t.Run(fmt.Sprintf("m=%g,n=%g", c.m, c.n), func(t *testing.T) {
			mesh := sampleMesh(t, 10e3, 10e3, 150, 7)
			const u = 5e-4
			up := make([]float32, mesh.N)
			for i := range up {
				up[i] = u
			}
			p := engine.Params{K: c.k, M: c.m, N: c.n, Dt: 2e5, Talus: talus.Model{Mode: talus.ModeOff}}
			e, err := New(Config{Mesh: mesh, Up: up, InitNoise: 1, Seed: 3, Params: p})
			if err != nil {
				t.Fatal(err)
			}
			steps := 0
			for ; steps < 3000 && !e.Converged(1e-9); steps++ {
				e.Step()
			}
			if !e.Converged(1e-9) {
				t.Fatalf("not converged after %d steps: max dh/dt %g, receivers changed %g", steps, e.Stats().MaxDh/p.Dt, e.Stats().RecvChanged)
			}
			h, rec, a := e.Heights(), e.Receivers(), e.DrainageArea()
			worst, checked := 0.0, 0
			for i := range h {
				r := int(rec[i])
				if r == i {
					continue
				}
				s := (float64(h[i]) - float64(h[r])) / mesh.Dist(i, r)
				want := math.Pow(u/c.k, 1/c.n) * math.Pow(a[i], -c.m/c.n)
				rel := math.Abs(s-want) / want
				worst = max(worst, rel)
				checked++
				// Tolerance 1 %: at steady state the implicit scheme meets the
				// law exactly; what is left is float32 storage of heights (ulp
				// 2.4e-4 m at 2 km against drops of metres) and the float32
				// distances handed to the solver (relative 6e-8).
				if rel > 0.01 {
					t.Errorf("node %d (A %g m², receiver outlet %v): slope got %g; want %g", i, a[i], mesh.Outlet[r], s, want)
				}
			}
			t.Logf("%d steps, %d nodes checked, worst relative error %.2g", steps, checked, worst)
		})
	}
}

func heightBytes(h []float32) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.LittleEndian, h)
	return b.Bytes()
}

func TestDeterministic(t *testing.T) {
	run := func(procs int) ([]byte, []int32) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		m := sampleMesh(t, 30e3, 20e3, raceSpacing(60), 11)
		up := make([]float32, m.N)
		for i := range up {
			up[i] = float32(1e-3 * (1 + math.Sin(m.X[i]/3000)))
		}
		p := engine.DefaultParams()
		p.Talus = talus.Model{Mode: talus.ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 2000, Octaves: 3}
		e, err := New(Config{Mesh: m, Up: up, InitNoise: 10, Seed: 5, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		for range 15 {
			e.Step()
		}
		return append(heightBytes(e.Heights()), heightBytes(float64To32(e.DrainageArea()))...), append([]int32(nil), e.Receivers()...)
	}
	h1, r1 := run(1)
	h2, r2 := run(2)
	if !bytes.Equal(h1, h2) {
		t.Error("Mismatch concurrent: heights or areas differ for GOMAXPROCS 1 and 2")
	}
	if fmt.Sprint(r1) != fmt.Sprint(r2) {
		t.Error("Mismatch concurrent: receivers differ for GOMAXPROCS 1 and 2")
	}
}

func float64To32(a []float64) []float32 {
	out := make([]float32, 2*len(a))
	for i, v := range a {
		b := math.Float64bits(v)
		out[2*i] = math.Float32frombits(uint32(b))
		out[2*i+1] = math.Float32frombits(uint32(b >> 32))
	}
	return out
}

func TestErrors(t *testing.T) {
	m := sampleMesh(t, 1000, 1000, 100, 1)
	p := engine.DefaultParams()
	for _, c := range []struct {
		name string
		c    Config
	}{
		{"no mesh", Config{Params: p}},
		{"kappa", Config{Mesh: m, Params: engine.Params{K: 1e-6, M: 0.5, N: 1, Dt: 1, Kappa: -1}}},
		{"kappa dt", Config{Mesh: m, Params: engine.Params{K: 1e-6, M: 0.5, N: 1, Dt: 1e10, Kappa: 1e6}}},
		{"uplift length", Config{Mesh: m, Params: p, Up: make([]float32, 3)}},
		{"init length", Config{Mesh: m, Params: p, Init: make([]float32, 3)}},
		{"noise", Config{Mesh: m, Params: p, InitNoise: -1}},
	} {
		if _, err := New(c.c); err == nil {
			t.Errorf("%s: got no error; want one", c.name)
		}
	}
	if _, err := NewMesh([]float64{0, 1, 0}, []float64{0, 0, 1}, []bool{false, false, false}, 1, 1); err == nil {
		t.Error("no outlets: got no error; want one")
	}
	if _, err := NewMesh([]float64{0, 1, 0}, []float64{0, 0, 2}, []bool{true, false, false}, 1, 1); err == nil {
		t.Error("node outside: got no error; want one")
	}
}

// benchmarkStep times one step on a Poisson mesh of about n samples over a
// 100 km square, in Z-curve order as app/engines builds it, after 20
// warm-up steps from a noisy flat start.
func benchmarkStep(b *testing.B, n int) { benchmarkStepKappa(b, n, 0) }

// benchmarkStepKappa is benchmarkStep with hillslope diffusion κ, m²/yr.
func benchmarkStepKappa(b *testing.B, n int, kappa float64) {
	const side = 100e3
	r := math.Sqrt(poisson.Density * side * side / float64(n))
	m := newSampledMesh(b, side, side, r, 1, true)
	up := make([]float32, m.N)
	for i := range up {
		up[i] = 5e-4
	}
	p := engine.DefaultParams()
	p.Kappa = kappa
	e, err := New(Config{Mesh: m, Up: up, InitNoise: 1, Seed: 1, Params: p})
	if err != nil {
		b.Fatal(err)
	}
	for range 20 {
		e.Step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	var ph [engine.NumPhases]float64
	for range b.N {
		st := e.Step()
		for k, d := range st.Phase {
			ph[k] += d.Seconds()
		}
	}
	for k, s := range ph {
		b.ReportMetric(s*1e3/float64(b.N), engine.PhaseNames[k]+"-ms/op")
	}
	b.ReportMetric(float64(m.N), "nodes")
}

func BenchmarkGraphStep(b *testing.B) {
	for _, n := range []int{10_000, 40_000, 90_000, 160_000} {
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) { benchmarkStep(b, n) })
	}
}

// BenchmarkGraphStepDiffusion is the 160k step with hillslope diffusion
// at κ = 0.01, 0.1 and 1 m²/yr (dt of the default parameters).
func BenchmarkGraphStepDiffusion(b *testing.B) {
	for _, k := range []float64{0.01, 0.1, 1} {
		b.Run(fmt.Sprintf("kappa%g", k), func(b *testing.B) { benchmarkStepKappa(b, 160_000, k) })
	}
}

// TestLowestPass builds a bowl ringed by a 1000 m wall with a 500 m notch
// and checks that the water of the bowl leaves over the notch: along the
// receivers from the bottom, the highest node passed is 500 m, the lowest
// pass (Cordonnier et al. 2016, §4.3), and not the wall.
func TestLowestPass(t *testing.T) {
	m := sampleMesh(t, 2000, 2000, 50, 9)
	const cx, cy = 1000, 1000
	init := make([]float32, m.N)
	bottom, rmin := -1, math.Inf(1)
	for i := range init {
		dx, dy := m.X[i]-cx, m.Y[i]-cy
		r := math.Hypot(dx, dy)
		edge := min(m.X[i], m.Y[i], m.W-m.X[i], m.H-m.Y[i])
		switch {
		case m.Outlet[i]:
		case r < 300:
			init[i] = float32(1 + r/100)
		case r < 400 && dx > 0 && math.Abs(dy) < 80:
			init[i] = 500 // the notch
		case r < 400:
			init[i] = 1000 // the wall
		default:
			init[i] = float32(200 * edge / 1000)
		}
		if r < rmin {
			bottom, rmin = i, r
		}
	}
	p := engine.DefaultParams()
	e, err := New(Config{Mesh: m, Init: init, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	st := e.Step()
	if st.Lakes < 1 {
		t.Fatalf("lakes: got %d; want >= 1", st.Lakes)
	}
	checkDrains(t, e, 1)
	rec := e.Receivers()
	highest := float32(0)
	for i := int32(bottom); rec[i] != i; i = rec[i] {
		highest = max(highest, init[i])
	}
	if highest != 500 {
		t.Errorf("highest node on the way out of the bowl: got %g m; want 500 m (the notch)", highest)
	}
	// All the bowl's rain leaves over the notch: the drainage area of the
	// bowl's bottom covers at least the bowl (π·300² m², less the ragged
	// rim of the cells).
	if a := e.DrainageArea()[bottom]; a < 0.9*math.Pi*300*300 {
		t.Errorf("drainage area at the bottom: got %g m²; want >= %g m²", a, 0.9*math.Pi*300*300)
	}
}

// BenchmarkGraphFirstStep times the first step from rough noise, when
// nearly one node in six is a pit: the worst case of the lakes phase.
func BenchmarkGraphFirstStep(b *testing.B) {
	const side, n = 100e3, 160_000
	m := sampleMesh(b, side, side, math.Sqrt(poisson.Density*side*side/n), 1)
	b.ReportAllocs()
	b.ResetTimer()
	var lakes float64
	for range b.N {
		b.StopTimer()
		e, err := New(Config{Mesh: m, InitNoise: 100, Seed: 1, Params: engine.DefaultParams()})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		st := e.Step()
		lakes += float64(st.Lakes)
		b.ReportMetric(st.Phase[engine.PhaseLakes].Seconds()*1e3, "lakes-ms")
	}
	b.ReportMetric(lakes/float64(b.N), "lakes")
}
