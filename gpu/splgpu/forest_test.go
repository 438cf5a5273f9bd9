package splgpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/grid"
	"orogen/sim/hillslope"
)

// Receiver forests that trap pointer jumping done by a fixed count of
// rounds: one chain through every cell (depth n−1), a comb (a spine and
// its teeth) and a star (every cell towards the centre, the 8 rays the
// deepest), and two forests of a few long chains of different depths.
func chain(w, h int) []uint32 {
	codes := make([]uint32, w*h)
	// Boustrophedon from (0, 0): row 0 eastwards, row 1 westwards, ...;
	// each cell drains to the one before it.
	prevDir := func(x, y int) uint32 {
		switch {
		case y%2 == 0 && x > 0:
			return 4 // W
		case y%2 == 1 && x < w-1:
			return 0 // E
		}
		return 6 // N: the row's first cell drains to the row above
	}
	for y := range h {
		for x := range w {
			codes[y*w+x] = prevDir(x, y)
		}
	}
	codes[0] = 8
	return codes
}

func comb(w, h int) []uint32 {
	codes := make([]uint32, w*h)
	for y := range h {
		for x := range w {
			switch {
			case y > 0:
				codes[y*w+x] = 6 // N, to the spine
			case x > 0:
				codes[y*w+x] = 4 // W, along the spine
			default:
				codes[y*w+x] = 8
			}
		}
	}
	return codes
}

func star(w, h int) []uint32 {
	codes := make([]uint32, w*h)
	cx, cy := w/2, h/2
	sign := func(v int) int { return min(1, max(-1, v)) }
	for y := range h {
		for x := range w {
			dx, dy := sign(cx-x), sign(cy-y)
			c := uint32(8)
			for k := range 8 {
				if dxs[k] == dx && dys[k] == dy && (dx != 0 || dy != 0) {
					c = uint32(k)
				}
			}
			codes[y*w+x] = c
		}
	}
	return codes
}

// walk is the plain-Go twin: area, eroded and limited heights by walking
// every cell's receivers.
func walk(codes []uint32, h []float32, w int, cell, kdt, tan float64) (area []uint32, he, hl []float64) {
	n := len(codes)
	rec := make([]int, n)
	for i, c := range codes {
		rec[i] = i
		if c < 8 {
			rec[i] = i + dxs[c] + dys[c]*w
		}
	}
	depth := make([]int, n)
	for i := range n {
		for j := i; rec[j] != j; j = rec[j] {
			depth[i]++
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Receivers before donors.
	byDepth := make([][]int, n)
	for i, d := range depth {
		byDepth[d] = append(byDepth[d], i)
	}
	order = order[:0]
	for _, l := range byDepth {
		order = append(order, l...)
	}
	area = make([]uint32, n)
	for k := n - 1; k >= 0; k-- {
		i := order[k]
		area[i]++
		if rec[i] != i {
			area[rec[i]] += area[i]
		}
	}
	he, hl = make([]float64, n), make([]float64, n)
	for _, i := range order {
		r := rec[i]
		if r == i {
			he[i], hl[i] = float64(h[i]), float64(h[i])
			continue
		}
		d := cell
		if codes[i]&1 == 1 {
			d = float64(float32(cell * math.Sqrt2))
		}
		f := kdt * math.Sqrt(float64(area[i])*cell*cell) / d
		he[i] = (float64(h[i]) + f*he[r]) / (1 + f)
		hl[i] = min(he[i], hl[r]+tan*d)
	}
	return area, he, hl
}

func TestForests(t *testing.T) {
	const w, h = 61, 47 // odd sizes: partial work groups, rows of odd length
	rng := rand.New(rand.NewPCG(3, 5))
	hs := make([]float32, w*h)
	for i := range hs {
		hs[i] = float32(1000 * rng.Float64())
	}
	p := engine.DefaultParams()
	p.K = 1e-5 // strong erosion: every factor F matters
	// No fixed cells (outlets hold their height whatever their code): the
	// roots are the forests' own, held as pits are.
	p.Edges = flow.Edges{North: flow.Closed, South: flow.Natural, East: flow.Closed, West: flow.Closed}
	e, err := New(device(t), grid.Config{W: w, H: h, Cell: 100, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	tan, _ := p.Talus.Limiter(3, 3, 100).ConstantTan()
	for _, tc := range []struct {
		name  string
		codes []uint32
	}{{"chain", chain(w, h)}, {"comb", comb(w, h)}, {"star", star(w, h)}} {
		t.Run(tc.name, func(t *testing.T) {
			area, he, hl, err := e.runForest(tc.codes, hs)
			if err != nil {
				t.Fatal(err)
			}
			wa, whe, whl := walk(tc.codes, hs, w, 100, p.K*p.Dt, tan)
			for i := range area {
				if area[i] != wa[i] {
					t.Fatalf("area of cell %d: got %d; want %d cells", i, area[i], wa[i])
				}
			}
			// float32 maps composed along chains of up to n links: within
			// a few float32 ulps of the heights' scale (1000 m).
			for i := range he {
				if d := math.Abs(float64(he[i]) - whe[i]); d > 2e-3 {
					t.Fatalf("eroded height of cell %d: got %g; want %g", i, he[i], whe[i])
				}
				if d := math.Abs(float64(hl[i]) - whl[i]); d > 2e-3 {
					t.Fatalf("limited height of cell %d: got %g; want %g", i, hl[i], whl[i])
				}
			}
			t.Logf("rounds %v", e.rounds)
		})
	}
}

// TestDiffusionMatchesCPU runs one hillslope step (both sweeps) on random
// heights against sim/hillslope's Diffuser, for r = κ·dt/cell² from 0.1
// to 50 and outlets on two edges (fixed) and free edges on the others:
// equal but for float32 rounding of the elimination's intermediates (the
// CPU keeps them in float64).
func TestDiffusionMatchesCPU(t *testing.T) {
	// Lines shorter than a work group (one cell a chunk, empty chunks)
	// and longer (several cells a chunk, a short last one).
	for _, sz := range [][2]int{{53, 37}, {601, 5}, {5, 601}} {
		w, h := sz[0], sz[1]
		rng := rand.New(rand.NewPCG(9, 1))
		hs := make([]float32, w*h)
		for i := range hs {
			hs[i] = float32(500 * rng.Float64())
		}
		rs := []float64{0.1, 2, 50}
		if w*h > 3000 {
			rs = rs[1:2]
		}
		for _, r := range rs {
			p := engine.DefaultParams()
			p.Edges = flow.Edges{North: flow.Outlet, South: flow.Closed, East: flow.Natural, West: flow.Outlet}
			p.Kappa = r * 100 * 100 / p.Dt
			e, err := New(device(t), grid.Config{W: w, H: h, Cell: 100, Init: hs, Params: p})
			if err != nil {
				t.Fatal(err)
			}
			if err := e.dev.Do(e.diffuse); err != nil {
				t.Fatal(err)
			}
			got := e.readFloats(e.hb)
			e.Close()
			want := append([]float32(nil), hs...)
			hillslope.NewDiffuser(w, h).Step(want, 100, p.Kappa, p.Dt, hillslope.Edges{North: true, West: true})
			for i := range want {
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-4 {
					t.Fatalf("%d×%d, r = %g: cell %d: got %g; want %g", w, h, r, i, got[i], want[i])
				}
			}
		}
	}
}
