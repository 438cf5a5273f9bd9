package spl

import (
	"fmt"
	"math"
)

// Params are the stream power law coefficients.
type Params struct {
	K  float64 // erodibility
	M  float64 // drainage area exponent
	N  float64 // slope exponent
	Dt float64 // time step, years
}

// Validate returns an error naming the first parameter out of range.
func (p Params) Validate() error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	switch {
	case bad(p.K) || p.K < 0:
		return fmt.Errorf("spl: k = %g: must be finite and >= 0", p.K)
	case bad(p.M) || p.M < 0 || p.M > 2:
		return fmt.Errorf("spl: m = %g: must be in [0, 2]", p.M)
	case bad(p.N) || p.N <= 0 || p.N > 4:
		return fmt.Errorf("spl: n = %g: must be in (0, 4]", p.N)
	case bad(p.Dt) || p.Dt < 0:
		return fmt.Errorf("spl: dt = %g: must be finite and >= 0", p.Dt)
	}
	return nil
}

// Erode updates h in place over the nodes of order, each after its receiver:
// uplift u (m/yr, nil for none) and stream power erosion with drainage area
// area. Nodes outside order are not touched.
func Erode(h []float32, order, rec []int32, dist []float32, area []float64, u []float32, p Params) {
	dt := p.Dt
	kdt := p.K * dt
	sqrtM := p.M == 0.5
	for _, i := range order {
		r := rec[i]
		var hr float64
		if r == i {
			if dist[i] == 0 {
				continue // fixed base level
			}
		} else {
			hr = float64(h[r])
		}
		a := float64(h[i])
		if u != nil {
			a += dt * float64(u[i])
		}
		var am float64
		if sqrtM {
			am = math.Sqrt(area[i])
		} else {
			am = math.Pow(area[i], p.M)
		}
		d := float64(dist[i])
		if p.N == 1 {
			f := kdt * am / d
			h[i] = float32((a + f*hr) / (1 + f))
			continue
		}
		f := kdt * am / math.Pow(d, p.N)
		h[i] = float32(hr + solveDelta(a-hr, f, p.N))
	}
}

// solveDelta returns the root δ of δ - δ0 + f·spow(δ, n) = 0, which lies
// between 0 and δ0.
func solveDelta(d0, f, n float64) float64 {
	if d0 == 0 || f == 0 {
		return d0
	}
	sign := 1.0
	if d0 < 0 {
		sign, d0 = -1, -d0
	}
	// g(δ) = δ - d0 + f δ^n is increasing on [0, d0] with g(0) < 0 < g(d0).
	lo, hi := 0.0, d0
	x := d0
	for it := 0; it < 200; it++ {
		pw := math.Pow(x, n)
		g := x - d0 + f*pw
		if g > 0 {
			hi = x
		} else {
			lo = x
		}
		dg := 1 + f*n*pw/x
		nx := x - g/dg
		if !(nx > lo && nx < hi) || x == 0 {
			nx = 0.5 * (lo + hi)
		}
		if math.Abs(nx-x) <= 1e-14*nx {
			x = nx
			break
		}
		x = nx
	}
	return sign * x
}
