package splgpu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"orogen/gpu"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/grid"
	"orogen/sim/hillslope"
	"orogen/sim/spl"
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

// walk is the plain-Go twin: area by walking every cell's receivers,
// the eroded heights by sim/spl's Erode on a receivers-first order (n = 1
// and n ≠ 1 alike), the limited ones by the talus rule along that order.
func walk(codes []uint32, h []float32, w int, cell float64, p spl.Params, tan float64) (area []uint32, he, hl []float64) {
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
	// Receivers before donors.
	byDepth := make([][]int, n)
	for i, d := range depth {
		byDepth[d] = append(byDepth[d], i)
	}
	var order []int
	for _, l := range byDepth {
		order = append(order, l...)
	}
	pos := make([]int32, n)
	for k, i := range order {
		pos[i] = int32(k)
	}
	area = make([]uint32, n)
	for k := n - 1; k >= 0; k-- {
		i := order[k]
		area[i]++
		if rec[i] != i {
			area[rec[i]] += area[i]
		}
	}
	dist := func(i int) float64 {
		switch {
		case rec[i] == i:
			return 0
		case codes[i]&1 == 1:
			return float64(float32(cell * math.Sqrt2))
		}
		return float64(float32(cell))
	}
	hs, rp, ds, as := make([]float32, n), make([]int32, n), make([]float32, n), make([]float64, n)
	for k, i := range order {
		hs[k], rp[k], ds[k], as[k] = h[i], pos[rec[i]], float32(dist(i)), float64(area[i])*cell*cell
	}
	spl.Erode(hs, rp, ds, as, nil, 0, n, p)
	he, hl = make([]float64, n), make([]float64, n)
	for _, i := range order {
		he[i] = float64(hs[pos[i]])
		hl[i] = he[i]
		if r := rec[i]; r != i {
			hl[i] = min(he[i], hl[r]+tan*dist(i))
		}
	}
	return area, he, hl
}

// downhill returns heights of 0.5 m a link above the root of each cell's
// tree and up to 3 m of noise.
func downhill(codes []uint32, w int, rng *rand.Rand) []float32 {
	hs := make([]float32, len(codes))
	for i := range hs {
		d := 0
		for j := i; codes[j] < 8; j += dxs[codes[j]] + dys[codes[j]]*w {
			d++
		}
		hs[i] = float32(0.5*float64(d) + 3*rng.Float64())
	}
	return hs
}

func TestForests(t *testing.T) {
	const w, h = 61, 47 // odd sizes: partial work groups, rows of odd length
	rng := rand.New(rand.NewPCG(3, 5))
	hs := make([]float32, w*h)
	for i := range hs {
		hs[i] = float32(1000 * rng.Float64())
	}
	for _, n := range []float64{1, 1.5, 0.7} {
		p := engine.DefaultParams()
		p.K, p.N = 1e-5, n // strong erosion: every factor F matters
		// No fixed cells (outlets hold their height whatever their code):
		// the roots are the forests' own, held as pits are.
		p.Edges = flow.Edges{North: flow.Closed, South: flow.Natural, East: flow.Closed, West: flow.Closed}
		e, err := New(device(t), grid.Config{W: w, H: h, Cell: 100, Params: p})
		if err != nil {
			t.Fatal(err)
		}
		tan, _ := p.Talus.Limiter(3, 3, 100).ConstantTan()
		for _, tc := range []struct {
			name  string
			codes []uint32
		}{{"chain", chain(w, h)}, {"comb", comb(w, h)}, {"star", star(w, h)}} {
			t.Run(fmt.Sprintf("%s/n=%g", tc.name, n), func(t *testing.T) {
				hs := hs
				if n != 1 {
					// Newton's steps over the whole forest converge where
					// receivers lie mostly downhill, as routing makes them
					// (lakes aside): 0.5 m a link and 3 m of noise.
					hs = downhill(tc.codes, w, rng)
				}
				area, he, hl, err := e.runForest(tc.codes, hs)
				if err != nil {
					t.Fatal(err)
				}
				wa, whe, whl := walk(tc.codes, hs, w, 100, spl.Params{K: p.K, M: p.M, N: n, Dt: p.Dt}, tan)
				for i := range area {
					if area[i] != wa[i] {
						t.Fatalf("area of cell %d: got %d; want %d cells", i, area[i], wa[i])
					}
				}
				// float32 maps composed along chains of up to n links: within
				// a few float32 ulps of the heights' scale (1000 m); n ≠ 1's
				// Newton steps stop at a residual of 4e-6 of the height.
				tol := 2e-3
				if n != 1 {
					tol = 1e-2
				}
				for i := range he {
					if d := math.Abs(float64(he[i]) - whe[i]); d > tol {
						t.Fatalf("eroded height of cell %d: got %g; want %g", i, he[i], whe[i])
					}
					if d := math.Abs(float64(hl[i]) - whl[i]); d > tol {
						t.Fatalf("limited height of cell %d: got %g; want %g", i, hl[i], whl[i])
					}
				}
				t.Logf("rounds %v, Newton steps %d", e.rounds, e.NewtonSteps)
			})
		}
		e.Close()
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
			if err := e.dev.Do(func(c gpu.Context) error { return e.diffuse(c, false, false, nil) }); err != nil {
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
