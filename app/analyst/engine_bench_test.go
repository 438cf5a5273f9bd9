package analyst

import (
	"fmt"
	"orogen/sim/grid"
	"sync"
	"testing"
	"time"

	"orogen/app/engines"
	"orogen/app/run"
	"orogen/app/runner"
	"orogen/app/worker"
)

// BenchmarkEngineWithAnalyst measures what the live analysis costs the
// engine: b.N steps of a worker on the default preset at n² while a
// goroutine polls its frames at 60 Hz, as the UI does, and offers them to
// an analyst ("on") or not ("off"). Compare the steps/s of the two; the
// analyst is paced to use at most DefaultShare of one core.
func BenchmarkEngineWithAnalyst(b *testing.B) {
	for _, n := range []int{512, 1024} {
		for _, on := range []bool{false, true} {
			name := fmt.Sprintf("%d/off", n)
			if on {
				name = fmt.Sprintf("%d/on", n)
			}
			b.Run(name, func(b *testing.B) { benchmarkEngine(b, n, on) })
		}
	}
}

func benchmarkEngine(b *testing.B, n int, on bool) {
	job, err := run.Prepare(run.Options{Scene: "default", Size: n, Engine: grid.Kind.String()})
	if err != nil {
		b.Fatal(err)
	}
	w0, h0, cell := job.Engine.Size()
	spec := engines.Spec{Kind: grid.Kind, W: w0, H: h0, Cell: cell, InitNoise: job.Scene.Params.InitNoiseM,
		Seed: job.Scene.Seed, Params: job.Engine.Params(), Up: job.Engine.Snapshot().Uplift}
	wk, err := worker.New(spec, runner.Options{Paused: true})
	if err != nil {
		b.Fatal(err)
	}
	defer wk.Close()
	wk.Await(runner.Step{N: 20}) // rivers first: the analysis has something to fit
	var an *Analyst
	if on {
		an = New(DefaultShare)
		defer an.Close()
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Second / 60)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if f := wk.Frame(); f != nil && an != nil {
					an.Offer(f.Snap)
				}
			}
		}
	}()
	b.ResetTimer()
	start := time.Now()
	wk.Await(runner.Step{N: b.N})
	el := time.Since(start)
	b.StopTimer()
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(b.N)/el.Seconds(), "steps/s")
}
