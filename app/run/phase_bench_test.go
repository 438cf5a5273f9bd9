package run

import (
	"testing"

	"orogen/sim/grid"
	"orogen/sim/simtest"
)

// BenchmarkRouting times the routing's parts (sim/flow) at 1024² on
// the heights of the default preset after 50 steps, as BenchmarkStep's
// (most cells then drain into lakes), on an engine of its own: route alone, then with the
// depth-first order, the lakes and the final assembly added (differences
// give each part), the assembly alone and the drainage area. cpu-ms is the
// thread's CPU time: run it with -cpu 1.
func BenchmarkRouting(b *testing.B) {
	job, err := Prepare(Options{Scene: "default", Size: 1024, Diffusion: ptr(0.01)})
	if err != nil {
		b.Fatal(err)
	}
	for range warmups {
		job.Engine.Step()
	}
	e := job.Engine.(*grid.Engine)
	h := append([]float32(nil), e.Heights()...)
	g := e.Graph()
	var as []float64
	b.Run("route", func(b *testing.B) {
		defer simtest.ThreadCPU(b)()
		for b.Loop() {
			g.Route(h)
		}
	})
	b.Run("order", func(b *testing.B) {
		defer simtest.ThreadCPU(b)()
		for b.Loop() {
			g.Route(h)
			g.Order()
		}
	})
	b.Run("lakes", func(b *testing.B) {
		defer simtest.ThreadCPU(b)()
		for b.Loop() {
			g.Route(h)
			g.Order()
			g.ConnectLakes(h)
		}
	})
	b.Run("assemble", func(b *testing.B) {
		defer simtest.ThreadCPU(b)()
		for b.Loop() {
			g.Route(h)
			g.Order()
			g.ConnectLakes(h)
			g.Assemble()
		}
	})
	b.Run("assembleonly", func(b *testing.B) {
		defer simtest.ThreadCPU(b)()
		g.Route(h)
		g.Order()
		g.ConnectLakes(h)
		for b.Loop() {
			g.Assemble()
		}
	})
	b.Run("area", func(b *testing.B) {
		defer simtest.ThreadCPU(b)()
		for b.Loop() {
			as = g.AccumulateStack(as, 1e4)
		}
	})
	b.ReportMetric(float64(len(g.Lakes)), "lakes")
}
