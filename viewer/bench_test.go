package viewer

import (
	"fmt"
	"image"
	"testing"
)

func benchmarkRelief(b *testing.B, n int) {
	s := terrain(b, n)
	o := DefaultOptions()
	dst := image.NewRGBA(image.Rect(0, 0, n, n))
	Relief(dst, s, o) // warm the scratch pool
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		Relief(dst, s, o)
	}
}

// BenchmarkRelief renders the default options (rivers and lakes on, no
// overlay) of a seeded terrain into a reused image, at 512² ... 2048².
func BenchmarkRelief(b *testing.B) {
	for _, n := range []int{512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkRelief(b, n) })
	}
}
