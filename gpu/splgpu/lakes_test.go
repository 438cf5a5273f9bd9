package splgpu

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortRoots: the pits' roots sorted by the bitmap (many pits) and by
// comparisons (few) come out as slices.Sort puts them.
func TestSortRoots(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct{ n, m int }{{4096, 10}, {4096, 63}, {4096, 64}, {4096, 1000}, {4096, 4096}, {1000, 17}, {130, 130}} {
		roots := make([]int32, 0, c.m)
		for _, i := range rng.Perm(c.n)[:c.m] {
			roots = append(roots, int32(i))
		}
		want := slices.Sorted(slices.Values(roots))
		sortRoots(roots, c.n)
		if !slices.Equal(roots, want) {
			t.Errorf("%d roots of %d cells: sorted %v…, want %v…", c.m, c.n, roots[:min(8, c.m)], want[:min(8, c.m)])
		}
	}
}
