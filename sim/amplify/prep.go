package amplify

import (
	"context"
	"fmt"
	"math"

	"orogen/sim/engine"
	"orogen/sim/noise"
	"orogen/sim/parallel"
)

// prep is everything on the coarse grid that the fine cells read: computed
// once per call, over the whole snapshot, so that a window and the whole
// map see the same values.
type prep struct {
	s     *engine.Snapshot
	o     Options
	W, H  int
	F     int
	cell  float64 // coarse cell, m
	fcell float64 // fine cell, m

	ph   []phase   // the F phases of a fine cell in its coarse cell
	ctrl []float64 // control heights: the cubic through them averages to Height

	slope      []float32 // coarse slope, m/m (central differences)
	dirX, dirY []float32 // unit flow direction (down the gradient)
	tanT       []float32 // tangent of the talus angle
	lake       []bool    // coarse lake cells (Water > 0)
	level      []float32 // their level, m (Height + Water)
	bed        []float32 // bed top: the water surface, monotone downstream
	wlevel     []float32 // the lake level fine cells fill to (NaN: none)

	warp  *warp  // the base surface's displacement (nil: none)
	four  *prep  // at F = 2 displaced: the ×4 preparation the surface averages (nil: none)
	inner bool   // the ×4 preparation of a ×2 one (its run leaves the talus clamp to the ×2 run)
	river []bool // coarse cells that carry a bed (riverCells)

	segs    []segment
	bedCell []bool    // coarse cells a bed may cross: rivers and lakes
	byRow   [][]int32 // segments whose box meets each coarse row

	noises     []*noise.Noise // one per octave
	offX, offY []float64      // each coarse cell's hashed offset into the noise
	waves      []float64      // octave wavelengths across the flow, fine cells
}

// phase is where a fine cell sits in its coarse cell along one axis: the
// cubic's four taps start at coarse index c+off.
type phase struct {
	off int
	w   [4]float64
}

// catmullRom returns the Catmull-Rom weights of the taps at −1, 0, 1, 2 for
// a point t ∈ [0, 1) past tap 0.
func catmullRom(t float64) [4]float64 {
	t2, t3 := t*t, t*t*t
	return [4]float64{
		(-t3 + 2*t2 - t) / 2,
		(3*t3 - 5*t2 + 2) / 2,
		(-3*t3 + 4*t2 + t) / 2,
		(t3 - t2) / 2,
	}
}

// phases returns the F phases: fine cell k of a coarse cell has its centre
// at (k + ½)/F − ½ coarse cells from the coarse centre.
func phases(f int) []phase {
	ph := make([]phase, f)
	for k := range ph {
		x := (float64(k)+0.5)/float64(f) - 0.5
		b := math.Floor(x)
		ph[k] = phase{off: int(b) - 1, w: catmullRom(x - b)}
	}
	return ph
}

// minPrepCells is the parallel block size of coarse loops.
const minPrepCells = 4096

