package hillslope

import (
	"fmt"
	"testing"

	"orogen/sim/simtest"
)

// BenchmarkCreepParts times the parts of a creep step at 1024² (r = 10,
// S_c = 0.5 on a rough terrain, the factors of a few steps): the x
// sweep, the y sweep and the factors' update (every creepEvery-th step
// once the Creeper has made creepEveryAfter steps).
func BenchmarkCreepParts(b *testing.B) {
	const n = 1024
	f := terrain(n, n, 1)
	c := NewCreeper(n, n)
	for range 3 {
		c.Step(f, 30, 0.09, 0.5, 1e5, Edges{})
	}
	r := 0.09 * 1e5 / (30 * 30)
	for _, part := range []string{"x", "y", "factors"} {
		b.Run(fmt.Sprint(part), func(b *testing.B) {
			b.ReportAllocs()
			defer simtest.ReportCPU(b)()
			for range b.N {
				switch part {
				case "x":
					c.solve(f, r, Edges{}, true)
				case "y":
					c.solve(f, r, Edges{}, false)
				default:
					c.factors(f, 30, 0.5)
				}
			}
		})
	}
}
