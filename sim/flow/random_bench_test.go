package flow

import (
	"math"
	"math/rand/v2"
	"testing"

	"orogen/sim/simtest"
)

// BenchmarkRandomize times Randomize at 1024² on a rough tilted terrain
// whose cells are a tenth channels, after a first call, so that most
// hillslope cells keep their last choice, as in a settling run.
func BenchmarkRandomize(b *testing.B) {
	const n = 1024
	rnd := rand.New(rand.NewPCG(3, 4))
	hs := make([]float32, n*n)
	area := make([]float64, n*n)
	for y := range n {
		for x := range n {
			i := y*n + x
			hs[i] = float32(10*float64(x)+5*float64(y)) + 30*rnd.Float32()
			area[i] = 100 * math.Exp(3*rnd.NormFloat64())
		}
	}
	g := NewGraph(n, n, 10, Edges{North: Outlet, South: Outlet, East: Outlet, West: Outlet}, 0)
	g.Route(hs)
	g.Randomize(hs, area, 1e4, 1)
	b.ReportAllocs()
	b.ResetTimer()
	defer simtest.ReportCPU(b)()
	for range b.N {
		g.Randomize(hs, area, 1e4, 1)
	}
}