func prepare(ctx context.Context, s *engine.Snapshot, o Options) (*prep, error) {
	p := &prep{s: s, o: o, W: s.W, H: s.H, F: o.Factor, cell: s.Cell, fcell: s.Cell / float64(o.Factor)}
	p.ph = phases(p.F)
	p.gradient()
	if err := p.talus(); err != nil {
		return nil, err
	}
	p.lakes()
	p.river = p.riverCells()
	p.warp = p.newWarp()
	if p.warp != nil {
		p.solveControlWarp()
	} else {
		p.solveControl()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := p.bedTops(); err != nil {
		return nil, err
	}
	p.shores()
	p.rivers()
	p.detailSetup()
	if p.F == 2 && p.o.Warp > 0 {
		q, err := fourPrep(ctx, p)
		if err != nil {
			return nil, err
		}
		p.four = q
	}
	return p, ctx.Err()
}

// solveControl finds the control heights c whose Catmull-Rom upsample
// averages, over every coarse cell, to the coarse height: A·c = Height,
// where A (separable, a 5-tap stencil per axis, border cells repeated) is
// the cell average of the upsample. A is close to the identity (its
// eigenvalues lie in [0.79, 1] for F = 2, 4, 8; TestControlSolve), so
// the fixed-point iteration c ← c + (Height − A·c) gains a factor of at
// least 4.7 per sweep; it stops when the residual is below 10⁻⁶ of the
// relief or after 40 sweeps.
func (p *prep) solveControl() {
	var a [5]float64
	for _, ph := range p.ph {
		for j, w := range ph.w {
			a[ph.off+j+2] += w / float64(p.F)
		}
	}
	n := p.W * p.H
	h := p.s.Height
	c, tol := controlStart(h)
	ac := make([]float64, n)
	tmp := make([]float64, n)
	W, H := p.W, p.H
	for range 40 {
		// tmp = A_x c, ac = A_y tmp.
		parallel.Blocks(H, max(1, minPrepCells/W), func(_, y0, y1 int) {
			for y := y0; y < y1; y++ {
				row := c[y*W : (y+1)*W]
				for x := range W {
					var v float64
					for d := -2; d <= 2; d++ {
						v += a[d+2] * row[min(max(x+d, 0), W-1)]
					}
					tmp[y*W+x] = v
				}
			}
		})
		worst := make([]float64, parallel.NumBlocks(H, max(1, minPrepCells/W)))
		parallel.Blocks(H, max(1, minPrepCells/W), func(b, y0, y1 int) {
			m := 0.0
			for y := y0; y < y1; y++ {
				for x := range W {
					var v float64
					for d := -2; d <= 2; d++ {
						v += a[d+2] * tmp[min(max(y+d, 0), H-1)*W+x]
					}
					r := float64(h[y*W+x]) - v
					ac[y*W+x] = r
					m = max(m, math.Abs(r))
				}
			}
			worst[b] = m
		})
		if controlStep(c, ac, worst, tol) {
			break
		}
	}
	p.ctrl = c
}

// controlStart returns the iterative control solves' first guess, the
// heights, and their tolerance, a millionth of the relief.
func controlStart(h []float32) (c []float64, tol float64) {
	c = make([]float64, len(h))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, v := range h {
		c[i] = float64(v)
		lo, hi = min(lo, c[i]), max(hi, c[i])
	}
	return c, 1e-6 * max(hi-lo, 1e-3)
}

// controlStep ends a sweep of an iterative control solve: it reports
// whether the largest residual (the blocks' worst) is below tol, and
// otherwise adds the residuals r to c.
func controlStep(c, r, worst []float64, tol float64) (done bool) {
	m := 0.0
	for _, v := range worst {
		m = max(m, v)
	}
	if m < tol {
		return true
	}
	for i := range c {
		c[i] += r[i]
	}
	return false
}

// gradient sets the coarse slope and flow direction from central
// differences of the heights (one-sided at the border).
func (p *prep) gradient() {
	W, H := p.W, p.H
	h := p.s.Height
	n := W * H
	p.slope, p.dirX, p.dirY = make([]float32, n), make([]float32, n), make([]float32, n)
	parallel.Blocks(n, minPrepCells, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			x, y := i%W, i/W
			xa, xb := max(x-1, 0), min(x+1, W-1)
			ya, yb := max(y-1, 0), min(y+1, H-1)
			gx := float64(h[y*W+xb]-h[y*W+xa]) / (float64(xb-xa) * p.cell)
			gy := float64(h[yb*W+x]-h[ya*W+x]) / (float64(yb-ya) * p.cell)
			g := math.Hypot(gx, gy)
			p.slope[i] = float32(g)
			if g > 0 {
				p.dirX[i], p.dirY[i] = float32(-gx/g), float32(-gy/g)
			} else {
				p.dirX[i] = 1
			}
		}
	})
}

// talus sets the talus tangent per coarse cell from the snapshot's model
// (45° when it is off).
func (p *prep) talus() error {
	m := p.s.Param.Talus
	if err := m.Validate(); err != nil {
		return fmt.Errorf("amplify: the snapshot's talus model: %w", err)
	}
	l := m.Limiter(p.W, p.H, p.cell)
	p.tanT = make([]float32, p.W*p.H)
	for i := range p.tanT {
		t := l.Tan(i, p.s.Height[i])
		if math.IsInf(float64(t), 1) {
			t = 1 // no limit: 45°
		}
		p.tanT[i] = t
	}
	return nil
}

// lakes marks the coarse lake cells and their levels.
func (p *prep) lakes() {
	n := p.W * p.H
	p.lake = make([]bool, n)
	p.level = make([]float32, n)
	for i, h := range p.s.Height {
		p.level[i] = h
		if p.s.Water != nil && p.s.Water[i] > 0 {
			p.lake[i] = true
			p.level[i] = h + p.s.Water[i]
		}
	}
}

