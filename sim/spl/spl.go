package spl

import (
	"fmt"
	"math"

	"orogen/sim"
)

// Params are the stream power law coefficients.
type Params struct {
	K  float64 // erodibility
	M  float64 // drainage area exponent
	N  float64 // slope exponent
	Dt float64 // time step, years
	// KFactor, when not nil, multiplies K node by node, in the drainage
	// order of Erode's fields (differential erosion: the rock exposed at
	// each node, package geology). Values must be finite and >= 0.
	KFactor []float32
	// Hold keeps a node that lies below its receiver (a lake bottom
	// routed through its pass) at its uplifted height instead of raising
	// it toward the receiver: with sediment transport (Deposit) lakes
	// fill with the sediment that reaches them, not with rock the scheme
	// creates.
	Hold bool
	// Bottom, when not nil, lets k change with depth within the step
	// (layered rock, alluvium on rock; package geology): Bottom[k] is the
	// height, m, in the drainage order of Erode's fields, at which the
	// material node k exposes ends (the contact with what lies under it;
	// KFactor[k] is the exposed material's factor). A node whose solve
	// goes below its Bottom asks Below(k, z) for the factor of the
	// material directly under height z and the height of that
	// material's bottom (−Inf: none), and solves again with it: backward
	// Euler with k taken at the new height, so a step erodes each
	// material at its own k, and a node whose lower material cannot keep
	// up stops at the contact. Without it a thin soft cover (alluvium)
	// sets k for a whole step cut hundreds of metres into hard rock.
	// Needs KFactor. Below must be safe for concurrent use.
	Bottom []float32
	Below  func(k int, z float64) (factor, bottom float64)
	// Top and Above, when not nil, are Bottom and Below upward: Top[k]
	// is the height at which node k's material ends above (+Inf: none),
	// and a node whose solve rises above it asks Above(k, z) for the
	// factor of the material directly above height z and the height of
	// that material's top, and solves again with it (rise). With both
	// the material a node starts from is the one at its height before
	// the step, which the caller gives in KFactor, Bottom and Top: the
	// solve walks from there, down or up, to the first height where the
	// erosion balances, the root of backward Euler the step's own
	// trajectory reaches. Needs Bottom. Above must be safe for
	// concurrent use.
	Top   []float32
	Above func(k int, z float64) (factor, top float64)
}

// Validate returns an error naming the first parameter out of range.
func (p Params) Validate() error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	switch {
	case bad(p.K) || p.K < 0:
		return fmt.Errorf("spl: k = %g: must be finite and >= 0", p.K)
	case bad(p.M) || p.M < 0 || p.M > 2:
		return fmt.Errorf("spl: m = %g: must be in [0, 2]", p.M)
	case bad(p.N) || p.N <= 0 || p.N > 4:
		return fmt.Errorf("spl: n = %g: must be in (0, 4]", p.N)
	case bad(p.Dt) || p.Dt < 0:
		return fmt.Errorf("spl: dt = %g: must be finite and >= 0", p.Dt)
	}
	return nil
}

