package invert

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/grid"
	"orogen/sim/simtest"
	"orogen/sim/talus"
)

// A plane tilted toward a West outlet, other edges closed: every cell
// drains west, A = (W - x) cells, s = the tilt, so u = k √A s by hand.
func TestTiltedPlaneByHand(t *testing.T) {
	const w, h, cell, slope, k = 6, 5, 100.0, 0.01, 1e-5
	dem := &sim.Field{W: w, H: h, Cell: cell, Data: simtest.TiltedPlane(w, h, cell, slope)}
	p := engine.Params{K: k, M: 0.5, N: 1, Dt: 1000,
		Edges: flow.Edges{West: flow.Outlet, North: flow.Closed, South: flow.Closed, East: flow.Closed}}
	res, err := Uplift(dem, Options{Params: p})
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			xa := max(x, 1) // the outlet column takes its interior neighbour's value
			want := k * math.Sqrt(float64(w-xa)*cell*cell) * slope
			got := float64(res.Uplift.At(x, y))
			// float32 storage: 1e-6 relative.
			if math.Abs(got-want) > 1e-6*want {
				t.Errorf("u(%d, %d) = %g; want %g", x, y, got, want)
			}
		}
	}
	if res.Flat != 0 || res.Uphill != 0 || res.Steep != 0 {
		t.Errorf("flat %d, uphill %d, steep %d; want none", res.Flat, res.Uphill, res.Steep)
	}
}

