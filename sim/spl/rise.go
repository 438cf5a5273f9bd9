package spl

import "math"

// rise is cross upward: it continues node k's solve above the contact z
// at which its material ends above, a the node's height before erosion,
// hr its receiver's new one, am = A^m and dn = d^n: material by material
// up the stack (Above), the height where the erosion of the material
// there balances, or a contact that the material above erodes down to
// within the step (softer rock over harder: the node stops at it, as
// cross stops at a contact the harder rock under it cannot be eroded
// down to). z lies below a, as the lower material's solution (never
// above a) lay above it.
//
// Why the walk starts from the material at the node's height before the
// step (Params.Top): backward Euler with k taken at the new height has
// two roots where a harder rock lies over a softer one and both could
// hold the node, one in each rock (h − a + f(h)·(h − hr) is negative just
// above the contact, where f is the hard rock's, and positive just below
// it). Started from the material at the uplifted surface, the solve took
// the upper root whenever the uplift and the hillslope term carried the
// node above the contact by more than the hard rock erodes in a step, and
// the lower one otherwise; at a node that rests in the soft rock just
// under the contact, the hillslope term's few metres decided between
// them, and the node jumped by the step's uplift (62 m on `cuesta` at
// 128²) onto the hard rock, rose to the rest there over tens of steps,
// and moved its donors with it. Started from the node's own material,
// the solve keeps the root on the side the node starts from, the one the
// step's trajectory (uplift and erosion at once) reaches first.
func (p *Params) rise(k int, a, hr, z, am, dn float64) float64 {
	for {
		fac, zt := p.Above(k, z)
		f := p.K * p.Dt * fac * am / dn
		// The residual at the contact with the upper material's k: not
		// negative, and its solution lies at or below the contact, out
		// of it, as the lower one's lay above: the node stops there.
		var v float64
		if p.N == 1 {
			if z-a+f*(z-hr) >= 0 {
				return z
			}
			c := 1 / (1 + f)
			v = a*c + (f*c)*hr
		} else {
			if z > hr && z-a+f*math.Pow(z-hr, p.N) >= 0 {
				return z
			}
			v = hr + solveDelta(a-hr, f, p.N)
		}
		if !(v > zt) {
			return v
		}
		if !(zt > z) {
			return z // an Above that does not go up: stop rather than loop
		}
		z = zt
	}
}
