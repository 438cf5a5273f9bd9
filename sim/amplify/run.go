package amplify

import (
	"context"
	"math"

	"orogen/sim/flow"
	"orogen/sim/geology"
	"orogen/sim/parallel"
)

// windowMargin is the margin, coarse cells, Window amplifies around its
// cells: the final drainage pass there sees the same depressions as
// Amplify unless one spans more than the margin.
const windowMargin = 16

// warpRounds is the number of rounds of (mean correction of the dry
// hillslopes, floor at base, drainage pass) after the first drainage pass
// with the displaced base: its troughs off the beds are depressions the
// pass fills (on the 64² test terrain at ×2 up to 42 m in a cell, 4.8 %
// of the relief; 1.3 % after one round, 0.5 % after three). The cells
// the first pass raised or cut stay out of the rounds' correction
// (lowered, a filled depression would open again and the next pass work
// as hard as the first). One: the base is displaced at ×4 and ×8 only,
// where one round leaves what three did at ×2.
const warpRounds = 1

// bandRows is the parallel block of fine rows.
const bandRows = 16

// floorDiv is ⌊a/b⌋ for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// run amplifies coarse cells [x0, x0+w) × [y0, y0+h).
func (p *prep) run(ctx context.Context, x0, y0, w, h int) (*Result, error) {
	F := p.F
	m := windowMargin
	if x0 == 0 && y0 == 0 && w == p.W && h == p.H {
		m = 0
	}
	rx0, ry0 := max(0, x0-m), max(0, y0-m)
	rx1, ry1 := min(p.W, x0+w+m), min(p.H, y0+h+m)
	gx0, gy0 := rx0*F, ry0*F
	RW, RH := (rx1-rx0)*F, (ry1-ry0)*F
	var hgt, riv, wat []float32
	var err error
	if p.four != nil {
		hgt, riv, wat, err = p.fineViaFour(ctx, rx0, ry0, rx1-rx0, ry1-ry0)
	} else {
		hgt, riv, wat, err = p.fine(ctx, gx0, gy0, RW, RH, rx0, rx1)
	}
	if err != nil {
		return nil, err
	}
	open := p.s.Param.Edges
	lets := func(interior bool, b flow.Boundary) bool { return interior || b != flow.Closed }
	d := drainer{w: RW, h: RH, hgt: hgt, wat: wat, riv: riv,
		north: lets(ry0 > 0, open.North), south: lets(ry1 < p.H, open.South),
		west: lets(rx0 > 0, open.West), east: lets(rx1 < p.W, open.East)}
	if p.four != nil {
		// The 2×2 means leave bumps along the averaged beds (a bed cell
		// holds bank too): the pass cuts through them rather than fill
		// the bed behind (filled, default preset at 256²: a cell mean
		// off by 1.2 % of the relief; cut, 0.7 %, 0.28 % after the
		// round).
		d.riv = make([]float32, RW*RH)
	}
	// With rounds to follow (the displaced base, step 6), the first pass
	// marks the cells it changes, and leaves the last few pits that its
	// local passes hand back and forth to the last round's pass: one
	// Priority-Flood over the region, not two.
	displaced := p.warp != nil || p.four != nil
	rounds := displaced && p.o.HydroSteps == 0
	if rounds {
		d.mark = make([]bool, RW*RH)
		d.partial = true
	}
	p.floorAtBase(hgt, wat, d.mark)
	st, err := d.drain(ctx)
	keep := d.mark
	d.partial, d.mark = false, nil
	if err != nil {
		return nil, err
	}
	if p.o.HydroSteps > 0 {
		if err := p.hydroPass(ctx, hgt, wat, RW, RH); err != nil {
			return nil, err
		}
		// It moves rock downhill: give the cells their means back (the
		// dry hillslopes move, as after the beds).
		// The pass deposits where water slows: drain again.
		s2, err := p.correctDrain(ctx, &d, hgt, riv, wat, nil, rx0, ry0, RW, RH, F)
		if err != nil {
			return nil, err
		}
		st.Pits += s2.Pits
		st.Raised += s2.Raised
	}
	if displaced {
		// The displaced base's troughs off the beds are depressions the
		// drainage pass filled: give the cells their means back on the
		// dry hillslopes, then drain what that left, warpRounds times.
		// The cells the pass raised or cut (and the beds) stay, but at
		// ×2 (fineViaFour).
		for k := range warpRounds {
			d.partial = k+1 < warpRounds
			cr, ck := riv, keep
			if p.four != nil {
				// The 2×2 means have no bed steps to keep: every dry
				// cell takes its share, the averaged beds and the cells
				// the pass cut or raised too (kept, the cells where they
				// are most of the four fine cells went uncorrected:
				// default preset at 256², worst mean 0.54 % of the
				// relief, 0.28 % so; `gradient` 0.89 %, 0.59 %).
				cr, ck = d.riv, nil
			}
			s2, err := p.correctDrain(ctx, &d, hgt, cr, wat, ck, rx0, ry0, RW, RH, F)
			if err != nil {
				return nil, err
			}
			st.Raised += s2.Raised
		}
		d.partial = false
	}
	if p.o.StrictTalus && !p.inner {
		if err := p.clampTalus(ctx, hgt, riv, wat, RW, RH, gx0, gy0); err != nil {
			return nil, err
		}
	}
	r := &Result{W: w * F, H: h * F, Cell: p.fcell, Stats: st}
	r.Stats.Segments = len(p.segs)
	if p.four != nil {
		r.Stats.Segments = len(p.four.segs)
	}
	if m == 0 {
		r.Height, r.River, r.Water = hgt, riv, wat
	} else {
		cx0, cy0 := (x0-rx0)*F, (y0-ry0)*F
		crop := func(f []float32) []float32 {
			out := make([]float32, r.W*r.H)
			for y := range r.H {
				copy(out[y*r.W:(y+1)*r.W], f[(cy0+y)*RW+cx0:])
			}
			return out
		}
		r.Height, r.River, r.Water = crop(hgt), crop(riv), crop(wat)
	}
	if p.s.Geology != nil {
		r.Rock = p.rock(r.Height, x0*F, y0*F, r.W, r.H)
	}
	return r, ctx.Err()
}

