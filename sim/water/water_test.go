package water

import (
	"math"
	"testing"
)

// twoBasins is a hand-made pair of basins of unit cells: A (basin 0) with
// heights 0..5, B (basin 1) with 2, 3, 4, 6. A spills into B over a pass at
// 4 m; A leaves the domain at 10 m, B at 8 m. Volumes below a level L are
// Σ (L − h) over the nodes below L.
func twoBasins() *Input {
	h := []float32{0, 1, 2, 3, 4, 5, 2, 3, 4, 6}
	return &Input{
		H: h, CellArea: 1,
		Label: []int32{0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
		Root:  []int32{0, 6},
		Passes: []Pass{
			{A: 0, B: 1, H: 4, Node: 4},
			{A: 0, B: Outside, H: 10, Node: 5},
			{A: 1, B: Outside, H: 8, Node: 9},
		},
	}
}

// run stores the volumes at the roots, steps once without rain and
// returns the model.
func run(t *testing.T, in *Input, vols []float64) *Model {
	t.Helper()
	m, err := New(Params{})
	if err != nil {
		t.Fatal(err)
	}
	var nodes []int32
	var vs []float64
	for b, v := range vols {
		if v > 0 {
			nodes = append(nodes, in.Root[b])
			vs = append(vs, v)
		}
	}
	if err := m.SetWater(nodes, vs); err != nil {
		t.Fatal(err)
	}
	m.Step(in, 1)
	return m
}

type wantLake struct {
	basins []int32
	level  float64
	volume float64
	full   bool
	into   int32
}

// The levels below are solved by hand from the piecewise linear volume
// Σ (L − h); they are exact in binary up to a few roundings, so the
// tolerance is 1e-12 m and 1e-12 relative in volume.
func TestHandMadeBasins(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      *Input
		vols    []float64
		want    []wantLake
		outflow float64
	}{{
		// A: 3L − 3 = 6 over heights 0, 1, 2 → 3. B: 2L − 5 = 2 → 3.5.
		name: "each on its own", in: twoBasins(), vols: []float64{6, 2},
		want: []wantLake{{[]int32{0}, 3, 6, false, NoSpill}, {[]int32{1}, 3.5, 2, false, NoSpill}},
	}, {
		// A holds 10 to its pass at 4 and spills 2 into B: 2L − 5 = 2.5 → 3.75.
		name: "A spills into B", in: twoBasins(), vols: []float64{12, 0.5},
		want: []wantLake{{[]int32{0}, 4, 10, true, 1}, {[]int32{1}, 3.75, 2.5, false, NoSpill}},
	}, {
		// 16 > 10 + 3 at the pass: one lake, (5L − 10) + (3L − 9) = 16 → 4.375.
		name: "merge", in: twoBasins(), vols: []float64{12, 4},
		want: []wantLake{{[]int32{0, 1}, 4.375, 16, false, NoSpill}},
	}, {
		// The merged lake holds (6·8 − 15) + (4·8 − 15) = 50 at B's exit at 8.
		name: "merge and leave", in: twoBasins(), vols: []float64{100, 0},
		want:    []wantLake{{[]int32{0, 1}, 8, 50, true, Outside}},
		outflow: 50,
	}, {
		// B spills back into A over the same pass: B holds 3, A 9 − 0.5:
		// 4L − 6 = 7.5 → 3.375 (nodes 0..3).
		name: "B spills into A", in: twoBasins(), vols: []float64{1.5, 9},
		want: []wantLake{{[]int32{0}, 3.375, 7.5, false, NoSpill}, {[]int32{1}, 4, 3, true, 0}},
	}, {
		name: "chain of three", in: chain3(2, 7), vols: []float64{20, 0, 0},
		// A (0, 1, 2 below its pass 3 to B) holds 6 and passes 14 on; B
		// (1, 2 below its pass 2.5 to C) holds 2 and passes 12 on; C (0
		// below its exit at 2) holds 2 and lets 10 out. Every lowest pass
		// leads down the chain, so nothing merges.
		want: []wantLake{
			{[]int32{0}, 3, 6, true, 1},
			{[]int32{1}, 2.5, 2, true, 2},
			{[]int32{2}, 2, 2, true, Outside},
		},
		outflow: 10,
	}, {
		// With C's exit at 5, C fills to the B–C pass at 2.5 and merges with
		// B; B+C fills to 3 and merges with A; all three hold the 20 below
		// 5: A 4L − 6, B 2L − 3, C 2L − 4 over 4 ≤ L: 8L − 13 = 20.
		name: "chain of three merging", in: chain3(5, 8), vols: []float64{20, 0, 0},
		want: []wantLake{{[]int32{0, 1, 2}, 4.125, 20, false, NoSpill}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			m := run(t, tc.in, tc.vols)
			var got []Lake
			for _, lk := range m.Lakes() {
				if lk.Volume > 0 {
					got = append(got, lk)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("%d wet lakes %+v; want %d", len(got), got, len(tc.want))
			}
			for k, w := range tc.want {
				g := got[k]
				if !equal32(g.Basins, w.basins) || math.Abs(g.Level-w.level) > 1e-12 ||
					math.Abs(g.Volume-w.volume) > 1e-12*w.volume || g.Full != w.full || g.Into != w.into {
					t.Errorf("lake %d: got basins %v level %g volume %g full %v into %d; want %v %g %g %v %d",
						k, g.Basins, g.Level, g.Volume, g.Full, g.Into, w.basins, w.level, w.volume, w.full, w.into)
				}
			}
			if b := m.Budget(); math.Abs(b.Outflow-tc.outflow) > 1e-12*(1+tc.outflow) {
				t.Errorf("outflow %g; want %g", b.Outflow, tc.outflow)
			}
		})
	}
}

// chain3 is three basins A → B → C → outside, each spilling down into the
// next: A heights 0..3 pass 3 to B; B heights 1, 2, 5, pass 2.5 to C (and
// 3 back to A); C heights 0, 4, 9, leaving the domain at exit over node
// node.
func chain3(exit float32, node int32) *Input {
	return &Input{
		H: []float32{0, 1, 2, 3, 1, 2, 5, 0, 4, 9}, CellArea: 1,
		Label: []int32{0, 0, 0, 0, 1, 1, 1, 2, 2, 2},
		Root:  []int32{0, 4, 7},
		Passes: []Pass{
			{A: 0, B: 1, H: 3, Node: 3},
			{A: 1, B: 2, H: 2.5, Node: 5},
			{A: 2, B: Outside, H: exit, Node: node},
		},
	}
}

func equal32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// TestSteadyVolume checks a closed basin against the steady state of
// dV/dt = r·A − e·V^(5/6): V* = (r·A/e)^(6/5). The explicit step contracts
// the error by |1 − dt·e·(5/6)·V*^(−1/6)| ≈ 0.87 per step here, so 400
// steps bring it far below the 1e-9 relative tolerance, which only allows
// for the rounding of the updates.
func TestSteadyVolume(t *testing.T) {
	// One closed 10×10 basin of 100 m² cells, no pass.
	h := make([]float32, 100)
	nodes := make([]int32, 100)
	for i := range h {
		h[i] = float32(i)
		nodes[i] = int32(i)
	}
	in := &Input{H: h, CellArea: 100, Label: make([]int32, 100), Root: []int32{0}, Nodes: [][]int32{nodes}}
	const r, e = 1.0, 1.0
	m, err := New(Params{Rain: r, Evap: e})
	if err != nil {
		t.Fatal(err)
	}
	// The first step follows the formula exactly: V = δt·r·A.
	m.Step(in, 1)
	if got, want := m.Lakes()[0].Volume, 1e4; got != want {
		t.Fatalf("first step: %g m³; want %g", got, want)
	}
	for range 400 {
		m.Step(in, 1)
	}
	want := math.Pow(r*1e4/e, 1.2)
	if got := m.Lakes()[0].Volume; math.Abs(got-want) > 1e-9*want {
		t.Errorf("steady volume %g m³; want (rA/e)^(6/5) = %g", got, want)
	}
}

// TestBudget drives 200 steps of rain and evaporation over a terrain that
// changes every step, so basins appear, vanish and hand their water to new
// pits, and checks rain = evaporated + outflow + Δstored per step and
// overall. Every term is a float64 sum of at most a few thousand terms, so
// the balance holds to ~1e-13 relative; 1e-9 leaves room without hiding a
// lost lake (the smallest lakes hold ~1e-6 of the total).
func TestBudget(t *testing.T) {
	const w, h = 64, 48
	m, err := New(Params{Rain: 0.5, Evap: 0.02})
	if err != nil {
		t.Fatal(err)
	}
	var stored float64
	var rain, out float64
	wetSeen := 0
	for step := range 200 {
		z := noisyTerrain(w, h, 3, 0.05*float64(step), uint64(step%7))
		in := testRoute(w, h, 10, z)
		st := m.Step(in, 10)
		b := st.Budget
		if d := b.Rain - b.Evaporated - b.Outflow - (b.Stored - stored); math.Abs(d) > 1e-9*b.Rain {
			t.Fatalf("step %d: rain %g − evaporated %g − outflow %g − Δstored %g = %g m³; want 0",
				step, b.Rain, b.Evaporated, b.Outflow, b.Stored-stored, d)
		}
		stored = b.Stored
		rain += b.Rain
		out += b.Outflow
		checkLakes(t, m, in)
		wetSeen = max(wetSeen, st.Lakes)
	}
	tot := m.Budget()
	if d := tot.Rain - tot.Evaporated - tot.Outflow - tot.Stored; math.Abs(d) > 1e-9*tot.Rain {
		t.Errorf("overall: rain %g − evaporated %g − outflow %g − stored %g = %g m³; want 0",
			tot.Rain, tot.Evaporated, tot.Outflow, tot.Stored, d)
	}
	if tot.Evaporated == 0 || tot.Outflow == 0 || tot.Stored == 0 || wetSeen < 5 {
		t.Errorf("a degenerate run: %+v, at most %d wet lakes", tot, wetSeen)
	}
	_, _ = rain, out
}

// checkLakes checks every lake of the last step: its level lies between its
// pit and its pass, a full lake sits at its pass, the volume under its level
// (Algorithm 3 by brute force) is its volume, and the depth raster agrees.
// Levels come from sums of ~1e3 products, so 1e-9 relative in volume and
// 1e-9 m (plus float32 rounding in depth) in level.
func checkLakes(t *testing.T, m *Model, in *Input) {
	t.Helper()
	depth := m.WaterDepth(nil, in)
	var sum float64
	for k, lk := range m.Lakes() {
		pit := float64(in.H[lk.Root])
		if lk.Level < pit-1e-9 || lk.Level > lk.PassH+1e-9 {
			t.Fatalf("lake %d: level %g m outside [pit %g, pass %g]", k, lk.Level, pit, lk.PassH)
		}
		if lk.Full && lk.Level != lk.PassH {
			t.Fatalf("lake %d full at %g m; its pass is at %g m", k, lk.Level, lk.PassH)
		}
		if lk.Volume > 0 {
			if v := bruteVolume(in, &m.s, lk.Basins, lk.Level); math.Abs(v-lk.Volume) > 1e-9*lk.Volume+1e-9 {
				t.Fatalf("lake %d: volume under level %g m is %g m³; holds %g m³", k, lk.Level, v, lk.Volume)
			}
		}
		if lk.Into >= 0 && m.Lakes()[lk.Into].Volume == 0 {
			t.Fatalf("lake %d spills into dry lake %d", k, lk.Into)
		}
		for _, b := range lk.Basins {
			for _, i := range m.s.nodesOf(b) {
				want := max(0, lk.Level-float64(in.H[i]))
				if lk.Volume == 0 {
					want = 0
				}
				if math.Abs(float64(depth[i])-want) > 1e-6*(1+want) {
					t.Fatalf("lake %d node %d: depth %g; want %g", k, i, depth[i], want)
				}
				sum += float64(depth[i]) * in.area(i)
			}
		}
	}
	if b := m.Stats().Budget.Stored; math.Abs(sum-b) > 1e-5*b+1e-6 {
		t.Fatalf("depth raster holds %g m³; stored %g m³", sum, b)
	}
}
