package geology

import "math"

// Above returns, at cell i, the layer directly above height z (the one a
// surface raised from z meets first: at a contact, the upper layer) and
// the height of that layer's top there (+Inf for the top layer, which
// extends up without end), always above z. It is Below's counterpart for
// engines whose erosion walks up the stack within a step
// (spl.Params.Above): a surface the uplift raises faster than its rock
// erodes meets the rock above.
func (g *Map) Above(i int, z float64) (layer int, top float64) {
	d := g.disp[i]
	l := g.layerOf(z - d)
	last := len(g.tops) - 1
	// Compared as Top computes the contact, so that the top returned lies
	// strictly above z whatever the rounding of z − d.
	for l < last && z >= g.tops[l]+d {
		l++
	}
	if l >= last {
		return last, math.Inf(1)
	}
	return l, g.tops[l] + d
}

// Top returns the height at cell i of the top of layer l (+Inf for the
// top layer).
func (g *Map) Top(i, l int) float64 {
	if l >= len(g.tops)-1 {
		return math.Inf(1)
	}
	return g.tops[l] + g.disp[i]
}
