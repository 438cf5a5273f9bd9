package passq

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPopsInOrder pushes random items (many equal heights, so the edge
// number tie-break matters) interleaved with pops, and checks that every
// pop returns the least item left, as a sorted reference says.
func TestPopsInOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	var q Queue
	var ref []Item
	for i := range 20000 {
		it := Item{W: float32(r.IntN(50)), E: int32(i)}
		q.Push(it)
		ref = append(ref, it)
		if r.IntN(3) == 0 {
			slices.SortFunc(ref, func(a, b Item) int {
				if a.Less(b) {
					return -1
				}
				if b.Less(a) {
					return 1
				}
				return 0
			})
			got, want := q.Pop(), ref[0]
			ref = ref[1:]
			if got != want {
				t.Fatalf("pop %d: got %+v; want %+v", i, got, want)
			}
		}
	}
	for len(q) > 0 {
		slices.SortFunc(ref, func(a, b Item) int {
			if a.Less(b) {
				return -1
			}
			return 1
		})
		if got := q.Pop(); got != ref[0] {
			t.Fatalf("draining: got %+v; want %+v", got, ref[0])
		}
		ref = ref[1:]
	}
}
