package delaunay

import (
	"errors"
	"math/rand/v2"
	"testing"
)

// TestSmallIntegerSets triangulates many small sets on a coarse integer
// lattice, where collinear and cocircular subsets are the rule.
func TestSmallIntegerSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for k := 0; k < 20000; k++ {
		n := 3 + rng.IntN(20)
		pts := make([]Point, n)
		for i, c := range rng.Perm(36)[:n] {
			pts[i] = Point{float64(c % 6), float64(c / 6)}
		}
		tr, err := Triangulate(pts)
		if err != nil {
			if errors.Is(err, ErrDuplicate) || errors.Is(err, ErrCollinear) {
				continue
			}
			t.Fatalf("case %d %v: got error %v; want nil", k, pts, err)
		}
		if err := validate(tr); err != nil {
			t.Fatalf("case %d %v: %v", k, pts, err)
		}
		if err := checkDelaunay(tr, true); err != nil {
			t.Fatalf("case %d %v: %v", k, pts, err)
		}
	}
}
