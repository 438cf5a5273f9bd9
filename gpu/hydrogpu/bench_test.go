package hydrogpu

import (
	"fmt"
	"math"
	"testing"

	"orogen/gpu"
	"orogen/sim"
	"orogen/sim/hydro"
)

// benchTerrain returns n×n heights of about 400 m of relief: ridges and
// valleys of several wavelengths and a hashed roughness, cheap to make at
// 8192² (fBm there takes longer than the benchmark).
func benchTerrain(n int) []float32 {
	h := make([]float32, n*n)
	for y := range n {
		for x := range n {
			fx, fy := float64(x)/float64(n), float64(y)/float64(n)
			v := 100*math.Sin(2*math.Pi*3*fx)*math.Cos(2*math.Pi*2*fy) +
				50*math.Sin(2*math.Pi*(11*fx+7*fy)) + 25*math.Cos(2*math.Pi*(23*fx-19*fy))
			u := uint32(x)*0x9E3779B1 ^ uint32(y)*0x85EBCA77
			u ^= u >> 15
			u *= 0x2C1B3C6D
			u ^= u >> 12
			h[y*n+x] = float32(200 + v + 5*float64(u&0xFFFF)/65535)
		}
	}
	return h
}

// bytesPerCell is the least the five kernels move per cell and step,
// counting each field read or written once (neighbours come from cache):
// flux reads b, d, in, hard and f (16 B) and writes d1, f and q;
// erode reads b, d1, s, hard and f and writes b', d, s1, v (8 B) and
// hard; move reads b, b', s1, v, q and trem and writes s, b' and trem;
// fix (walls and wrap only) reads and writes s.
const bytesPerCell = 32 + 24 + 32 + 24 + 32 + 8

// BenchmarkHydroGPU times steps on the first GPU (a software rasterizer
// too) at 30 m cells with the default parameters, open edges, after 50
// warm-up steps. It reports steps per second, each kernel's milliseconds
// from timer queries, and the memory traffic the steps imply, GB/s.
func BenchmarkHydroGPU(b *testing.B) {
	dev, err := gpu.Open(gpu.Options{AllowSoftware: true})
	if err != nil {
		b.Skipf("no OpenGL 4.3 device: %v", err)
	}
	defer dev.Close()
	b.Logf("device: %s", dev.Info())
	sizes := []int{1024, 4096, 8192}
	if dev.Info().Software {
		sizes = []int{256}
	}
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			p := hydro.DefaultParams(30)
			e, err := New(dev, hydro.Config{Terrain: &sim.Field{W: n, H: n, Cell: 30, Data: benchTerrain(n)}, Params: p})
			if err != nil {
				b.Skip(err)
			}
			defer e.Close()
			if err := e.Run(50); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			if err := e.Run(b.N); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			its := float64(b.N) / b.Elapsed().Seconds()
			var kernels [NumKernels]float64
			const timed = 20
			for range timed {
				e.Step()
				for k := range kernels {
					kernels[k] += e.Kernel[k] / timed
				}
			}
			if err := e.Err(); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(its, "it/s")
			for k, name := range KernelNames {
				b.ReportMetric(kernels[k], name+"-ms")
			}
			b.ReportMetric(its*float64(n*n)*bytesPerCell/1e9, "GB/s")
		})
	}
}
