package uplifttree

import (
	"fmt"
	"math"
	"slices"
	"unicode"
	"unicode/utf8"
)

// ID names a node. IDs are positive, unique within a tree, never reused by
// the tree that issued them, and kept by Marshal, Unmarshal and every edit.
// The zero ID means "no node".
type ID int64

// Shape is what a node is: one of the primitive types (Disc, Segment,
// Curve, Valley, Region, Noise, Raster) or operator types (Sum, Max, Min,
// Blend, Scale, Transform, Fold, Fault, NoiseWarp, Clamp, Instance) of this
// package. Shapes held by a Tree are never modified; Node and Add copy them.
type Shape interface {
	// Type returns the node type as written in JSON ("disc", "sum" ...).
	Type() string

	params() []param
	check() *fieldError
	clone() Shape
}

// Node types as written in the "type" field of the JSON form.
const (
	TypeDisc      = "disc"
	TypeSegment   = "segment"
	TypeCurve     = "curve"
	TypeValley    = "valley"
	TypeRegion    = "region"
	TypeNoise     = "noise"
	TypeRaster    = "raster"
	TypeSum       = "sum"
	TypeMax       = "max"
	TypeMin       = "min"
	TypeBlend     = "blend"
	TypeScale     = "scale"
	TypeTransform = "transform"
	TypeFold      = "fold"
	TypeFault     = "fault"
	TypeNoiseWarp = "noisewarp"
	TypeClamp     = "clamp"
	TypeInstance  = "instance"
)

// AllTypes returns every node type, primitives first.
func AllTypes() []string { return slices.Clone(allTypes) }

var allTypes = []string{
	TypeDisc, TypeSegment, TypeCurve, TypeValley, TypeRegion, TypeNoise, TypeRaster,
	TypeSum, TypeMax, TypeMin, TypeBlend, TypeScale, TypeTransform, TypeFold, TypeFault,
	TypeNoiseWarp, TypeClamp, TypeInstance,
}

// NewShape returns a shape of the given type with every optional parameter
// at its default (the values Unmarshal uses for omitted keys) and required
// ones zero, or false for an unknown type.
func NewShape(typ string) (Shape, bool) {
	switch typ {
	case TypeDisc:
		return &Disc{Value: 1}, true
	case TypeSegment:
		return &Segment{}, true
	case TypeCurve:
		return &Curve{Blend: 0.1}, true
	case TypeValley:
		return &Valley{Outside: 1}, true
	case TypeRegion:
		return &Region{Value: 1}, true
	case TypeNoise:
		return &Noise{Octaves: 4, Persistence: 0.5, Lacunarity: 2, Amplitude: 1}, true
	case TypeRaster:
		return &Raster{Value: 1}, true
	case TypeSum:
		return &Sum{}, true
	case TypeMax:
		return &Max{}, true
	case TypeMin:
		return &Min{}, true
	case TypeBlend:
		return &Blend{Mode: "max"}, true
	case TypeScale:
		return &Scale{Factor: 1}, true
	case TypeTransform:
		return &Transform{Frame: Identity}, true
	case TypeFold:
		return &Fold{}, true
	case TypeFault:
		return &Fault{}, true
	case TypeNoiseWarp:
		return &NoiseWarp{Octaves: 3, Persistence: 0.5, Lacunarity: 2}, true
	case TypeClamp:
		return &Clamp{Hi: 1}, true
	case TypeInstance:
		return &Instance{Frame: Identity}, true
	}
	return nil, false
}

// Limits on sizes, which keep a decoded tree's evaluation cost bounded.
const (
	maxAbs      = 1e15    // largest magnitude of any number
	maxCtrls    = 256     // control points of a segment or valley
	maxVertices = 4096    // vertices of a curve or region
	maxOctaves  = 16      // octaves of noise
	maxLayerLen = 128     // bytes of a layer name
	maxNodes    = 1 << 20 // nodes in a tree
	maxDepth    = 64      // nested nodes on one path, instances expanded
	maxCost     = 1 << 21 // per-point evaluation work, instances expanded
	minScale    = 1e-9    // smallest |scale| of a frame
)

// Ctrl is a control point of a segment range or a valley: at skeleton
// parameter T ∈ [0, 1] (0 at A, 1 at B) the radius (valley: half-width) is
// R metres and the value on the skeleton (valley: the floor) is U.
type Ctrl struct{ T, R, U float64 }

