package uplifttree

import (
	"fmt"
	"slices"
)

// ParamType is the type of a node parameter: the Go type SetParam accepts
// and Param returns, and the JSON form Marshal writes.
type ParamType int

const (
	ParamNumber   ParamType = iota // float64 (SetParam also takes int); JSON number
	ParamInt                       // int; JSON integer
	ParamSeed                      // uint64 (SetParam also takes a non-negative int); JSON integer
	ParamPoint                     // Point; JSON [x, y]
	ParamPoints                    // []Point; JSON [[x, y], ...]
	ParamCtrls                     // []Ctrl; JSON [{"t": t, "r": r, "u": u}, ...]
	ParamVertices                  // []Vertex; JSON [{"x": x, "y": y, "r": r, "u": u}, ...]
	ParamRect                      // Rect; JSON [x0, y0, x1, y1]
	ParamString                    // string; JSON string
	ParamRef                       // ID (SetParam also takes int); JSON integer
)

var paramTypeNames = [...]string{"number", "int", "seed", "point", "points", "ctrls", "vertices", "rect", "string", "ref"}

func (t ParamType) String() string {
	if t >= 0 && int(t) < len(paramTypeNames) {
		return paramTypeNames[t]
	}
	return fmt.Sprintf("ParamType(%d)", int(t))
}

// ParamInfo describes one parameter of a node type.
type ParamInfo struct {
	Name     string // JSON key and SetParam name
	Type     ParamType
	Required bool // must appear in JSON; optional ones default as in NewShape
}

// param binds a parameter description to the field of one shape value.
type param struct {
	name string
	typ  ParamType
	req  bool
	ptr  any // *float64, *int, *uint64, *Point, *[]Point, *[]Ctrl, *[]Vertex, *Rect, *string or *ID
}

// Params describes the parameters of a node type, in JSON order, or returns
// nil for an unknown type.
func Params(typ string) []ParamInfo {
	s, ok := NewShape(typ)
	if !ok {
		return nil
	}
	var out []ParamInfo
	for _, p := range s.params() {
		out = append(out, ParamInfo{p.name, p.typ, p.req})
	}
	return out
}

// lookup returns the parameter of s called name.
func lookup(s Shape, name string) (param, bool) {
	for _, p := range s.params() {
		if p.name == name {
			return p, true
		}
	}
	return param{}, false
}

// get returns a copy of the parameter's value.
func (p param) get() any {
	switch v := p.ptr.(type) {
	case *float64:
		return *v
	case *int:
		return *v
	case *uint64:
		return *v
	case *Point:
		return *v
	case *[]Point:
		return slices.Clone(*v)
	case *[]Ctrl:
		return slices.Clone(*v)
	case *[]Vertex:
		return slices.Clone(*v)
	case *Rect:
		return *v
	case *string:
		return *v
	case *ID:
		return *v
	}
	panic("uplifttree: bad parameter binding")
}

// set stores a copy of v in the parameter, converting the few documented
// alternatives (int for numbers, seeds and refs). It reports a type
// mismatch as an error.
func (p param) set(v any) error {
	bad := func() error {
		return fmt.Errorf("%s wants a %s (%s), got %T", p.name, p.typ, goType(p.typ), v)
	}
	switch dst := p.ptr.(type) {
	case *float64:
		switch x := v.(type) {
		case float64:
			*dst = x
		case int:
			*dst = float64(x)
		default:
			return bad()
		}
	case *int:
		x, ok := v.(int)
		if !ok {
			return bad()
		}
		*dst = x
	case *uint64:
		switch x := v.(type) {
		case uint64:
			*dst = x
		case int:
			if x < 0 {
				return fmt.Errorf("%s must be ≥ 0, got %d", p.name, x)
			}
			*dst = uint64(x)
		default:
			return bad()
		}
	case *Point:
		x, ok := v.(Point)
		if !ok {
			return bad()
		}
		*dst = x
	case *[]Point:
		x, ok := v.([]Point)
		if !ok {
			return bad()
		}
		*dst = slices.Clone(x)
	case *[]Ctrl:
		x, ok := v.([]Ctrl)
		if !ok {
			return bad()
		}
		*dst = slices.Clone(x)
	case *[]Vertex:
		x, ok := v.([]Vertex)
		if !ok {
			return bad()
		}
		*dst = slices.Clone(x)
	case *Rect:
		x, ok := v.(Rect)
		if !ok {
			return bad()
		}
		*dst = x
	case *string:
		x, ok := v.(string)
		if !ok {
			return bad()
		}
		*dst = x
	case *ID:
		switch x := v.(type) {
		case ID:
			*dst = x
		case int:
			*dst = ID(x)
		default:
			return bad()
		}
	default:
		panic("uplifttree: bad parameter binding")
	}
	return nil
}

func goType(t ParamType) string {
	switch t {
	case ParamNumber:
		return "float64"
	case ParamInt:
		return "int"
	case ParamSeed:
		return "uint64"
	case ParamPoint:
		return "Point"
	case ParamPoints:
		return "[]Point"
	case ParamCtrls:
		return "[]Ctrl"
	case ParamVertices:
		return "[]Vertex"
	case ParamRect:
		return "Rect"
	case ParamString:
		return "string"
	case ParamRef:
		return "ID"
	}
	return "?"
}
