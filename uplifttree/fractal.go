package uplifttree

import "orogen/sim/noise"

// newFractal is the seeded fBm of the Noise and NoiseWarp nodes: sim/noise's
// Fractal, whose Grid evaluates a tile of points laid out as a grid (every
// tile Rasterize evaluates outside transforms and warps) several times
// faster than point by point. offset tells NoiseWarp's two fields apart.
func newFractal(seed uint64, frequency float64, octaves int, persistence, lacunarity, offset float64) *noise.Fractal {
	return noise.NewFractal(noise.FractalSpec{Seed: seed, Frequency: frequency, Octaves: octaves,
		Persistence: persistence, Lacunarity: lacunarity, Offset: offset})
}

// gridShape reports whether the points form a grid: rows of nx points
// sharing one y, every row with the x values of the first.
func gridShape(xs, ys []float64) (nx int, ok bool) {
	n := len(xs)
	nx = 1
	for nx < n && ys[nx] == ys[0] {
		nx++
	}
	if n%nx != 0 {
		return 0, false
	}
	for r := nx; r < n; r += nx {
		y := ys[r]
		for i := range nx {
			if xs[r+i] != xs[i] || ys[r+i] != y {
				return 0, false
			}
		}
	}
	return nx, true
}

// span writes f at every point into dst, through Grid when the points form
// a grid. Both ways give the same bits.
func span(f *noise.Fractal, w *work, xs, ys, dst []float64) {
	nx, ok := gridShape(xs, ys)
	if !ok || nx < 2 || len(xs)/nx < 2 {
		for i := range dst {
			dst[i] = f.At(xs[i], ys[i])
		}
		return
	}
	ny := len(xs) / nx
	rows := w.get(ny)
	for j := range rows {
		rows[j] = ys[j*nx]
	}
	f.SetX(&w.cols, xs[:nx])
	f.SetY(&w.rows, rows)
	f.Grid(dst, &w.cols, 0, nx, &w.rows, 0, ny)
	w.put(rows)
}

// checkNoise validates the fBm parameters of Noise and NoiseWarp.
func checkNoise(freq float64, octaves int, pers, lac float64) *fieldError {
	if e := positive("frequency", freq); e != nil {
		return e
	}
	if octaves < 1 || octaves > maxOctaves {
		return ferr("octaves", "must lie in [1, %d], got %d", maxOctaves, octaves)
	}
	return first(inRange("persistence", pers, 0, 1), inRange("lacunarity", lac, 1, 8))
}
