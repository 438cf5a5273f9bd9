package worker

import (
	"math"
	"runtime"
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

// TestHeightStats: the mean of the blocked sums matches a plain float64
// sum to 1e-12 relative (the partial sums round differently; float64 sums
// of float32 heights differ by far less than that), the maximum is
// maxHeight.of's, and both are the same bytes for GOMAXPROCS 1 and 4.
func TestHeightStats(t *testing.T) {
	var m maxHeight
	for _, n := range []int{1, 5, maxBlock + 3, 3*maxBlock + 7} {
		h := simtest.Noisy(n, 1, 100, uint64(n))
		var sum float64
		for _, v := range h {
			sum += float64(v)
		}
		want := sum / float64(n)
		prev := runtime.GOMAXPROCS(1)
		mx1, mean1 := m.stats(h)
		runtime.GOMAXPROCS(4)
		mx4, mean4 := m.stats(h)
		runtime.GOMAXPROCS(prev)
		if mx1 != float64(slices.Max(h)) || math.Abs(mean1-want) > 1e-12*math.Abs(want) {
			t.Errorf("n %d: got max %g mean %g; want %g %g", n, mx1, mean1, slices.Max(h), want)
		}
		if mx1 != mx4 || mean1 != mean4 {
			t.Errorf("n %d: GOMAXPROCS 1 gives %g %g, 4 gives %g %g", n, mx1, mean1, mx4, mean4)
		}
	}
	if mx, mean := m.stats(nil); mx != 0 || mean != 0 {
		t.Errorf("no heights: got %g %g; want 0 0", mx, mean)
	}
}
