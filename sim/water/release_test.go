package water

import "testing"

// TestReleaseScratch: a model whose solver scratch is let go after every
// step gives, step by step, the bytes one that keeps it gives (lakes,
// stored water, depths, account) on a 64² noisy flat with hundreds of
// pits.
func TestReleaseScratch(t *testing.T) {
	const n = 64
	in := testRoute(n, n, 10, flatNoise(n, n, 3))
	keep, _ := New(Params{Rain: 1, Evap: 0.05})
	drop, _ := New(Params{Rain: 1, Evap: 0.05})
	for step := range 4 {
		keep.Step(in, 5)
		drop.Step(in, 5)
		drop.ReleaseScratch()
		if string(digest(drop, in)) != string(digest(keep, in)) {
			t.Fatalf("step %d: results after ReleaseScratch differ", step)
		}
	}
}
