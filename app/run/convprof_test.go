package run

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"orogen/app/compute"
	"orogen/app/engines"
	"orogen/gpu"
	"orogen/sim/engine"
)

// convStep is one step of a profiled run to steady state.
type convStep struct {
	wall, total     float64                   // the loop's time for the step (the driver's and the report's part included) and Step's own, ms
	lakes, rounds   int                       // lakes and Borůvka rounds
	phase           [engine.NumPhases]float64 // the phases from the device's timer queries, ms
	lakeHost        [4]float64                // the lakes phase on the host: wall, reads, writes (ms), reads
	lakeSplit       [4]float64                // roots' read, their sort and index, the rounds' reads, the tree and order (ms)
	reads           int64                     // every read of the step
	readWait        float64                   // and the host's time in them, ms
	lakeBytes, dtYr float64
	query           float64 // Step's host time after its last read (the timer queries), ms
}

// BenchmarkConvergeProfileGPU runs the default preset to steady state on
// the GPU engine as BenchmarkConvergeGPU does (the preset's own physics,
// the driver's adaptive scheme) and reports where the time goes over
// the run, by spans of steps: the loop's time, Step's own, the lakes
// and their Borůvka rounds, the lakes phase on the device's clock and on
// the host's (its reads, writes and host work by part), every read of
// the step and the time waiting in them. OROGEN_GPU_CAP (seconds,
// default 60) stops a run that has not settled; OROGEN_GPU_PROFILE_DIR
// writes every step's figures to conv-<size>.csv there.
func BenchmarkConvergeProfileGPU(b *testing.B) {
	dev, why := compute.Shared(compute.GPU)
	if dev == nil {
		b.Skip(why)
	}
	defer gpuTuning(b)()
	limit := 60.0
	if v, err := strconv.ParseFloat(os.Getenv("OROGEN_GPU_CAP"), 64); err == nil {
		limit = v
	}
	for _, n := range gpuSizes(b, dev.Info().Software) {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				profileConverge(b, n, limit)
			}
		})
	}
}

