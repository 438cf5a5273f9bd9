package uplifttree

// TypeInstance is the JSON type of an Instance.
const TypeInstance = "instance"

var instanceKind = kind{TypeInstance, func() Shape { return &Instance{Frame: Identity} }, 0, 0}

// Instance evaluates another node of the same tree, Ref, placed by Frame:
// a copy that follows its original. Ref may not be the instance itself, an
// ancestor of it, or anything that leads back to it through other
// instances.
type Instance struct {
	Ref ID
	Frame
}

func (*Instance) Type() string   { return TypeInstance }
func (s *Instance) clone() Shape { c := *s; return &c }

func (s *Instance) params() []param {
	return append([]param{{"ref", ParamRef, true, &s.Ref}}, frameParams(&s.Frame)...)
}

func (s *Instance) check() *fieldError {
	if s.Ref <= 0 {
		return ferr("ref", "must name a node (a positive ID), got %d", s.Ref)
	}
	return checkFrame(&s.Frame)
}

func (s *Instance) compile(h hdr, _ []enode, ref enode) enode {
	return compileAffine(h, &s.Frame, ref, true)
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Instance) place(_ func(x, y float64) Point, _ float64, ref ID) {
	s.Ref = ref
}
