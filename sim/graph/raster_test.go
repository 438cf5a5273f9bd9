package graph

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"testing"

	"orogen/sim"
	"orogen/sim/poisson"
)

// planeValues returns h = a·x + b·y + c at the nodes.
func planeValues(m *Mesh, a, b, c float64) []float32 {
	v := make([]float32, m.N)
	for i := range v {
		v[i] = float32(a*m.X[i] + b*m.Y[i] + c)
	}
	return v
}

func TestLinearPlane(t *testing.T) {
	// Tolerance: the node values are rounded to float32 (relative 6e-8) and
	// the barycentric sum adds a few float64 roundings, so 1e-4 relative to
	// the plane's range is loose; it is the brief's figure.
	for _, c := range []struct {
		w, h, r float64
		cells   int
	}{
		{1000, 1000, 20, 100},
		{3000, 1500, 37, 240}, // non-square domain, cell not a multiple of r
	} {
		m := sampleMesh(t, c.w, c.h, c.r, 3)
		a, b, k := 0.37, -0.21, 500.0
		v := planeValues(m, a, b, k)
		cell := c.w / float64(c.cells)
		f := sim.NewField(c.cells, int(math.Round(c.h/cell)), cell)
		m.Linear(f, v)
		scale := math.Abs(a)*c.w + math.Abs(b)*c.h + k
		for j := 0; j < f.H; j++ {
			for i := 0; i < f.W; i++ {
				want := a*(float64(i)+0.5)*cell + b*(float64(j)+0.5)*cell + k
				if got := float64(f.Data[j*f.W+i]); math.Abs(got-want) > 1e-4*scale {
					t.Fatalf("%gx%g: cell (%d, %d): got %g; want %g", c.w, c.h, i, j, got, want)
				}
			}
		}
	}
}

func TestGaussianConstant(t *testing.T) {
	// A normalized kernel keeps a constant up to the float64 division's
	// rounding, then float32: 1e-6 relative.
	m := sampleMesh(t, 2000, 1000, 25, 4)
	v := make([]float32, m.N)
	for i := range v {
		v[i] = 1234.5
	}
	for _, sigma := range []float64{0, 10, 60} {
		f := m.Gaussian(sim.NewField(128, 64, 2000.0/128), v, sigma)
		for i, got := range f.Data {
			if math.Abs(float64(got)-1234.5) > 1e-6*1234.5 {
				t.Fatalf("σ %g: cell %d: got %g; want 1234.5", sigma, i, got)
			}
		}
	}
}

func TestGaussianPlaneInterior(t *testing.T) {
	// Symmetric weights reproduce a plane where the 3σ disc holds a
	// roughly uniform sample: the error is the centroid offset of the
	// weights, a fraction of σ times the gradient. 2 % of the range away
	// from the border is what a Poisson sample gives (measured < 0.5 %).
	m := sampleMesh(t, 1000, 1000, 10, 5)
	v := planeValues(m, 1, 0.5, 0)
	f := m.Gaussian(sim.NewField(100, 100, 10), v, 0)
	for j := 10; j < 90; j++ {
		for i := 10; i < 90; i++ {
			want := (float64(i)+0.5)*10 + 0.5*(float64(j)+0.5)*10
			if got := float64(f.Data[j*100+i]); math.Abs(got-want) > 0.02*1500 {
				t.Fatalf("cell (%d, %d): got %g; want %g", i, j, got, want)
			}
		}
	}
}

func TestLinearOutsideHull(t *testing.T) {
	// A grid wider than the domain: the cells past the hull take the
	// nearest node's value, and every cell is written.
	m := sampleMesh(t, 100, 100, 5, 6)
	v := planeValues(m, 1, 0, 0)
	f := sim.NewField(30, 30, 5) // 150 m: half of it outside
	for i := range f.Data {
		f.Data[i] = float32(math.NaN())
	}
	m.Linear(f, v)
	for i, x := range f.Data {
		if math.IsNaN(float64(x)) || x < 0 || x > 100 {
			t.Fatalf("cell %d: got %g; want a node value in [0, 100]", i, x)
		}
	}
	if got := f.At(29, 0); got != 100 {
		t.Errorf("far east cell: got %g; want 100 (the east border)", got)
	}
}

func TestRasterConcurrent(t *testing.T) {
	m := sampleMesh(t, 5000, 5000, 20, 7)
	v := make([]float32, m.N)
	for i := range v {
		v[i] = float32(math.Sin(m.X[i]/300) * math.Cos(m.Y[i]/170) * 1000)
	}
	run := func(procs int) [2][]byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out [2][]byte
		for k, f := range []*sim.Field{
			m.Linear(sim.NewField(300, 300, 5000.0/300), v),
			m.Gaussian(sim.NewField(300, 300, 5000.0/300), v, 0),
		} {
			var b bytes.Buffer
			binary.Write(&b, binary.LittleEndian, f.Data)
			out[k] = b.Bytes()
		}
		return out
	}
	a := run(1)
	for _, procs := range []int{2, 4} {
		b := run(procs)
		for k, name := range []string{"Linear", "Gaussian"} {
			if !bytes.Equal(a[k], b[k]) {
				t.Errorf("%s: Mismatch concurrent: GOMAXPROCS 1 and %d differ", name, procs)
			}
		}
	}
}

// benchmarkRaster times Linear or Gaussian of a mesh of n nodes onto a
// size² grid.
func benchmarkRaster(b *testing.B, n, size int, gauss bool) {
	const side = 100e3
	m := sampleMesh(b, side, side, math.Sqrt(poisson.Density*side*side/float64(n)), 1)
	v := planeValues(m, 0.01, 0.02, 0)
	f := sim.NewField(size, size, side/float64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if gauss {
			m.Gaussian(f, v, 0)
		} else {
			m.Linear(f, v)
		}
	}
}

func BenchmarkLinear(b *testing.B) {
	for _, n := range []int{40_000, 160_000} {
		b.Run(fmt.Sprintf("%d/1024", n), func(b *testing.B) { benchmarkRaster(b, n, 1024, false) })
	}
}

func BenchmarkGaussian(b *testing.B) {
	b.Run("160000/1024", func(b *testing.B) { benchmarkRaster(b, 160_000, 1024, true) })
}
