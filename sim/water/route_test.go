package water

import (
	"math"
	"math/rand/v2"
)

// testRoute routes a w×h grid of heights z by steepest descent (D8, ties
// to the first neighbour) the simple way and returns the Input an engine
// would give: border cells are outlets, interior cells with no lower
// neighbour are pits, and every pair of neighbouring cells in different
// basins is listed as a pass at the higher of their heights (unreduced,
// like sim/graph's candidate list). It is a test reference, not fast.
func testRoute(w, h int, cell float64, z []float32) *Input {
	n := w * h
	rec := make([]int32, n)
	dx := [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	dy := [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	for y := range h {
		for x := range w {
			i := y*w + x
			rec[i] = int32(i)
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				continue
			}
			best := 0.0
			for k := range 8 {
				j := (y+dy[k])*w + x + dx[k]
				d := 1.0
				if k&1 == 1 {
					d = math.Sqrt2
				}
				if s := float64(z[i]-z[j]) / d; s > best {
					best, rec[i] = s, int32(j)
				}
			}
		}
	}
	in := &Input{H: z, CellArea: cell * cell, Label: make([]int32, n)}
	// Basin of each cell: follow receivers to the root.
	basin := make([]int32, n)
	for i := range basin {
		basin[i] = -2
	}
	for i := range n {
		if int(rec[i]) == i {
			x, y := i%w, i/w
			if x == 0 || y == 0 || x == w-1 || y == h-1 {
				basin[i] = -1
			} else {
				basin[i] = int32(len(in.Root))
				in.Root = append(in.Root, int32(i))
			}
		}
	}
	var path []int32
	for i := range n {
		j := int32(i)
		for basin[j] == -2 {
			path = append(path, j)
			j = rec[j]
		}
		for _, k := range path {
			basin[k] = basin[j]
		}
		path = path[:0]
	}
	copy(in.Label, basin)
	for y := range h {
		for x := range w {
			i := y*w + x
			for k := range 4 { // E, SE, S, SW: each pair once
				nx, ny := x+dx[k], y+dy[k]
				if nx < 0 || ny < 0 || nx >= w || ny >= h {
					continue
				}
				j := ny*w + nx
				a, b := basin[i], basin[j]
				if a == b || (a < 0 && b < 0) {
					continue
				}
				node := int32(i)
				if a < 0 {
					a, b, node = b, a, int32(j)
				}
				in.Passes = append(in.Passes, Pass{A: a, B: b, H: max(z[i], z[j]), Node: node})
			}
		}
	}
	return in
}

// noisyTerrain returns smooth hills with noise: pits of many sizes.
func noisyTerrain(w, h int, amp float64, phase float64, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 3))
	z := make([]float32, w*h)
	for y := range h {
		for x := range w {
			fx, fy := float64(x)/float64(w), float64(y)/float64(h)
			v := 20*math.Sin(6*fx+phase)*math.Cos(5*fy-0.5*phase) + 30*fx*(1-fx)*fy*(1-fy)*4
			z[y*w+x] = float32(v + amp*rng.Float64() + 40)
		}
	}
	return z
}

// bruteVolume is Σ a·(L − h) over the nodes of the basins below L.
func bruteVolume(in *Input, s *solver, basins []int32, L float64) float64 {
	var v float64
	for _, b := range basins {
		for _, i := range s.nodesOf(b) {
			if d := L - float64(in.H[i]); d > 0 {
				v += in.area(i) * d
			}
		}
	}
	return v
}
