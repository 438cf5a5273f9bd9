package delaunay

import (
	"math"
	"math/big"
)

// Error-bound constants from Shewchuk (1997), "Adaptive Precision
// Floating-Point Arithmetic and Fast Robust Geometric Predicates", with
// eps = 2^-53, the unit roundoff of float64.
const (
	eps          = 1.0 / (1 << 53)
	ccwErrBoundA = (3 + 16*eps) * eps
	iccErrBoundA = (10 + 96*eps) * eps
)

// The relative bounds hold only when no product underflows (a difference
// never loses bits to underflow: a subnormal difference is exact). A
// product of k nonzero differences each at least 2^-(1020/k) in magnitude
// stays normal, so the fast path is taken only when every nonzero
// difference is at least that large: 2^-510 for orient (degree 2), 2^-255
// for in-circle (degree 4). Overflow makes the bound infinite or NaN and
// so also falls through to the exact path.
const (
	orientTiny   = 0x1p-510
	inCircleTiny = 0x1p-255
)

// small reports whether v is nonzero and below lim in magnitude.
func small(v, lim float64) bool { return v != 0 && math.Abs(v) < lim }

// exactPrec is enough mantissa bits for every intermediate of the exact
// predicates: a float64 difference spans at most 2^1024..2^-1074 (about
// 2100 bits), a product of two spans about 4200 bits, the in-circle terms
// (lift × cross) about 8400 bits; sums add a few carry bits.
const exactPrec = 8600

// orient returns a positive value if a, b, c turn counter-clockwise (y up),
// a negative value if clockwise and zero if they are collinear. The sign
// is exact.
func orient(a, b, c Point) float64 {
	acx, bcy := a.X-c.X, b.Y-c.Y
	acy, bcx := a.Y-c.Y, b.X-c.X
	detl := acx * bcy
	detr := acy * bcx
	det := detl - detr
	bound := ccwErrBoundA * (math.Abs(detl) + math.Abs(detr))
	if (det > bound || -det > bound) &&
		!small(acx, orientTiny) && !small(bcy, orientTiny) &&
		!small(acy, orientTiny) && !small(bcx, orientTiny) {
		return det
	}
	return orientExact(a, b, c)
}

// inCircle returns a positive value if d lies strictly inside the circle
// through a, b, c (given counter-clockwise), negative if outside and zero
// if the four points are cocircular. The sign is exact.
func inCircle(a, b, c, d Point) float64 {
	adx, ady := a.X-d.X, a.Y-d.Y
	bdx, bdy := b.X-d.X, b.Y-d.Y
	cdx, cdy := c.X-d.X, c.Y-d.Y
	bdxcdy, cdxbdy := bdx*cdy, cdx*bdy
	cdxady, adxcdy := cdx*ady, adx*cdy
	adxbdy, bdxady := adx*bdy, bdx*ady
	alift := adx*adx + ady*ady
	blift := bdx*bdx + bdy*bdy
	clift := cdx*cdx + cdy*cdy
	det := alift*(bdxcdy-cdxbdy) + blift*(cdxady-adxcdy) + clift*(adxbdy-bdxady)
	perm := (math.Abs(bdxcdy)+math.Abs(cdxbdy))*alift +
		(math.Abs(cdxady)+math.Abs(adxcdy))*blift +
		(math.Abs(adxbdy)+math.Abs(bdxady))*clift
	bound := iccErrBoundA * perm
	if (det > bound || -det > bound) &&
		!small(adx, inCircleTiny) && !small(ady, inCircleTiny) &&
		!small(bdx, inCircleTiny) && !small(bdy, inCircleTiny) &&
		!small(cdx, inCircleTiny) && !small(cdy, inCircleTiny) {
		return det
	}
	return inCircleExact(a, b, c, d)
}

func newExact() *big.Float { return new(big.Float).SetPrec(exactPrec) }

func sub(x, y float64) *big.Float {
	z := newExact().SetFloat64(x)
	return z.Sub(z, newExact().SetFloat64(y))
}

func mul(x, y *big.Float) *big.Float { return newExact().Mul(x, y) }

// orientExact evaluates the orientation determinant in exact arithmetic.
func orientExact(a, b, c Point) float64 {
	l := mul(sub(a.X, c.X), sub(b.Y, c.Y))
	r := mul(sub(a.Y, c.Y), sub(b.X, c.X))
	return float64(l.Cmp(r))
}

// inCircleExact evaluates the in-circle determinant in exact arithmetic.
func inCircleExact(a, b, c, d Point) float64 {
	adx, ady := sub(a.X, d.X), sub(a.Y, d.Y)
	bdx, bdy := sub(b.X, d.X), sub(b.Y, d.Y)
	cdx, cdy := sub(c.X, d.X), sub(c.Y, d.Y)
	lift := func(x, y *big.Float) *big.Float {
		z := mul(x, x)
		return z.Add(z, mul(y, y))
	}
	cross := func(x1, y1, x2, y2 *big.Float) *big.Float {
		z := mul(x1, y2)
		return z.Sub(z, mul(x2, y1))
	}
	det := mul(lift(adx, ady), cross(bdx, bdy, cdx, cdy))
	det.Add(det, mul(lift(bdx, bdy), cross(cdx, cdy, adx, ady)))
	det.Add(det, mul(lift(cdx, cdy), cross(adx, ady, bdx, bdy)))
	return float64(det.Sign())
}