// Vertex is a vertex of a curve range: position (X, Y), radius R metres and
// value U on the skeleton.
type Vertex struct{ X, Y, R, U float64 }

// Disc is the point primitive: Value·(1 − d²/R²)³ within Radius of Center,
// 0 beyond (003 eq. 5).
type Disc struct {
	Center Point
	Radius float64 // metres, > 0
	Value  float64 // u_S, the value at the centre
}

// Segment is the segment mountain range of 003 §4: for a point p with
// projection parameter t* on [A, B] (clamped to [0, 1]) and distance d to
// the skeleton point, U(t*)·(1 − d²/R(t*)²)³ within R(t*), 0 beyond. R and
// U interpolate Ctrls monotonically (Fritsch–Butland) and are constant
// before the first and after the last control point.
type Segment struct {
	A, B  Point
	Ctrls []Ctrl // at least one, T strictly increasing
}

// Curve is a mountain range along a polyline. Radius and value interpolate
// the vertices monotonically along arc length. Each segment is evaluated as
// a Segment; the two largest segment values m₁ ≥ m₂ are combined by the
// smooth maximum of radius Blend (see Blend), which rounds the crease on
// the inner side of a bend and equals m₁ wherever m₁ − m₂ ≥ Blend. On the
// outer side of a bend both segments see the shared vertex, so the joins
// are round and smooth.
type Curve struct {
	Vertices []Vertex // at least two, consecutive ones distinct
	Blend    float64  // ≥ 0, in value units
}

// Valley is the valley primitive of 003 §4: a segment skeleton [A, B] with
// half-width R(t) and floor U(t) from Ctrls (interpolated as for Segment).
// Its profile across the valley is the disc falloff turned upside down:
//
//	v(d) = Outside + (U(t*) − Outside)·(1 − d²/R(t*)²)³   for d < R(t*)
//	v(d) = Outside                                        beyond,
//
// flat at the floor on the skeleton, steepest at d ≈ 0.45·R and meeting
// Outside with zero slope at d = R. Put it under a Min (or Scale) to cut a
// range; steep walls need a narrow R relative to the cell size.
type Valley struct {
	A, B    Point
	Ctrls   []Ctrl
	Outside float64
}

// Region is a polygon with a smooth border: Value deeper than Border inside
// the polygon, 0 outside it, and Value·smoothstep(depth/Border) across the
// border band, where depth is the distance to the outline. Inside is decided
// by the even-odd rule. Border 0 gives a hard edge.
type Region struct {
	Polygon []Point // at least three vertices
	Border  float64 // metres, ≥ 0
	Value   float64
}

// Noise is seeded fractal noise: Offset + Amplitude·F(x, y), where F is
// the fBm of Perlin gradient noise with the frequency, octaves,
// persistence and lacunarity given (F lies in [−1, 1]; it is
// orogen/sim/noise's Fractal, whose documentation gives the formula). It
// covers the plane.
type Noise struct {
	Seed        uint64
	Frequency   float64 // cycles per metre, > 0
	Octaves     int     // 1 … 16
	Persistence float64 // amplitude ratio of successive octaves, 0 … 1
	Lacunarity  float64 // frequency ratio of successive octaves, 1 … 8
	Amplitude   float64
	Offset      float64
}

// Raster samples a named layer bilinearly over the world rectangle Rect
// (the layer's W×H cells tile Rect; cell centres interpolate, the border
// half-cells take the nearest edge value) and multiplies by Value. Outside
// Rect, or when the layer is missing, the value is 0. Layers are supplied
// at evaluation time (see Layers).
type Raster struct {
	Layer string
	Rect  Rect // X0 < X1, Y0 < Y1
	Value float64
}

// Sum adds its children in order (no children: 0).
type Sum struct{}

// Max is the largest of its children (no children: 0).
type Max struct{}

// Min is the smallest of its children (no children: 0).
type Min struct{}

// Blend folds its children left to right with a smooth maximum (Mode
// "max") or minimum ("min") of radius k = Radius. With d = a − b,
//
//	smax(a, b) = max(a, b)                   if |d| ≥ k
//	smax(a, b) = (a + b)/2 + d²/k − |d|³/(2k²) otherwise
//
// and smin(a, b) = −smax(−a, −b). The cubic joins max with a continuous
// slope at |d| = k, gives smax(a, a) = a exactly (so a blend never lifts
// the zero background of two primitives, unlike the quadratic polynomial
// smooth-min whose value at a = b is off by k/4), is commutative, and stays
// within max(a, b) − 2k/27 ≤ smax ≤ max(a, b). No children: 0.
type Blend struct {
	Mode   string  // "max" or "min"
	Radius float64 // k, value units, ≥ 0
}

