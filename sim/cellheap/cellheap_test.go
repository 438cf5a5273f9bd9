package cellheap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrder pushes random cells with heights drawn from a few values (so
// that ties are common), popping some on the way, and checks every pop
// against a sorted reference: the lowest height, then the lowest index.
func TestOrder(t *testing.T) {
	type cell struct {
		i int32
		h float64
	}
	cmp := func(a, b cell) int {
		if a.h != b.h {
			if a.h < b.h {
				return -1
			}
			return 1
		}
		return int(a.i - b.i)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var q Heap[float64]
	var ref []cell
	for step := range 5000 {
		if len(ref) == 0 || r.IntN(3) > 0 {
			c := cell{int32(r.IntN(1000)), float64(r.IntN(20))}
			q.Push(c.i, c.h)
			ref = append(ref, c)
			continue
		}
		slices.SortFunc(ref, cmp)
		want := ref[0]
		ref = ref[1:]
		i, h := q.Pop()
		if i != want.i || h != want.h {
			t.Fatalf("step %d: popped (%d, %g); want (%d, %g)", step, i, h, want.i, want.h)
		}
		if q.Len() != len(ref) {
			t.Fatalf("step %d: Len %d; want %d", step, q.Len(), len(ref))
		}
	}
	q.Reset()
	if q.Len() != 0 {
		t.Errorf("Len after Reset = %d", q.Len())
	}
	var f Heap[float32]
	f.Push(3, 1.5)
	f.Push(1, 1.5)
	f.Push(2, 0.5)
	for _, want := range []int32{2, 1, 3} {
		if i, _ := f.Pop(); i != want {
			t.Errorf("float32 heap popped %d; want %d", i, want)
		}
	}
}
