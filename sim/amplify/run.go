package amplify

import (
	"context"
	"math"
	"slices"

	"orogen/sim/flow"
	"orogen/sim/geology"
	"orogen/sim/parallel"
)

// windowMargin is the margin, coarse cells, Window amplifies around its
// cells: the final drainage pass there sees the same depressions as
// Amplify unless one spans more than the margin.
const windowMargin = 8

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
	hgt, riv, wat, err := p.fine(ctx, gx0, gy0, RW, RH, rx0, rx1)
	if err != nil {
		return nil, err
	}
	open := p.s.Param.Edges
	lets := func(interior bool, b flow.Boundary) bool { return interior || b != flow.Closed }
	d := drainer{w: RW, h: RH, hgt: hgt, wat: wat, riv: riv,
		north: lets(ry0 > 0, open.North), south: lets(ry1 < p.H, open.South),
		west: lets(rx0 > 0, open.West), east: lets(rx1 < p.W, open.East)}
	st, err := d.drain(ctx)
	if err != nil {
		return nil, err
	}
	r := &Result{W: w * F, H: h * F, Cell: p.fcell, Stats: st}
	r.Stats.Segments = len(p.segs)
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
		tmp := make([]float64, tx1-tx0)
		for y := lo; y < hi; y++ {
			gy := gy0 + y
			py := p.ph[gy%F]
			cy := gy / F
			var rows [4]int
			for j := range rows {
				rows[j] = min(max(cy+py.off+j, 0), p.H-1) * p.W
			}
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
	mu := p.meanCorrection(hgt, gx0/F, gy0/F, RW/F, RH/F)
	cw, ch := RW/F, RH/F
	parallel.Blocks(RH, bandRows, func(_, lo, hi int) {
		if ctx.Err() != nil {
			return
		}
		for y := lo; y < hi; y++ {
			Y := (float64(y)+0.5)/float64(F) - 0.5
			iy := int(math.Floor(Y))
			fy := Y - float64(iy)
			y0, y1 := min(max(iy, 0), ch-1), min(max(iy+1, 0), ch-1)
			out := hgt[y*RW : (y+1)*RW]
			for x := range out {
				X := (float64(x)+0.5)/float64(F) - 0.5
				ix := int(math.Floor(X))
				fx := X - float64(ix)
				x0, x1 := min(max(ix, 0), cw-1), min(max(ix+1, 0), cw-1)
				c := (1-fy)*((1-fx)*mu[y0*cw+x0]+fx*mu[y0*cw+x1]) + fy*((1-fx)*mu[y1*cw+x0]+fx*mu[y1*cw+x1])
				out[x] = float32(float64(out[x]) - c)
			}
		}
		p.carveBand(gx0, gy0+lo, RW, hi-lo, hgt[lo*RW:hi*RW], riv[lo*RW:hi*RW], wat[lo*RW:hi*RW])
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	return hgt, riv, wat, nil
}

// correctionSweeps and correctionOmega: the over-relaxed Jacobi sweeps of
// meanCorrection. The bilinear average operator has eigenvalues in
// [¼, 1], so ω = 1.6 gains a factor of 1/0.6 per sweep; six sweeps leave
// under 5 % of the detail's cell means (and reach 6 coarse cells, inside
// windowMargin).
const (
	correctionSweeps = 6
	correctionOmega  = 1.6
)

// meanCorrection returns, on the cw×ch coarse cells of a region from
// coarse cell (cx0, cy0), the values μ whose bilinear interpolation
// (centres at the coarse cell centres, border repeated) has, over every
// coarse cell, the mean by which the fine heights hgt exceed the coarse
// height there: subtracting it keeps the cell means that the detail's
// noise would move, smoothly. The operator mapping μ to cell means is
// separable with the stencil (⅛, ¾, ⅛) per axis.
func (p *prep) meanCorrection(hgt []float32, cx0, cy0, cw, ch int) []float64 {
	F := p.F
	RW := cw * F
	r := make([]float64, cw*ch)
	parallel.Blocks(ch, max(1, bandRows/F), func(_, lo, hi int) {
		for cy := lo; cy < hi; cy++ {
			for cx := range cw {
				var m float64
				for y := cy * F; y < (cy+1)*F; y++ {
					for _, v := range hgt[y*RW+cx*F : y*RW+(cx+1)*F] {
						m += float64(v)
					}
				}
				r[cy*cw+cx] = m/float64(F*F) - float64(p.s.Height[(cy0+cy)*p.W+cx0+cx])
			}
		}
	})
	mu := slices.Clone(r)
	tmp := make([]float64, cw*ch)
	am := make([]float64, cw*ch)
	for range correctionSweeps {
		for y := range ch {
			for x := range cw {
				row := mu[y*cw:]
				tmp[y*cw+x] = 0.125*row[max(x-1, 0)] + 0.75*row[x] + 0.125*row[min(x+1, cw-1)]
			}
		}
		for y := range ch {
			for x := range cw {
				am[y*cw+x] = 0.125*tmp[max(y-1, 0)*cw+x] + 0.75*tmp[y*cw+x] + 0.125*tmp[min(y+1, ch-1)*cw+x]
			}
		}
		for i := range mu {
			mu[i] += correctionOmega * (r[i] - am[i])
		}
	}
	return mu
}

// carveBand carves the river segments into the fine rows [gy, gy+n) of
// the region starting at column gx (heights h, river depth riv) and sets
// the lake water wat.
func (p *prep) carveBand(gx, gy, w, n int, h, riv, wat []float32) {
	F := p.F
	c := carver{f: F, cw: p.W, bedCell: p.bedCell}
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
