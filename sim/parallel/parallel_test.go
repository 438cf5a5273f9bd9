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

func TestLargestCoversEachChunkOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	bounds := []int32{0, 5, 5, 40, 41, 90, 100}
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		seen := make([]int32, len(bounds)-1)
		var order []int
		Largest(bounds, func(c int) {
			atomic.AddInt32(&seen[c], 1)
			if procs == 1 {
				order = append(order, c)
			}
		})
		for c, s := range seen {
			if s != 1 {
				t.Fatalf("GOMAXPROCS %d: chunk %d run %d times", procs, c, s)
			}
		}
		if procs == 1 && !slices.Equal(order, []int{0, 1, 2, 3, 4, 5}) {
			t.Fatalf("one worker ran the chunks in order %v; want index order", order)
		}
	}
	Largest(nil, func(int) { t.Fatal("no chunk to run") })
	if Chunks(1) != 1 || Chunks(3) != 3*Fine {
		t.Fatalf("Chunks(1) = %d, Chunks(3) = %d", Chunks(1), Chunks(3))
	}
}
