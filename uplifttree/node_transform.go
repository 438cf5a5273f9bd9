package uplifttree

// TypeTransform is the JSON type of a Transform.
const TypeTransform = "transform"

var transformKind = kind{TypeTransform, func() Shape { return &Transform{Frame: Identity} }, 1, 1}

// Transform places its one child by Frame.
type Transform struct {
	Frame
}

func (*Transform) Type() string         { return TypeTransform }
func (s *Transform) clone() Shape       { c := *s; return &c }
func (s *Transform) params() []param    { return frameParams(&s.Frame) }
func (s *Transform) check() *fieldError { return checkFrame(&s.Frame) }

func (s *Transform) compile(h hdr, kids []enode, _ enode) enode {
	return compileAffine(h, &s.Frame, kids[0], false)
}
