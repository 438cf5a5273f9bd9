package hillslope

import (
	"math"
	"runtime"
	"testing"
)

// One Creeper stepped at 3, then 1, then 2 workers (y blocks of 160,
// 512 and 256 columns: its scratch grows when the workers fall) gives
// the bits of a Creeper stepped at one worker throughout.
func TestCreepWorkersChangeBetweenSteps(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const w, h = 530, 390 // three workers' cells; partial blocks
	want := terrain(w, h, 6)
	got := append([]float32(nil), want...)
	ref, c := NewCreeper(w, h), NewCreeper(w, h)
	for _, procs := range []int{3, 1, 2} {
		runtime.GOMAXPROCS(1)
		ref.Step(want, 10, 0.05, 0.6, 5e4, Edges{South: true})
		runtime.GOMAXPROCS(procs)
		if b := c.yBlock(); b != creepColBlock*(creepColWorkers/procs) {
			t.Fatalf("GOMAXPROCS %d: y blocks of %d columns; want %d", procs, b, creepColBlock*(creepColWorkers/procs))
		}
		c.Step(got, 10, 0.05, 0.6, 5e4, Edges{South: true})
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("GOMAXPROCS %d: cell %d got %v; want %v as with one worker", procs, i, got[i], want[i])
			}
		}
	}
}
