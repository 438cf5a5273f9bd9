package uplifttree

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"testing"

	"orogen/sim"
)

// benchTree builds the benchmark scene of about n nodes over the 10 km
// test world: a sum of (a min of a max of ranges and two valleys cutting
// them), a sum of hills and plateaus, a rotated group of ranges, a folded
// group of cones and one 4-octave noise scaled to 0.1. Primitives are 150
// to 1500 m across, so each covers 15 to 150 pixels of a 1024² raster.
func benchTree(r *rand.Rand, n int) *Tree {
	t := New()
	add := func(parent ID, s Shape) ID {
		e, err := t.Add(parent, -1, s)
		if err != nil {
			panic(err)
		}
		return e.Node()
	}
	wrap := func(id ID, s Shape) ID {
		e, err := t.Wrap(id, s)
		if err != nil {
			panic(err)
		}
		return e.Node()
	}
	cut := add(1, &Min{})
	ranges := add(cut, &Max{})
	for range 2 {
		add(cut, &Valley{A: randPoint(r), B: randPoint(r), Ctrls: []Ctrl{{0, 300, 0}, {1, 600, 0.1}}, Outside: 1})
	}
	hills := add(1, &Sum{})
	turned := wrap(add(1, &Max{}), &Transform{Frame: Frame{Rotate: 25, Scale: Point{1, 1}, Pivot: Point{5000, 5000}}})
	folded := wrap(add(1, &Max{}), &Fold{Angle: 30, Amplitude: 400, Wavelength: 3000})
	noise := add(1, &Noise{Seed: 7, Frequency: 1.0 / 2000, Octaves: 4, Persistence: 0.5, Lacunarity: 2, Amplitude: 1})
	wrap(noise, &Scale{Factor: 0.1})
	turnedGroup := t.nodes[turned].children[0]
	foldedGroup := t.nodes[folded].children[0]
	prim := func() Shape {
		switch x := r.IntN(10); {
		case x < 5:
			return &Disc{Center: randPoint(r), Radius: rnd(r, 150, 800), Value: rnd(r, 0.2, 1)}
		case x < 8:
			a := randPoint(r)
			b := Point{a.X + rnd(r, -2500, 2500), a.Y + rnd(r, -2500, 2500)}
			return &Segment{A: a, B: b, Ctrls: []Ctrl{{0, rnd(r, 150, 400), rnd(r, 0.2, 0.6)}, {0.5, rnd(r, 300, 700), 1}, {1, rnd(r, 150, 400), rnd(r, 0.2, 0.6)}}}
		default:
			c := randPoint(r)
			var poly []Point
			for i := range 6 {
				a := float64(i) * math.Pi / 3
				poly = append(poly, Point{c.X + 600*math.Cos(a), c.Y + 600*math.Sin(a)})
			}
			return &Region{Polygon: poly, Border: 200, Value: rnd(r, 0.2, 0.6)}
		}
	}
	for t.Len() < n {
		switch x := r.IntN(10); {
		case x < 5:
			add(ranges, prim())
		case x < 8:
			add(hills, prim())
		case x < 9:
			add(turnedGroup, prim())
		default:
			add(foldedGroup, prim())
		}
	}
	return t
}

func BenchmarkRasterize(b *testing.B) {
	for _, n := range []int{256, 512, 1024, 2048} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkRasterize(b, n) })
	}
}

func benchmarkRasterize(b *testing.B, n int) {
	t := benchTree(rand.New(rand.NewPCG(1, 1)), 200)
	f := sim.NewField(n, n, world/float64(n))
	d := Domain(f)
	t.Rasterize(f, d, nil) // compile outside the timing
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t.Rasterize(f, d, nil)
	}
}

// BenchmarkDirty is one interactive edit of the 200-node scene at 1024²:
// move a disc of the ranges group by 50 m, then re-rasterize the edit's
// dirty rectangle.
func BenchmarkDirty(b *testing.B) {
	for _, n := range []int{1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkDirty(b, n) })
	}
}

func benchmarkDirty(b *testing.B, n int) {
	t := benchTree(rand.New(rand.NewPCG(1, 1)), 200)
	f := sim.NewField(n, n, world/float64(n))
	d := Domain(f)
	t.Rasterize(f, d, nil)
	disc := benchDisc(t)
	c := t.nodes[disc].shape.(*Disc).Center
	var cells int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c.X += float64(50 - 100*(i%2))
		e, err := t.SetParam(disc, "center", c)
		if err != nil {
			b.Fatal(err)
		}
		r := CellRect(f, d, e.Dirty())
		cells = r.Dx() * r.Dy()
		t.RasterizeRect(f, d, r, nil)
	}
	b.ReportMetric(float64(cells), "cells/op")
}

// benchDisc returns the first disc of the ranges group (node 3) that lies
// inside the world.
func benchDisc(t *Tree) ID {
	for _, id := range t.nodes[3].children {
		if s, ok := t.nodes[id].shape.(*Disc); ok && s.Center.X > 1000 && s.Center.X < world-1000 &&
			s.Center.Y > 1000 && s.Center.Y < world-1000 {
			return id
		}
	}
	panic("no disc")
}

// BenchmarkEdit is the edit alone: SetParam on one disc of the 200-node
// scene, validation and recompilation included.
func BenchmarkEdit(b *testing.B) {
	t := benchTree(rand.New(rand.NewPCG(1, 1)), 200)
	disc := benchDisc(t)
	c := t.nodes[disc].shape.(*Disc).Center
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.X += float64(50 - 100*(i%2))
		if _, err := t.SetParam(disc, "center", c); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEval(b *testing.B) {
	t := benchTree(rand.New(rand.NewPCG(1, 1)), 200)
	r := rand.New(rand.NewPCG(1, 1))
	b.ReportAllocs()
	for b.Loop() {
		t.Eval(rnd(r, 0, world), rnd(r, 0, world))
	}
}

// BenchmarkLayerStamp is the tree's share of one brush stamp of radius 64
// px on a world-sized 1024² painted layer added to the 200-node scene:
// LayerDirty for the stamp's 128×128 cells, then RasterizeRect of the
// result into a 1024² raster.
func BenchmarkLayerStamp(b *testing.B) {
	t := benchTree(rand.New(rand.NewPCG(1, 1)), 200)
	if _, err := t.Add(1, -1, &Raster{Layer: "paint", Rect: Rect{0, 0, world, world}, Value: 1}); err != nil {
		b.Fatal(err)
	}
	const n = 1024
	layer := sim.NewField(n, n, world/n)
	layers := LayerMap{"paint": layer}
	f := sim.NewField(n, n, world/n)
	d := Domain(f)
	t.Rasterize(f, d, layers)
	var cells int
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		x, y := 200+(i*37)%600, 200+(i*53)%600
		stamp := image.Rect(x-64, y-64, x+64, y+64)
		layer.Data[y*n+x] += 0.01 // the brush's work is not measured here
		r := CellRect(f, d, t.LayerDirty("paint", layer, stamp))
		cells = r.Dx() * r.Dy()
		t.RasterizeRect(f, d, r, layers)
	}
	b.ReportMetric(float64(cells), "cells/op")
}
