package hillslope

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"orogen/sim/parallel"
)

// solveColumnsRef is the column solver before the fast path
// (Creeper.solveColumns), kept as the reference its tests compare with:
// it solves the y systems of columns [x0, x1) of the w×n grid h, fac the
// south faces' factors, going down the rows; s holds 2·H·(x1−x0) float64 of scratch at least.
func solveColumnsRef(h, fac []float32, w, n int, s []float64, x0, x1 int, r float64, fixStart, fixEnd bool) {
	k := x1 - x0
	cp, dp := s[:n*k], s[n*k:2*n*k]
	for y := range n {
		free := !(y == 0 && fixStart) && !(y == n-1 && fixEnd)
		cur, src := y*k, h[y*w+x0:y*w+x1]
		var fn, fs []float32 // the factors of the north and south faces
		if y > 0 {
			fn = fac[(y-1)*w+x0 : (y-1)*w+x1]
		}
		if y < n-1 {
			fs = fac[y*w+x0 : y*w+x1]
		}
		for j, v := range src {
			a, b, cc := 0.0, 1.0, 0.0
			if free {
				if fn != nil {
					a = -r * float64(fn[j])
					b -= a
				}
				if fs != nil {
					cc = -r * float64(fs[j])
					b -= cc
				}
			}
			var pc, pd float64
			if y > 0 {
				pc, pd = cp[cur-k+j], dp[cur-k+j]
			}
			inv := 1 / (b - a*pc)
			cp[cur+j] = cc * inv
			dp[cur+j] = (float64(v) - a*pd) * inv
		}
	}
	for y := n - 1; y >= 0; y-- {
		cur := dp[y*k : y*k+k]
		write := !(y == 0 && fixStart) && !(y == n-1 && fixEnd)
		dst := h[y*w+x0 : y*w+x1]
		switch {
		case y < n-1 && write:
			c, nxt := cp[y*k:y*k+k], dp[y*k+k:y*k+2*k]
			for j := range cur {
				v := cur[j] - c[j]*nxt[j]
				cur[j] = v
				dst[j] = float32(v)
			}
		case y < n-1:
			c, nxt := cp[y*k:y*k+k], dp[y*k+k:y*k+2*k]
			for j := range cur {
				cur[j] -= c[j] * nxt[j]
			}
		case write:
			for j, v := range cur {
				dst[j] = float32(v)
			}
		}
	}
}

// factorsRef is factors before its fast path, kept as the reference
// its test compares with: it moves c.fx[i] (the face between cell i and its east
// neighbour) and c.fy[i] (the face between cell i and its south
// neighbour) towards the factors f of the slopes of h, by k/n at the
// n-th Step since NewCreeper or Reset, k Steps after the last update
// (their mean, the slopes of an update standing for the k Steps since
// the one before). A face's slope has the difference
// across it as one component and the mean of the two cells' central
// differences (one-sided on the edges) along it as the other.
func (c *Creeper) factorsRef(h []float32, cell, sc float64) {
	w, ht := c.w, c.h
	inv := 1 / cell
	isc2 := 1 / (sc * sc)
	omega := float32(float64(c.n-c.last) / float64(c.n))
	if c.n == 1 {
		clear(c.fx)
		clear(c.fy)
	}
	// A face's factor is 1/(1 − min(q², cap²)), q = S/S_c, computed in
	// float32 (what it is stored as), and averaged: f̄ + ω·(f − f̄).
	isc2f, cap2 := float32(isc2), float32(MaxCreepRatio*MaxCreepRatio)
	// gradX sets g to the central differences along x of row r.
	gradX := func(g []float64, r []float32) {
		if w == 1 {
			g[0] = 0
			return
		}
		g[0] = (float64(r[1]) - float64(r[0])) * inv
		g[w-1] = (float64(r[w-1]) - float64(r[w-2])) * inv
		for x := 1; x < w-1; x++ {
			g[x] = (float64(r[x+1]) - float64(r[x-1])) * 0.5 * inv
		}
	}
	parallel.Blocks(ht, rowBlock, func(_, lo, hi int) {
		sb := make([]float64, 3*w)
		s := &sb
		gy, g0, g1 := (*s)[:w], (*s)[w:2*w], (*s)[2*w:3*w]
		gradX(g0, h[lo*w:lo*w+w])
		for y := lo; y < hi; y++ {
			o := y * w
			row := h[o : o+w]
			// gy: central differences along y of row y.
			yn, ys := max(y-1, 0), min(y+1, ht-1)
			if ys == yn {
				clear(gy)
			} else {
				sn, ss := h[yn*w:yn*w+w], h[ys*w:ys*w+w]
				k := inv / float64(ys-yn)
				for x := range gy {
					gy[x] = (float64(ss[x]) - float64(sn[x])) * k
				}
			}
			fx := c.fx[o : o+w]
			for x := 0; x < w-1; x++ {
				a := float32((float64(row[x+1]) - float64(row[x])) * inv)
				b := float32(0.5 * (gy[x] + gy[x+1]))
				v := 1 / (1 - min((a*a+b*b)*isc2f, cap2))
				fx[x] += omega * (v - fx[x])
			}
			if y == ht-1 {
				continue
			}
			// g0, g1: central differences along x of rows y and y+1.
			below := h[o+w : o+2*w]
			gradX(g1, below)
			fy := c.fy[o : o+w]
			for x := range row {
				a := float32((float64(below[x]) - float64(row[x])) * inv)
				b := float32(0.5 * (g0[x] + g1[x]))
				v := 1 / (1 - min((a*a+b*b)*isc2f, cap2))
				fy[x] += omega * (v - fy[x])
			}
			g0, g1 = g1, g0
		}
	})
}

