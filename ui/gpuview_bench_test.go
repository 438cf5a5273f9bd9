package ui

import (
	"image"
	"os"
	"strconv"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/sim/engine"
	"orogen/viewer"
)

// benchSnaps keeps the benchmarks' terrains: a 4096² one takes seconds
// of CPU to make, and each benchmark function runs several times.
var benchSnaps = map[int]*engine.Snapshot{}

// BenchmarkShaderPasses: the GPU's time for each of the views' passes on
// one snapshot, b.N passes then one read of a pixel that waits for them
// all (so a pass's figure is its GPU time, not the latency of a read). The
// side is OROGEN_SHADER_N (default 1024); run it under a display:
// `xvfb-run go test -run X -bench ShaderPasses ./ui`.
func BenchmarkShaderPasses(b *testing.B) {
	needShaderDisplay(b)
	n, _ := strconv.Atoi(os.Getenv("OROGEN_SHADER_N"))
	if n == 0 {
		n = 1024
	}
	s := benchSnaps[n]
	if s == nil {
		s = testTerrain(b, n)
		benchSnaps[n] = s
	}
	px := make([]byte, 4)
	sync := func(img *ebiten.Image) { img.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image).ReadPixels(px) }
	o := viewer.DefaultOptions()
	p := viewer.ReliefParams(s, o)
	// Ebitengine's game runs once a process: the passes run as
	// sub-benchmarks inside its one Update.
	var passes []func()
	pass := func(name string, f func(g *gpuView, i int) (*ebiten.Image, error)) {
		passes = append(passes, func() {
			b.Run(name+"/"+strconv.Itoa(n), func(b *testing.B) {
				g := newGPUView()
				if g.err != nil {
					b.Fatal(g.err)
				}
				g.f2.load(s)
				g.relief = newDataImage(s.W, s.H)
				// A first pass compiles the programs and sizes the images.
				img, err := f(g, -1)
				if err != nil {
					b.Fatal(err)
				}
				sync(img)
				b.ResetTimer()
				for i := range b.N {
					if img, err = f(g, i); err != nil {
						b.Fatal(err)
					}
				}
				sync(img)
			})
		})
	}
	pass("upload", func(g *gpuView, _ int) (*ebiten.Image, error) {
		g.f2.drop()
		g.f2.load(s)
		return g.f2.water, nil
	})
	for _, gather := range []bool{false, true} {
		name := "rivers-quads"
		if gather {
			name = "rivers-gather"
		}
		pass(name, func(g *gpuView, _ int) (*ebiten.Image, error) {
			g.gather = gather
			g.f2.riversOf, g.discsOf = riversKey{}, discsKey{}
			return g.riverPass(&g.f2, s, &p, 1, s.H)
		})
	}
	pass("surface2d", func(g *gpuView, _ int) (*ebiten.Image, error) {
		return g.relief, g.drawSurface(g.relief, &g.f2, s, &p, 0, nil, 1, 0, s.H)
	})
	pass("relief", func(g *gpuView, i int) (*ebiten.Image, error) {
		o := viewer.DefaultOptions()
		o.Ambient = 0.3 + 1e-6*float64(i)
		return g.reliefImage(s, nil, o, nil, 1)
	})
	pass("surface3d", func(g *gpuView, i int) (*ebiten.Image, error) {
		o := viewer.DefaultOptions3D()
		o.Ambient = 0.3 + 1e-6*float64(i)
		return g.surface3DImage(s, nil, o, viewer.DefaultOptions())
	})
	onGPU(b, func() error {
		for _, p := range passes {
			p()
		}
		return nil
	})
}
