package talus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// tree is a flow graph on a w×h grid built for tests: every node above the
// bottom row drains to one of its three southern neighbours, picked at
// random; the bottom row holds the roots. order lists rows bottom-up, so
// each node comes after its receiver.
type tree struct {
	w, h  int
	cell  float64
	rec   []int32
	dist  []float32
	order []int32
}

func newTree(w, h int, cell float64, seed uint64) *tree {
	r := rand.New(rand.NewPCG(seed, 3))
	t := &tree{w: w, h: h, cell: cell, rec: make([]int32, w*h), dist: make([]float32, w*h)}
	for y := range h {
		for x := range w {
			i := y*w + x
			if y == h-1 {
				t.rec[i] = int32(i)
				continue
			}
			dx := r.IntN(3) - 1
			if x+dx < 0 || x+dx >= w {
				dx = 0
			}
			t.rec[i] = int32((y+1)*w + x + dx)
			t.dist[i] = float32(cell * math.Hypot(float64(dx), 1))
		}
	}
	for y := h - 1; y >= 0; y-- {
		for x := range w {
			t.order = append(t.order, int32(y*w+x))
		}
	}
	return t
}

// heights returns rough heights in [0, 5000) m: many slopes over any limit.
func heights(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 4))
	h := make([]float32, n)
	for i := range h {
		h[i] = float32(5000 * r.Float64())
	}
	return h
}

var models = []Model{
	{Mode: ModeConstant},
	{Mode: ModeConstant, AngleDeg: 12.5},
	{Mode: ModeHeight, LowDeg: 10, HighDeg: 60, HeightM: 1500, BlendM: 400},
	{Mode: ModeHeight, LowDeg: 35, HighDeg: 5, HeightM: 800, BlendM: 0},
	{Mode: ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 2000, Octaves: 4, Seed: 7},
}

func TestClampSlopeLimit(t *testing.T) {
	tr := newTree(96, 80, 30, 1)
	for _, m := range models {
		l := m.Limiter(tr.w, tr.h, tr.cell)
		h := heights(tr.w*tr.h, 2)
		orig := slices.Clone(h)
		n := l.Clamp(h, tr.rec, tr.dist, tr.order)
		changed := 0
		for _, v := range tr.order {
			i := int(v)
			r := int(tr.rec[i])
			if r == i {
				if math.Float32bits(h[i]) != math.Float32bits(orig[i]) {
					t.Fatalf("%+v: root %d got %v; want %v untouched", m, i, h[i], orig[i])
				}
				continue
			}
			// Clamp rounds toward −∞, so the only excess left is the
			// float64 rounding of h_r + tanθ·d (≤ 2⁻⁵³ of its size) and of
			// the check itself: 2⁻⁵¹·(|h_r| + tanθ·d)/d covers both.
			tan, d := float64(l.Tan(i, h[r])), float64(tr.dist[i])
			slope := (float64(h[i]) - float64(h[r])) / d
			if tol := 0x1p-51 * (math.Abs(float64(h[r])) + tan*d) / d; slope > tan+tol {
				t.Fatalf("%+v: node %d slope %v; want ≤ tanθ = %v", m, i, slope, tan)
			}
			if math.Float32bits(h[i]) == math.Float32bits(orig[i]) {
				continue
			}
			changed++
			if h[i] > orig[i] {
				t.Fatalf("%+v: node %d raised from %v to %v", m, i, orig[i], h[i])
			}
			// A lowered node sits on its limit to within one float32 ulp.
			limit := float64(h[r]) + tan*d
			if ulp := float64(math.Nextafter32(h[i], float32(math.Inf(1))) - h[i]); limit-float64(h[i]) > ulp {
				t.Fatalf("%+v: node %d lowered to %v, more than one ulp under its limit %v", m, i, h[i], limit)
			}
		}
		if changed != n {
			t.Errorf("%+v: Clamp returned %d; want the %d nodes it changed", m, n, changed)
		}
		if n == 0 {
			t.Errorf("%+v: nothing clamped on rough terrain", m)
		}
		// A second pass finds nothing to do.
		if again := l.Clamp(h, tr.rec, tr.dist, tr.order); again != 0 {
			t.Errorf("%+v: second Clamp lowered %d nodes; want 0", m, again)
		}
	}
}

