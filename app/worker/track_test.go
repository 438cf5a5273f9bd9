package worker

import (
	"slices"
	"testing"

	"orogen/sim/simtest"
)

// TestHistoryBounded adds many samples and checks the bound, the newest
// sample, the order, and that published views never change.
func TestHistoryBounded(t *testing.T) {
	var h history
	var views [][]Sample
	var copies [][]Sample
	for i := 1; i <= 3*MaxHistory+17; i++ {
		h.add(Sample{Step: i, MaxDhM: float64(i)})
		if i%1000 == 0 {
			v := h.view()
			views = append(views, v)
			copies = append(copies, slices.Clone(v))
		}
		v := h.view()
		if len(v) > MaxHistory || v[len(v)-1].Step != i {
			t.Fatalf("after %d samples: %d kept, newest step %d; want <= %d, %d", i, len(v), v[len(v)-1].Step, MaxHistory, i)
		}
	}
	v := h.view()
	for k := 1; k < len(v); k++ {
		if v[k].Step <= v[k-1].Step {
			t.Fatalf("history steps %d then %d; want increasing", v[k-1].Step, v[k].Step)
		}
	}
	// Thinning doubles the spacing of the older samples each time, so the
	// oldest kept sample stays within the first percent of this run.
	if total := 3*MaxHistory + 17; v[0].Step*100 > total {
		t.Fatalf("oldest kept step %d of %d; want within the first 1%%", v[0].Step, total)
	}
	for k := range views {
		if !slices.Equal(views[k], copies[k]) {
			t.Fatalf("view %d changed after publication", k)
		}
	}
}

// TestMaxHeight compares the blocked, unrolled search with a plain loop on
// sizes that leave partial blocks and partial groups of four.
func TestMaxHeight(t *testing.T) {
	var m maxHeight
	for _, n := range []int{1, 3, 5, maxBlock - 1, maxBlock + 3, 3*maxBlock + 7} {
		h := simtest.Noisy(n, 1, 100, uint64(n))
		for _, at := range []int{0, n / 2, n - 1} {
			h := slices.Clone(h)
			h[at] = 1000
			if got := m.of(h); got != 1000 {
				t.Fatalf("n %d, peak at %d: got %g; want 1000", n, at, got)
			}
		}
		want := float64(slices.Max(h))
		if got := m.of(h); got != want {
			t.Fatalf("n %d: got %g; want %g", n, got, want)
		}
	}
}
