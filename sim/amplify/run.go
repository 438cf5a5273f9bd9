package amplify

import (
	"context"

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
	hgt := make([]float32, RW*RH)
	riv := make([]float32, RW*RH)
	wat := make([]float32, RW*RH)
	tx0, tx1 := max(0, rx0-2), min(p.W, rx1+2) // the coarse columns the cubic reads
	canceled := false
	parallel.Blocks(RH, bandRows, func(_, lo, hi int) {
		if ctx.Err() != nil {
			canceled = true
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
		p.carveBand(gx0, gy0+lo, RW, hi-lo, hgt[lo*RW:hi*RW], riv[lo*RW:hi*RW], wat[lo*RW:hi*RW])
	})
	if canceled || ctx.Err() != nil {
		return nil, ctx.Err()
	}
	open := p.s.Param.Edges
	lets := func(interior bool, b flow.Boundary) bool { return interior || b != flow.Closed }
	d := drainer{w: RW, h: RH, hgt: hgt, wat: wat,
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

// carveBand carves the river segments into the fine rows [gy, gy+n) of
// the region starting at column gx (heights h, river depth riv) and sets
// the lake water wat.
func (p *prep) carveBand(gx, gy, w, n int, h, riv, wat []float32) {
	F := p.F
	var c carver
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
			if p.lake[ci] {
				wat[i] = max(0, p.level[ci]-h[i])
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