func TestClampLeavesGentleNodes(t *testing.T) {
	// A surface rising at 0.3·tanθ towards the north: no node is steep, and
	// not one bit may change.
	tr := newTree(50, 40, 25, 5)
	for _, m := range models {
		l := m.Limiter(tr.w, tr.h, tr.cell)
		h := make([]float32, tr.w*tr.h)
		for _, v := range tr.order {
			i := int(v)
			if r := int(tr.rec[i]); r != i {
				h[i] = h[r] + 0.3*l.Tan(i, h[r])*tr.dist[i]
			}
		}
		orig := slices.Clone(h)
		if n := l.Clamp(h, tr.rec, tr.dist, tr.order); n != 0 {
			t.Errorf("%+v: Clamp lowered %d gentle nodes; want 0", m, n)
		}
		for i := range h {
			if math.Float32bits(h[i]) != math.Float32bits(orig[i]) {
				t.Fatalf("%+v: gentle node %d changed from %v to %v", m, i, orig[i], h[i])
			}
		}
	}
}

func TestClampHandComputed(t *testing.T) {
	// tan 45° rounds to exactly 1 in float32, so every limit is
	// h[rec] + dist. Nodes 0 ← 1 ← 2 ← 3 ← 4 form a chain with 10 m steps;
	// node 5 drains to node 2 over 5 m. Node 0 is the root. By hand:
	//   h1 = min(100, 0 + 10)  = 10  (lowered)
	//   h2 = min(3, 10 + 10)   = 3
	//   h3 = min(200, 3 + 10)  = 13  (lowered)
	//   h4 = min(14, 13 + 10)  = 14
	//   h5 = min(9, 3 + 5)     = 8   (lowered)
	l := Model{Mode: ModeConstant, AngleDeg: 45}.Limiter(6, 1, 10)
	if got := l.Tan(0, 0); got != 1 {
		t.Fatalf("tan 45°: got %v; want 1", got)
	}
	h := []float32{0, 100, 3, 200, 14, 9}
	rec := []int32{0, 0, 1, 2, 3, 2}
	dist := []float32{0, 10, 10, 10, 10, 5}
	order := []int32{0, 1, 2, 5, 3, 4}
	n := l.Clamp(h, rec, dist, order)
	if want := []float32{0, 10, 3, 13, 14, 8}; !slices.Equal(h, want) || n != 3 {
		t.Errorf("got %v, %d clamped; want %v, 3", h, n, want)
	}
}

func TestHeightMode(t *testing.T) {
	m := Model{Mode: ModeHeight, LowDeg: 10, HighDeg: 50, HeightM: 1000, BlendM: 200}
	l := m.Limiter(1, 1, 1)
	lo, hi := float32(math.Tan(10*math.Pi/180)), float32(math.Tan(50*math.Pi/180))
	for _, c := range []struct {
		z    float32
		want float32
	}{
		{-100, lo}, {0, lo}, {899, lo}, {900, lo},
		{1000, float32((float64(lo) + float64(hi)) / 2)}, // smoothstep(½) = ½
		{1100, hi}, {1101, hi}, {5000, hi},
	} {
		if got := l.Tan(0, c.z); math.Abs(float64(got-c.want)) > 1e-6 {
			t.Errorf("Tan at %v m: got %v; want %v", c.z, got, c.want)
		}
	}
	prev := l.Tan(0, 850)
	for z := float32(850); z <= 1150; z += 0.5 {
		if got := l.Tan(0, z); got < prev {
			t.Fatalf("Tan at %v m: got %v after %v; want non-decreasing", z, got, prev)
		}
		prev = l.Tan(0, z)
	}
	// Sharp switch with BlendM = 0.
	s := Model{Mode: ModeHeight, LowDeg: 10, HighDeg: 50, HeightM: 1000}.Limiter(1, 1, 1)
	if a, b := s.Tan(0, 999.9), s.Tan(0, 1000); a != lo || b != hi {
		t.Errorf("sharp: got %v below and %v at 1000 m; want %v and %v", a, b, lo, hi)
	}

	// On a clamp: two chains, one starting low and one high, both with
	// vertical steps; the low one ends at 10° slopes, the high one at 50°.
	h := []float32{0, 500, 2000, 3000}
	rec := []int32{0, 0, 2, 2}
	dist := []float32{0, 100, 0, 100}
	l.Clamp(h, rec, dist, []int32{0, 1, 2, 3})
	if got, want := h[1], float32(0+float64(lo)*100); math.Abs(float64(got-want)) > 1e-3 {
		t.Errorf("low chain: got %v; want %v (10°)", got, want)
	}
	if got, want := h[3], float32(2000+float64(hi)*100); math.Abs(float64(got-want)) > 1e-3 {
		t.Errorf("high chain: got %v; want %v (50°)", got, want)
	}
}