// Erode applies uplift and stream power erosion to the nodes at positions
// [lo, hi) of a drainage order. Fields are laid out in that order: hs[k] is
// the height of node k, rp[k] the position of its receiver (rp[k] < k, or k
// for a root), ds[k] the distance to the receiver, as[k] the drainage area
// and us[k] the uplift (us may be nil); p.KFactor[k], if given, multiplies
// k. Receivers must lie in [lo, hi) or
// before lo and be final already.
func Erode(hs []float32, rp []int32, ds []float32, as []float64, us []float32, lo, hi int, p Params) {
	dt := p.Dt
	kdt := p.K * dt
	sqrtM := p.M == 0.5
	linear := p.N == 1
	hs, rp, ds, as = hs[:hi], rp[:hi], ds[:hi], as[:hi]
	if us != nil {
		us = us[:hi]
	}
	kf := p.KFactor
	if kf != nil {
		kf = kf[:hi]
	}
	bot, top := p.Bottom, p.Top
	if bot != nil {
		bot = bot[:hi]
	}
	if top != nil {
		top = top[:hi]
	}
	for k := lo; k < hi; k++ {
		if kf != nil {
			kdt = p.K * dt * float64(kf[k])
		}
		r := int(rp[k])
		d := float64(ds[k])
		var hr float64
		if r == k {
			if d == 0 {
				continue // fixed base level
			}
		} else {
			hr = float64(hs[r])
		}
		a := float64(hs[k])
		if us != nil {
			a += dt * float64(us[k])
		}
		if p.Hold && a <= hr {
			hs[k] = float32(a)
			continue
		}
		var am float64
		if sqrtM {
			am = math.Sqrt(as[k])
		} else {
			am = math.Pow(as[k], p.M)
		}
		if linear {
			// h = (a + f hr)/(1 + f), written so the division does not
			// wait for hr: the chain from receiver to donor stays short.
			f := kdt * am / d
			c := 1 / (1 + f)
			v := a*c + (f*c)*hr
			if bot != nil && v < float64(bot[k]) {
				v = p.cross(k, a, hr, float64(bot[k]), am, d)
			} else if top != nil && v > float64(top[k]) {
				v = p.rise(k, a, hr, float64(top[k]), am, d)
			}
			hs[k] = sim.Flush(float32(v))
			continue
		}
		dn := math.Pow(d, p.N)
		f := kdt * am / dn
		v := hr + solveDelta(a-hr, f, p.N)
		if bot != nil && v < float64(bot[k]) {
			v = p.cross(k, a, hr, float64(bot[k]), am, dn)
		} else if top != nil && v > float64(top[k]) {
			v = p.rise(k, a, hr, float64(top[k]), am, dn)
		}
		hs[k] = sim.Flush(float32(v))
	}
}

// cross continues node k's solve below the contact z at which its exposed
// material ends, a the node's height before erosion, hr its receiver's
// new one, am = A^m and dn = d^n: material by material down the stack
// (Below), the height where the erosion of the material there balances,
// or a contact that the material under it cannot erode down to within
// the step. z lies above hr, as the exposed material's solution (never
// below hr) lay below it. The arithmetic is Erode's, so a material with
// the exposed one's factor gives Erode's heights bit for bit.
func (p *Params) cross(k int, a, hr, z, am, dn float64) float64 {
	for {
		fac, zb := p.Below(k, z)
		f := p.K * p.Dt * fac * am / dn
		// The residual of backward Euler at the contact with the lower
		// material's k, z − a + f·(z − hr)^n: not positive, and the
		// lower material's solution lies at or above the contact, out of
		// it, as the upper one's lay below: the node stops at the
		// contact.
		var v float64
		if p.N == 1 {
			if z-a+f*(z-hr) <= 0 {
				return z
			}
			c := 1 / (1 + f)
			v = a*c + (f*c)*hr
		} else {
			if z-a+f*math.Pow(z-hr, p.N) <= 0 {
				return z
			}
			v = hr + solveDelta(a-hr, f, p.N)
		}
		if !(v < zb) {
			return v
		}
		if !(zb < z) {
			return z // a Below that does not go down: stop rather than loop
		}
		z = zb
	}
}

// solveDelta returns the root δ of δ - δ0 + f·spow(δ, n) = 0, which lies
// between 0 and δ0.
func solveDelta(d0, f, n float64) float64 {
	if d0 == 0 || f == 0 {
		return d0
	}
	sign := 1.0
	if d0 < 0 {
		sign, d0 = -1, -d0
	}
	// g(δ) = δ - d0 + f δ^n is increasing on [0, d0] with g(0) < 0 < g(d0).
	lo, hi := 0.0, d0
	x := d0
	for it := 0; it < 200; it++ {
		pw := math.Pow(x, n)
		g := x - d0 + f*pw
		if g > 0 {
			hi = x
		} else {
			lo = x
		}
		dg := 1 + f*n*pw/x
		nx := x - g/dg
		if !(nx > lo && nx < hi) || x == 0 {
			nx = 0.5 * (lo + hi)
		}
		if math.Abs(nx-x) <= 1e-14*nx {
			x = nx
			break
		}
		x = nx
	}
	return sign * x
}
