package pitfill

import (
	"math"
	"math/rand/v2"
	"testing"

	"orogen/sim/cellheap"
)

// terrain returns w×h heights with many pits: a tilted plane with
// seeded noise, flat patches (ties), a plain at 0 (the subnormal steps)
// and a few deep holes.
func terrain(w, h int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 7))
	z := make([]float32, w*h)
	for y := range h {
		for x := range w {
			v := 0.3*float64(x) + 0.1*float64(y) + 4*r.Float64()
			if (x/5+y/7)%4 == 0 {
				v = math.Round(v) // flats: ties in the heap
			}
			if x < w/6 {
				v = 0 // a plain at base level
			}
			z[y*w+x] = float32(v)
		}
	}
	for range 6 {
		z[r.IntN(w*h)] -= 50
	}
	return z
}

// TestSameAsBefore: Fill gives, bit for bit, what the three
// Priority-Flood+ε loops it replaces gave (kept below as they were, from
// sim/analysis, sim/graph and sim/amplify), on terrains with pits, flats,
// a plain at 0 and lakes, for open, partly closed and lake outlets.
func TestSameAsBefore(t *testing.T) {
	for seed := range uint64(4) {
		w, h := 37+int(seed), 29
		z := terrain(w, h, seed)
		water := make([]float32, w*h)
		for i := range water {
			if i%97 == 3 {
				water[i] = 2
			}
		}
		edge := func(i int, north, south, west, east bool) bool {
			x, y := i%w, i/w
			return (y == 0 && north) || (y == h-1 && south) || (x == 0 && west) || (x == w-1 && east)
		}
		// sim/analysis: the open edges (here north and west closed).
		want, wantRaised := analysisFill(z, w, h, false, true, false, true)
		got := append([]float32(nil), z...)
		gotRaised := make([]bool, w*h)
		Fill(got, w, h, func(i int) (float32, bool) { return got[i], edge(i, false, true, false, true) }, Next,
			func(i int) { gotRaised[i] = true })
		same(t, "analysis", seed, got, want)
		for i := range gotRaised {
			if gotRaised[i] != wantRaised[i] {
				t.Fatalf("analysis seed %d: cell %d raised %v; want %v", seed, i, gotRaised[i], wantRaised[i])
			}
		}
		// sim/graph: every border cell and the lakes, heights, no subnormals.
		want = append([]float32(nil), z...)
		graphFill(want, water, w, h)
		got = append([]float32(nil), z...)
		Fill(got, w, h, func(i int) (float32, bool) {
			return got[i], edge(i, true, true, true, true) || water[i] > 0
		}, NextNormal, nil)
		same(t, "graph", seed, got, want)
		// sim/amplify: open edges and lakes at their surface.
		want = append([]float32(nil), z...)
		nw := amplifyFill(want, water, w, h, true, false, true, true)
		got = append([]float32(nil), z...)
		ng := Fill(got, w, h, func(i int) (float32, bool) {
			return got[i] + water[i], water[i] > 0 || edge(i, true, false, true, true)
		}, Next, nil)
		same(t, "amplify", seed, got, want)
		if ng != nw {
			t.Errorf("amplify seed %d: %d raised; want %d", seed, ng, nw)
		}
	}
}

func same(t *testing.T, who string, seed uint64, got, want []float32) {
	t.Helper()
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s seed %d: cell %d is %g (%#x); want %g (%#x)", who, seed, i, got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
		}
	}
}

// Afterwards every cell but the outlets has a strictly lower neighbour,
// and nothing went down.
func TestDrains(t *testing.T) {
	const w, h = 64, 48
	z := terrain(w, h, 9)
	f := append([]float32(nil), z...)
	outlet := func(i int) (float32, bool) { x, y := i%w, i/w; return f[i], x == 0 || y == 0 || x == w-1 || y == h-1 }
	n := Fill(f, w, h, outlet, NextNormal, nil)
	if n == 0 {
		t.Fatal("nothing raised on a terrain with pits")
	}
	for i := range f {
		if f[i] < z[i] {
			t.Fatalf("cell %d lowered from %g to %g", i, z[i], f[i])
		}
		if f[i] != 0 && math.Abs(float64(f[i])) < 0x1p-126 {
			t.Fatalf("cell %d subnormal (%g)", i, f[i])
		}
		if _, ok := outlet(i); ok {
			continue
		}
		x, y := i%w, i/w
		lower := false
		for d := range 8 {
			if f[(y+dy8[d])*w+x+dx8[d]] < f[i] {
				lower = true
			}
		}
		if !lower {
			t.Fatalf("cell (%d, %d) at %g has no lower neighbour after Fill", x, y, f[i])
		}
	}
}

