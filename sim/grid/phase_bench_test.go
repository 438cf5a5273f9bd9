package grid

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"orogen/sim/engine"
	"orogen/sim/simtest"
)

// BenchmarkRouting times the routing's parts on the heights of a 1024²
// engine after 40 steps under a cone of uplift (a river network with
// lakes): route alone, then with the depth-first order, the lakes and
// the final assembly added; differences give each part.
func BenchmarkRouting(b *testing.B) {
	const n = 1024
	e := mustNew(b, Config{W: n, H: n, Cell: 100, Up: simtest.Scale(simtest.Cone(n, n, 1, 1, 1.0/n), 5e-4), InitNoise: 1, Seed: 1, Params: engine.DefaultParams()})
	for range 40 {
		e.Step()
	}
	h := append([]float32(nil), e.hgt...)
	g := e.g
	b.Run("route", func(b *testing.B) {
		defer threadCPU(b)()
		for b.Loop() {
			g.Route(h)
		}
	})
	b.Run("order", func(b *testing.B) {
		defer threadCPU(b)()
		for b.Loop() {
			g.Route(h)
			g.Order()
		}
	})
	b.Run("lakes", func(b *testing.B) {
		defer threadCPU(b)()
		for b.Loop() {
			g.Route(h)
			g.Order()
			g.ConnectLakes(h)
		}
	})
	b.Run("assemble", func(b *testing.B) {
		defer threadCPU(b)()
		for b.Loop() {
			g.Route(h)
			g.Order()
			g.ConnectLakes(h)
			g.Assemble()
		}
	})
	b.Run("area", func(b *testing.B) {
		defer threadCPU(b)()
		for b.Loop() {
			e.as = g.AccumulateStack(e.as, 1e4)
		}
	})
	b.ReportMetric(float64(len(g.Lakes)), "lakes")
}

// threadCPU, deferred at the start of a benchmark run with GOMAXPROCS 1,
// reports the CPU time of the calling thread per operation (cpu-ms): on a
// loaded machine it leaves out the time other processes held the core.
func threadCPU(b *testing.B) func() {
	runtime.LockOSThread()
	t0 := rusageThread()
	return func() {
		d := rusageThread() - t0
		runtime.UnlockOSThread()
		b.ReportMetric(d.Seconds()*1e3/float64(b.N), "cpu-ms")
	}
}

func rusageThread() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
