package graph

import (
	"math/rand/v2"
	"testing"
)

// TestSortSamples checks that SortSamples permutes the samples (every
// triple kept, none lost) into Z-curve order of the cells, ties in their
// first order, against a bit-by-bit interleaving.
func TestSortSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, cell = 2000, 7.0
	x, y, out := make([]float64, n), make([]float64, n), make([]bool, n)
	seen := map[[2]float64]bool{}
	for i := range x {
		x[i], y[i], out[i] = rng.Float64()*900, rng.Float64()*500, rng.IntN(5) == 0
		seen[[2]float64{x[i], y[i]}] = out[i]
	}
	x[1], y[1] = x[0], y[0] // a tie keeps its order
	seen[[2]float64{x[1], y[1]}] = out[1]
	out[0] = out[1]
	SortSamples(x, y, out, cell)
	slow := func(i int) uint64 {
		cx, cy := uint64(x[i]/cell), uint64(y[i]/cell)
		var z uint64
		for b := range 32 {
			z |= (cx>>b&1)<<(2*b) | (cy>>b&1)<<(2*b+1)
		}
		return z
	}
	for i := range x {
		if o, ok := seen[[2]float64{x[i], y[i]}]; !ok || o != out[i] {
			t.Fatalf("sample %d (%g, %g, %v) was not given", i, x[i], y[i], out[i])
		}
		if i > 0 && slow(i-1) > slow(i) {
			t.Fatalf("samples %d and %d out of Z order", i-1, i)
		}
	}
}
