package grid

import (
	"math"

	"orogen/sim/engine"
	"orogen/sim/noise"
	"orogen/sim/parallel"
)

// channelArea is the drainage area from which a cell is a channel, m²
// (Params.ChannelArea; 0: 100 cells).
func (e *Engine) channelArea() float64 {
	if e.p.ChannelArea > 0 {
		return e.p.ChannelArea
	}
	return 100 * e.cell * e.cell
}

// lakeLevels sets, for every position k of the drainage order, e.lake[k]
// to the index of the lake whose basin holds it (−1 outside lakes; e.lake
// is kept from step to step, −1 but in the last step's e.ranges) and,
// inside a basin, e.lvl[k] to the lake's water level, measured on the
// eroded heights e.hs (a basin's pass and outflow eroded with the rest);
// e.lvl outside the basins is left as it was, since spl.Deposit and
// spl.FillLakes read the level only inside them. e.ranges, e.vol and
// e.frac get one entry per lake (vol and frac zero).
func (e *Engine) lakeLevels() {
	g := e.g
	n := len(e.hs)
	e.lvl = resize32(e.lvl, n)
	if len(e.lake) != n {
		e.lake = make([]int32, n)
		parallel.Blocks(n, 1<<15, func(_, lo, hi int) {
			lake := e.lake[lo:hi]
			for k := range lake {
				lake[k] = -1
			}
		})
	} else {
		// Only the last step's basins (e.ranges) hold a lake's index:
		// back to −1.
		parallel.Blocks(len(e.ranges), 64, func(_, lo, hi int) {
			for _, r := range e.ranges[lo:hi] {
				lake := e.lake[r[0]:r[1]]
				for k := range lake {
					lake[k] = -1
				}
			}
		})
	}
	nl := len(g.Lakes)
	e.levels = resize32(e.levels, nl)
	e.vol, e.frac = resizeF(e.vol, nl), resizeF(e.frac, nl)
	clear(e.vol)
	clear(e.frac)
	if cap(e.ranges) < nl {
		e.ranges = make([][2]int32, nl)
	}
	e.ranges = e.ranges[:nl]
	for k, lk := range g.Lakes {
		l := e.hs[g.Pos[lk.Pass]]
		if lk.Outflow >= 0 {
			l = max(l, e.hs[g.Pos[lk.Outflow]])
		}
		if lk.Down >= 0 {
			l = max(l, e.levels[lk.Down])
		}
		e.levels[k] = l
		e.ranges[k] = [2]int32{lk.Start, lk.Start + lk.Len}
	}
	parallel.Blocks(nl, 64, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			r := e.ranges[k]
			lv, lake := e.lvl[r[0]:r[1]], e.lake[r[0]:r[1]]
			for j := range lv {
				lv[j], lake[j] = e.levels[k], int32(k)
			}
		}
	})
}

// sedimentOut returns the sediment that left through the roots of the
// drainage order (outlets and natural edges) in the last Deposit, m³,
// summed over the edge cells in grid order: the same for any number of
// workers.
func (e *Engine) sedimentOut() float64 {
	g := e.g
	var s float64
	add := func(i int) {
		if g.Rec[i] == int32(i) {
			s += e.out[g.Pos[i]]
		}
	}
	w, h := e.w, e.h
	for x := range w {
		add(x)
	}
	for y := 1; y < h-1; y++ {
		add(y * w)
		add(y*w + w - 1)
	}
	for x := range w {
		add((h-1)*w + x)
	}
	return s
}

func resize32(s []float32, n int) []float32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float32, n)
}

// K noise: the octaves of the fractal field on k.
const (
	kNoiseOctaves     = 6
	kNoisePersistence = 0.5
	kNoiseLacunarity  = 2
)

// KNoise returns k's factor exp(p.KNoise·z) per cell of a w×h grid of cell
// metres, z the seeded fractal noise of sim/noise divided by its standard
// deviation and clamped to ±3, its first octave of wavelength
// p.KNoiseWavelength (0: a quarter of the longer side); nil when
// p.KNoise is 0. dst and key are the last call's field and its key:
// when the key is unchanged dst is returned as is. The field is the same
// for any number of workers.
func KNoise(dst []float32, key [4]float64, w, h int, cell float64, p engine.Params) ([]float32, [4]float64) {
	if p.KNoise == 0 {
		return nil, [4]float64{}
	}
	lam := p.KNoiseWavelength
	if lam == 0 {
		lam = float64(max(w, h)) * cell / 4
	}
	k := [4]float64{p.KNoise, lam, float64(p.Seed), cell}
	if dst != nil && k == key && len(dst) == w*h {
		return dst, key
	}
	f := noise.NewFractal(noise.FractalSpec{Seed: p.Seed ^ 0x6b6e6f697365, Frequency: cell / lam,
		Octaves: kNoiseOctaves, Persistence: kNoisePersistence, Lacunarity: kNoiseLacunarity})
	sigma := noise.FBMStd(noise.Std2, kNoiseOctaves, kNoisePersistence)
	coord := func(n int) []float64 {
		c := make([]float64, n)
		for i := range c {
			c[i] = float64(i)
		}
		return c
	}
	var cols, rows noise.Axis
	f.SetX(&cols, coord(w))
	f.SetY(&rows, coord(h))
	out := make([]float32, w*h)
	parallel.Blocks(h, 16, func(_, y0, y1 int) {
		vs := make([]float64, w)
		for y := y0; y < y1; y++ {
			f.Grid(vs, &cols, 0, w, &rows, y, y+1)
			row := out[y*w : (y+1)*w]
			for x, v := range vs {
				z := min(3, max(-3, v/sigma))
				row[x] = float32(math.Exp(p.KNoise * z))
			}
		}
	})
	return out, k
}

// yields returns Σ max(0, hb − h)·cell² and Σ max(0, h − hb)·cell², m³,
// over the cells, h the heights after the step and hb those before its
// erosion, both in drainage order (e.hs and e.hb: the grid's heights are
// e.hs gathered back, so each cell is one position): what the stream
// power and the talus limit took and what the sediment left, gross.
// Partial sums per fixed block of positions, added in block order: the
// same for any number of workers.
func (e *Engine) yields() (lowered, raised float64) {
	n := len(e.hgt)
	hs, hb := e.hs[:n], e.hb[:n]
	nb := parallel.NumBlocks(n, volBlock)
	e.blockV = resizeF(e.blockV, nb)
	e.blockW = resizeF(e.blockW, nb)
	parallel.Blocks(n, volBlock, func(b, lo, hi int) {
		var lw, rs float64
		bb := hb[lo:hi]
		for k, h := range hs[lo:hi] {
			d := float64(bb[k]) - float64(h)
			if d > 0 {
				lw += d
			} else {
				rs -= d
			}
		}
		e.blockV[b], e.blockW[b] = lw, rs
	})
	for b := range nb {
		lowered += e.blockV[b]
		raised += e.blockW[b]
	}
	ca := e.cell * e.cell
	return lowered * ca, raised * ca
}

func resizeF(s []float64, n int) []float64 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float64, n)
}
