package flow

import (
	"orogen/sim/simtest"
	"testing"
)

func BenchmarkProbeRoute(b *testing.B) {
	n := 1024
	d := simtest.Rough(n, n, 500, 3)
	g := NewGraph(n, n, 50, Edges{}, 0)
	g.Update(d)
	b.ResetTimer()
	for range b.N {
		g.Route(d)
	}
}