func TestNoiseMode(t *testing.T) {
	const n, cell = 256, 50.0
	m := Model{Mode: ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 1600, Octaves: 4, Seed: 11}
	l := m.Limiter(n, n, cell)
	span := m.MaxDeg - m.MinDeg
	var low, high int
	for i := range n * n {
		// float32 storage of tan moves the angle by < 1e-5°.
		deg := math.Atan(float64(l.Tan(i, 0))) * 180 / math.Pi
		if deg < m.MinDeg-1e-5 || deg > m.MaxDeg+1e-5 {
			t.Fatalf("cell %d: got %v°; want within [%v, %v]", i, deg, m.MinDeg, m.MaxDeg)
		}
		if deg < m.MinDeg+0.1*span {
			low++
		}
		if deg > m.MaxDeg-0.1*span {
			high++
		}
	}
	// Φ(v/σ) spreads the angles about evenly: each tenth of the range
	// should hold ~10% of the cells; demand at least 2%.
	t.Logf("%d of %d cells in the lowest tenth of the range, %d in the highest", low, n*n, high)
	if low < n*n/50 || high < n*n/50 {
		t.Errorf("got %d cells in the lowest tenth and %d in the highest; want ≥ %d each", low, high, n*n/50)
	}

	// Same seed, same field; another seed, another field.
	same := m.Limiter(n, n, cell)
	m2 := m
	m2.Seed++
	other := m2.Limiter(n, n, cell)
	differ := 0
	for i := range n * n {
		if math.Float32bits(l.Tan(i, 0)) != math.Float32bits(same.Tan(i, 0)) {
			t.Fatalf("cell %d: two limiters of seed %d differ", i, m.Seed)
		}
		if l.Tan(i, 0) != other.Tan(i, 0) {
			differ++
		}
	}
	if differ < n*n*9/10 {
		t.Errorf("seeds %d and %d: got %d of %d cells differ; want ≥ 90%%", m.Seed, m2.Seed, differ, n*n)
	}
}

func TestNoiseDeterministicAcrossWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	m := Model{Mode: ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 900, Octaves: 5, Seed: 3}
	tr := newTree(130, 70, 20, 9)
	var wantTan, wantH []float32
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		l := m.Limiter(tr.w, tr.h, tr.cell)
		tans := make([]float32, tr.w*tr.h)
		for i := range tans {
			tans[i] = l.Tan(i, 0)
		}
		h := heights(tr.w*tr.h, 4)
		l.Clamp(h, tr.rec, tr.dist, tr.order)
		if wantTan == nil {
			wantTan, wantH = tans, h
			continue
		}
		for i := range tans {
			if math.Float32bits(tans[i]) != math.Float32bits(wantTan[i]) || math.Float32bits(h[i]) != math.Float32bits(wantH[i]) {
				t.Fatalf("GOMAXPROCS %d: cell %d got tan %v, h %v; want %v, %v as with 1", procs, i, tans[i], h[i], wantTan[i], wantH[i])
			}
		}
	}
}

func TestConstantDefault(t *testing.T) {
	l := Model{Mode: ModeConstant}.Limiter(1, 1, 1)
	if got, want := l.Tan(0, 0), float32(math.Tan(math.Pi/6)); got != want {
		t.Errorf("default angle: got tan %v; want tan 30° = %v", got, want)
	}
}

func TestOff(t *testing.T) {
	tr := newTree(20, 20, 10, 1)
	for _, m := range []Model{{}, {Mode: ModeOff}} {
		l := m.Limiter(tr.w, tr.h, tr.cell)
		h := heights(tr.w*tr.h, 1)
		orig := slices.Clone(h)
		if n := l.Clamp(h, tr.rec, tr.dist, tr.order); n != 0 || !slices.Equal(h, orig) {
			t.Errorf("mode %q: got %d clamped; want 0 and heights untouched", m.Mode, n)
		}
		if got := l.Tan(5, 100); !math.IsInf(float64(got), 1) {
			t.Errorf("mode %q: Tan got %v; want +Inf", m.Mode, got)
		}
	}
}

