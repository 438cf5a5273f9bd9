package graph

import (
	"cmp"
	"slices"
)

// SortSamples puts the samples (x[i], y[i], outlet[i]) in place in the
// Morton (Z-curve) order of square cells of side cell metres (the sampling
// distance is a good choice), points in one cell keeping their order. A
// mesh built from sorted samples keeps neighbouring nodes close in memory:
// the routing, the lakes and the layout then read mostly cached lines
// (measured at 160k nodes: a step 23 → 17 ms on one core, under load).
// The order is a function of the samples, so a seed still gives one mesh.
func SortSamples(x, y []float64, outlet []bool, cell float64) {
	n := len(x)
	type key struct {
		z uint64
		i int32
	}
	keys := make([]key, n)
	for i := range keys {
		keys[i] = key{morton(uint32(max(0, x[i]/cell)), uint32(max(0, y[i]/cell))), int32(i)}
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := cmp.Compare(a.z, b.z); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	xs, ys, os := slices.Clone(x), slices.Clone(y), slices.Clone(outlet)
	for k, kk := range keys {
		x[k], y[k], outlet[k] = xs[kk.i], ys[kk.i], os[kk.i]
	}
}

// morton interleaves the bits of x and y (x in the even bits).
func morton(x, y uint32) uint64 {
	return spread(x) | spread(y)<<1
}

// spread moves bit b of v to bit 2b.
func spread(v uint32) uint64 {
	z := uint64(v)
	z = (z | z<<16) & 0x0000ffff0000ffff
	z = (z | z<<8) & 0x00ff00ff00ff00ff
	z = (z | z<<4) & 0x0f0f0f0f0f0f0f0f
	z = (z | z<<2) & 0x3333333333333333
	z = (z | z<<1) & 0x5555555555555555
	return z
}
