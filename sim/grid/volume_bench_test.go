package grid

import (
	"math"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/simtest"
)

// BenchmarkVolume times one rock-account volume sum at 1024² (a step takes
// four or five).
func BenchmarkVolume(b *testing.B) {
	const n = 1024
	e := mustNew(b, Config{W: n, H: n, Cell: 100, Up: simtest.Scale(simtest.Cone(n, n, 1, 1, 1.0/n), 5e-4), InitNoise: 1, Seed: 1, Params: engine.DefaultParams()})
	var s float64
	for b.Loop() {
		s += e.volume(e.hgt)
	}
	_ = s
}

// BenchmarkMeasure times the end-of-step statistics at 1024².
func BenchmarkMeasure(b *testing.B) {
	const n = 1024
	e := mustNew(b, Config{W: n, H: n, Cell: 100, Up: simtest.Scale(simtest.Cone(n, n, 1, 1, 1.0/n), 5e-4), InitNoise: 1, Seed: 1, Params: engine.DefaultParams()})
	e.Step()
	var st engine.StepStats
	for b.Loop() {
		e.measure(&st, nil, nil, false)
	}
}

// changesRef is changes written plainly: one running sum, max.
func changesRef(h, p, p2 []float32) (sum, mx, mx2 float64) {
	for i := range h {
		d := math.Abs(float64(h[i]) - float64(p[i]))
		sum += d
		mx = max(mx, d)
		mx2 = max(mx2, math.Abs(float64(h[i])-float64(p2[i])))
	}
	return sum, mx, mx2
}

// TestChanges checks the four-lane changes against changesRef on lengths
// around the lane width: maxima exactly, the sum to 1e-12 relative (the
// two orders of addition round differently, by at most n·2⁻⁵³ of the sum);
// a NaN anywhere shows in all three.
func TestChanges(t *testing.T) {
	for n := range 23 {
		h, p, p2 := make([]float32, n), make([]float32, n), make([]float32, n)
		for i := range h {
			h[i] = float32(i*i%7) + 0.5
			p[i] = float32(i % 5)
			p2[i] = float32(i*3%11) - 2
		}
		s, m, m2 := changes(h, p, p2)
		rs, rm, rm2 := changesRef(h, p, p2)
		if math.Abs(s-rs) > 1e-12*rs || m != rm || m2 != rm2 {
			t.Errorf("n=%d: changes = %g, %g, %g; want %g, %g, %g", n, s, m, m2, rs, rm, rm2)
		}
		if n > 0 {
			h[n/2] = float32(math.NaN())
			if s, m, m2 := changes(h, p, p2); !math.IsNaN(s) || !math.IsNaN(m) || !math.IsNaN(m2) {
				t.Errorf("n=%d with a NaN: changes = %g, %g, %g; want NaN thrice", n, s, m, m2)
			}
		}
	}
}

// BenchmarkChanges compares changes with changesRef at 1024².
func BenchmarkChanges(b *testing.B) {
	const n = 1 << 20
	h, p, p2 := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range h {
		h[i], p[i], p2[i] = float32(i%1000), float32(i%999), float32(i%998)
	}
	b.Run("lanes", func(b *testing.B) {
		for b.Loop() {
			changes(h, p, p2)
		}
	})
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			changesRef(h, p, p2)
		}
	})
}