func TestValidate(t *testing.T) {
	nan := math.NaN()
	noise := func(f func(*Model)) Model {
		m := Model{Mode: ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 3000, Octaves: 4}
		f(&m)
		return m
	}
	height := func(f func(*Model)) Model {
		m := Model{Mode: ModeHeight, LowDeg: 10, HighDeg: 45, HeightM: 1200, BlendM: 100}
		f(&m)
		return m
	}
	cases := []struct {
		m    Model
		want string // substring of the error; "" for valid
	}{
		{Model{}, ""},
		{Model{Mode: ModeOff, AngleDeg: -5}, ""}, // off ignores the other fields
		{Model{Mode: ModeConstant}, ""},
		{Model{Mode: ModeConstant, AngleDeg: 89.9}, ""},
		{Model{Mode: ModeConstant, AngleDeg: 90}, "talus: constant angle_deg 90 outside (0, 90)"},
		{Model{Mode: ModeConstant, AngleDeg: -3}, "talus: constant angle_deg -3 outside (0, 90)"},
		{Model{Mode: ModeConstant, AngleDeg: nan}, "talus: constant angle_deg is NaN"},
		{Model{Mode: "sand"}, `talus: unknown mode "sand"`},
		{height(func(*Model) {}), ""},
		{height(func(m *Model) { m.BlendM = 0; m.HeightM = -50 }), ""},
		{height(func(m *Model) { m.LowDeg = 0 }), "talus: height low_deg 0 outside (0, 90)"},
		{height(func(m *Model) { m.HighDeg = 120 }), "talus: height high_deg 120 outside (0, 90)"},
		{height(func(m *Model) { m.HeightM = nan }), "talus: height height_m is NaN"},
		{height(func(m *Model) { m.HeightM = math.Inf(1) }), "talus: height height_m is +Inf"},
		{height(func(m *Model) { m.BlendM = -1 }), "talus: height blend_m -1 is negative"},
		{height(func(m *Model) { m.BlendM = nan }), "talus: height blend_m is NaN"},
		{noise(func(*Model) {}), ""},
		{noise(func(m *Model) { m.MinDeg, m.MaxDeg = 20, 20 }), ""},
		{noise(func(m *Model) { m.MinDeg = 60 }), "talus: noise min_deg 60 > max_deg 54"},
		{noise(func(m *Model) { m.MinDeg = nan }), "talus: noise min_deg is NaN"},
		{noise(func(m *Model) { m.MaxDeg = 90.5 }), "talus: noise max_deg 90.5 outside (0, 90)"},
		{noise(func(m *Model) { m.WavelengthM = 0 }), "talus: noise wavelength_m 0 must be ≥ 0.001"},
		{noise(func(m *Model) { m.WavelengthM = -10 }), "talus: noise wavelength_m -10 must be ≥ 0.001"},
		{noise(func(m *Model) { m.WavelengthM = 1e-300 }), "talus: noise wavelength_m 1e-300 must be ≥ 0.001"},
		{noise(func(m *Model) { m.WavelengthM = nan }), "talus: noise wavelength_m is NaN"},
		{noise(func(m *Model) { m.Octaves = 0 }), "talus: noise octaves 0 outside [1, 16]"},
		{noise(func(m *Model) { m.Octaves = -2 }), "talus: noise octaves -2 outside [1, 16]"},
		{noise(func(m *Model) { m.Octaves = 17 }), "talus: noise octaves 17 outside [1, 16]"},
	}
	for _, c := range cases {
		err := c.m.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: got error %q; want nil", c.m, err)
		case c.want != "" && err == nil:
			t.Errorf("%+v: got nil; want error %q", c.m, c.want)
		case c.want != "" && !strings.Contains(err.Error(), c.want):
			t.Errorf("%+v: got error %q; want it to contain %q", c.m, err, c.want)
		}
	}
}

