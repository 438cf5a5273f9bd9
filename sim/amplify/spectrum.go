package amplify

import (
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Roughness measures how much relief a heightmap holds below a scale:
// the power of heights h (w×ht cells, row-major) at wavelengths shorter
// than f cells divided by the power at wavelengths from f to 4f cells.
// The heights are detrended (the least-squares plane removed) and
// tapered by a 2D Hann window before the 2D discrete Fourier transform;
// a frequency (kx, ky), in cycles per cell, has the wavelength
// 1/√(kx² + ky²). A terrain amplified by f has this ratio at its coarse
// cell size; a real DEM has its own at f of its cells, which is how the
// tests compare them (the ratio depends on the slope of the spectrum, not
// on the units or the relief). It returns 0 when there is no power in the
// reference band.
func Roughness(h []float32, w, ht, f int) float64 {
	if len(h) != w*ht || w < 2 || ht < 2 {
		panic("amplify: Roughness: heights and size differ")
	}
	// Detrend: fit z = a + b·x + c·y by least squares (x and y centred, so
	// the normal equations are diagonal on a full grid).
	cx, cy := float64(w-1)/2, float64(ht-1)/2
	var sz, sxz, syz, sxx, syy float64
	for y := range ht {
		for x := range w {
			z := float64(h[y*w+x])
			dx, dy := float64(x)-cx, float64(y)-cy
			sz += z
			sxz += dx * z
			syz += dy * z
			sxx += dx * dx
			syy += dy * dy
		}
	}
	a, b, c := sz/float64(w*ht), sxz/sxx, syz/syy
	data := make([]complex128, w*ht)
	for y := range ht {
		wy := 0.5 - 0.5*math.Cos(2*math.Pi*float64(y)/float64(ht-1))
		for x := range w {
			wx := 0.5 - 0.5*math.Cos(2*math.Pi*float64(x)/float64(w-1))
			z := float64(h[y*w+x]) - a - b*(float64(x)-cx) - c*(float64(y)-cy)
			data[y*w+x] = complex(z*wx*wy, 0)
		}
	}
	row := fourier.NewCmplxFFT(w)
	buf := make([]complex128, max(w, ht))
	for y := range ht {
		r := data[y*w : (y+1)*w]
		row.Coefficients(r, r)
	}
	col := fourier.NewCmplxFFT(ht)
	for x := range w {
		cl := buf[:ht]
		for y := range ht {
			cl[y] = data[y*w+x]
		}
		col.Coefficients(cl, cl)
		for y := range ht {
			data[y*w+x] = cl[y]
		}
	}
	var high, mid float64
	for y := range ht {
		ky := float64(y) / float64(ht)
		if y > ht/2 {
			ky -= 1
		}
		for x := range w {
			kx := float64(x) / float64(w)
			if x > w/2 {
				kx -= 1
			}
			k := math.Hypot(kx, ky)
			if k == 0 {
				continue
			}
			p := cmplx.Abs(data[y*w+x])
			p *= p
			switch l := 1 / k; {
			case l < float64(f):
				high += p
			case l < 4*float64(f):
				mid += p
			}
		}
	}
	if mid == 0 {
		return 0
	}
	return high / mid
}
