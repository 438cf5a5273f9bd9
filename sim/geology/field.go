package geology

import (
	"math"
	"slices"

	"orogen/sim/parallel"
)

// MinAlluvium is the alluvium thickness, m, from which a cell exposes
// alluvium rather than the rock beneath.
const MinAlluvium = 0.01

// Map is a Model laid on a W×H grid: the vertical displacement that undoing
// the deformations gives each cell, computed once, and a table that finds
// a layer from an undeformed elevation in constant time. Safe for
// concurrent use.
type Map struct {
	m          *Model
	W, H       int
	Cell       float64
	disp       []float64 // z0 = z − disp[i] at cell i
	binLo      []uint8   // layer at the bottom of the bin below each bin
	bin0, binW float64   // first bin's bottom, bins per metre
	tops       []float64 // the model's tops, the last +Inf
	fine       bool      // each bin holds at most one boundary (layerOf needs two tests)
}

// maxBins bounds the lookup table.
const maxBins = 1 << 16

// blockCells is the parallel block size of per-cell loops.
const blockCells = 16384

// Map lays the model on a w×h grid of the given cell size, metres.
func (m *Model) Map(w, h int, cell float64) *Map {
	if w <= 0 || h <= 0 || !(cell > 0) {
		panic("geology: bad grid size")
	}
	g := &Map{m: m, W: w, H: h, Cell: cell, disp: make([]float64, w*h)}
	parallel.Blocks(w*h, blockCells, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			x, y := (float64(i%w)+0.5)*cell, (float64(i/w)+0.5)*cell
			_, _, z0 := m.Undeform(x, y, 0)
			g.disp[i] = -z0
		}
	})
	bottom, top := m.base, m.tops[len(m.tops)-1]
	thin := math.Inf(1)
	for i := range m.tops {
		b, t := m.Bounds(i)
		thin = min(thin, t-b)
	}
	// Bins of half the thinnest layer: two bins hold at most one boundary.
	nb := int(math.Min(maxBins, math.Ceil(2*(top-bottom)/thin)+1))
	g.fine = float64(nb) >= 2*(top-bottom)/thin
	g.tops = append(slices.Clone(m.tops[:len(m.tops)-1]), math.Inf(1))
	g.bin0 = bottom
	g.binW = float64(nb) / (top - bottom)
	g.binLo = make([]uint8, nb+1)
	// Each bin starts from the layer one bin lower, so that rounding in
	// layerOf's bin index can never skip a boundary.
	for b := range g.binLo {
		g.binLo[b] = uint8(m.LayerOf(bottom + float64(b-1)/g.binW))
	}
	return g
}

// Model returns the model the map was laid from.
func (g *Map) Model() *Model { return g.m }

// Displacement returns the vertical displacement of cell i: a point at
// height z there lies at z − Displacement(i) in the undeformed stack.
func (g *Map) Displacement(i int) float64 { return g.disp[i] }

// layerOf is Model.LayerOf through the bin table.
func (g *Map) layerOf(z float64) int {
	t := (z - g.bin0) * g.binW
	if !(t > 0) {
		return g.m.LayerOf(z) // below the base, or NaN
	}
	if t >= float64(len(g.binLo)-1) {
		return len(g.m.tops) - 1
	}
	l := int(g.binLo[int(t)])
	tops := g.tops
	if g.fine {
		// Written so the compiler can use conditional moves: layers are
		// random enough from cell to cell that branches mispredict.
		n := l + 1
		if z < tops[l] {
			n = l
		}
		l = n
		n = l + 1
		if z < tops[l] {
			n = l
		}
		return n
	}
	for z >= tops[l] {
		l++
	}
	return l
}

// LayerAt returns the layer of cell i at height z.
func (g *Map) LayerAt(i int, z float64) int { return g.layerOf(z - g.disp[i]) }

// Exposed writes to dst, for every cell, the index of the layer at the
// surface heights (0 the bottom layer); cells with at least MinAlluvium of
// alluvium (nil: none) get NumLayers. The work is spread over GOMAXPROCS
// goroutines; the result does not depend on their number.
func (g *Map) Exposed(dst []uint8, heights, alluvium []float32) []uint8 {
	n := g.W * g.H
	if len(dst) != n || len(heights) != n || (alluvium != nil && len(alluvium) != n) {
		panic("geology: Exposed: field sizes differ from the map's")
	}
	na := uint8(g.m.NumLayers())
	parallel.Blocks(n, blockCells, func(_, lo, hi int) {
		d, hs, dp := dst[lo:hi], heights[lo:hi], g.disp[lo:hi]
		if !g.fine {
			for j := range d {
				d[j] = uint8(g.layerOf(float64(hs[j]) - dp[j]))
			}
		} else {
			// layerOf inlined by hand (it is too big for the compiler),
			// written with few branches. Clamping the bin index handles
			// both ends: bin 0 starts from layer 0, and the last bin's
			// tests reach the top layer, whose top is +Inf.
			tops, bins, b0, bw := g.tops, g.binLo, g.bin0, g.binW
			lastf := float64(len(bins) - 1)
			for j := range d {
				z := float64(hs[j]) - dp[j]
				t := (z - b0) * bw
				if t > lastf {
					t = lastf
				}
				ti := int(t) // NaN and −∞ give the most negative int
				if ti < 0 {
					ti = 0
				}
				l := int(bins[ti])
				n := l + 1
				if z < tops[l] {
					n = l
				}
				l = n
				n = l + 1
				if z < tops[l] {
					n = l
				}
				l = n
				d[j] = uint8(l)
			}
		}
		if alluvium != nil {
			for j, a := range alluvium[lo:hi] {
				if a >= MinAlluvium {
					d[j] = na
				}
			}
		}
	})
	return dst
}

// Factors returns, per layer index (NumLayers: alluvium), fn of its rock:
// a table the engines index with Exposed's output.
func (m *Model) Factors(fn func(Rock) float64) []float64 {
	t := make([]float64, m.NumLayers()+1)
	for i := range t {
		t[i] = fn(m.Rock(i))
	}
	return t
}

// Below returns, at cell i, the layer directly below height z (the one a
// surface lowered from z meets first: at a contact, the lower layer) and
// the height of that layer's bottom there (−Inf for the bottom layer,
// which extends down without end), always below z. Engines whose erosion crosses
// contacts within a step (spl.Params.Below) walk down the stack with it.
func (g *Map) Below(i int, z float64) (layer int, bottom float64) {
	d := g.disp[i]
	l := g.layerOf(z - d)
	// Compared as Bottom computes the contact, so that the bottom
	// returned lies strictly below z whatever the rounding of z − d.
	for l > 0 && z <= g.tops[l-1]+d {
		l--
	}
	if l == 0 {
		return 0, math.Inf(-1)
	}
	return l, g.tops[l-1] + d
}

// Bottom returns the height at cell i of the bottom of layer l (−Inf for
// the bottom layer).
func (g *Map) Bottom(i, l int) float64 {
	if l <= 0 {
		return math.Inf(-1)
	}
	return g.tops[l-1] + g.disp[i]
}