func TestPanics(t *testing.T) {
	l := Model{Mode: ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 100, Octaves: 2}.Limiter(4, 4, 10)
	h := make([]float32, 16)
	rec := make([]int32, 16)
	dist := make([]float32, 16)
	cases := []struct {
		name string
		f    func()
	}{
		{"rec", func() { l.Clamp(h, rec[:15], dist, nil) }},
		{"dist", func() { l.Clamp(h, rec, dist[:3], nil) }},
		{"grid", func() { l.Clamp(h[:9], rec[:9], dist[:9], nil) }},
		{"invalid", func() { Model{Mode: "x"}.Limiter(4, 4, 10) }},
		{"size", func() { Model{}.Limiter(0, 4, 10) }},
		{"cell", func() { Model{Mode: ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 100, Octaves: 2}.Limiter(4, 4, 0) }},
	}
	for _, c := range cases {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.HasPrefix(s, "talus: ") {
					t.Errorf("%s: got panic %v; want a \"talus: \" panic", c.name, r)
				}
			}()
			c.f()
		}()
	}
}

func benchmarkClamp(b *testing.B, n int, m Model) {
	tr := newTree(n, n, 30, 1)
	l := m.Limiter(n, n, 30)
	src := heights(n*n, 2)
	h := make([]float32, n*n)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		copy(h, src) // timed too: StopTimer would cost more than the copy
		l.Clamp(h, tr.rec, tr.dist, tr.order)
	}
}

func BenchmarkClamp(b *testing.B) {
	for _, m := range []Model{models[1], models[2], models[4]} {
		for _, n := range []int{256, 512, 1024, 2048} {
			b.Run(fmt.Sprintf("%s/%d", m.Mode, n), func(b *testing.B) { benchmarkClamp(b, n, m) })
		}
	}
}

func BenchmarkLimiterNoise(b *testing.B) {
	m := Model{Mode: ModeNoise, MinDeg: 6, MaxDeg: 54, WavelengthM: 3000, Octaves: 4, Seed: 1}
	for _, n := range []int{256, 512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				m.Limiter(n, n, 30)
			}
		})
	}
}

func TestRoundDown(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, 1, -1, 0.1, -0.1, 1e-50, -1e-50, 3e38, -3e38, 1e39, -1e39,
		math.MaxFloat32, -math.MaxFloat32, math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}
	for range 100000 {
		xs = append(xs, (r.Float64()-0.5)*math.Pow(10, float64(r.IntN(20)-10)))
	}
	up := float32(math.Inf(1))
	for _, x := range xs {
		v := roundDown(x)
		if math.IsNaN(float64(v)) || float64(v) > x {
			t.Fatalf("roundDown(%g) = %g; want ≤ x", x, v)
		}
		if next := math.Nextafter32(v, up); float64(next) <= x && !math.IsInf(x, 1) {
			t.Fatalf("roundDown(%g) = %g; want the largest float32 ≤ x, but %g is too", x, v, next)
		}
	}
}

func TestClampOrderedMatchesClamp(t *testing.T) {
	// ClampOrdered (the grid engine's layout, in ordered.go) must give the
	// bits Clamp gives on the same tree laid out in drainage order.
	tr := newTree(70, 60, 30, 8)
	pos := make([]int32, len(tr.order))
	for k, i := range tr.order {
		pos[i] = int32(k)
	}
	for _, m := range models {
		l := m.Limiter(tr.w, tr.h, tr.cell)
		h := heights(tr.w*tr.h, 6)
		n := len(h)
		hs, rp, ds, cell := make([]float32, n), make([]int32, n), make([]float32, n), make([]int32, n)
		for k, i := range tr.order {
			hs[k], rp[k], ds[k], cell[k] = h[i], pos[tr.rec[i]], tr.dist[i], i
		}
		a := l.Clamp(h, tr.rec, tr.dist, tr.order)
		b := l.ClampOrdered(hs, rp, ds, cell, 0, n)
		if a != b {
			t.Errorf("%+v: Clamp lowered %d nodes, ClampOrdered %d", m, a, b)
		}
		for k, i := range tr.order {
			if math.Float32bits(hs[k]) != math.Float32bits(h[i]) {
				t.Fatalf("%+v: node %d got %v from ClampOrdered; want %v as from Clamp", m, i, hs[k], h[i])
			}
		}
	}
}