// tapRows returns fine row gy's phase in its coarse cell and the offsets
// of the four coarse rows its Catmull-Rom taps read (clamped at the
// edges).
func (p *prep) tapRows(gy int) (py phase, rows [4]int) {
	py = p.ph[gy%p.F]
	for j := range rows {
		rows[j] = min(max(gy/p.F+py.off+j, 0), p.H-1) * p.W
	}
	return py, rows
}

// correctDrain gives the region's coarse cells their means back on the
// cells the correction may move (riv's beds and keep's cells stay), then
// drains it again with d.
func (p *prep) correctDrain(ctx context.Context, d *drainer, hgt, riv, wat []float32, keep []bool, rx0, ry0, RW, RH, F int) (Stats, error) {
	cw, ch := RW/F, RH/F
	mu := p.meanCorrection(hgt, riv, wat, keep, rx0, ry0, cw, ch)
	parallel.Blocks(RH, bandRows, func(_, lo, hi int) {
		p.applyCorrection(hgt, riv, wat, keep, mu, RW, cw, ch, lo, hi)
	})
	p.floorAtBase(hgt, wat, nil)
	return d.drain(ctx)
}

// floorAtBase raises every dry fine cell below base level, the coarse
// terrain's lowest height, to it: the cubic base surface undershoots beside
// steep steps, along an outlet edge below the sea or the outlets' level,
// and the drainage pass that follows only cuts paths down to an outlet,
// never below it. The cell means move by the undershoot's share of the
// cell (a few metres over a coarse cell of an outlet edge). It marks
// the cells it raises in mark when mark is given.
func (p *prep) floorAtBase(hgt, wat []float32, mark []bool) {
	base := p.s.Height[0]
	for _, v := range p.s.Height {
		base = min(base, v)
	}
	for i, v := range hgt {
		if v < base && (wat == nil || !(wat[i] > 0)) {
			hgt[i] = base
			if mark != nil {
				mark[i] = true
			}
		}
	}
}

