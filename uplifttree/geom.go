package uplifttree

import "math"

// Point is a position or a vector in world metres (x east, y south).
type Point struct{ X, Y float64 }

// Rect is an axis-aligned rectangle in world metres, closed on all sides:
// it holds the points with X0 ≤ x ≤ X1 and Y0 ≤ y ≤ Y1. A Rect with X0 > X1
// or Y0 > Y1 is empty; sides may be infinite.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Empty is the canonical empty rectangle, the identity of Union.
var Empty = Rect{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}

// Everywhere is the whole plane, returned as the dirty rectangle of an edit
// whose effect cannot be bounded.
var Everywhere = Rect{math.Inf(-1), math.Inf(-1), math.Inf(1), math.Inf(1)}

// IsEmpty reports whether r holds no point. A rectangle with a NaN side is
// empty.
func (r Rect) IsEmpty() bool { return !(r.X0 <= r.X1 && r.Y0 <= r.Y1) }

// Overlaps reports whether r and s share a point.
func (r Rect) Overlaps(s Rect) bool {
	return r.X0 <= s.X1 && s.X0 <= r.X1 && r.Y0 <= s.Y1 && s.Y0 <= r.Y1
}

// Contains reports whether p lies in r.
func (r Rect) Contains(p Point) bool {
	return r.X0 <= p.X && p.X <= r.X1 && r.Y0 <= p.Y && p.Y <= r.Y1
}

// Union returns the smallest rectangle holding r and s.
func (r Rect) Union(s Rect) Rect {
	if r.IsEmpty() {
		return s
	}
	if s.IsEmpty() {
		return r
	}
	return Rect{min(r.X0, s.X0), min(r.Y0, s.Y0), max(r.X1, s.X1), max(r.Y1, s.Y1)}
}

// Intersect returns the common part of r and s (possibly empty).
func (r Rect) Intersect(s Rect) Rect {
	q := Rect{max(r.X0, s.X0), max(r.Y0, s.Y0), min(r.X1, s.X1), min(r.Y1, s.Y1)}
	if q.IsEmpty() {
		return Empty
	}
	return q
}

// finite reports whether every side of r is finite.
func (r Rect) finite() bool {
	return !math.IsInf(r.X0, 0) && !math.IsInf(r.Y0, 0) && !math.IsInf(r.X1, 0) && !math.IsInf(r.Y1, 0) &&
		!math.IsNaN(r.X0+r.Y0+r.X1+r.Y1)
}

// expand grows r by ex on the left and right and ey on the top and bottom.
func (r Rect) expand(ex, ey float64) Rect {
	if r.IsEmpty() {
		return r
	}
	return Rect{r.X0 - ex, r.Y0 - ey, r.X1 + ex, r.Y1 + ey}
}

// shift returns r translated by v.
func (r Rect) shift(v Point) Rect {
	if r.IsEmpty() {
		return r
	}
	return Rect{r.X0 + v.X, r.Y0 + v.Y, r.X1 + v.X, r.Y1 + v.Y}
}

// padRel is the relative margin every computed bounding box gets, far above
// the rounding error of the few operations between a box and the values it
// bounds (a few ulps, 1e-16 relative), so that a point outside a padded box
// is outside the exact support too and the node there takes exactly its
// outside value.
const padRel = 1e-9

// pad grows r by padRel times its largest coordinate magnitude.
func (r Rect) pad() Rect {
	if r.IsEmpty() || !r.finite() {
		return r
	}
	m := max(math.Abs(r.X0), math.Abs(r.X1), math.Abs(r.Y0), math.Abs(r.Y1), r.X1-r.X0, r.Y1-r.Y0)
	e := padRel*m + 1e-300
	return r.expand(e, e)
}

// around returns the square of half-side h around c.
func around(c Point, h float64) Rect { return Rect{c.X - h, c.Y - h, c.X + h, c.Y + h} }

// affine is the map p ↦ (A·p + t) stored as a 2×3 matrix.
type affine struct{ a, b, c, d, tx, ty float64 }

// apply returns the image of (x, y).
func (m *affine) apply(x, y float64) (float64, float64) {
	return m.a*x + m.b*y + m.tx, m.c*x + m.d*y + m.ty
}

// rect returns the axis-aligned box around the image of r, padded. An
// unbounded r maps to Everywhere.
func (m *affine) rect(r Rect) Rect {
	if r.IsEmpty() {
		return r
	}
	if !r.finite() {
		return Everywhere
	}
	q := Empty
	for _, p := range [4]Point{{r.X0, r.Y0}, {r.X1, r.Y0}, {r.X0, r.Y1}, {r.X1, r.Y1}} {
		x, y := m.apply(p.X, p.Y)
		q = q.Union(Rect{x, y, x, y})
	}
	return q.pad()
}

// Frame is the placement shared by the transform and instance nodes: the
// child is scaled by Scale and rotated by Rotate degrees (clockwise on the
// map, since y points south) about Pivot, then moved by Translate. The
// forward map is p ↦ Pivot + Translate + R·S·(p − Pivot); the node evaluates
// its child at the inverse image of the sample point.
type Frame struct {
	Translate Point
	Rotate    float64 // degrees
	Scale     Point   // both components non-zero
	Pivot     Point
}

// Identity is the frame that leaves its child in place.
var Identity = Frame{Scale: Point{1, 1}}

// forward returns the matrix of the forward map.
func (f *Frame) forward() affine {
	s, c := math.Sincos(f.Rotate * math.Pi / 180)
	m := affine{a: c * f.Scale.X, b: -s * f.Scale.Y, c: s * f.Scale.X, d: c * f.Scale.Y}
	m.tx = f.Pivot.X + f.Translate.X - (m.a*f.Pivot.X + m.b*f.Pivot.Y)
	m.ty = f.Pivot.Y + f.Translate.Y - (m.c*f.Pivot.X + m.d*f.Pivot.Y)
	return m
}

// inverse returns the matrix of the inverse map.
func (f *Frame) inverse() affine {
	s, c := math.Sincos(f.Rotate * math.Pi / 180)
	// (R·S)⁻¹ = S⁻¹·Rᵀ.
	ix, iy := 1/f.Scale.X, 1/f.Scale.Y
	m := affine{a: c * ix, b: s * ix, c: -s * iy, d: c * iy}
	ox, oy := f.Pivot.X+f.Translate.X, f.Pivot.Y+f.Translate.Y
	m.tx = f.Pivot.X - (m.a*ox + m.b*oy)
	m.ty = f.Pivot.Y - (m.c*ox + m.d*oy)
	return m
}

// Inverse returns the frame that undoes f when f's scale is uniform
// (Scale.X == Scale.Y): Inverse(f) applied after f is the identity up to
// rounding. With a non-uniform scale the inverse is in general not a frame
// (a rotation after a stretch), and Inverse returns false.
func (f Frame) Inverse() (Frame, bool) {
	if f.Scale.X != f.Scale.Y {
		return Frame{}, false
	}
	s := 1 / f.Scale.X
	return Frame{
		Translate: Point{-f.Translate.X, -f.Translate.Y},
		Rotate:    -f.Rotate,
		Scale:     Point{s, s},
		Pivot:     Point{f.Pivot.X + f.Translate.X, f.Pivot.Y + f.Translate.Y},
	}, true
}

// smoothstep is 3x² − 2x³ on [0, 1], clamped outside.
func smoothstep(x float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	return min(1, x*x*(3-2*x))
}
