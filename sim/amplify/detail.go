package amplify

import (
	"math"

	"orogen/sim/noise"
)

// Detail shape. Each octave is |n| − meanAbs of gradient noise n sampled
// stretch times longer along the flow than across it: creases (V-shaped
// ravines) where n = 0, running down the slope, rounded spurs between.
const (
	stretch = 4.0
	// meanAbs is E|n| of noise.Noise2 (TestMeanAbs measures it), so that
	// an octave has no mean and the coarse heights are kept.
	meanAbs = 0.2445
	// detailGain is the slope an octave adds per unit of (slope headroom
	// × Detail): the amplitude of octave λ is detailGain·g·λ (g the
	// slope headroom). Set so that the power below the coarse cell
	// matches a real DEM's (TestSpectrum).
	detailGain = 0.35
	// steepShare is the least slope headroom, as a share of the slope:
	// slopes already at the talus angle still get ravines this deep.
	steepShare = 0.35
)

// detailSetup picks the octaves: wavelengths across the flow of F,
// F/2, ... fine cells down to 2 (the finest the fine grid holds): the
// scales the coarse grid cannot hold and no longer ones, whose mean over a
// coarse cell would move it; one
// noise each.
func (p *prep) detailSetup() {
	n := p.W * p.H
	p.offX, p.offY = make([]float64, n), make([]float64, n)
	for i := range n {
		p.offX[i] = 128 * (1 + unit(p.o.Seed, 3, i))
		p.offY[i] = 128 * (1 + unit(p.o.Seed, 4, i))
	}
	for l := p.F; l >= 2; l /= 2 {
		p.waves = append(p.waves, float64(l))
		p.noises = append(p.noises, noise.New(mix64(p.o.Seed^uint64(l)*0x51ed27)))
	}
}

// bilinear returns the bilinear blend of coarse field f at coarse
// coordinates (X, Y) (cell centres at integers), border repeated.
func (p *prep) corners(X, Y float64) (i [4]int, w [4]float64) {
	ix, iy := math.Floor(X), math.Floor(Y)
	fx, fy := X-ix, Y-iy
	x0, y0 := int(ix), int(iy)
	x1, y1 := min(max(x0+1, 0), p.W-1), min(max(y0+1, 0), p.H-1)
	x0, y0 = min(max(x0, 0), p.W-1), min(max(y0, 0), p.H-1)
	i = [4]int{y0*p.W + x0, y0*p.W + x1, y1*p.W + x0, y1*p.W + x1}
	w = [4]float64{(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy}
	return i, w
}

// detail returns the hillslope detail at fine cell (gx, gy), metres:
// flow-aligned ravines whose relief grows with the slope headroom
// g = Detail·min(S, tanθ − S)⁺ (none on flats and floodplains, none on
// slopes already at the talus angle, none in lakes). The pattern of each
// of the four nearest coarse cells (its own flow direction, its own hashed
// offset into the noise) is blended bilinearly with weights normalized to
// keep the variance.
func (p *prep) detail(gx, gy int) float64 {
	F := float64(p.F)
	X, Y := (float64(gx)+0.5)/F-0.5, (float64(gy)+0.5)/F-0.5
	ci, cw := p.corners(X, Y)
	var s, tn, lk float64
	for k, i := range ci {
		s += cw[k] * float64(p.slope[i])
		tn += cw[k] * float64(p.tanT[i])
		if p.lake[i] {
			lk += cw[k]
		}
	}
	g := p.o.Detail * min(s, max(math.Sqrt(max(0, tn*tn-s*s)), steepShare*s)) * (1 - lk)
	if g == 0 {
		return 0
	}
	var sum, w2 float64
	for k, i := range ci {
		if cw[k] == 0 {
			continue
		}
		cx, cy := float64(i%p.W), float64(i/p.W)
		qx, qy := float64(gx)+0.5-(cx+0.5)*F, float64(gy)+0.5-(cy+0.5)*F
		dx, dy := float64(p.dirX[i]), float64(p.dirY[i])
		u, v := qx*dx+qy*dy, qy*dx-qx*dy
		ox, oy := p.offX[i], p.offY[i]
		var val float64
		for o, l := range p.waves {
			n := p.noises[o].Noise2(ox+u/(stretch*l), oy+v/l)
			a := l
			if l == 2 {
				a = 1 // half: at two cells per wavelength the noise is at its Nyquist limit
			}
			val += a * (math.Abs(n) - meanAbs)
		}
		sum += cw[k] * val
		w2 += cw[k] * cw[k]
	}
	return detailGain * g * p.fcell * sum / math.Sqrt(w2)
}
