package delaunay

import "testing"

// BenchmarkExact measures the exact fallback: cocircular grid points, and
// points whose coordinates span the float64 exponent range.
func BenchmarkExact(b *testing.B) {
	b.Run("grid", func(b *testing.B) {
		for b.Loop() {
			inCircleExact(Point{0, 0}, Point{1, 0}, Point{1, 1}, Point{0, 1})
		}
	})
	b.Run("wide", func(b *testing.B) {
		for b.Loop() {
			inCircleExact(Point{1e300, 0}, Point{1e-300, 5e-324}, Point{0, 1e300}, Point{-1e-300, 1})
		}
	})
}
