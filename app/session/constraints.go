package session

import (
	"fmt"
	"math"

	"orogen/app/engines"
	"orogen/app/scene"
	"orogen/app/worker"
	"orogen/sim/constrain"
)

// constraintState is what the session keeps of the document's elevation
// constraints (package constrain). The worker's driver (app/drive) adjusts
// the uplift to them between steps, exactly as `orogen run` does; the
// session hands it the constraints when they change and measures them on
// the newest snapshot for the Constraints panel.
type constraintState struct {
	key     string // the constraints and grid last handed to the worker
	keyNow  string // the document's, as of keyAt
	keyAt   uint64 // the document's change count when keyNow was computed
	targets []constrain.Target
	n       int
	bad     string // the last rasterization error logged
}

// ConstraintStatus is one constraint as the Constraints panel lists it.
type ConstraintStatus struct {
	Kind    string  // "point" or "curve"
	Target  float64 // metres: the point's height, the curve's mean
	Current float64 // metres: the height at the point, the curve's mean
	Error   float64 // metres: the largest |height - target| over its cells
	Cells   int
}

// Constraints returns the document's constraints measured on the newest
// snapshot (Current and Error are 0 before the first step or on an engine
// other than the one they were laid for).
func (s *Session) Constraints() []ConstraintStatus {
	sc := s.doc.Scene()
	out := make([]ConstraintStatus, len(sc.Constraints))
	for i, c := range sc.Constraints {
		out[i].Kind = "curve"
		if c.Point != nil {
			out[i].Kind = "point"
		}
	}
	cs := &s.cons
	if cs.targets == nil || cs.n != len(out) {
		return out
	}
	f := s.wk.Frame()
	hs := f.Snap.Height
	if f.Snap.Step == 0 || len(hs) != sc.Width*sc.Height {
		hs = nil
	}
	cnt := make([]float64, len(out))
	for _, t := range cs.targets {
		o := &out[t.C]
		o.Cells++
		o.Target += t.H
		cnt[t.C]++
		if hs != nil {
			h := float64(hs[t.Cell])
			o.Current += h
			o.Error = math.Max(o.Error, math.Abs(h-t.H))
		}
	}
	for i := range out {
		if cnt[i] > 0 {
			out[i].Target /= cnt[i]
			out[i].Current /= cnt[i]
		}
	}
	return out
}

// upliftToSend is a copy of the document's uplift, for the worker to own.
func (s *Session) upliftToSend() []float32 {
	return append([]float32(nil), s.doc.Uplift().Data...)
}

// constraintsKey is the key of the document's constraints: text of their
// vertices and the grid, "" when there are none or its engine cannot take
// them. It is only rebuilt when the document changed.
func (s *Session) constraintsKey() string {
	cs := &s.cons
	if ch := s.doc.Changed(); ch == cs.keyAt && cs.keyAt != 0 {
		return cs.keyNow
	}
	sc := s.doc.Scene()
	key := ""
	if e, err := engines.Lookup(sc.Engine); err == nil && e.Constraints && len(sc.Constraints) > 0 {
		key = fmt.Sprint(sc.Width, sc.Height, sc.DomainM, constraintKey(sc.Constraints))
	}
	cs.keyAt, cs.keyNow = s.doc.Changed(), key
	return key
}

// handConstraints returns the document's constraints for the worker (nil
// when there are none, its engine cannot take them or they do not lie on
// the grid, which is logged) and records them as handed on, with their
// targets for the Constraints panel.
func (s *Session) handConstraints() []constrain.Constraint {
	cs := &s.cons
	key := s.constraintsKey()
	cs.key, cs.targets, cs.n = key, nil, 0
	if key == "" {
		return nil
	}
	sc := s.doc.Scene()
	list := sc.ConstraintList()
	ts, err := constrain.Rasterize(list, sc.Width, sc.Height, sc.Cell())
	if err != nil {
		if msg := err.Error(); msg != cs.bad {
			cs.bad = msg
			s.logf(Error, "constraints not applied: %v", err)
		}
		return nil
	}
	cs.targets, cs.n = ts, len(sc.Constraints)
	return list
}

// syncConstraints hands the worker the constraints when they or the grid
// changed.
func (s *Session) syncConstraints() {
	if s.constraintsKey() == s.cons.key {
		return
	}
	s.wk.Send(worker.SetConstraints{C: s.handConstraints()})
}

// constraintKey is a comparable text of the constraints' values.
func constraintKey(cs []scene.Constraint) string {
	var b []byte
	for _, c := range cs {
		for _, p := range c.Points() {
			b = fmt.Appendf(b, "%v,%v,%v;", p.X, p.Y, p.H)
		}
		b = append(b, '|')
	}
	return string(b)
}

// AddConstraint appends c to the document's constraints (an undoable
// edit).
func (s *Session) AddConstraint(c scene.Constraint) error {
	cs := append(cloneConstraints(s.doc.Scene().Constraints), c)
	label := "Add point constraint"
	if c.Point == nil {
		label = "Add curve constraint"
	}
	if err := s.doc.SetConstraints(cs, label, ""); err != nil {
		return err
	}
	s.Sync()
	return nil
}

// SetConstraint replaces constraint i (a move or a new height, undoable;
// merge joins a drag's edits into one entry, see doc).
func (s *Session) SetConstraint(i int, c scene.Constraint, merge string) error {
	cs := cloneConstraints(s.doc.Scene().Constraints)
	if i < 0 || i >= len(cs) {
		return fmt.Errorf("no constraint %d: there are %d", i, len(cs))
	}
	cs[i] = c
	if err := s.doc.SetConstraints(cs, "Edit constraint", merge); err != nil {
		return err
	}
	s.Sync()
	return nil
}

// DeleteConstraint removes constraint i (undoable).
func (s *Session) DeleteConstraint(i int) error {
	cs := cloneConstraints(s.doc.Scene().Constraints)
	if i < 0 || i >= len(cs) {
		return fmt.Errorf("no constraint %d: there are %d", i, len(cs))
	}
	cs = append(cs[:i], cs[i+1:]...)
	if err := s.doc.SetConstraints(cs, "Delete constraint", ""); err != nil {
		return err
	}
	s.Sync()
	return nil
}

func cloneConstraints(cs []scene.Constraint) []scene.Constraint {
	out := make([]scene.Constraint, len(cs))
	for i, c := range cs {
		out[i] = c.Clone()
	}
	return out
}