func profileConverge(b *testing.B, n int, limit float64) {
	var steps []convStep
	var j *Job
	last := time.Now()
	reads, wait := gpu.ReadCount, gpu.ReadWait
	o := Options{Scene: "default", Size: n, UntilConverged: true, HydroDevice: compute.GPU}
	o.OnStep = func(st engine.StepStats) {
		now := time.Now()
		s := convStep{wall: ms64(now.Sub(last)), total: ms64(st.Total), lakes: st.Lakes, dtYr: st.Dt,
			reads: gpu.ReadCount - reads, readWait: ms64(gpu.ReadWait - wait)}
		for i := range s.phase {
			s.phase[i] = ms64(st.Phase[i])
		}
		e := j.Engine
		if ld, ok := e.(interface{ LakeDetail() (float64, int) }); ok {
			_, s.rounds = ld.LakeDetail()
		}
		if lh, ok := e.(interface{ LakeHost() [4]float64 }); ok {
			s.lakeHost = lh.LakeHost()
		}
		if ls, ok := e.(interface{ LakeSplit() [4]float64 }); ok {
			s.lakeSplit = ls.LakeSplit()
		}
		if q, ok := e.(interface{ QueryMs() float64 }); ok {
			s.query = q.QueryMs()
		}
		if lb, ok := e.(interface{ LakeBytes() int }); ok {
			s.lakeBytes = float64(lb.LakeBytes())
		}
		steps = append(steps, s)
		reads, wait = gpu.ReadCount, gpu.ReadWait
		last = time.Now()
	}
	b.StopTimer()
	var err error
	j, err = Prepare(o)
	if err != nil {
		b.Fatal(err)
	}
	if d, why := engines.DeviceOf(j.Engine); d == "cpu" {
		b.Skip(why)
	}
	if c, ok := j.Engine.(interface{ Close() }); ok {
		defer c.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(limit*float64(time.Second)))
	defer cancel()
	b.StartTimer()
	last = time.Now()
	reads, wait = gpu.ReadCount, gpu.ReadWait
	rep, err := j.Run(ctx)
	b.StopTimer()
	var ie *InterruptedError
	if err != nil && !errors.As(err, &ie) {
		b.Fatal(err)
	}
	settled := rep != nil && rep.Converged
	b.Logf("%d²: %d steps, settled %v, loop %.2f s (the report's wall %.2f s)", n, len(steps), settled, sumSteps(steps, func(s convStep) float64 { return s.wall })/1e3, rep.WallS)
	b.ReportMetric(float64(len(steps)), "steps")
	b.ReportMetric(rep.WallS, "s-to-settle")
	if !settled {
		b.ReportMetric(0, "settled")
	}
	spans := [][2]int{{1, 5}, {6, 10}, {11, 30}, {31, 100}, {101, 300}, {301, 1000}, {1001, 3000}, {3001, 1 << 30}}
	var tb strings.Builder
	fmt.Fprintf(&tb, "%d² steps | n | loop s | Step s | outside ms/step | lakes (max) | rounds | lakes phase ms | lake host ms | lake reads (ms) | roots read / sort / round reads / tree ms | writes ms | reads (wait ms) a step | queries ms | other phases ms | lake KB\n", n)
	for _, sp := range spans {
		lo, hi := sp[0]-1, min(sp[1], len(steps))
		if lo >= hi {
			break
		}
		ss := steps[lo:hi]
		k := float64(len(ss))
		avg := func(f func(s convStep) float64) float64 { return sumSteps(ss, f) / k }
		maxLakes := 0
		for _, s := range ss {
			maxLakes = max(maxLakes, s.lakes)
		}
		fmt.Fprintf(&tb, "%d-%d | %d | %.3f | %.3f | %.3f | %.1f (%d) | %.2f | %.3f | %.3f | %.2f (%.3f) | %.3f / %.3f / %.3f / %.3f | %.3f | %.2f (%.3f) | %.3f | %.3f | %.0f\n",
			sp[0], hi, len(ss), sumSteps(ss, func(s convStep) float64 { return s.wall })/1e3, sumSteps(ss, func(s convStep) float64 { return s.total })/1e3,
			avg(func(s convStep) float64 { return s.wall - s.total }),
			avg(func(s convStep) float64 { return float64(s.lakes) }), maxLakes, avg(func(s convStep) float64 { return float64(s.rounds) }),
			avg(func(s convStep) float64 { return s.phase[engine.PhaseLakes] }), avg(func(s convStep) float64 { return s.lakeHost[0] }),
			avg(func(s convStep) float64 { return s.lakeHost[3] }), avg(func(s convStep) float64 { return s.lakeHost[1] }),
			avg(func(s convStep) float64 { return s.lakeSplit[0] }), avg(func(s convStep) float64 { return s.lakeSplit[1] }),
			avg(func(s convStep) float64 { return s.lakeSplit[2] }), avg(func(s convStep) float64 { return s.lakeSplit[3] }),
			avg(func(s convStep) float64 { return s.lakeHost[2] }),
			avg(func(s convStep) float64 { return float64(s.reads) }), avg(func(s convStep) float64 { return s.readWait }),
			avg(func(s convStep) float64 { return s.query }),
			avg(func(s convStep) float64 {
				t := 0.0
				for i, v := range s.phase {
					if i != int(engine.PhaseLakes) {
						t += v
					}
				}
				return t
			}), avg(func(s convStep) float64 { return s.lakeBytes })/1024)
	}
	b.Log("\n" + tb.String())
	if dir := os.Getenv("OROGEN_GPU_PROFILE_DIR"); dir != "" {
		var cb strings.Builder
		cb.WriteString("step,wall_ms,step_ms,dt_yr,lakes,rounds,lakes_phase_ms,lake_host_ms,lake_read_ms,lake_write_ms,lake_reads,roots_read_ms,sort_ms,round_read_ms,tree_ms,reads,read_wait_ms,lake_bytes,query_ms")
		for _, name := range engine.PhaseNames {
			cb.WriteString("," + name + "_ms")
		}
		cb.WriteString("\n")
		for i, s := range steps {
			fmt.Fprintf(&cb, "%d,%.4f,%.4f,%g,%d,%d,%.4f,%.4f,%.4f,%.4f,%.0f,%.4f,%.4f,%.4f,%.4f,%d,%.4f,%.0f,%.4f", i+1, s.wall, s.total, s.dtYr, s.lakes, s.rounds,
				s.phase[engine.PhaseLakes], s.lakeHost[0], s.lakeHost[1], s.lakeHost[2], s.lakeHost[3], s.lakeSplit[0], s.lakeSplit[1], s.lakeSplit[2], s.lakeSplit[3],
				s.reads, s.readWait, s.lakeBytes, s.query)
			for _, v := range s.phase {
				fmt.Fprintf(&cb, ",%.4f", v)
			}
			cb.WriteString("\n")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("conv-%d.csv", n)), []byte(cb.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

func ms64(d time.Duration) float64 { return d.Seconds() * 1e3 }

func sumSteps(ss []convStep, f func(s convStep) float64) float64 {
	t := 0.0
	for _, s := range ss {
		t += f(s)
	}
	return t
}
