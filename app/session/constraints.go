package session

import (
	"fmt"
	"math"

	"orogen/app/engines"
	"orogen/app/run"
	"orogen/app/scene"
	"orogen/app/worker"
	"orogen/sim/constrain"
	"orogen/sim/engine"
)

// constraintState drives the document's elevation constraints (package
// constrain) from the UI thread: every run.ConstraintEvery steps, or when
// the terrain has settled with a constraint still off, it adjusts the
// factors on the uplift from the newest snapshot and sends the worker the
// document's uplift times them.
type constraintState struct {
	key    string // the constraints and grid the solver was built for
	keyAt  uint64 // the document's change count when key was computed
	solver *constrain.Solver
	n      int
	last   int    // snapshot step of the last adjustment
	bad    string // the last rasterization error logged
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
// snapshot (Current and Error are 0 before the first step or with the
// graph engine).
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
	if cs.solver == nil || cs.n != len(out) {
		return out
	}
	f := s.wk.Frame()
	hs := f.Snap.Height
	if f.Snap.Kind != engine.Grid || len(hs) != sc.Width*sc.Height {
		hs = nil
	}
	cnt := make([]float64, len(out))
	for _, t := range cs.solver.Targets() {
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

// upliftToSend is the document's uplift times the constraints' factors.
func (s *Session) upliftToSend() []float32 {
	u := append([]float32(nil), s.doc.Uplift().Data...)
	if s.cons.solver != nil {
		u = s.cons.solver.Uplift(u[:0:0], u, 1)
	}
	return u
}

// syncConstraints rebuilds the solver when the constraints or the grid
// changed, and adjusts when due (see constraintState).
func (s *Session) syncConstraints(f *worker.Frame) {
	sc := s.doc.Scene()
	cs := &s.cons
	key := cs.key
	if ch := s.doc.Changed(); ch != cs.keyAt || cs.keyAt == 0 {
		// The key is text of every vertex: only rebuilt when the document
		// changed.
		key = ""
		if len(sc.Constraints) > 0 && sc.Engine == engine.Grid {
			key = fmt.Sprint(sc.Width, sc.Height, sc.DomainM, constraintKey(sc.Constraints))
		}
		cs.keyAt = ch
	}
	if key != cs.key {
		old := cs.solver
		cs.key, cs.solver, cs.n = key, nil, 0
		if key != "" {
			cell := sc.DomainM / float64(max(sc.Width, sc.Height))
			ts, err := constrain.Rasterize(sc.ConstraintList(), sc.Width, sc.Height, cell)
			if err != nil {
				if msg := err.Error(); msg != cs.bad {
					cs.bad = msg
					s.logf(Error, "constraints not applied: %v", err)
				}
			} else {
				if cs.solver, err = constrain.New(ts, sc.Width, sc.Height, cell); err != nil {
					s.logf(Error, "constraints not applied: %v", err)
				} else {
					// An edit (a vertex moved, a height dragged) keeps
					// the factors found so far: the terrain moves from
					// where it stands, not back to the unconstrained one.
					cs.solver.Inherit(old)
					cs.n = len(sc.Constraints)
				}
			}
		}
		cs.last = f.Snap.Step
		s.wk.Send(worker.SetUplift{U: s.upliftToSend()})
		return
	}
	if cs.solver == nil || f.Snap.Kind != engine.Grid || len(f.Snap.Height) != sc.Width*sc.Height || f.Snap.Step <= cs.last {
		return
	}
	due := f.Snap.Step-cs.last >= run.ConstraintEvery
	if f.Converged && !due {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range f.Snap.Height {
			lo, hi = min(lo, float64(v)), max(hi, float64(v))
		}
		worst := 0.0
		for _, e := range cs.solver.Error(f.Snap.Height, cs.n) {
			worst = max(worst, e)
		}
		due = worst > run.ConstraintTol*(hi-lo)
	}
	if !due {
		return
	}
	cs.last = f.Snap.Step
	p, err := engines.Params(sc)
	if err == nil {
		err = cs.solver.Adjust(f.Snap.Height, p)
	}
	if err != nil {
		s.logf(Error, "constraints: %v", err)
		return
	}
	s.wk.Send(worker.SetUplift{U: s.upliftToSend()})
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
