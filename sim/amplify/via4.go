package amplify

import (
	"context"
	"math"
)

// fourPrep returns the factor-4 preparation of snapshot s under options o
// (factor 2, displaced) whose result the factor-2 surface averages (step
// 1 of the package doc at F = 2): the same options but the factor, no
// hydraulic pass (it runs at ×2, after) and no geology (the layers are
// laid at the ×2 cells).
func fourPrep(ctx context.Context, p *prep) (*prep, error) {
	s4 := *p.s
	s4.Geology, s4.Alluvium = nil, nil
	o4 := p.o
	o4.Factor = 4
	o4.HydroSteps, o4.HydroPass = 0, nil
	q, err := prepare(ctx, &s4, o4)
	if err != nil {
		return nil, err
	}
	q.inner = true
	return q, nil
}

// fineViaFour returns the factor-2 fine heights, river depths and lake
// water of the coarse region [rx0, rx0+w) × [ry0, ry0+h) before the
// drainage pass: the 2×2 means of the factor-4 result over the region
// (every cell mean kept, the power below two fine cells of ×4's
// displaced base, beds and bank blend gone, the coarse grid's imprint
// with them: default preset at 256² 1.31 undisplaced, 1.08 so), the
// deepest ×4 bed of each 2×2 block as its river depth, the lake water
// to the coarse cell's shore level as run's carveBand sets it.
func (p *prep) fineViaFour(ctx context.Context, rx0, ry0, w, h int) (hgt, riv, wat []float32, err error) {
	r4, err := p.four.run(ctx, rx0, ry0, w, h)
	if err != nil {
		return nil, nil, nil, err
	}
	RW, RH := 2*w, 2*h
	hgt, riv, wat = make([]float32, RW*RH), make([]float32, RW*RH), make([]float32, RW*RH)
	W4 := r4.W
	for y := range RH {
		ci := (ry0+y/2)*p.W + rx0
		for x := range RW {
			k := 2*y*W4 + 2*x
			a, b, c, d := r4.Height[k], r4.Height[k+1], r4.Height[k+W4], r4.Height[k+W4+1]
			i := y*RW + x
			hgt[i] = ((a + b) + (c + d)) / 4
			riv[i] = max(max(r4.River[k], r4.River[k+1]), max(r4.River[k+W4], r4.River[k+W4+1]))
			if l := p.wlevel[ci+x/2]; !math.IsNaN(float64(l)) {
				wat[i] = max(0, l-hgt[i])
			}
		}
	}
	return hgt, riv, wat, ctx.Err()
}
