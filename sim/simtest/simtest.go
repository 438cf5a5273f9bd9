// Package simtest builds the terrains and uplift fields that Orogen's engine
// tests and benchmarks share. Every generator is deterministic: random ones
// take a seed and use their own PCG source.
package simtest

import (
	"math"
	"math/rand/v2"
)

// TiltedPlane returns heights falling by slope metres per metre toward the
// west (x = 0) edge: h = slope · x · cell.
func TiltedPlane(w, h int, cell, slope float64) []float32 {
	d := make([]float32, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			d[y*w+x] = float32(slope * float64(x) * cell)
		}
	}
	return d
}

// Cone returns a cone peaking at the grid centre: h = top - slope · r, with r
// the distance to the centre in metres.
func Cone(w, h int, cell, top, slope float64) []float32 {
	d := make([]float32, w*h)
	cx, cy := float64(w-1)/2, float64(h-1)/2
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r := math.Hypot(float64(x)-cx, float64(y)-cy) * cell
			d[y*w+x] = float32(top - slope*r)
		}
	}
	return d
}

// Noisy returns white noise in [0, amp) plus a gentle bowl-free tilt, a
// terrain with thousands of depressions.
func Noisy(w, h int, amp float64, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 7))
	d := make([]float32, w*h)
	for i := range d {
		d[i] = float32(rng.Float64() * amp)
	}
	return d
}

// Rough returns a rough terrain with depressions at several scales: a sum of
// random bumps and pits over white noise.
func Rough(w, h int, amp float64, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 11))
	d := Noisy(w, h, amp*0.1, seed+1)
	for k := 0; k < 40; k++ {
		cx, cy := rng.Float64()*float64(w), rng.Float64()*float64(h)
		r := (0.03 + 0.15*rng.Float64()) * float64(max(w, h))
		a := amp * (rng.Float64()*2 - 0.7)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				q := (float64(x)-cx)*(float64(x)-cx) + (float64(y)-cy)*(float64(y)-cy)
				if q < r*r {
					t := 1 - q/(r*r)
					d[y*w+x] += float32(a * t * t * t)
				}
			}
		}
	}
	return d
}

// Uniform returns a field of w·h copies of v.
func Uniform(w, h int, v float32) []float32 {
	d := make([]float32, w*h)
	for i := range d {
		d[i] = v
	}
	return d
}

// Scale returns v multiplied by s.
func Scale(v []float32, s float64) []float32 {
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * s)
	}
	return out
}