// fine returns the region's fine heights, river depths and lake water
// before the drainage pass: RW×RH fine cells from fine cell (gx0, gy0),
// coarse columns [rx0, rx1).
func (p *prep) fine(ctx context.Context, gx0, gy0, RW, RH, rx0, rx1 int) (hgt, riv, wat []float32, err error) {
	F := p.F
	hgt = make([]float32, RW*RH)
	riv = make([]float32, RW*RH)
	wat = make([]float32, RW*RH)
	tx0, tx1 := max(0, rx0-2), min(p.W, rx1+2) // the coarse columns the cubic reads
	parallel.Blocks(RH, bandRows, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		if p.warp != nil {
			// D by rows, as the cubic below: its Catmull-Rom taps
			// across the rows summed once per coarse column.
			w := p.warp
			tdx, tdy := make([]float64, tx1-tx0), make([]float64, tx1-tx0)
			for y := lo; y < hi; y++ {
				gy := gy0 + y
				py, rows := p.tapRows(gy)
				for cx := tx0; cx < tx1; cx++ {
					var vx, vy float64
					for j, r := range rows {
						vx += py.w[j] * w.dx[r+cx]
						vy += py.w[j] * w.dy[r+cx]
					}
					tdx[cx-tx0], tdy[cx-tx0] = vx, vy
				}
				Y := (float64(gy)+0.5)/float64(F) - 0.5
				out := hgt[y*RW : (y+1)*RW]
				for x := range out {
					gx := gx0 + x
					px := p.ph[gx%F]
					c := gx/F + px.off
					var dx, dy float64
					for j, wt := range px.w {
						k := min(max(c+j, 0), p.W-1) - tx0
						dx += wt * tdx[k]
						dy += wt * tdy[k]
					}
					X := (float64(gx)+0.5)/float64(F) - 0.5
					out[x] = float32(p.baseAt(X-dx, Y-dy) + p.detail(gx, gy))
				}
			}
			return
		}
		tmp := make([]float64, tx1-tx0)
		for y := lo; y < hi; y++ {
			gy := gy0 + y
			py, rows := p.tapRows(gy)
			for cx := tx0; cx < tx1; cx++ {
				var v float64
				for j, r := range rows {
					v += py.w[j] * p.ctrl[r+cx]
				}
				tmp[cx-tx0] = v
			}
			out := hgt[y*RW : (y+1)*RW]
			for x := range out {
				gx := gx0 + x
				px := p.ph[gx%F]
				c := gx/F + px.off
				var v float64
				for j, wt := range px.w {
					v += wt * tmp[min(max(c+j, 0), p.W-1)-tx0]
				}
				out[x] = float32(v + p.detail(gx, gy))
			}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	cx0, cy0, cw, ch := gx0/F, gy0/F, RW/F, RH/F
	mu := p.meanCorrection(hgt, nil, nil, nil, cx0, cy0, cw, ch)
	parallel.Blocks(RH, bandRows, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		p.applyCorrection(hgt, nil, nil, nil, mu, RW, cw, ch, lo, hi)
		p.carveBand(gx0, gy0+lo, RW, hi-lo, hgt[lo*RW:hi*RW], riv[lo*RW:hi*RW], wat[lo*RW:hi*RW])
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	// The beds took volume from their cells: give it back to the dry
	// hillslopes around them.
	mu = p.meanCorrection(hgt, riv, wat, nil, cx0, cy0, cw, ch)
	parallel.Blocks(RH, bandRows, func(_, lo, hi int) {
		p.applyCorrection(hgt, riv, wat, nil, mu, RW, cw, ch, lo, hi)
	})
	return hgt, riv, wat, ctx.Err()
}

// tent returns the bilinear corners (region coarse cells) and weights of
// fine cell x (region fine column or row) along one axis.
func tent(x, f, n int) (a, b int, wb float64) {
	X := (float64(x)+0.5)/float64(f) - 0.5
	i := int(math.Floor(X))
	return min(max(i, 0), n-1), min(max(i+1, 0), n-1), X - float64(i)
}

// applyCorrection subtracts the bilinear interpolation of mu from the
// fine rows [lo, hi) of hgt, but for bed and lake cells when riv and wat
// are given and for the cells keep marks when it is.
func (p *prep) applyCorrection(hgt, riv, wat []float32, keep []bool, mu []float64, RW, cw, ch, lo, hi int) {
	F := p.F
	for y := lo; y < hi; y++ {
		y0, y1, fy := tent(y, F, ch)
		for x := range RW {
			i := y*RW + x
			if (riv != nil && (riv[i] > 0 || wat[i] > 0)) || (keep != nil && keep[i]) {
				continue
			}
			x0, x1, fx := tent(x, F, cw)
			c := (1-fy)*((1-fx)*mu[y0*cw+x0]+fx*mu[y0*cw+x1]) + fy*((1-fx)*mu[y1*cw+x0]+fx*mu[y1*cw+x1])
			hgt[i] = float32(float64(hgt[i]) - c)
		}
	}
}

// correctionSweeps and correctionOmega: the over-relaxed Jacobi sweeps of
// meanCorrection. The bilinear average operator has eigenvalues in
// [¼, 1] (less where cells are masked), so ω = 1.6 gains a factor of at
// least 1/0.6 per sweep; six sweeps leave under 5 % of the cell means to
// correct, and reach 6 coarse cells (two corrections: 12, inside
// windowMargin).
const (
	correctionSweeps = 6
	correctionOmega  = 1.6
	// minFree is the least share of a coarse cell's fine cells that must
	// be free (not bed or lake) for its mean to be corrected.
	minFree = 0.25
)

// meanCorrection returns, on the cw×ch coarse cells of a region from
// coarse cell (cx0, cy0), the values μ whose bilinear interpolation
// (centres at the coarse cell centres, border repeated), applied to the
// free fine cells (all, or with riv and wat given those that are neither
// bed nor lake, nor marked in keep when it is given), moves every coarse cell's fine mean by the amount it
// exceeds the coarse height: subtracting it keeps the cell means,
// smoothly. Without a mask the operator is separable, (⅛, ¾, ⅛) per axis;
// with one, its 3×3 weights per cell are summed from the free cells.
func (p *prep) meanCorrection(hgt, riv, wat []float32, keep []bool, cx0, cy0, cw, ch int) []float64 {
	F := p.F
	RW := cw * F
	n := cw * ch
	r := make([]float64, n)
	op := make([][9]float64, n)
	inv := 1 / float64(F*F)
	parallel.Blocks(ch, max(1, bandRows/F), func(_, lo, hi int) {
		for cy := lo; cy < hi; cy++ {
			for cx := range cw {
				c := cy*cw + cx
				var m float64
				free := 0
				for y := cy * F; y < (cy+1)*F; y++ {
					y0, y1, fy := tent(y, F, ch)
					for x := cx * F; x < (cx+1)*F; x++ {
						i := y*RW + x
						m += float64(hgt[i])
						if (riv != nil && (riv[i] > 0 || wat[i] > 0)) || (keep != nil && keep[i]) {
							continue
						}
						free++
						x0, x1, fx := tent(x, F, cw)
						for _, k := range [4]struct {
							x, y int
							w    float64
						}{{x0, y0, (1 - fx) * (1 - fy)}, {x1, y0, fx * (1 - fy)}, {x0, y1, (1 - fx) * fy}, {x1, y1, fx * fy}} {
							op[c][(k.y-cy+1)*3+k.x-cx+1] += k.w * inv
						}
					}
				}
				if float64(free) < minFree*float64(F*F) {
					op[c] = [9]float64{}
					continue // too little left to move
				}
				r[c] = m*inv - float64(p.s.Height[(cy0+cy)*p.W+cx0+cx])
			}
		}
	})
	mu := make([]float64, n)
	am := make([]float64, n)
	for range correctionSweeps {
		parallel.Blocks(ch, max(1, bandRows/F), func(_, lo, hi int) {
			for cy := lo; cy < hi; cy++ {
				for cx := range cw {
					c := cy*cw + cx
					var v float64
					for k, w := range op[c] {
						if w != 0 {
							v += w * mu[(cy+k/3-1)*cw+cx+k%3-1]
						}
					}
					am[c] = v
				}
			}
		})
		for c := range mu {
			if op[c][4] != 0 {
				mu[c] += correctionOmega * (r[c] - am[c])
			}
		}
	}
	return mu
}

// carveBand carves the river segments into the fine rows [gy, gy+n) of
// the region starting at column gx (heights h, river depth riv) and sets
// the lake water wat.
func (p *prep) carveBand(gx, gy, w, n int, h, riv, wat []float32) {
	F := p.F
	c := carver{f: F, cw: p.W, bedCell: p.bedCell, warp: p.warp}
	c.reset(gx, gy, w, n)
	cyA, cyB := gy/F, (gy+n-1)/F
	for cy := cyA; cy <= cyB; cy++ {
		for _, id := range p.byRow[cy] {
			sg := &p.segs[id]
			if max(0, floorDiv(int(sg.by0), F), cyA) != cy {
				continue // carved from an earlier row of the band
			}
			c.carve(sg, float32(p.fcell))
		}
	}
	for y := range n {
		cy := (gy + y) / F
		for x := range w {
			i := y*w + x
			ci := cy*p.W + (gx+x)/F
			if c.shift != nil && !c.core[i] && !p.lake[ci] {
				h[i] += c.shift[i]
			}
			if v := c.v[i]; v < h[i] || (c.core[i] && !p.lake[ci]) {
				h[i] = v
				if c.core[i] {
					riv[i] = c.depth[i]
				}
			}
			if l := p.wlevel[ci]; !math.IsNaN(float64(l)) {
				wat[i] = max(0, l-h[i])
			}
		}
	}
}

// rock returns the exposed layer of the w×h fine cells from fine cell
// (fx0, fy0), heights h: the geology model laid at the fine cell centres
// (as geology.Map does on a grid), alluvium (the snapshot's, bilinear) on
// top where it is at least geology.MinAlluvium thick.
func (p *prep) rock(h []float32, fx0, fy0, w, ht int) []uint8 {
	m := p.s.Geology
	out := make([]uint8, w*ht)
	na := uint8(m.NumLayers())
	F := float64(p.F)
	parallel.Blocks(ht, bandRows, func(_, lo, hi int) {
		for y := lo; y < hi; y++ {
			gy := fy0 + y
			for x := range w {
				gx := fx0 + x
				i := y*w + x
				if al := p.s.Alluvium; al != nil {
					ci, cw := p.corners((float64(gx)+0.5)/F-0.5, (float64(gy)+0.5)/F-0.5)
					var a float64
					for k, c := range ci {
						a += cw[k] * float64(al[c])
					}
					if a >= geology.MinAlluvium {
						out[i] = na
						continue
					}
				}
				_, _, z0 := m.Undeform((float64(gx)+0.5)*p.fcell, (float64(gy)+0.5)*p.fcell, 0)
				out[i] = uint8(m.LayerOf(float64(h[i]) + z0))
			}
		}
	})
	return out
}
