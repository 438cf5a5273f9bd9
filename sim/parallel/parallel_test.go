package parallel

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
)

func TestBlocksCoverEachIndexOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		for _, n := range []int{0, 1, 7, 64, 1000} {
			seen := make([]int32, n)
			var calls atomic.Int32
			Blocks(n, 16, func(b, lo, hi int) {
				calls.Add(1)
				if lo != b*16 || hi != min(n, lo+16) {
					t.Errorf("block %d got [%d, %d)", b, lo, hi)
				}
				for i := lo; i < hi; i++ {
					atomic.AddInt32(&seen[i], 1)
				}
			})
			if int(calls.Load()) != NumBlocks(n, 16) {
				t.Errorf("n=%d: %d calls; want %d", n, calls.Load(), NumBlocks(n, 16))
			}
			for i, s := range seen {
				if s != 1 {
					t.Fatalf("procs %d n %d: index %d seen %d times", procs, n, i, s)
				}
			}
		}
	}
}

func TestSplitBalancesAndCovers(t *testing.T) {
	w := []int32{5, 1, 1, 1, 1, 1, 10, 1, 1, 1, 1, 1, 1, 1}
	for workers := 1; workers <= 5; workers++ {
		b := Split(w, workers)
		if b[0] != 0 || b[len(b)-1] != len(w) || len(b) != workers+1 {
			t.Fatalf("workers %d: bounds %v", workers, b)
		}
		if !slices.IsSorted(b) {
			t.Fatalf("workers %d: bounds %v not sorted", workers, b)
		}
	}
	// Two workers on equal weights split in the middle.
	if b := Split([]int32{1, 1, 1, 1}, 2); !slices.Equal(b, []int{0, 2, 4}) {
		t.Fatalf("Split of 4 equal weights in 2 = %v; want [0 2 4]", b)
	}
	if b := Split(nil, 3); !slices.Equal(b, []int{0, 0}) {
		t.Fatalf("Split(nil) = %v; want [0 0]", b)
	}
}

func TestDoRunsEveryWorker(t *testing.T) {
	got := make([]bool, 5)
	Do(5, func(w int) { got[w] = true })
	for w, ok := range got {
		if !ok {
			t.Fatalf("worker %d did not run", w)
		}
	}
}
