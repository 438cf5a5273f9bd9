package amplify

import (
	"math"

	"orogen/sim/noise"
	"orogen/sim/parallel"
)

// The base surface's sideways displacement (step 1 of the package doc).
// A grid terrain has its ridges and valleys at the coarse cell centres, so
// any interpolation of it puts its crests and thalwegs there: the fine
// cells astride a centre differ little and those astride a coarse cell's
// edge much (the coarse grid shows in the fine terrain, measured by
// Imprint: 1.45 at ×4 on the test terrain without it, 1.19 on the default
// preset at 256², the base surface alone). The base is therefore sampled
// at displaced points, x − D(x), D a smooth field: a crest at a coarse
// centre c lies at about c + D(c), anywhere in its cell.
const (
	// warpWave is D's wavelength, coarse cells: short enough that crests
	// along one ridge take different places in their cells, long enough
	// that x ↦ x − D(x) never folds the surface over (the determinant of
	// its Jacobian stays above 0.37 at ×4 and ×8, bound 0.42 cells, and
	// 0.25 at ×2, bound 0.48, on the test terrains; at a wavelength of 4
	// and a bound of 0.6 it reaches −0.19).
	warpWave = 6.0
	// warpEdge is the band of coarse cells along the map's edges where D
	// is 0 at the centres: the base there keeps the outlets' level, which
	// a displaced steep slope would pull its edge cells off.
	warpEdge = 2
	// warpCalm is the ring of coarse cells around a lake cell where D is
	// 0 at the centres: the shores (their beds and water, which keep the
	// cell means there, are laid on the undisplaced base) and one ring
	// more; the cubic interpolation of D reaches their fine cells only by
	// its small outer lobes (a ring of 3 keeps them at exactly 0 but
	// leaves more of the test terrain undisplaced: its ×2 imprint 1.106).
	warpCalm = 2
)

// warp is the displacement field D, in coarse cells: at the coarse
// centres warpAmp times the noise mapped to about uniform (erf) times a
// taper, 1 but on lakes, the cells beside them (the lake fill and shores
// read the coarse cells there; a lake floor needs no displacement) and
// the edge band, where it is 0; Catmull-Rom between the centres.
type warp struct {
	nx, ny *noise.Noise
	amp    float64   // warpAmp(F)·Options.Warp
	taper  []float32 // per coarse cell
	dx, dy []float64 // D at the coarse centres (tabulate)
	W, H   int
}

// newWarp returns the warp of p (nil when Options.Warp turns it off, and
// at factor 2: see warpAmp).
func (p *prep) newWarp() *warp {
	if p.o.Warp <= 0 || warpAmp(p.F) == 0 {
		return nil
	}
	n := p.W * p.H
	w := &warp{nx: noise.New(mix64(p.o.Seed ^ 0x9e3779b97f4a7c15)), ny: noise.New(mix64(p.o.Seed ^ 0xc2b2ae3d27d4eb4f)),
		amp: warpAmp(p.F) * p.o.Warp, taper: make([]float32, n), W: p.W, H: p.H}
	for i := range n {
		x, y := i%p.W, i/p.W
		if x >= warpEdge && y >= warpEdge && x < p.W-warpEdge && y < p.H-warpEdge {
			w.taper[i] = 1
		}
	}
	for i, l := range p.lake {
		if !l {
			continue
		}
		x, y := i%p.W, i/p.W
		for dy := -warpCalm; dy <= warpCalm; dy++ {
			for dx := -warpCalm; dx <= warpCalm; dx++ {
				if xx, yy := x+dx, y+dy; xx >= 0 && yy >= 0 && xx < p.W && yy < p.H {
					w.taper[yy*p.W+xx] = 0
				}
			}
		}
	}
	w.tabulate()
	return w
}

// erfScale maps the noise to erf's argument: n/(σ√2).
var erfScale = 1 / (noise.Std2 * math.Sqrt2)

