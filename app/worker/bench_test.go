package worker

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"orogen/app/runner"
	"orogen/sim/engine"
	"orogen/sim/grid"
	"orogen/sim/simtest"
)

// warmEngine returns an engine on the default preset at n×n cells after 20
// warm-up steps, so the lakes and receivers are those of a running
// simulation.
func warmEngine(b *testing.B, n int) *grid.Engine {
	e, err := gridEngine(sceneConfig(b, n))
	if err != nil {
		b.Fatal(err)
	}
	for range 20 {
		e.Step()
	}
	return e
}

func benchmarkSnapshot(b *testing.B, n int) {
	e := warmEngine(b, n)
	step := e.Step().Total
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = e.Snapshot()
	}
	b.StopTimer()
	b.ReportMetric(step.Seconds()*1e3, "step-ms")
}

// BenchmarkSnapshot times grid.Engine.Snapshot on the default preset, the
// copy the worker makes for every frame it publishes; step-ms is one step
// of the same engine for comparison.
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{512, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkSnapshot(b, n) })
	}
}

// benchmarkWorker times b.N steps of a worker on the default preset at n×n
// while another goroutine polls Frame at 60 Hz, as the UI does. %overhead
// is the share of the wall time not spent in Engine.Step, which depends
// less on other load of the machine than steps/s.
func benchmarkWorker(b *testing.B, n int, interval time.Duration) {
	var frames atomic.Int64 // counted, not kept: kept snapshots would load the GC
	w, d := startHooked(b, sceneConfig(b, n), runner.Options{Paused: true, MinInterval: interval}, func(*Frame) { frames.Add(1) })
	defer w.Close()
	syncFrame(b, w, runner.Step{N: 5}) // warm up
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second / 60)
		defer tick.Stop()
		var last *engine.Snapshot
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if f := w.Frame(); f.Snap != last {
					last = f.Snap
				}
			}
		}
	}()
	frames0, busy0 := frames.Load(), d.stepTime.Load()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	syncFrame(b, w, runner.Step{N: b.N})
	el := time.Since(start)
	b.StopTimer()
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(b.N)/el.Seconds(), "steps/s")
	b.ReportMetric(float64(frames.Load()-frames0)/el.Seconds(), "frames/s")
	// The share of wall time spent outside Engine.Step: snapshots, the
	// history, commands, waiting for a core.
	b.ReportMetric(100*(1-float64(d.stepTime.Load()-busy0)/float64(el)), "%overhead")
}

// BenchmarkWorker measures a running worker's steps per second at 512² and
// 1024², publishing with the default interval and after every step.
func BenchmarkWorker(b *testing.B) {
	for _, n := range []int{512, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkWorker(b, n, 0) })
		b.Run(fmt.Sprintf("%d-every-step", n), func(b *testing.B) { benchmarkWorker(b, n, -1) })
	}
}

// BenchmarkMaxHeight times the highest-cell search the worker makes after
// every step for the history.
func BenchmarkMaxHeight(b *testing.B) {
	for _, n := range []int{512, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			h := simtest.Rough(n, n, 1000, 1)
			var m maxHeight
			b.ResetTimer()
			for range b.N {
				m.of(h)
			}
		})
	}
}
