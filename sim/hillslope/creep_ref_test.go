package hillslope

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
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
					s := make([]float64, (2*n+1)*w)
					c.solveColumns(got, s, x0, x1, r, e.North, e.South)
					solveColumnsRef(want, c.fy, w, n, make([]float64, 2*n*w), x0, x1, r, e.North, e.South)
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
