package spl_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"orogen/sim/flow"
	"orogen/sim/simtest"
	"orogen/sim/spl"
	"orogen/sim/talus"
)

// ordered routes a rough w×h terrain (a ridge plus seeded noise, outlets on
// two sides and natural edges on the others, so there are fixed roots,
// natural roots and carved lakes) and returns its graph, heights in
// drainage order, distances and areas.
func ordered(t testing.TB, w, h int, seed uint64) (*flow.Graph, []float32, []float32, []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	hg := make([]float32, w*h)
	for y := range h {
		for x := range w {
			ridge := 800 * math.Sin(math.Pi*float64(x)/float64(w-1)) * math.Sin(math.Pi*float64(y)/float64(h-1))
			hg[y*w+x] = float32(ridge + 60*rng.Float64())
		}
	}
	g := flow.NewGraph(w, h, 90, flow.Edges{North: flow.Outlet, South: flow.Natural, East: flow.Outlet, West: flow.Natural}, 0)
	g.Update(hg)
	hs := make([]float32, w*h)
	for k, i := range g.Stack {
		hs[k] = hg[i] + 0.25 // as if uplifted
	}
	ds := g.OrderedDist(make([]float32, w*h), 0, w*h)
	as := g.AccumulateStack(nil, 90*90)
	return g, hs, ds, as
}

// TestErodeClampMatchesTwoPasses checks that the fused two-lane pass gives
// bit for bit the heights and clamp count of Erode followed by
// ClampOrdered, for lanes split at every kind of tree boundary, with and
// without the limit, for m = 0.5 (the written-out pair loop) and m = 0.4
// and a k factor (the general node path). Equality is exact: the fused pass
// does the same arithmetic in an order that only interleaves independent
// trees.
func TestErodeClampMatchesTwoPasses(t *testing.T) {
	g, hs0, ds, as := ordered(t, 97, 83, 3)
	n := len(hs0)
	if len(g.Lakes) == 0 {
		t.Fatal("test terrain has no lakes; want some carved basins")
	}
	kf := make([]float32, n)
	for k := range kf {
		kf[k] = 0.5 + float32(k%7)/4
	}
	lim := talus.Model{Mode: talus.ModeConstant, AngleDeg: 30}.Limiter(97, 83, 90)
	tan, ok := lim.ConstantTan()
	if !ok {
		t.Fatal("ConstantTan: not constant")
	}
	// Split points: every tree boundary tried as the lanes' split.
	for _, p := range []spl.Params{
		{K: 2e-5, M: 0.5, N: 1, Dt: 2.5e5},
		{K: 2e-5, M: 0.4, N: 1, Dt: 1e5},
		{K: 2e-5, M: 0.5, N: 1, Dt: 1e5, KFactor: kf},
	} {
		for _, limit := range []bool{false, true} {
			want := slices.Clone(hs0)
			spl.Erode(want, g.RecPos, ds, as, nil, 0, n, p)
			eroded := slices.Clone(want)
			wantN := 0
			tn := 0.0
			if limit {
				wantN = lim.ClampOrdered(want, g.RecPos, ds, g.Stack, 0, n)
				tn = tan
			}
			if limit && wantN == 0 {
				t.Fatal("the limit lowered no node; want a test that exercises it")
			}
			for ti := 0; ti < len(g.Trees); ti += max(1, len(g.Trees)/17) {
				m := int(g.Trees[ti])
				hs, he := slices.Clone(hs0), make([]float32, n)
				got := spl.ErodeClamp(hs, he, g.RecPos, ds, as, spl.Lanes{A0: 0, A1: m, B0: m, B1: n}, p, tn)
				if got != wantN {
					t.Errorf("%+v limit %v split %d: %d nodes lowered; want %d", p, limit, m, got, wantN)
				}
				for k := range hs {
					if math.Float32bits(hs[k]) != math.Float32bits(want[k]) || math.Float32bits(he[k]) != math.Float32bits(eroded[k]) {
						t.Fatalf("%+v limit %v split %d: node %d: got %g (eroded %g); want %g (eroded %g)", p, limit, m, k, hs[k], he[k], want[k], eroded[k])
					}
				}
			}
		}
	}
}

