package worker

import (
	"math"
	"slices"
	"testing"
	"time"

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

// TestMeter feeds the rate meter made-up step times.
func TestMeter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	var m meter
	if got := m.perSec(); got != 0 {
		t.Fatalf("before any step: %g steps/s; want 0", got)
	}
	// 10 ms steps for 3 s: 100 steps/s over the last second.
	m.begin(at(0))
	for k := 1; k <= 300; k++ {
		m.begin(at(10*k - 10)) // no-op inside a streak
		m.add(at(10 * k))
	}
	if got := m.perSec(); math.Abs(got-100) > 1e-9 {
		t.Fatalf("10 ms steps: %g steps/s; want 100", got)
	}
	if live := len(m.ends) - m.head; live > 102 {
		t.Fatalf("%d step times kept; want about one second's worth (<= 102)", live)
	}
	// Then 50 ms steps: after a second, 20 steps/s.
	for k := 1; k <= 20; k++ {
		m.add(at(3000 + 50*k))
	}
	if got := m.perSec(); math.Abs(got-20) > 1e-9 {
		t.Fatalf("50 ms steps: %g steps/s; want 20", got)
	}
	// Steps longer than the window: the rate of the last one.
	for k := 1; k <= 3; k++ {
		m.add(at(4000 + 2500*k))
	}
	if got := m.perSec(); math.Abs(got-0.4) > 1e-9 {
		t.Fatalf("2.5 s steps: %g steps/s; want 0.4", got)
	}
	// A pause, then one 40 ms step: counted from the new start.
	m.stop()
	m.begin(at(20000))
	m.add(at(20040))
	if got := m.perSec(); math.Abs(got-25) > 1e-9 {
		t.Fatalf("first step after a pause: %g steps/s; want 25", got)
	}
}