// Scale multiplies: Factor·c with one child, Factor·c₀·c₁ with two.
type Scale struct {
	Factor float64
}

// Transform places its one child by Frame.
type Transform struct {
	Frame
}

// Fold is a warp: it samples its one child at p − A·sin(2π·s/λ + φ)·e,
// where e is the unit vector at Angle degrees (clockwise from east) and
// s = p·e⊥ the position along the fold axis (e⊥ = e turned 90°). A ridge
// along e⊥ becomes a sine wave of amplitude A and wavelength λ.
type Fold struct {
	Angle      float64 // degrees
	Amplitude  float64 // A, metres
	Wavelength float64 // λ, metres, > 0
	Phase      float64 // φ, degrees
}

// Fault is a warp: it samples its one child at p − w·Offset, where w is 1
// on the left of the directed line through Point at Angle degrees, 0 on
// its right, and smoothstep across a band of Width metres centred on the
// line (Width 0: a sharp step). "Left" is the side of the normal
// n = (sin θ, −cos θ), which points north for Angle 0.
type Fault struct {
	Point  Point
	Angle  float64 // degrees
	Offset Point   // metres
	Width  float64 // metres, ≥ 0
}

// NoiseWarp samples its one child at p + Amplitude·(f₁(p), f₂(p)) where f₁
// and f₂ are two fBm fields in [−1, 1] of the seeded noise (as for Noise;
// f₂'s octaves are shifted by half a step so the two are independent).
type NoiseWarp struct {
	Seed        uint64
	Frequency   float64 // cycles per metre, > 0
	Octaves     int     // 1 … 16
	Persistence float64 // 0 … 1
	Lacunarity  float64 // 1 … 8
	Amplitude   float64 // metres
}

// Clamp limits its one child to [Lo, Hi].
type Clamp struct {
	Lo, Hi float64
}

// Instance evaluates another node of the same tree, Ref, placed by Frame:
// a copy that follows its original. Ref may not be the instance itself, an
// ancestor of it, or anything that leads back to it through other
// instances.
type Instance struct {
	Ref ID
	Frame
}

func (*Disc) Type() string      { return TypeDisc }
func (*Segment) Type() string   { return TypeSegment }
func (*Curve) Type() string     { return TypeCurve }
func (*Valley) Type() string    { return TypeValley }
func (*Region) Type() string    { return TypeRegion }
func (*Noise) Type() string     { return TypeNoise }
func (*Raster) Type() string    { return TypeRaster }
func (*Sum) Type() string       { return TypeSum }
func (*Max) Type() string       { return TypeMax }
func (*Min) Type() string       { return TypeMin }
func (*Blend) Type() string     { return TypeBlend }
func (*Scale) Type() string     { return TypeScale }
func (*Transform) Type() string { return TypeTransform }
func (*Fold) Type() string      { return TypeFold }
func (*Fault) Type() string     { return TypeFault }
func (*NoiseWarp) Type() string { return TypeNoiseWarp }
func (*Clamp) Type() string     { return TypeClamp }
func (*Instance) Type() string  { return TypeInstance }

func (s *Disc) clone() Shape { c := *s; return &c }
func (s *Segment) clone() Shape {
	c := *s
	c.Ctrls = append([]Ctrl(nil), s.Ctrls...)
	return &c
}
func (s *Curve) clone() Shape {
	c := *s
	c.Vertices = append([]Vertex(nil), s.Vertices...)
	return &c
}
func (s *Valley) clone() Shape {
	c := *s
	c.Ctrls = append([]Ctrl(nil), s.Ctrls...)
	return &c
}
func (s *Region) clone() Shape {
	c := *s
	c.Polygon = append([]Point(nil), s.Polygon...)
	return &c
}
func (s *Noise) clone() Shape     { c := *s; return &c }
func (s *Raster) clone() Shape    { c := *s; return &c }
func (s *Sum) clone() Shape       { return &Sum{} }
func (s *Max) clone() Shape       { return &Max{} }
func (s *Min) clone() Shape       { return &Min{} }
func (s *Blend) clone() Shape     { c := *s; return &c }
func (s *Scale) clone() Shape     { c := *s; return &c }
func (s *Transform) clone() Shape { c := *s; return &c }
func (s *Fold) clone() Shape      { c := *s; return &c }
func (s *Fault) clone() Shape     { c := *s; return &c }
func (s *NoiseWarp) clone() Shape { c := *s; return &c }
func (s *Clamp) clone() Shape     { c := *s; return &c }
func (s *Instance) clone() Shape  { c := *s; return &c }