// tabulate sets D at the coarse centres: warpAmp·taper·erf(n/(σ√2)) of
// the two noises; at interpolates it (Catmull-Rom, border repeated), so
// that the noise and erf are evaluated once per coarse cell rather than
// per fine cell and per fixed-point step.
func (w *warp) tabulate() {
	n := w.W * w.H
	w.dx, w.dy = make([]float64, n), make([]float64, n)
	parallel.Blocks(n, minPrepCells, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			t := float64(w.taper[i])
			if t == 0 {
				continue
			}
			u, v := float64(i%w.W)/warpWave+0.37, float64(i/w.W)/warpWave+0.71
			a := w.amp * t
			w.dx[i] = a * math.Erf(erfScale*w.nx.Noise2(u, v))
			w.dy[i] = a * math.Erf(erfScale*w.ny.Noise2(u, v))
		}
	})
}

// at returns D at coarse coordinates (X, Y) (cell centres at integers).
func (w *warp) at(X, Y float64) (dx, dy float64) {
	bx, by := math.Floor(X), math.Floor(Y)
	wx, wy := catmullRom(X-bx), catmullRom(Y-by)
	x0, y0 := int(bx)-1, int(by)-1
	for j, a := range wy {
		row := min(max(y0+j, 0), w.H-1) * w.W
		var rx, ry float64
		for k, b := range wx {
			c := row + min(max(x0+k, 0), w.W-1)
			rx += b * w.dx[c]
			ry += b * w.dy[c]
		}
		dx += a * rx
		dy += a * ry
	}
	return dx, dy
}

// source returns the point fine cell (gx, gy) samples the base at, in
// coarse coordinates: its centre less D.
func (w *warp) source(f, gx, gy int) (X, Y float64) {
	X = (float64(gx)+0.5)/float64(f) - 0.5
	Y = (float64(gy)+0.5)/float64(f) - 0.5
	if w == nil {
		return X, Y
	}
	dx, dy := w.at(X, Y)
	return X - dx, Y - dy
}

// cellOf returns the coarse cell whose part of the base fine cell (gx,
// gy) shows: the cell holding its source point (w not nil).
func (w *warp) cellOf(f, gx, gy int) int {
	X, Y := w.source(f, gx, gy)
	cx := min(max(int(math.Floor(X+0.5)), 0), w.W-1)
	cy := min(max(int(math.Floor(Y+0.5)), 0), w.H-1)
	return cy*w.W + cx
}

// baseAt evaluates the Catmull-Rom base surface at coarse coordinates
// (X, Y): the 4×4 control heights around it, border repeated.
func (p *prep) baseAt(X, Y float64) float64 {
	bx, by := math.Floor(X), math.Floor(Y)
	wx, wy := catmullRom(X-bx), catmullRom(Y-by)
	x0, y0 := int(bx)-1, int(by)-1
	var v float64
	for j, a := range wy {
		row := min(max(y0+j, 0), p.H-1) * p.W
		var r float64
		for k, b := range wx {
			r += b * p.ctrl[row+min(max(x0+k, 0), p.W-1)]
		}
		v += a * r
	}
	return v
}

// image returns where the base shows the point (fx, fy), fine units
// (fine cell centres at half-integers): the x with x − D(x) = (fx, fy),
// by fixed-point iteration (it converges while the map does not fold;
// 16 steps). A river bed's points go there, into the valley the
// displaced base has. Nil: the point itself.
func (w *warp) image(f int, fx, fy float64) [2]float32 {
	if w == nil {
		return [2]float32{float32(fx), float32(fy)}
	}
	X, Y := fx/float64(f)-0.5, fy/float64(f)-0.5
	x, y := X, Y
	for range 8 {
		dx, dy := w.at(x, y)
		x, y = X+dx, Y+dy
	}
	return [2]float32{float32((x + 0.5) * float64(f)), float32((y + 0.5) * float64(f))}
}