// The column solver's fast path gives the reference's bits for every
// combination of fixed ends, on lines of 1, 2, 3 and 37 cells and blocks
// of 1 to 9 columns, with factors between 1 and 5.3 (the cap) and r from
// 0.01 to 10⁴.
func TestCreepColumnsMatchReference(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 9))
	for _, n := range []int{1, 2, 3, 37} {
		for _, w := range []int{1, 4, 9} {
			f := terrain(w, n, uint64(n*w))
			c := NewCreeper(w, n)
			for i := range c.fy {
				c.fy[i] = float32(1 + 4.3*rnd.Float64())
			}
			for _, e := range allEdges() {
				for _, r := range []float64{0.01, 1, 1e4} {
					x0, x1 := 0, w
					if w > 2 {
						x0, x1 = 1, w-1
					}
					got, want := slices.Clone(f), slices.Clone(f)
					s, sr := make([]float64, (2*n+1)*w), make([]float64, 2*n*w)
					c.solveColumns(got, s, x0, x1, r, e.North, e.South)
					solveColumnsRef(want, c.fy, w, n, sr, x0, x1, r, e.North, e.South)
					// The float64 solution too, which float32 heights
					// would hide: c' as the reference left it, and x
					// (which the reference leaves over d') from c', d'.
					k := x1 - x0
					x := make([]float64, k)
					for y := n - 1; y >= 0; y-- {
						for j := range k {
							i := y*k + j
							if y == n-1 {
								x[j] = s[n*k+i]
							} else {
								x[j] = s[n*k+i] - s[i]*x[j]
							}
							if math.Float64bits(s[i]) != math.Float64bits(sr[i]) || math.Float64bits(x[j]) != math.Float64bits(sr[n*k+i]) {
								t.Fatalf("%d×%d %+v r %g: row %d column %d: c' %v, x %v; want %v, %v", w, n, e, r, y, j, s[i], x[j], sr[i], sr[n*k+i])
							}
						}
					}
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
							t.Fatalf("%d×%d %+v r %g: cell %d got %v; want %v", w, n, e, r, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// The factors' fast path gives the reference's bits over three updates
// (the first sets the factors, the next two average), on grids of one
// row, one column and several blocks of rows, for slopes from flat to
// beyond the cap (S_c = 0.05 on heights that jump by up to 1 000 m a
// cell), with one worker and three.
func TestCreepFactorsMatchReference(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, sz := range [][2]int{{1, 1}, {7, 1}, {1, 9}, {2, 5}, {3, 2}, {41, 23}} {
		for _, procs := range []int{1, 3} {
			runtime.GOMAXPROCS(procs)
			w, n := sz[0], sz[1]
			f := terrain(w, n, 11)
			got, want := NewCreeper(w, n), NewCreeper(w, n)
			for step := 1; step <= 3; step++ {
				got.n, want.n = step, step
				got.last, want.last = step-1, step-1
				for _, sc := range []float64{0.05, 0.6, 50} {
					got.factors(f, 10, sc)
					want.factorsRef(f, 10, sc)
				}
				for i := range f {
					if math.Float32bits(got.fx[i]) != math.Float32bits(want.fx[i]) || math.Float32bits(got.fy[i]) != math.Float32bits(want.fy[i]) {
						t.Fatalf("%d×%d GOMAXPROCS %d step %d: cell %d factors %v, %v; want %v, %v", w, n, procs, step, i, got.fx[i], got.fy[i], want.fx[i], want.fy[i])
					}
				}
				f[(step*7)%len(f)] += 900 // a new slope for the next update
			}
		}
	}
}

// The creep's steps give the same bits for any number of workers, on
// grids large enough for several (one per minCells cells), with widths
// and heights that leave partial blocks, free and fixed edges. With
// -short (the race run) one grid of two workers' cells and one step.
func TestCreepDeterministicAcrossWorkers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	type grid struct {
		w, h int
		e    Edges
	}
	cases, procsList, dts := []grid{{397, 341, Edges{North: true, East: true}}, {600, 400, Edges{}}}, []int{1, 2, 3}, []float64{1e3, 5e4}
	if testing.Short() {
		cases, procsList, dts = cases[:1], procsList[:2], dts[1:]
	}
	for _, tc := range cases {
		var want []float32
		for _, procs := range procsList {
			runtime.GOMAXPROCS(procs)
			f := terrain(tc.w, tc.h, 5)
			c := NewCreeper(tc.w, tc.h)
			for _, dt := range dts {
				c.Step(f, 10, 0.05, 0.6, dt, tc.e)
			}
			if want == nil {
				want = f
				continue
			}
			for i := range f {
				if math.Float32bits(f[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%d×%d %+v GOMAXPROCS %d: cell %d got %v; want %v as with 1", tc.w, tc.h, tc.e, procs, i, f[i], want[i])
				}
			}
		}
	}
}

// A Step after the first allocates nothing: the scratch and the helper
// goroutines are the Creeper's.
func TestCreepStepAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("allocations are counted in the full run; the race run (-short) has the goroutines' test")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	f := terrain(370, 360, 4) // two workers' worth of cells
	c := NewCreeper(370, 360)
	c.Step(f, 10, 0.05, 0.6, 1e3, Edges{})
	if n := testing.AllocsPerRun(3, func() { c.Step(f, 10, 0.05, 0.6, 1e3, Edges{North: true}) }); n != 0 {
		t.Errorf("got %v allocations per step; want 0", n)
	}
}