// steadyTerrain runs the engine from a flat start under a bumpy uplift to
// near steady state: a terrain with a real drainage network.
func steadyTerrain(t testing.TB, w, h int, cell float64, p engine.Params, steps int) []float32 {
	t.Helper()
	up := simtest.Scale(simtest.Rough(w, h, 1, 3), 2e-4)
	for i := range up {
		up[i] = max(up[i], 0) + 1e-4
	}
	e, err := grid.New(grid.Config{W: w, H: h, Cell: cell, Up: up, InitNoise: 1, Seed: 5, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	for range steps {
		e.Step()
	}
	return append([]float32(nil), e.Heights()...)
}

// drift runs steps engine steps from heights hs under uplift up and
// returns the largest height change over the relief of hs.
func drift(t testing.TB, hs, up []float32, w, h int, cell float64, p engine.Params, steps int) float64 {
	t.Helper()
	e, err := grid.New(grid.Config{W: w, H: h, Cell: cell, Up: up, Init: hs, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	for range steps {
		e.Step()
	}
	if err := e.Err(); err != nil {
		t.Fatal(err)
	}
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	var mx float64
	for i, v := range hs {
		lo, hi = min(lo, v), max(hi, v)
		mx = max(mx, math.Abs(float64(e.Heights()[i])-float64(v)))
	}
	return mx / float64(hi-lo)
}

// The inverted uplift holds any terrain still under the engine's own step,
// for every term the engine has: it is the engine's discrete steady state,
// not only the continuous one.
func TestFixedPoint(t *testing.T) {
	const w, h, cell = 64, 48, 2000.0
	base := engine.DefaultParams()
	nat := base
	nat.Edges = flow.Edges{North: flow.Natural, South: flow.Outlet, East: flow.Closed, West: flow.Natural}
	hill := base
	hill.Kappa = 0.05
	nonlin := base
	nonlin.N, nonlin.M, nonlin.K = 1.5, 0.6, 2e-7
	height := base
	height.Talus = talus.Model{Mode: talus.ModeHeight, LowDeg: 20, HighDeg: 40, HeightM: 300}
	for _, c := range []struct {
		name string
		p    engine.Params
	}{{"default", base}, {"natural edges", nat}, {"hillslope", hill}, {"n=1.5", nonlin}, {"talus by height", height}} {
		t.Run(c.name, func(t *testing.T) {
			hs := steadyTerrain(t, w, h, cell, c.p, 60)
			res, err := Uplift(&sim.Field{W: w, H: h, Cell: cell, Data: hs}, Options{Params: c.p, Lakes: LakesKeep})
			if err != nil {
				t.Fatal(err)
			}
			// float32 heights round at ~1e-7 relative per step; 100 steps
			// stay far below 1e-4 of the relief unless the uplift is wrong
			// (a wrong term moves cells by u·dt ~ metres per step).
			if res.Steep != 0 {
				t.Errorf("%d cells steeper than the talus angle; want none on an engine terrain", res.Steep)
			}
			if d := drift(t, hs, res.Uplift.Data, w, h, cell, c.p, 100); d > 1e-4 {
				t.Errorf("100 steps moved the terrain by %.3g of its relief; want <= 1e-4 (flat %d, uphill %d, steep %d)", d, res.Flat, res.Uphill, res.Steep)
			}
		})
	}
}

// A cone at 45° under a 30° talus angle: every interior cell is steeper
// than the engine allows, and the first step cuts them.
func TestSteep(t *testing.T) {
	const w, h, cell = 21, 21, 10.0
	p := engine.DefaultParams()
	hs := simtest.Cone(w, h, cell, 200, 1)
	res, err := Uplift(&sim.Field{W: w, H: h, Cell: cell, Data: hs}, Options{Params: p})
	if err != nil {
		t.Fatal(err)
	}
	// Every cell of the cone, its peak too, falls 1 m per metre to its
	// receiver: the whole 19×19 interior.
	if want := (w - 2) * (h - 2); res.Steep != want {
		t.Errorf("steep %d cells; want the %d interior ones", res.Steep, want)
	}
	if res.Held == nil {
		t.Fatal("no held heightmap after cutting")
	}
	// The cut cone is a fixed point; the cone is not.
	if d := drift(t, res.Held.Data, res.Uplift.Data, w, h, cell, p, 100); d > 1e-4 {
		t.Errorf("100 steps moved the cut cone by %.3g of its relief; want <= 1e-4", d)
	}
	if d := drift(t, hs, res.Uplift.Data, w, h, cell, p, 1); d < 0.1 {
		t.Errorf("one step moved the 45° cone by %.3g of its relief; want the talus cut (> 0.1)", d)
	}
}

// Pits and lakes: with LakesKeep a terrain full of depressions is still a
// fixed point (negative uplift under the lakes); with LakesFill the uplift
// is never negative and the lakes fill, by at most their depth.
func TestLakes(t *testing.T) {
	const w, h, cell = 40, 40, 200.0
	p := engine.DefaultParams()
	p.Talus = talus.Model{}
	hs := simtest.Rough(w, h, 300, 9)
	keep, err := Uplift(&sim.Field{W: w, H: h, Cell: cell, Data: hs}, Options{Params: p, Lakes: LakesKeep})
	if err != nil {
		t.Fatal(err)
	}
	if keep.Uphill == 0 || keep.Lakes == 0 {
		t.Fatalf("uphill %d cells, %d lakes; the rough terrain must have some", keep.Uphill, keep.Lakes)
	}
	if d := drift(t, hs, keep.Uplift.Data, w, h, cell, p, 100); d > 1e-4 {
		t.Errorf("keep: 100 steps moved the terrain by %.3g of its relief; want <= 1e-4", d)
	}
	fill, err := Uplift(&sim.Field{W: w, H: h, Cell: cell, Data: hs}, Options{Params: p, Lakes: LakesFill})
	if err != nil {
		t.Fatal(err)
	}
	neg := 0
	for i, v := range fill.Uplift.Data {
		if v < 0 {
			neg++
		}
		if keep.Uplift.Data[i] >= 0 && v != keep.Uplift.Data[i] {
			t.Fatalf("cell %d: fill %g, keep %g; want equal where keep is not negative", i, v, keep.Uplift.Data[i])
		}
	}
	if neg != 0 {
		t.Errorf("fill: %d negative uplift cells; want none", neg)
	}
}

// The box filter by hand, and a constant stays constant.
func TestBoxSmooth(t *testing.T) {
	v := []float32{
		0, 0, 0, 0,
		0, 9, 0, 0,
		0, 0, 0, 0,
	}
	boxSmooth(v, make([]float32, len(v)), 4, 3, 1)
	// Cell (0,0): box (0..1)×(0..1) of 4 cells holds the 9: 9/4. Cell
	// (3,2): box (2..3)×(1..2), no 9: 0. Cell (2,1): box 3×3, 9/9.
	for _, c := range []struct {
		x, y int
		want float32
	}{{0, 0, 9.0 / 4}, {3, 2, 0}, {2, 1, 1}, {1, 1, 1}, {0, 1, 9.0 / 6}} {
		if got := v[c.y*4+c.x]; math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("smoothed (%d, %d) = %g; want %g", c.x, c.y, got, c.want)
		}
	}
	u := simtest.Uniform(17, 9, 2.5)
	boxSmooth(u, make([]float32, len(u)), 17, 9, 4)
	for i, x := range u {
		if x != 2.5 {
			t.Fatalf("constant field smoothed to %g at %d; want 2.5", x, i)
		}
	}
}

func TestBadInput(t *testing.T) {
	p := engine.DefaultParams()
	nan := simtest.Uniform(8, 8, 1)
	nan[19] = float32(math.NaN())
	steep := simtest.TiltedPlane(8, 8, 10, 1e5) // absurd slopes: u >> 1 m/yr
	noTalus := p
	noTalus.Talus = talus.Model{}
	for _, c := range []struct {
		name string
		f    *sim.Field
		o    Options
		want string
	}{
		{"NaN", &sim.Field{W: 8, H: 8, Cell: 10, Data: nan}, Options{Params: p}, "not finite"},
		{"no cell", &sim.Field{W: 8, H: 8, Data: simtest.Uniform(8, 8, 0)}, Options{Params: p}, "--cell"},
		{"tiny", &sim.Field{W: 2, H: 8, Cell: 1, Data: make([]float32, 16)}, Options{Params: p}, "size 2×8"},
		{"smooth", &sim.Field{W: 8, H: 8, Cell: 10, Data: simtest.Uniform(8, 8, 0)}, Options{Params: p, Smooth: -1}, "smoothing radius"},
		{"bad k", &sim.Field{W: 8, H: 8, Cell: 10, Data: simtest.Uniform(8, 8, 0)}, Options{Params: engine.Params{K: -1, M: 0.5, N: 1, Dt: 1}}, "k"},
		{"too steep", &sim.Field{W: 8, H: 8, Cell: 10, Data: steep}, Options{Params: noTalus}, "lower k"},
	} {
		_, err := Uplift(c.f, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one containing %q", c.name, err, c.want)
		}
	}
}

// Same heights, same uplift, bit for bit, whatever GOMAXPROCS.
func TestDeterministic(t *testing.T) {
	const w, h = 300, 200
	hs := simtest.Rough(w, h, 500, 4)
	o := Options{Params: engine.DefaultParams(), Smooth: 3}
	o.Params.Kappa = 0.1
	var ref []float32
	for _, procs := range []int{1, 2, 5} {
		old := runtime.GOMAXPROCS(procs)
		res, err := Uplift(&sim.Field{W: w, H: h, Cell: 100, Data: hs}, o)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = res.Uplift.Data
			continue
		}
		for i := range ref {
			if math.Float32bits(ref[i]) != math.Float32bits(res.Uplift.Data[i]) {
				t.Fatalf("GOMAXPROCS %d: cell %d = %g; want %g (GOMAXPROCS 1)", procs, i, res.Uplift.Data[i], ref[i])
			}
		}
	}
}

func TestParseLakes(t *testing.T) {
	for _, l := range []Lakes{LakesFill, LakesKeep} {
		got, err := ParseLakes(l.String())
		if err != nil || got != l {
			t.Errorf("ParseLakes(%q) = %v, %v; want %v", l.String(), got, err, l)
		}
	}
	if _, err := ParseLakes("drain"); err == nil {
		t.Error("ParseLakes(drain): no error")
	}
}

func BenchmarkInvert(b *testing.B) {
	for _, n := range []int{256, 512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkInvert(b, n) })
	}
}

// benchmarkInvert times one inversion of an n×n rough DEM (routing, lakes,
// area, uplift) with the Inverter's buffers reused, as the app does.
func benchmarkInvert(b *testing.B, n int) {
	hs := simtest.Rough(n, n, 1000, 1)
	iv, err := New(n, n, 100)
	if err != nil {
		b.Fatal(err)
	}
	o := Options{Params: engine.DefaultParams()}
	if _, err := iv.Run(hs, o); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := iv.Run(hs, o); err != nil {
			b.Fatal(err)
		}
	}
}
