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

func benchmarkBuildMesh3D(b *testing.B, n int) {
	s := terrain(b, n)
	o := DefaultOptions3D()
	o.Shadows, o.UpliftAlpha = true, 0.3
	m := BuildMesh3D(nil, s, o)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		BuildMesh3D(m, s, o)
	}
}

// BenchmarkBuildMesh3D builds the mesh (at most 512², so 1024² and 2048²
// are decimated) of a seeded terrain with everything on: shadows, rivers,
// lakes, uplift, reusing the mesh.
func BenchmarkBuildMesh3D(b *testing.B) {
	for _, n := range []int{512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkBuildMesh3D(b, n) })
	}
}

// BenchmarkProject3D projects a 512² mesh for a fitted camera on a
// 1280×720 screen into a reused draw list.
func BenchmarkProject3D(b *testing.B) {
	b.Run("512", func(b *testing.B) {
		s := terrain(b, 512)
		o := DefaultOptions3D()
		m := BuildMesh3D(nil, s, o)
		cam := FitCameraAspect(s, 1, DefaultYawDeg, DefaultPitchDeg, 1280.0/720)
		d := m.Project(nil, cam, 1280, 720)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			m.Project(d, cam, 1280, 720)
		}
	})
}

// BenchmarkRasterize3D rasterizes the draw list of a 512² mesh seen whole
// on a 640×480 screen.
func BenchmarkRasterize3D(b *testing.B) {
	b.Run("640x480", func(b *testing.B) {
		s := terrain(b, 512)
		m := BuildMesh3D(nil, s, DefaultOptions3D())
		cam := FitCameraAspect(s, 1, DefaultYawDeg, DefaultPitchDeg, 640.0/480)
		d := m.Project(nil, cam, 640, 480)
		dst := image.NewRGBA(image.Rect(0, 0, 640, 480))
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			RasterizeDrawList(dst, d)
		}
	})
}
