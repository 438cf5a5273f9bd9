package amplify

import (
	"math"

	"orogen/sim/parallel"
)

// warpTaps is the side of a coarse cell's stencil in the displaced cell
// average: its fine cells sample the base up to 0.5 + warpAmp coarse
// cells from its centre, and the cubic reads one tap before and two after.
const warpTaps = 7

// warpStencil returns, per coarse cell, the weights of the control heights
// at offsets −3..3 (row-major 7×7) in the mean of its F² fine cells of the
// displaced base: A_w.
func (p *prep) warpStencil() [][warpTaps * warpTaps]float32 {
	n := p.W * p.H
	st := make([][warpTaps * warpTaps]float32, n)
	F := p.F
	inv := 1 / float64(F*F)
	parallel.Blocks(p.H, max(1, minPrepCells/(p.W*F*F)), func(_, y0, y1 int) {
		var acc [warpTaps * warpTaps]float64
		for cy := y0; cy < y1; cy++ {
			for cx := range p.W {
				acc = [warpTaps * warpTaps]float64{}
				for ky := range F {
					for kx := range F {
						X, Y := p.warp.source(F, cx*F+kx, cy*F+ky)
						bx, by := math.Floor(X), math.Floor(Y)
						wx, wy := catmullRom(X-bx), catmullRom(Y-by)
						ox, oy := int(bx)-1-cx+3, int(by)-1-cy+3
						for j, a := range wy {
							for k, b := range wx {
								acc[(oy+j)*warpTaps+ox+k] += a * b * inv
							}
						}
					}
				}
				c := &st[cy*p.W+cx]
				for k, v := range acc {
					c[k] = float32(v)
				}
			}
		}
	})
	return st
}

// solveControlWarp finds the control heights c whose displaced cubic
// averages, over every coarse cell, to the coarse height: A_w·c = Height,
// by the fixed-point sweeps of solveControl, stopped after warpSweeps: the
// near-Nyquist eigenvalues of A_w are about cos(π·s) of the undisplaced
// ones (s the local displacement), small past s ≈ 0.4 and negative past
// 0.5, so the sweeps there converge slowly or diverge and the exact
// solution amplifies knife-edge crests and valleys by 1/cos(π·s); the
// early stop leaves those modes to the mean corrections (a regulariser:
// on the 64² test terrain at ×4, 1/2/3/4 sweeps give imprint 1.17/1.12/
// 1.10/1.08).
func (p *prep) solveControlWarp() {
	st := p.warpStencil()
	W, H := p.W, p.H
	n := W * H
	h := p.s.Height
	c := make([]float64, n)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, v := range h {
		c[i] = float64(v)
		lo, hi = min(lo, c[i]), max(hi, c[i])
	}
	tol := 1e-6 * max(hi-lo, 1e-3)
	r := make([]float64, n)
	blk := max(1, minPrepCells/W)
	worst := make([]float64, parallel.NumBlocks(H, blk))
	for range warpSweeps {
		parallel.Blocks(H, blk, func(b, y0, y1 int) {
			m := 0.0
			for y := y0; y < y1; y++ {
				for x := range W {
					var v float64
					s := &st[y*W+x]
					for j := range warpTaps {
						row := min(max(y+j-3, 0), H-1) * W
						for k := range warpTaps {
							if w := s[j*warpTaps+k]; w != 0 {
								v += float64(w) * c[row+min(max(x+k-3, 0), W-1)]
							}
						}
					}
					d := float64(h[y*W+x]) - v
					r[y*W+x] = d
					m = max(m, math.Abs(d))
				}
			}
			worst[b] = m
		})
		m := 0.0
		for _, v := range worst {
			m = max(m, v)
		}
		if m < tol {
			break
		}
		for i := range c {
			c[i] += r[i]
		}
	}
	p.ctrl = c
}

// warpSweeps is the displaced solve's number of sweeps (see
// solveControlWarp).
const warpSweeps = 4

// troughAcross returns the lowest displaced base on the line across cell
// i's flow (to its receiver) through the image of its centre, within
// troughReach coarse cells of it: where the displaced surface has its
// valley floor, which the bed is laid on.
func (p *prep) troughAcross(i int) float32 {
	W, F := p.W, float64(p.F)
	r := int(p.s.Receivers[i])
	dx, dy := float64(r%W-i%W), float64(r/W-i/W)
	if l := math.Hypot(dx, dy); l > 0 {
		dx, dy = dx/l, dy/l
	} else {
		dx = 1
	}
	nx, ny := -dy, dx
	q := p.warp.image(p.F, (float64(i%W)+0.5)*F, (float64(i/W)+0.5)*F)
	X, Y := float64(q[0])/F-0.5, float64(q[1])/F-0.5
	lo := math.Inf(1)
	for k := -troughSamples; k <= troughSamples; k++ {
		t := troughReach * float64(k) / troughSamples
		px, py := X+t*nx, Y+t*ny
		ddx, ddy := p.warp.at(px, py)
		lo = min(lo, p.baseAt(px-ddx, py-ddy))
	}
	return float32(lo)
}

// troughReach and troughSamples: the line troughAcross searches, coarse
// cells either side of the image of the centre, and its samples a side.
const (
	troughReach   = 0.6
	troughSamples = 6
)

// warpAmp is the bound on each component of D at Options.Warp 1, coarse
// cells, by factor. D = warpAmp·erf(n/(σ√2)), n gradient noise of
// standard deviation σ: about uniform in (−warpAmp, warpAmp), so that
// crests take every place in their cells about equally. With the
// displacement inside the cell average (solveControlWarp) the bound
// trades the imprint against the troughs the solve needs: on the 64²
// test terrain, the base alone at ×4, 0.30 cells → imprint 1.23,
// deepest fine cell 169 m under its coarse height (90 m undisplaced);
// 0.36 → 1.15, 227 m; 0.42 → 1.06, 316 m; 0.48 → 0.94, 478 m (the
// sweeps no longer converge); 0.6 → the sweeps diverge.
func warpAmp(f int) float64 {
	if f == 2 {
		return 0.48
	}
	return 0.42
}

// riverTaper2 is D's taper on river cells at factor 2.
const riverTaper2 = 0.2