func TestNextNormal(t *testing.T) {
	for _, c := range []struct{ v, want float32 }{{0, 0x1p-126}, {-0x1p-126, 0}, {1, math.Nextafter32(1, 2)}} {
		if got := NextNormal(c.v); got != c.want {
			t.Errorf("NextNormal(%g) = %g; want %g", c.v, got, c.want)
		}
	}
}

// The three loops Fill replaces, as they were (sim/analysis/fill.go,
// sim/graph/drain.go's fillPits, sim/amplify/drain.go's floodAll).

func analysisFill(h []float32, w, ht int, north, south, west, east bool) ([]float32, []bool) {
	n := w * ht
	filled := make([]float32, n)
	copy(filled, h)
	raised := make([]bool, n)
	done := make([]bool, n)
	var open cellheap.Heap[float32]
	seed := func(x, y int) {
		i := y*w + x
		if !done[i] {
			done[i] = true
			open.Push(int32(i), filled[i])
		}
	}
	for x := 0; x < w; x++ {
		if north {
			seed(x, 0)
		}
		if south {
			seed(x, ht-1)
		}
	}
	for y := 0; y < ht; y++ {
		if west {
			seed(0, y)
		}
		if east {
			seed(w-1, y)
		}
	}
	var pit []int32
	head := 0
	for open.Len() > 0 || head < len(pit) {
		var c int32
		if head < len(pit) {
			c = pit[head]
			head++
			if head == len(pit) {
				pit, head = pit[:0], 0
			}
		} else {
			c, _ = open.Pop()
		}
		cx, cy := int(c)%w, int(c)/w
		up := math.Nextafter32(filled[c], float32(math.Inf(1)))
		for d := range 8 {
			x, y := cx+dx8[d], cy+dy8[d]
			if x < 0 || y < 0 || x >= w || y >= ht {
				continue
			}
			j := int32(y*w + x)
			if done[j] {
				continue
			}
			done[j] = true
			if filled[j] <= up {
				if filled[j] < up {
					raised[j] = true
				}
				filled[j] = up
				pit = append(pit, j)
			} else {
				open.Push(j, filled[j])
			}
		}
	}
	return filled, raised
}

func graphFill(hgt, water []float32, w, h int) {
	done := make([]bool, w*h)
	var open cellheap.Heap[float32]
	seed := func(i int) {
		if !done[i] {
			done[i] = true
			open.Push(int32(i), hgt[i])
		}
	}
	for x := range w {
		seed(x)
		seed((h-1)*w + x)
	}
	for y := range h {
		seed(y * w)
		seed(y*w + w - 1)
	}
	for i, v := range water {
		if v > 0 {
			seed(i)
		}
	}
	var pit []int32
	head := 0
	for open.Len() > 0 || head < len(pit) {
		var c int32
		if head < len(pit) {
			c = pit[head]
			head++
			if head == len(pit) {
				pit, head = pit[:0], 0
			}
		} else {
			c, _ = open.Pop()
		}
		cx, cy := int(c)%w, int(c)/w
		up := NextNormal(hgt[c])
		for d := range 8 {
			x, y := cx+dx8[d], cy+dy8[d]
			if x < 0 || y < 0 || x >= w || y >= h {
				continue
			}
			j := int32(y*w + x)
			if done[j] {
				continue
			}
			done[j] = true
			if hgt[j] <= up {
				hgt[j] = up
				pit = append(pit, j)
			} else {
				open.Push(j, hgt[j])
			}
		}
	}
}

func amplifyFill(hgt, wat []float32, w, h int, north, south, west, east bool) int {
	surf := func(i int) float32 { return hgt[i] + wat[i] }
	edge := func(x, y int) bool {
		return (y == 0 && north) || (y == h-1 && south) || (x == 0 && west) || (x == w-1 && east)
	}
	n := w * h
	done := make([]bool, n)
	var open cellheap.Heap[float32]
	for i := range n {
		if wat[i] > 0 || edge(i%w, i/w) {
			done[i] = true
			open.Push(int32(i), surf(i))
		}
	}
	var pit []int32
	head, raised := 0, 0
	for open.Len() > 0 || head < len(pit) {
		var c int32
		if head < len(pit) {
			c = pit[head]
			head++
			if head == len(pit) {
				pit, head = pit[:0], 0
			}
		} else {
			c, _ = open.Pop()
		}
		up := math.Nextafter32(surf(int(c)), float32(math.Inf(1)))
		cx, cy := int(c)%w, int(c)/w
		for k := range 8 {
			x, y := cx+dx8[k], cy+dy8[k]
			if x < 0 || y < 0 || x >= w || y >= h {
				continue
			}
			j := int32(y*w + x)
			if done[j] {
				continue
			}
			done[j] = true
			if hgt[j] <= up && wat[j] == 0 {
				if hgt[j] < up {
					hgt[j] = up
					raised++
				}
				pit = append(pit, j)
			} else {
				open.Push(j, surf(int(j)))
			}
		}
	}
	return raised
}
