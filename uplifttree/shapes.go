package uplifttree

import (
	"fmt"
	"math"
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

	// params binds the parameters, in JSON order, to the shape's fields.
	params() []param
	// check validates the parameters as Unmarshal and SetParam do.
	check() *fieldError
	// clone returns a deep copy.
	clone() Shape
	// compile builds the evaluator of a node of this shape. h is filled in
	// with the node's ID, an empty box and the cost and depth of kids and
	// ref (the compiled children and, for an instance, its target); the
	// shape sets the rest.
	compile(h hdr, kids []enode, ref enode) enode
}

// Limits on sizes, which keep a decoded tree's evaluation cost bounded.
const (
	maxAbs      = 1e15     // largest magnitude of any number
	maxCtrls    = 256      // control points of a segment or valley
	maxVertices = 4096     // vertices of a curve or region
	maxOctaves  = 16       // octaves of noise
	maxLayerLen = 128      // bytes of a layer name
	maxNodes    = 1 << 16  // nodes in a tree (an artist's have hundreds)
	maxDocBytes = 16 << 20 // bytes of a tree's JSON
	maxDepth    = 64       // nested nodes on one path, instances expanded
	maxCost     = 1 << 21  // per-point evaluation work, instances expanded
	minScale    = 1e-9     // smallest |scale| of a frame
)

// Ctrl is a control point of a segment range or a valley: at skeleton
// parameter T ∈ [0, 1] (0 at A, 1 at B) the radius (valley: half-width) is
// R metres and the value on the skeleton (valley: the floor) is U.
type Ctrl struct{ T, R, U float64 }

// Vertex is a vertex of a curve range: position (X, Y), radius R metres and
// value U on the skeleton.
type Vertex struct{ X, Y, R, U float64 }

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