// childRange returns how many children a node of shape s takes: at least
// lo, at most hi (−1: no limit).
func childRange(s Shape) (lo, hi int) {
	switch s.(type) {
	case *Sum, *Max, *Min, *Blend:
		return 0, -1
	case *Scale:
		return 1, 2
	case *Transform, *Fold, *Fault, *NoiseWarp, *Clamp:
		return 1, 1
	}
	return 0, 0
}

// IsLeaf reports whether s is a primitive (a node that takes no children
// and references no other node).
func IsLeaf(s Shape) bool {
	switch s.(type) {
	case *Disc, *Segment, *Curve, *Valley, *Region, *Noise, *Raster:
		return true
	}
	return false
}

// fieldError is a validation failure of one parameter.
type fieldError struct {
	field string
	msg   string
}

func ferr(field, format string, args ...any) *fieldError {
	return &fieldError{field, fmt.Sprintf(format, args...)}
}

// Validation helpers. Each returns nil when v is acceptable.

func finite(field string, v float64) *fieldError {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ferr(field, "must be a finite number, got %v", v)
	}
	if math.Abs(v) > maxAbs {
		return ferr(field, "magnitude must be at most %g, got %g", float64(maxAbs), v)
	}
	return nil
}

func positive(field string, v float64) *fieldError {
	if e := finite(field, v); e != nil {
		return e
	}
	if !(v > 0) {
		return ferr(field, "must be > 0, got %g", v)
	}
	return nil
}

func nonNegative(field string, v float64) *fieldError {
	if e := finite(field, v); e != nil {
		return e
	}
	if v < 0 {
		return ferr(field, "must be ≥ 0, got %g", v)
	}
	return nil
}

func inRange(field string, v, lo, hi float64) *fieldError {
	if e := finite(field, v); e != nil {
		return e
	}
	if v < lo || v > hi {
		return ferr(field, "must lie in [%g, %g], got %g", lo, hi, v)
	}
	return nil
}

func point(field string, p Point) *fieldError {
	if e := finite(field, p.X); e != nil {
		return e
	}
	return finite(field, p.Y)
}

