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
	c, tol := controlStart(h)
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
		if controlStep(c, r, worst, tol) {
			break
		}
	}
	p.ctrl = c
}

// warpSweeps is the displaced solve's number of sweeps (see
// solveControlWarp).
const warpSweeps = 4

// troughAcross returns the height a bed's top aims at in cell i on the
// displaced base, from the line across its flow (to its receiver) through
// the image of its centre. At ×8, the lowest displaced base within
// troughReach coarse cells of it: where the displaced surface has its
// valley floor. At ×4, the mean of the displaced base at bankReach
// either side: the bed's top at its banks, so that the bed takes its
// volume from the trough it lies in rather than from a lower trough
// beside it, which the mean correction then gave back to the hillslopes
// beside the bed (default preset 256² ×4: roughness 3.78 times the
// Jacksboro DEM's with the lowest within 0.6 cells, 3.05 within 0, 2.40
// with the banks at 0.25; at ×8 the banks' tops lose the cell means,
// 1.03 % of the relief at 128², and the power below the coarse cell
// falls under a third of the DEM's). Under StrictTalus, whose beds fall
// linearly between the node tops, the lowest, as at ×8: there the banks'
// tops left two beds' cells steeper than the talus angle towards each
// other (app/cli TestRunOutSize).
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
	if p.F == 4 && !p.o.StrictTalus {
		var sum float64
		for _, t := range [2]float64{-bankReach, bankReach} {
			px, py := X+t*nx, Y+t*ny
			ddx, ddy := p.warp.at(px, py)
			sum += p.baseAt(px-ddx, py-ddy)
		}
		return float32(sum / 2)
	}
	lo := math.Inf(1)
	for k := -troughSamples; k <= troughSamples; k++ {
		t := troughReach * float64(k) / troughSamples
		px, py := X+t*nx, Y+t*ny
		ddx, ddy := p.warp.at(px, py)
		lo = min(lo, p.baseAt(px-ddx, py-ddy))
	}
	return float32(lo)
}

// troughReach and troughSamples: the line troughAcross searches at ×8,
// coarse cells either side of the image of the centre, and its samples a
// side; bankReach: where it reads the banks at ×4 (0.1/0.2/0.3/0.4
// cells: roughness 2.87/2.50/2.42/2.99 times the DEM's at 256², worst
// cell mean 0.60/0.55/0.66/0.98 % of the relief).
const (
	troughReach   = 0.6
	troughSamples = 6
	bankReach     = 0.25
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
//
// By factor: at ×8 0.42; at ×4 0.378 (with the beds laid as in
// troughAcross, followTops and the carver's bank blend, default preset
// ×4 at 128²/256²/512²: imprint 1.078/1.068/1.061 and roughness 1.24/
// 1.72/2.46 times the Jacksboro DEM's, against 1.052/1.046/1.040 and
// 1.45/1.95/2.84 at 0.42; undisplaced 1.259/1.227/1.231 and 1.53/1.98/
// 2.54). At ×2, none: there every displacement that brings the imprint
// under 1.10 (0.42 to 0.48 cells) made the power below the coarse cell
// 2.5 to 3.6 times today's (128²: 8.7 against 2.8), from the beds and the
// drainage pass on the displaced troughs (the base alone 1.4), and no
// way of laying the beds tried brought it back (session 18, amp4). So ×2
// is the 2×2 mean of the ×4 result instead (via4.go), whose prep is ×4's
// with this bound.
func warpAmp(f int) float64 {
	switch f {
	case 2:
		return 0
	case 4:
		return 0.378
	}
	return 0.42
}
