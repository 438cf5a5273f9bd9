package uplifttree

import (
	"fmt"
	"slices"
)

// kind describes one node type to the shared machinery: its JSON name, how
// to make a shape of it with the defaults of the optional parameters, and
// how many children it takes. Everything else about the type (its
// parameters, validation and compiled evaluator) is a method of its Shape,
// written in the type's own file node_<type>.go next to its kind.
type kind struct {
	typ    string       // the "type" of the JSON form, the Shape's Type()
	new    func() Shape // optional parameters at their defaults, required ones zero
	lo, hi int          // children: at least lo, at most hi (−1: no limit)
}

// kinds is the registry of node types, one line each, in the order of
// AllTypes (primitives first). NewShape, Params, Unmarshal and the child
// count checks consult it; compile, evaluation and Pick go through the
// methods of Shape and enode.
var kinds = []*kind{
	&discKind,
	&segmentKind,
	&curveKind,
	&valleyKind,
	&regionKind,
	&noiseKind,
	&rasterKind,
	&sumKind,
	&maxKind,
	&minKind,
	&blendKind,
	&mixKind,
	&scaleKind,
	&transformKind,
	&foldKind,
	&faultKind,
	&noiseWarpKind,
	&clampKind,
	&instanceKind,
}

// byType indexes kinds by type name.
var byType = func() map[string]*kind {
	m := make(map[string]*kind, len(kinds))
	for _, k := range kinds {
		if _, dup := m[k.typ]; dup {
			panic(fmt.Sprintf("uplifttree: node type %q registered twice", k.typ))
		}
		m[k.typ] = k
	}
	return m
}()

// allTypes is every type name, in registry order.
var allTypes = func() []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.typ
	}
	return out
}()

// AllTypes returns every node type, primitives first.
func AllTypes() []string { return slices.Clone(allTypes) }

// NewShape returns a shape of the given type with every optional parameter
// at its default (the values Unmarshal uses for omitted keys) and required
// ones zero, or false for an unknown type.
func NewShape(typ string) (Shape, bool) {
	k, ok := byType[typ]
	if !ok {
		return nil, false
	}
	return k.new(), true
}

// childRange returns how many children a node of shape s takes: at least
// lo, at most hi (−1: no limit).
func childRange(s Shape) (lo, hi int) {
	k := byType[s.Type()]
	return k.lo, k.hi
}

// IsLeaf reports whether s is a primitive (a node that takes no children
// and references no other node).
func IsLeaf(s Shape) bool {
	if s == nil {
		return false
	}
	k, ok := byType[s.Type()]
	if !ok || k.hi != 0 {
		return false
	}
	return !slices.ContainsFunc(k.new().params(), func(p param) bool { return p.typ == ParamRef })
}

// IsOperator reports whether nodes of type typ take children (sum, max,
// blend, the warps, ...): the tree panel wraps or adds under them.
func IsOperator(typ string) bool {
	k, ok := byType[typ]
	return ok && k.hi != 0
}

// placer is a shape that sets itself up as the app adds it (its node
// file's place method): the shapes whose defaults have no position or
// size.
type placer interface {
	place(at func(x, y float64) Point, size float64, ref ID)
}

// NewShapeAt returns a valid shape of type typ, as the app adds it:
// centred at (cx, cy) metres, about size metres across (operators start
// empty; an Instance refers to ref), or false for an unknown type.
func NewShapeAt(typ string, cx, cy, size float64, ref ID) (Shape, bool) {
	s, ok := NewShape(typ)
	if !ok {
		return nil, false
	}
	if p, ok := s.(placer); ok {
		p.place(func(x, y float64) Point { return Point{X: cx + x*size, Y: cy + y*size} }, size, ref)
	}
	return s, true
}