// bedTops sets the top of the river bed at every coarse cell so that it
// never rises downstream and a bed covering its cell keeps the cell's
// mean. The target top is the base surface at the cell's centre as the
// fine grid holds it (the mean of its four central fine cells: the
// cell's mean at F = 2, lower in a valley at larger factors, as a valley
// floor is) moved towards h + d̄ by the share φ = min(1, 2·hw/F) of the
// cell's width the bed covers (hw its half width, d̄ its mean depth
// across), or a lake's level. Tops are then made monotone by the mean of
// two envelopes that both never rise downstream: the lower one,
// min(top[i], lower[d] for every donor d) taken sources first, and the
// upper one, max(top[i], upper[receiver]) taken outlets first (lowering
// alone, as the lower envelope does, drags a whole river down to the
// deepest dip upstream of it). Receivers that form a cycle are an error.
func (p *prep) bedTops() error {
	n := p.W * p.H
	rec := p.s.Receivers
	in := make([]int32, n)
	for i, r := range rec {
		if int(r) != i {
			in[r]++
		}
	}
	p.bed = make([]float32, n)
	tops := make([]float32, n)
	up := make([]float32, n)
	for i := range up {
		up[i] = float32(math.Inf(1))
	}
	base := p.s.Height[0]
	for _, v := range p.s.Height {
		base = min(base, v)
	}
	queue := make([]int32, 0, n)
	for i := range n {
		if in[i] == 0 {
			queue = append(queue, int32(i))
		}
	}
	for k := 0; k < len(queue); k++ {
		i := queue[k]
		top := p.centre(int(i))
		{
			// The bed covers about φ = 2·hw/F of the cell's width, at
			// its mean depth d̄ below the top: move the top from the
			// valley floor towards h + d̄ by φ, so that a cell the bed
			// covers keeps its mean through the bed itself (the mean
			// correction moves only the dry cells beside it).
			dep, hw := p.hydraulic(p.s.Area[i])
			phi := min(1, 2*float64(hw)/float64(p.F))
			dbar := float64(dep) * (0.5 + (float64(hw)-0.5)*2/3) / float64(hw)
			top = float32(float64(top) + phi*(float64(p.s.Height[i])+dbar-float64(top)))
		}
		if p.warp != nil {
			top = max(top, base) // a trough below base level is floored
		}
		if p.lake[i] {
			top = p.level[i]
		}
		tops[i] = top
		z := min(top, up[i])
		p.bed[i] = z
		r := rec[i]
		if r == i {
			continue
		}
		up[r] = min(up[r], z)
		if in[r]--; in[r] == 0 {
			queue = append(queue, r)
		}
	}
	if len(queue) != n {
		return fmt.Errorf("amplify: the snapshot's receivers form a cycle (%d cells never reach an outlet): amplify needs a routed terrain", n-len(queue))
	}
	// The upper envelope, receivers first: the least heights at or above
	// the tops that never rise downstream.
	{
		U := make([]float32, n)
		for k := n - 1; k >= 0; k-- {
			i := queue[k]
			U[i] = tops[i]
			if r := rec[i]; r != i {
				U[i] = max(U[i], U[r])
			}
		}
		for i := range n {
			p.bed[i] = (p.bed[i] + U[i]) / 2
		}
	}
	return nil
}

// centre returns the mean of the base surface over the 2×2 fine cells at
// the centre of coarse cell i.
func (p *prep) centre(i int) float32 {
	cx, cy := i%p.W, i/p.W
	var sum float64
	if p.warp != nil && p.river[i] {
		return p.troughAcross(i)
	}
	if p.warp != nil {
		for _, ky := range [2]int{p.F/2 - 1, p.F / 2} {
			for _, kx := range [2]int{p.F/2 - 1, p.F / 2} {
				sum += p.baseAt(p.warp.source(p.F, cx*p.F+kx, cy*p.F+ky))
			}
		}
		return float32(sum / 4)
	}
	for _, ky := range [2]int{p.F/2 - 1, p.F / 2} {
		py := p.ph[ky]
		for _, kx := range [2]int{p.F/2 - 1, p.F / 2} {
			px := p.ph[kx]
			for j, wy := range py.w {
				row := min(max(cy+py.off+j, 0), p.H-1) * p.W
				for k, wx := range px.w {
					sum += wy * wx * p.ctrl[row+min(max(cx+px.off+k, 0), p.W-1)]
				}
			}
		}
	}
	return float32(sum / 4)
}

// shores sets the level the fine cells of each coarse cell fill to: a
// lake cell's own level; for a dry cell beside lake cells, the highest of
// their levels if the cell's bed top is not below it or it drains into
// the lake (a shore: the fine terrain there dips under the level where
// the shoreline wanders, and those dips are lake, not pits to fill; a
// cell below the level that does not drain into the lake is on its way
// out and stays dry); NaN elsewhere.
func (p *prep) shores() {
	n := p.W * p.H
	p.wlevel = make([]float32, n)
	nan := float32(math.NaN())
	for i := range n {
		if p.lake[i] {
			p.wlevel[i] = p.level[i]
			continue
		}
		p.wlevel[i] = nan
		x, y := i%p.W, i/p.W
		best := float32(math.Inf(-1))
		for k := range 8 {
			nx, ny := x+dx8[k], y+dy8[k]
			if nx >= 0 && ny >= 0 && nx < p.W && ny < p.H && p.lake[ny*p.W+nx] {
				best = max(best, p.level[ny*p.W+nx])
			}
		}
		inflow := p.lake[p.s.Receivers[i]]
		if !math.IsInf(float64(best), -1) && (p.bed[i] >= best || inflow) {
			p.wlevel[i] = best
		}
	}
}
