package brushes

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"orogen/sim"
)

// randomLayer returns a w×h layer of uniform values in [0, 1) from seed,
// with a copy of them as its base.
func randomLayer(w, h int, seed uint64) *Layer {
	f := sim.NewField(w, h, 1)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range f.Data {
		f.Data[i] = r.Float32()
	}
	return NewLayer(f)
}

// serpentine returns points step pixels apart along a path that sweeps a
// size² layer in rows 128 pixels apart, 64 pixels in from the borders.
func serpentine(size int, step float64) [][2]float64 {
	var pts [][2]float64
	lo, hi := 64.0, float64(size-64)
	x, y, dir := lo, lo, 1.0
	for {
		pts = append(pts, [2]float64{x, y})
		nx := x + dir*step
		if nx >= lo && nx <= hi {
			x = nx
			continue
		}
		// Turn: go down 128 pixels, then sweep back.
		if y+128 > hi {
			return pts
		}
		for range int(128 / step) {
			y += step
			pts = append(pts, [2]float64{x, y})
		}
		dir = -dir
		x += dir * step
	}
}

// BenchmarkStamp measures one stamp of radius 64 on a 1024² layer, as it
// comes in a real stroke: each op moves the stroke one spacing (16 pixels)
// along a path that sweeps the layer, so the stamp lands on fresh pixels and
// the cost includes saving newly touched tiles for undo and, for noise,
// computing fBm where the stroke has not been yet. A new stroke starts when
// the path is done.
func BenchmarkStamp(b *testing.B) {
	for _, k := range []Kind{Raise, Smooth, Noise} {
		b.Run(k.String(), func(b *testing.B) { benchmarkStamp(b, k, 1024, 64, false) })
	}
}

// BenchmarkStampWarm measures a stamp that goes back and forth by one
// spacing at the centre of the layer, within one stroke: the tiles are
// already saved and the noise already computed, so it is the cost of the
// arithmetic alone.
func BenchmarkStampWarm(b *testing.B) {
	for _, k := range []Kind{Raise, Smooth, Noise} {
		b.Run(k.String(), func(b *testing.B) { benchmarkStamp(b, k, 1024, 64, true) })
	}
}

func benchmarkStamp(b *testing.B, k Kind, size int, radius float64, warm bool) {
	l := randomLayer(size, size, 1)
	br := Default(k)
	br.Radius = radius
	br.Strength = 0.01
	step := br.Spacing * br.Radius
	pts := serpentine(size, step)
	if warm {
		c := float64(size / 2)
		pts = [][2]float64{{c, c}, {c + step, c}}
	}
	s, err := Begin(l, br, pts[0][0], pts[0][1])
	if err != nil {
		b.Fatal(err)
	}
	next := 1
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if next == len(pts) {
			if warm {
				next = 0
				s.To(pts[0][0], pts[0][1])
				continue
			}
			s.End()
			s, _ = Begin(l, br, pts[0][0], pts[0][1])
			next = 1
			continue
		}
		s.To(pts[next][0], pts[next][1])
		next++
	}
	b.StopTimer()
	if n := s.Stamps(); n == 0 {
		b.Fatal("no stamps")
	}
}

// BenchmarkFirstStamp measures the first stamp of a stroke of radius 64 on
// a 1024² layer: Begin, which allocates the stroke and places the stamp on
// pixels no stamp of the stroke has seen (all its tiles to save, all its
// noise to compute), and End.
func BenchmarkFirstStamp(b *testing.B) {
	for _, k := range []Kind{Raise, Smooth, Noise} {
		b.Run(k.String(), func(b *testing.B) {
			l := randomLayer(1024, 1024, 1)
			br := Default(k)
			br.Radius = 64
			br.Strength = 0.01
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				s, _ := Begin(l, br, float64(100+i%800), 500)
				s.End()
			}
		})
	}
}

// BenchmarkStroke measures a whole stroke of radius 64 across a 1024²
// layer, from Begin to End, with its undo record.
func BenchmarkStroke(b *testing.B) {
	for _, k := range []Kind{Raise, Smooth, Noise} {
		b.Run(fmt.Sprintf("%v", k), func(b *testing.B) {
			l := randomLayer(1024, 1024, 1)
			br := Default(k)
			br.Radius = 64
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				s, _ := Begin(l, br, 64, 100)
				s.To(960, 900)
				s.End()
			}
		})
	}
}
