// Package noise is seeded coherent (gradient) noise for procedural fields:
// the talus-angle modulation of Cordonnier et al. 2016, §6.4 (Fig. 17,
// "modulating the value by 3D Perlin noise") and any other seeded texture an
// engine needs.
//
// Noise2 and Noise3 are Perlin gradient noise on the integer lattice: a
// pseudo-random unit gradient g_c at every lattice corner c (one of 16
// directions 22.5° apart in 2D, one of the 12 cube-edge directions in 3D),
// and at a point p the quintic-faded (6t⁵ − 15t⁴ + 10t³) multilinear blend
// of the corner ramps g_c·(p − c). The value is 0 at every lattice point and
// the pattern repeats every 256 units along each axis. The gradients come
// from a permutation of 0..255 shuffled by math/rand/v2's PCG seeded with
// the seed passed to New; the global random source is never used, so a seed
// gives the same noise run after run and for any GOMAXPROCS.
//
// Range: with unit gradients each corner ramp is at most the distance to
// its corner. Along one axis the fade gives the corners at distance t and
// 1 − t the weights 1 − f(t) and f(t), and the weighted mean squared
// distance (1 − f(t))t² + f(t)(1 − t)² never exceeds 1/4 (on [0, 1/2] the
// convex f lies under the chord f(t) ≤ t). Since the weights are a product
// over axes, Jensen's inequality bounds the blend by √(N/4) in N
// dimensions; Noise2 and Noise3 are scaled by 2/√N so that |value| ≤ 1. The
// discrete gradient sets keep the measured extremes a little inside (about
// ±0.98 for Noise2 and ±0.81 for Noise3); Std2 and Std3 give the spread.
//
// A Fractal sums octaves o = 0..octaves−1 of Noise2 at frequency
// Frequency·Lacunarity^o and amplitude Persistence^o, each octave shifted
// by a fixed offset so the octaves' lattices do not line up, and divides by
// the sum of |amplitude|: the result stays within [−1, 1]. Its Grid
// evaluates whole grids of points (tiles of the Uplift Tree, brush rows,
// talus fields) at a third of the cost of point by point, to the same
// bits.
//
// A *Noise is immutable after New and safe for concurrent use.
package noise
