package build

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"orogen/app/export"
	"orogen/app/run"
	"orogen/app/safefile"
)

// BenchmarkUnreal4033 is the export's speed target (issue 17): from a
// 1024² simulation (the default scene, 5 steps so relief, rivers and lakes
// exist), a 4033² Unreal export: the 16-bit PNG heightmap, slope, flow,
// water and curvature masks (16-bit PNG) and the default splat map (RGBA
// PNG). Target ≤ 10 s and ≤ 2 GB peak memory on the project's 2-core
// machine; peak-MB is the process's VmHWM, which includes the
// simulation's. Since issue 19 such an export is made from the terrain
// amplified ×4 (4096²): the amplification is timed apart (amplify-s, not
// in ns/op; sim/amplify's BenchmarkAmplify has its own target), the fine
// routing and every output are in ns/op.
func BenchmarkUnreal4033(b *testing.B) {
	job, err := run.Prepare(run.Options{Scene: "default", Size: 1024, Steps: 5})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := job.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	s := job.Snapshot()
	dir := b.TempDir()
	outs := []export.Output{
		{Kind: "heightmap", Format: "png", Target: "unreal", Size: 4033, Path: "h"},
		{Kind: "mask", Mask: "slope", Format: "png", Size: 4033, Path: "slope"},
		{Kind: "mask", Mask: "flow", Format: "png", Size: 4033, Path: "flow"},
		{Kind: "mask", Mask: "water", Format: "png", Size: 4033, Path: "water"},
		{Kind: "mask", Mask: "curvature", Format: "png", Size: 4033, Path: "curvature"},
		{Kind: "splat", Format: "png", Size: 4033, Path: "splat"},
	}
	b.ReportAllocs()
	var amp, cpu float64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		t := &terrains{s: s, height: s.Height, in: export.InputsOf(s)}
		t0 := time.Now()
		if _, _, _, _, err := t.at(context.Background(), 4033, false); err != nil {
			b.Fatal(err)
		}
		amp += time.Since(t0).Seconds()
		cpu0 := cpuSeconds()
		b.StartTimer()
		set := &safefile.Set{}
		for _, o := range outs {
			path := filepath.Join(dir, o.FileName(""))
			if _, err := writeOutput(context.Background(), &o, path, t, Options{}, set); err != nil {
				b.Fatal(err)
			}
		}
		if err := set.Commit(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += cpuSeconds() - cpu0
		t.release()
	}
	// CPU seconds (user + system) per export: on a shared machine the
	// wall time depends on the load, this does not.
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	b.ReportMetric(amp/float64(b.N), "amplify-s")
	b.ReportMetric(float64(run.PeakRSS())/(1<<20), "peak-MB")
}

// BenchmarkTiles16k writes a 16129² Unreal heightmap (R16) in 4x4 tiles of
// 4033² from a 1024² simulation: the 16k² case. peak-MB shows
// that only one tile's pixels are held at a time (a whole 16129² float32
// field alone would be 1 GB).
func BenchmarkTiles16k(b *testing.B) {
	job, err := run.Prepare(run.Options{Scene: "default", Size: 1024, Steps: 2})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := job.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	s := job.Snapshot()
	dir := b.TempDir()
	o := export.Output{Kind: "heightmap", Format: "r16", Target: "unreal", Size: 16129, Tiles: "4x4", Path: "h"}
	cpu0 := cpuSeconds()
	b.ResetTimer()
	for range b.N {
		path := filepath.Join(dir, o.FileName(""))
		t := &terrains{s: s, height: s.Height} // amplified ×8, then resampled tile by tile
		defer t.release()
		set := &safefile.Set{}
		if _, err := writeOutput(context.Background(), &o, path, t, Options{}, set); err != nil {
			b.Fatal(err)
		}
		if err := set.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(run.PeakRSS())/(1<<20), "peak-MB")
}
