package water

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestRoundTrip stores random volumes, from a trace to more than the
// terrain holds, in the pits of random terrains and checks through
// checkLakes that Algorithm 3 (the brute-force volume under each level)
// returns the volume Algorithm 4 turned into that level, and that the
// account balances with no rain: what went in is stored or flowed out.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for trial := range 40 {
		w, h := 16+rng.IntN(40), 16+rng.IntN(40)
		z := noisyTerrain(w, h, 1+9*rng.Float64(), rng.Float64()*6, uint64(trial))
		in := testRoute(w, h, 1+rng.Float64()*30, z)
		scale := math.Pow(10, -3+8*rng.Float64())
		var nodes []int32
		var vols []float64
		var total float64
		for _, r := range in.Root {
			if rng.IntN(3) > 0 {
				v := scale * rng.Float64()
				nodes = append(nodes, r)
				vols = append(vols, v)
				total += v
			}
		}
		m, _ := New(Params{})
		if err := m.SetWater(nodes, vols); err != nil {
			t.Fatal(err)
		}
		m.Step(in, 1)
		checkLakes(t, m, in)
		b := m.Budget()
		if d := total - b.Outflow - b.Stored; math.Abs(d) > 1e-12*total {
			t.Fatalf("trial %d: %g m³ in, %g out, %g stored", trial, total, b.Outflow, b.Stored)
		}
	}
}

// flatNoise is a flat terrain with uniform noise of 1 m: about one pit in
// nine cells.
func flatNoise(w, h int, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 9))
	z := make([]float32, w*h)
	for i := range z {
		z[i] = float32(rng.Float64())
	}
	return z
}

// digest hashes everything a step produces.
func digest(m *Model, in *Input) []byte {
	var out []byte
	f := func(v float64) { out = binary.LittleEndian.AppendUint64(out, math.Float64bits(v)) }
	for _, lk := range m.Lakes() {
		f(lk.Level)
		f(lk.Volume)
		f(lk.Area)
		f(lk.Spill)
		out = binary.LittleEndian.AppendUint32(out, uint32(lk.Into))
		for _, b := range lk.Basins {
			out = binary.LittleEndian.AppendUint32(out, uint32(b))
		}
	}
	nodes, vols := m.Water()
	for k := range nodes {
		out = binary.LittleEndian.AppendUint32(out, uint32(nodes[k]))
		f(vols[k])
	}
	for _, d := range m.WaterDepth(nil, in) {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(d))
	}
	b := m.Budget()
	f(b.Rain)
	f(b.Evaporated)
	f(b.Outflow)
	f(b.Stored)
	return out
}

// TestFlatPuddles runs a 256² noisy flat (about 7000 pits, most of them
// merging as the water rises) for a few steps at GOMAXPROCS 1 and 2 and
// twice each: the bytes must agree. Its speed (a fraction of a second a
// step on a loaded 2-core machine; a quadratic blow-up would take far
// longer) is BenchmarkFlatPuddles', not a bound here that a loaded
// machine could break.
func TestFlatPuddles(t *testing.T) {
	const n = 256
	z := flatNoise(n, n, 1)
	in := testRoute(n, n, 10, z)
	if len(in.Root) < 5000 {
		t.Fatalf("%d pits; want thousands", len(in.Root))
	}
	var ref []byte
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 1, 2} {
		runtime.GOMAXPROCS(procs)
		m, _ := New(Params{Rain: 1, Evap: 0.05})
		var d []byte
		for step := range 4 {
			st := m.Step(in, 5)
			t.Logf("step %d: %d rounds", step, st.Iterations)
			if step == 0 {
				t.Logf("%d pits: %d lakes, %d merged, %d rounds, %v", len(in.Root), st.Lakes, st.Merged, st.Iterations, st.Time)
			}
			checkLakes(t, m, in)
			d = append(d, digest(m, in)...)
		}
		if ref == nil {
			ref = d
		} else if string(d) != string(ref) {
			t.Fatalf("GOMAXPROCS %d: results differ from the first run", procs)
		}
	}
}

// TestRainMap checks that a rain map feeds each basin Σ r_i·a_i: rain only
// on one basin's nodes fills that basin alone.
func TestRainMap(t *testing.T) {
	in := twoBasins()
	rm := make([]float32, len(in.H))
	for i, l := range in.Label {
		if l == 1 {
			rm[i] = 0.25 // 4 cells: 1 m³ per year
		}
	}
	m, err := New(Params{RainMap: rm})
	if err != nil {
		t.Fatal(err)
	}
	m.Step(in, 2)
	lk := m.Lakes()
	if lk[0].Volume != 0 || lk[1].Volume != 2 || m.Budget().Rain != 2 {
		t.Fatalf("volumes %g, %g, rain %g; want 0, 2, 2", lk[0].Volume, lk[1].Volume, m.Budget().Rain)
	}
}

// TestParamsValidate checks that bad parameters are refused.
func TestParamsValidate(t *testing.T) {
	for _, p := range []Params{{Rain: -1}, {Evap: math.NaN()}, {Rain: math.Inf(1)}, {RainMap: []float32{1, -2}}} {
		if _, err := New(p); err == nil {
			t.Errorf("New(%+v) accepted", p)
		}
	}
}

// TestRivers checks discharge on a hand-made tree (exact sums of small
// integers) and the threshold mask.
func TestRivers(t *testing.T) {
	// 0 ← 1 ← 2, 0 ← 3; 4 is a root of its own.
	rec := []int32{0, 0, 1, 0, 4}
	stack := []int32{0, 4, 1, 3, 2}
	q := Discharge(nil, stack, rec, []float64{1, 2, 3, 4, 5}, 0, Params{Rain: 2})
	want := []float64{20, 10, 6, 8, 10}
	for i := range want {
		if q[i] != want[i] {
			t.Fatalf("discharge %v; want %v", q, want)
		}
	}
	mask := Rivers(nil, q, 10, []float32{0, 0, 0, 0, 1})
	if got := []uint8{1, 1, 0, 0, 0}; string(mask) != string(got) {
		t.Fatalf("rivers %v; want %v", mask, got)
	}
}

// BenchmarkFlatPuddles times one step of TestFlatPuddles' 256² noisy
// flat (about 7000 pits merging as the water rises).
func BenchmarkFlatPuddles(b *testing.B) {
	const n = 256
	in := testRoute(n, n, 10, flatNoise(n, n, 1))
	m, _ := New(Params{Rain: 1, Evap: 0.05})
	for b.Loop() {
		m.Step(in, 5)
	}
}