// first returns the first non-nil error.
func first(errs ...*fieldError) *fieldError {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func checkCtrls(field string, cs []Ctrl, what string) *fieldError {
	if len(cs) < 1 || len(cs) > maxCtrls {
		return ferr(field, "needs 1 to %d control points, got %d", maxCtrls, len(cs))
	}
	for i, c := range cs {
		f := fmt.Sprintf("%s[%d]", field, i)
		if e := first(inRange(f+".t", c.T, 0, 1), positive(f+".r", c.R), finite(f+".u", c.U)); e != nil {
			if e.field == f+".r" {
				e.msg = what + " " + e.msg
			}
			return e
		}
		if i > 0 && !(c.T > cs[i-1].T) {
			return ferr(f+".t", "must be greater than the previous control point's t (%g), got %g", cs[i-1].T, c.T)
		}
	}
	return nil
}

func checkFrame(f *Frame) *fieldError {
	if e := first(point("translate", f.Translate), finite("rotate", f.Rotate), point("scale", f.Scale),
		point("pivot", f.Pivot)); e != nil {
		return e
	}
	if math.Abs(f.Scale.X) < minScale || math.Abs(f.Scale.Y) < minScale {
		return ferr("scale", "components must have magnitude at least %g, got [%g, %g]", minScale, f.Scale.X, f.Scale.Y)
	}
	return nil
}

func checkNoise(freq float64, octaves int, pers, lac float64) *fieldError {
	if e := positive("frequency", freq); e != nil {
		return e
	}
	if octaves < 1 || octaves > maxOctaves {
		return ferr("octaves", "must lie in [1, %d], got %d", maxOctaves, octaves)
	}
	return first(inRange("persistence", pers, 0, 1), inRange("lacunarity", lac, 1, 8))
}

func (s *Disc) check() *fieldError {
	return first(point("center", s.Center), positive("radius", s.Radius), finite("value", s.Value))
}

func (s *Segment) check() *fieldError {
	return first(point("a", s.A), point("b", s.B), checkCtrls("ctrl", s.Ctrls, "radius"))
}

func (s *Curve) check() *fieldError {
	n := len(s.Vertices)
	if n < 2 || n > maxVertices {
		return ferr("vertices", "needs 2 to %d vertices, got %d", maxVertices, n)
	}
	for i, v := range s.Vertices {
		f := fmt.Sprintf("vertices[%d]", i)
		if e := first(finite(f+".x", v.X), finite(f+".y", v.Y), positive(f+".r", v.R), finite(f+".u", v.U)); e != nil {
			return e
		}
		if i > 0 {
			p := s.Vertices[i-1]
			if !(math.Hypot(v.X-p.X, v.Y-p.Y) > 0) {
				return ferr(f, "coincides with vertex %d; consecutive vertices must differ", i-1)
			}
		}
	}
	return nonNegative("blend", s.Blend)
}

func (s *Valley) check() *fieldError {
	return first(point("a", s.A), point("b", s.B), checkCtrls("ctrl", s.Ctrls, "half-width"),
		finite("outside", s.Outside))
}

func (s *Region) check() *fieldError {
	n := len(s.Polygon)
	if n < 3 || n > maxVertices {
		return ferr("polygon", "needs 3 to %d vertices, got %d", maxVertices, n)
	}
	for i, p := range s.Polygon {
		if e := point(fmt.Sprintf("polygon[%d]", i), p); e != nil {
			return e
		}
	}
	return first(nonNegative("border", s.Border), finite("value", s.Value))
}

func (s *Noise) check() *fieldError {
	return first(checkNoise(s.Frequency, s.Octaves, s.Persistence, s.Lacunarity),
		finite("amplitude", s.Amplitude), finite("offset", s.Offset))
}

func (s *Raster) check() *fieldError {
	if e := checkLayerName(s.Layer); e != nil {
		return e
	}
	r := s.Rect
	if e := first(finite("rect", r.X0), finite("rect", r.Y0), finite("rect", r.X1), finite("rect", r.Y1)); e != nil {
		return e
	}
	if !(r.X0 < r.X1 && r.Y0 < r.Y1) {
		return ferr("rect", "must have x0 < x1 and y0 < y1, got [%g, %g, %g, %g]", r.X0, r.Y0, r.X1, r.Y1)
	}
	return finite("value", s.Value)
}

func checkLayerName(name string) *fieldError {
	if name == "" || len(name) > maxLayerLen || !utf8.ValidString(name) {
		return ferr("layer", "must be 1 to %d bytes of UTF-8, got %q", maxLayerLen, name)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return ferr("layer", "must hold printable characters only, got %q", name)
		}
	}
	return nil
}

func (s *Sum) check() *fieldError { return nil }
func (s *Max) check() *fieldError { return nil }
func (s *Min) check() *fieldError { return nil }

func (s *Blend) check() *fieldError {
	if s.Mode != "max" && s.Mode != "min" {
		return ferr("mode", `must be "max" or "min", got %q`, s.Mode)
	}
	return nonNegative("radius", s.Radius)
}

func (s *Scale) check() *fieldError     { return finite("factor", s.Factor) }
func (s *Transform) check() *fieldError { return checkFrame(&s.Frame) }

func (s *Fold) check() *fieldError {
	return first(finite("angle", s.Angle), finite("amplitude", s.Amplitude),
		positive("wavelength", s.Wavelength), finite("phase", s.Phase))
}

func (s *Fault) check() *fieldError {
	return first(point("point", s.Point), finite("angle", s.Angle), point("offset", s.Offset),
		nonNegative("width", s.Width))
}

func (s *NoiseWarp) check() *fieldError {
	return first(checkNoise(s.Frequency, s.Octaves, s.Persistence, s.Lacunarity),
		finite("amplitude", s.Amplitude))
}

func (s *Clamp) check() *fieldError {
	if e := first(finite("lo", s.Lo), finite("hi", s.Hi)); e != nil {
		return e
	}
	if s.Lo > s.Hi {
		return ferr("hi", "must be ≥ lo (%g), got %g", s.Lo, s.Hi)
	}
	return nil
}

func (s *Instance) check() *fieldError {
	if s.Ref <= 0 {
		return ferr("ref", "must name a node (a positive ID), got %d", s.Ref)
	}
	return checkFrame(&s.Frame)
}