// TestErodeLimitMatchesTwoPasses: ErodeLimit with a deposition rate
// (us), Params.Hold and a k factor, the grid engine's pass with sediment,
// gives bit for bit the heights, eroded heights and count of Erode then
// ClampOrdered, with a noise-field limit, a constant one and none, with
// he a buffer of its own and he the rates' buffer (the engine's reuse),
// for lanes split at tree boundaries.
func TestErodeLimitMatchesTwoPasses(t *testing.T) {
	const w, h = 97, 83
	g, hs0, ds, as := ordered(t, w, h, 5)
	n := len(hs0)
	rng := rand.New(rand.NewPCG(7, 8))
	kf, us := make([]float32, n), make([]float32, n)
	for k := range kf {
		kf[k] = 0.5 + rng.Float32()
		us[k] = float32(2e-4 * rng.ExpFloat64()) // up to metres a step at dt 1e5
	}
	p := spl.Params{K: 2e-5, M: 0.5, N: 1, Dt: 1e5, KFactor: kf, Hold: true}
	noisy := talus.Model{Mode: talus.ModeNoise, MinDeg: 20, MaxDeg: 35, WavelengthM: 2000, Octaves: 3, Seed: 4}.Limiter(w, h, 90)
	field, ok := noisy.NoiseField()
	if !ok || len(field) != n {
		t.Fatal("NoiseField: no field for a noise limit")
	}
	constant := talus.Model{Mode: talus.ModeConstant, AngleDeg: 30}.Limiter(w, h, 90)
	tan, _ := constant.ConstantTan()
	held := 0
	for _, tc := range []struct {
		name string
		lim  *talus.Limiter
		spl  spl.Limit
	}{
		{"noise", noisy, spl.Limit{Field: field, Cell: g.Stack}},
		{"constant", constant, spl.Limit{Tan: tan}},
		{"none", nil, spl.Limit{}},
	} {
		want := slices.Clone(hs0)
		spl.Erode(want, g.RecPos, ds, as, us, 0, n, p)
		eroded := slices.Clone(want)
		wantN := 0
		if tc.lim != nil {
			if wantN = tc.lim.ClampOrdered(want, g.RecPos, ds, g.Stack, 0, n); wantN == 0 {
				t.Fatalf("%s: the limit lowered no node; want a test that exercises it", tc.name)
			}
		}
		for k, r := range g.RecPos {
			if int(r) != k && float64(hs0[k])+p.Dt*float64(us[k]) <= float64(eroded[r]) {
				held++
			}
		}
		for ti := 0; ti < len(g.Trees); ti += max(1, len(g.Trees)/7) {
			m := int(g.Trees[ti])
			for _, alias := range []bool{false, true} {
				hs, he, u := slices.Clone(hs0), make([]float32, n), us
				if alias {
					u = slices.Clone(us)
					he = u
				}
				got := spl.ErodeLimit(hs, he, g.RecPos, ds, as, u, spl.Lanes{A0: 0, A1: m, B0: m, B1: n}, p, tc.spl)
				if got != wantN {
					t.Errorf("%s split %d alias %v: %d nodes lowered; want %d", tc.name, m, alias, got, wantN)
				}
				for k := range hs {
					if math.Float32bits(hs[k]) != math.Float32bits(want[k]) || math.Float32bits(he[k]) != math.Float32bits(eroded[k]) {
						t.Fatalf("%s split %d alias %v: node %d: got %g (eroded %g); want %g (eroded %g)", tc.name, m, alias, k, hs[k], he[k], want[k], eroded[k])
					}
				}
			}
		}
	}
	if held == 0 {
		t.Error("no node held (Params.Hold); want a test that exercises it")
	}
}

// BenchmarkErodeClamp compares the fused two-lane pass with Erode then
// ClampOrdered on a routed 1024² terrain.
func BenchmarkErodeClamp(b *testing.B) {
	g, hs0, ds, as := ordered(b, 1024, 1024, 1)
	n := len(hs0)
	p := spl.Params{K: 2e-5, M: 0.5, N: 1, Dt: 2.5e5}
	lim := talus.Model{Mode: talus.ModeConstant, AngleDeg: 30}.Limiter(1024, 1024, 90)
	tan, _ := lim.ConstantTan()
	hs, he := make([]float32, n), make([]float32, n)
	t, _ := slices.BinarySearch(g.Trees, int32(n/2))
	m := int(g.Trees[t])
	b.Run("fused", func(b *testing.B) {
		for b.Loop() {
			copy(hs, hs0)
			spl.ErodeClamp(hs, he, g.RecPos, ds, as, spl.Lanes{A0: 0, A1: m, B0: m, B1: n}, p, tan)
		}
	})
	b.Run("onelane", func(b *testing.B) {
		for b.Loop() {
			copy(hs, hs0)
			spl.ErodeClamp(hs, he, g.RecPos, ds, as, spl.Lanes{A0: 0, A1: n, B0: n, B1: n}, p, tan)
		}
	})
	b.Run("twopasses", func(b *testing.B) {
		for b.Loop() {
			copy(hs, hs0)
			spl.Erode(hs, g.RecPos, ds, as, nil, 0, n, p)
			lim.ClampOrdered(hs, g.RecPos, ds, g.Stack, 0, n)
		}
	})
}

// BenchmarkErodeLimit compares ErodeLimit with Erode then ClampOrdered
// in the grid engine's case with sediment (a deposition rate, Hold, a k
// factor and a noisy talus limit) on a routed 1024² terrain.
func BenchmarkErodeLimit(b *testing.B) {
	const n1 = 1024
	g, hs0, ds, as := ordered(b, n1, n1, 1)
	n := len(hs0)
	rng := rand.New(rand.NewPCG(7, 8))
	kf, us := make([]float32, n), make([]float32, n)
	for k := range kf {
		kf[k] = 0.5 + rng.Float32()
		us[k] = float32(2e-5 * rng.ExpFloat64())
	}
	p := spl.Params{K: 2e-5, M: 0.5, N: 1, Dt: 2.5e5, KFactor: kf, Hold: true}
	lim := talus.Model{Mode: talus.ModeNoise, MinDeg: 25, MaxDeg: 40, WavelengthM: 3000, Octaves: 4, Seed: 1}.Limiter(n1, n1, 90)
	field, _ := lim.NoiseField()
	hs, he := make([]float32, n), make([]float32, n)
	t, _ := slices.BinarySearch(g.Trees, int32(n/2))
	m := int(g.Trees[t])
	b.Run("fused", func(b *testing.B) {
		defer simtest.ReportCPU(b)()
		for b.Loop() {
			copy(hs, hs0)
			spl.ErodeLimit(hs, he, g.RecPos, ds, as, us, spl.Lanes{A0: 0, A1: m, B0: m, B1: n}, p, spl.Limit{Field: field, Cell: g.Stack})
		}
	})
	b.Run("twopasses", func(b *testing.B) {
		defer simtest.ReportCPU(b)()
		for b.Loop() {
			copy(hs, hs0)
			spl.Erode(hs, g.RecPos, ds, as, us, 0, n, p)
			lim.ClampOrdered(hs, g.RecPos, ds, g.Stack, 0, n)
		}
	})
}
