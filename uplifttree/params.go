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

func frameParams(f *Frame) []param {
	return []param{
		{"translate", ParamPoint, false, &f.Translate},
		{"rotate", ParamNumber, false, &f.Rotate},
		{"scale", ParamPoint, false, &f.Scale},
		{"pivot", ParamPoint, false, &f.Pivot},
	}
}

func (s *Disc) params() []param {
	return []param{
		{"center", ParamPoint, true, &s.Center},
		{"radius", ParamNumber, true, &s.Radius},
		{"value", ParamNumber, false, &s.Value},
	}
}

func (s *Segment) params() []param {
	return []param{
		{"a", ParamPoint, true, &s.A},
		{"b", ParamPoint, true, &s.B},
		{"ctrl", ParamCtrls, true, &s.Ctrls},
	}
}

func (s *Curve) params() []param {
	return []param{
		{"vertices", ParamVertices, true, &s.Vertices},
		{"blend", ParamNumber, false, &s.Blend},
	}
}

func (s *Valley) params() []param {
	return []param{
		{"a", ParamPoint, true, &s.A},
		{"b", ParamPoint, true, &s.B},
		{"ctrl", ParamCtrls, true, &s.Ctrls},
		{"outside", ParamNumber, false, &s.Outside},
	}
}

func (s *Region) params() []param {
	return []param{
		{"polygon", ParamPoints, true, &s.Polygon},
		{"border", ParamNumber, false, &s.Border},
		{"value", ParamNumber, false, &s.Value},
	}
}

func (s *Noise) params() []param {
	return []param{
		{"seed", ParamSeed, false, &s.Seed},
		{"frequency", ParamNumber, true, &s.Frequency},
		{"octaves", ParamInt, false, &s.Octaves},
		{"persistence", ParamNumber, false, &s.Persistence},
		{"lacunarity", ParamNumber, false, &s.Lacunarity},
		{"amplitude", ParamNumber, false, &s.Amplitude},
		{"offset", ParamNumber, false, &s.Offset},
	}
}

func (s *Raster) params() []param {
	return []param{
		{"layer", ParamString, true, &s.Layer},
		{"rect", ParamRect, true, &s.Rect},
		{"value", ParamNumber, false, &s.Value},
	}
}

func (s *Sum) params() []param { return nil }
func (s *Max) params() []param { return nil }
func (s *Min) params() []param { return nil }

func (s *Blend) params() []param {
	return []param{
		{"mode", ParamString, false, &s.Mode},
		{"radius", ParamNumber, true, &s.Radius},
	}
}

func (s *Scale) params() []param {
	return []param{{"factor", ParamNumber, false, &s.Factor}}
}

func (s *Transform) params() []param { return frameParams(&s.Frame) }

func (s *Fold) params() []param {
	return []param{
		{"angle", ParamNumber, false, &s.Angle},
		{"amplitude", ParamNumber, true, &s.Amplitude},
		{"wavelength", ParamNumber, true, &s.Wavelength},
		{"phase", ParamNumber, false, &s.Phase},
	}
}

func (s *Fault) params() []param {
	return []param{
		{"point", ParamPoint, true, &s.Point},
		{"angle", ParamNumber, false, &s.Angle},
		{"offset", ParamPoint, true, &s.Offset},
		{"width", ParamNumber, false, &s.Width},
	}
}

func (s *NoiseWarp) params() []param {
	return []param{
		{"seed", ParamSeed, false, &s.Seed},
		{"frequency", ParamNumber, true, &s.Frequency},
		{"octaves", ParamInt, false, &s.Octaves},
		{"persistence", ParamNumber, false, &s.Persistence},
		{"lacunarity", ParamNumber, false, &s.Lacunarity},
		{"amplitude", ParamNumber, true, &s.Amplitude},
	}
}

func (s *Clamp) params() []param {
	return []param{
		{"lo", ParamNumber, false, &s.Lo},
		{"hi", ParamNumber, false, &s.Hi},
	}
}

func (s *Instance) params() []param {
	return append([]param{{"ref", ParamRef, true, &s.Ref}}, frameParams(&s.Frame)...)
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
