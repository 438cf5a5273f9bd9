package drive

import (
	"errors"
	"fmt"
	"math"

	"orogen/app/engines"
	"orogen/app/runner"
	"orogen/sim/constrain"
	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/settle"
)

// ConstraintEvery is the number of steps between two adjustments of the
// uplift to the elevation constraints, unless the terrain settles first.
const ConstraintEvery = 100

// ConstraintTol is how close, as a fraction of the relief, every
// constraint must be for a terrain with constraints to count as settled:
// half the 2 % the constraints promise, so that the terrain's last moves
// after settling (measured: up to 0.6 % of the relief in 300 more steps
// on the default preset at 128²) keep them within it.
const ConstraintTol = 0.01

// Options tune a Driver.
type Options struct {
	// Tol is the rate below which the terrain has settled, m/yr (0:
	// settle.DefaultTol).
	Tol float64
	// Fixed keeps the user's dt at every step (no adaptive settling).
	Fixed bool
	// Patience is settle.Options.Patience (0: its default).
	Patience int
}

// Command is a change the driver applies before its next step. Commands
// are runner commands too: the app's worker sends them to its goroutine,
// and those that replace the last of their type are Coalescing.
type Command interface {
	runner.Command
	driveCommand()
}

// SetParams replaces the stream-power parameters (the user's: the scheme
// sets dt while settling).
type SetParams struct{ P engine.Params }

// SetCoefficients replaces the coefficients of an engine that has its own
// (engine.Coefficients: Roudier's roudier.Params); another engine refuses
// them.
type SetCoefficients struct{ V any }

// SetUplift replaces the base uplift (W·H values, m/yr; nil for none); the
// engine gets it times the constraints' factors. The driver owns U after
// Apply.
type SetUplift struct{ U []float32 }

// SetGeology lays a geology under the terrain (nil: uniform rock) on an
// engine.Geologic engine.
type SetGeology struct{ M *geology.Model }

// SetGeologyMap installs a geology already laid on the engine's grid
// (engine.MapGeologic), made off the driver's goroutine.
type SetGeologyMap struct{ G *geology.Map }

// SetConstraints replaces the elevation constraints (nil: none),
// rasterized on the engine's grid; the factors found so far on the
// uplift are kept where the new constraints cover the same cells, so an
// edit moves the terrain from where it stands.
type SetConstraints struct{ C []constrain.Constraint }

// Reset replaces the engine by a new one built from Spec (see
// engines.New), with the constraints C laid on its grid; Spec.Up is the
// base uplift. KeepFactors starts the constraints from the factors found
// so far (a terrain reset of the same document) rather than from none (a
// new document). The driver owns Spec's slices after Apply.
type Reset struct {
	Spec        engines.Spec
	C           []constrain.Constraint
	KeepFactors bool
}

// SetHeights rebuilds the engine at step 0 from heights H (W·H values, m)
// with the current size, parameters, coefficients, uplift, seed and
// noise. The driver owns H after Apply.
type SetHeights struct{ H []float32 }

func (SetParams) driveCommand()       {}
func (SetCoefficients) driveCommand() {}
func (SetUplift) driveCommand()       {}
func (SetGeology) driveCommand()      {}
func (SetGeologyMap) driveCommand()   {}
func (SetConstraints) driveCommand()  {}
func (Reset) driveCommand()           {}
func (SetHeights) driveCommand()      {}

func (SetParams) RunnerCommand()       {}
func (SetCoefficients) RunnerCommand() {}
func (SetUplift) RunnerCommand()       {}
func (SetGeology) RunnerCommand()      {}
func (SetGeologyMap) RunnerCommand()   {}
func (SetConstraints) RunnerCommand()  {}
func (Reset) RunnerCommand()           {}
func (SetHeights) RunnerCommand()      {}

func (SetParams) Coalescing()       {}
func (SetCoefficients) Coalescing() {}
func (SetUplift) Coalescing()       {}
func (SetGeology) Coalescing()      {}
func (SetConstraints) Coalescing()  {}

// Driver steps one engine; see the package doc.
type Driver struct {
	o    Options
	e    engine.Engine
	sch  *settle.Scheme
	spec engines.Spec // the engine's: kind, size, base uplift, noise, seed, coefficients (Init dropped; Params from sch)

	list []constrain.Constraint // the constraints, as given
	cons *constraints           // list laid on the grid (nil: none)
}

// constraints is the constraint solver on the engine's grid.
type constraints struct {
	s    *constrain.Solver
	u    []float32 // the uplift handed to the engine: base times the factors
	last int       // the engine's step count at the last adjustment
	met  bool      // after the last step: settled with every constraint within ConstraintTol
	adj  int       // adjustments so far
}

// New builds the engine spec describes and a driver on it.
func New(spec engines.Spec, o Options) (*Driver, error) {
	d := &Driver{o: o}
	if err := d.build(spec); err != nil {
		return nil, err
	}
	return d, nil
}

// With returns a driver on an engine already built from spec (and
// perhaps changed since: a refined stream graph, a rain map), which it
// owns from now on. spec is what Reset and SetHeights rebuild from.
func With(e engine.Engine, spec engines.Spec, o Options) (*Driver, error) {
	d := &Driver{o: o}
	if err := d.adopt(e, spec); err != nil {
		return nil, err
	}
	return d, nil
}

// build replaces the engine by one built from spec, keeping the
// constraints (laid on its grid).
func (d *Driver) build(spec engines.Spec) error {
	e, err := engines.New(spec)
	if err != nil {
		return err
	}
	return d.adopt(e, spec)
}

// adopt makes e, built from spec, the driver's engine.
func (d *Driver) adopt(e engine.Engine, spec engines.Spec) error {
	sch, err := settle.New(e, settle.Options{Tol: d.o.Tol, Fixed: d.o.Fixed, Patience: d.o.Patience})
	if err != nil {
		return err
	}
	spec.Init = nil
	old := d.cons
	e0, sch0, spec0 := d.e, d.sch, d.spec
	d.e, d.sch, d.spec, d.cons = e, sch, spec, nil
	if len(d.list) == 0 {
		return nil // the engine has the base uplift
	}
	if err := d.layConstraints(d.list, old); err != nil {
		d.e, d.sch, d.spec, d.cons = e0, sch0, spec0, old
		return err
	}
	return nil
}

// Engine is the engine the driver steps. Its setters are the driver's:
// change it through Apply.
func (d *Driver) Engine() engine.Engine { return d.e }

// Scheme is the settling scheme that steps the engine.
func (d *Driver) Scheme() *settle.Scheme { return d.sch }

// Spec is the engine's spec (without its initial heights; Params are the
// ones it was built with, Scheme().Params() the ones in force).
func (d *Driver) Spec() engines.Spec { return d.spec }

// Params are the user's parameters in force.
func (d *Driver) Params() engine.Params { return d.sch.Params() }

// Apply applies a command; it takes effect at the next Step. An error
// leaves the driver as it was.
func (d *Driver) Apply(c Command) error {
	switch c := c.(type) {
	case SetParams:
		if err := d.sch.SetParams(c.P); err != nil {
			return err
		}
	case SetCoefficients:
		ce, ok := d.e.(engine.Coefficients)
		if !ok {
			return fmt.Errorf("drive: the %s has no coefficients of its own", d.spec.Label())
		}
		if err := ce.SetCoefficients(c.V); err != nil {
			return err
		}
		d.spec.Coefficients = c.V
		d.sch.Restart()
	case SetUplift:
		if err := d.setUplift(c.U); err != nil {
			return err
		}
		d.spec.Up = c.U
		d.sch.Restart()
	case SetGeology:
		g, ok := d.e.(engine.Geologic)
		if !ok {
			return fmt.Errorf("drive: the %s has no geology", d.spec.Label())
		}
		g.SetGeology(c.M)
		d.spec.Geology = c.M
		d.sch.Restart()
	case SetGeologyMap:
		g, ok := d.e.(engine.MapGeologic)
		if !ok {
			return fmt.Errorf("drive: the %s lays no geology map", d.spec.Label())
		}
		if err := g.SetGeologyMap(c.G); err != nil {
			return err
		}
		d.spec.Geology = c.G.Model()
		d.sch.Restart()
	case SetConstraints:
		if err := d.layConstraints(c.C, d.cons); err != nil {
			return err
		}
		d.list = c.C
		d.sch.Restart()
	case Reset:
		list, old := d.list, d.cons
		d.list = c.C
		if !c.KeepFactors {
			d.cons = nil
		}
		if err := d.build(c.Spec); err != nil {
			d.list, d.cons = list, old
			return err
		}
	case SetHeights:
		if c.H == nil {
			return errors.New("drive: SetHeights without heights")
		}
		spec := d.spec
		spec.Params = d.sch.Params()
		spec.Init = c.H
		if err := d.build(spec); err != nil {
			return err
		}
	default:
		return fmt.Errorf("drive: unknown command %T", c)
	}
	return nil
}

// setUplift hands the engine base times the constraints' factors.
func (d *Driver) setUplift(base []float32) error {
	if d.cons == nil || base == nil {
		return d.e.SetUplift(base)
	}
	u := d.cons.s.Uplift(d.cons.u[:0], base, 1)
	if err := d.e.SetUplift(u); err != nil {
		return err
	}
	d.cons.u = u
	return nil
}

// layConstraints rasterizes list on the engine's grid, keeping old's
// factors, and hands the engine the uplift with them.
func (d *Driver) layConstraints(list []constrain.Constraint, old *constraints) error {
	if len(list) == 0 {
		if d.cons == nil {
			return nil
		}
		if err := d.e.SetUplift(d.spec.Up); err != nil {
			return err
		}
		d.cons = nil
		return nil
	}
	if _, ok := d.e.(engine.Constrainable); !ok {
		return fmt.Errorf("constraints need an engine they can steer: the %s cannot", d.spec.Label())
	}
	if d.spec.Up == nil {
		return errors.New("constraints adjust the uplift: there is none; give the terrain an uplift")
	}
	w, h, cell := d.e.Size()
	ts, err := constrain.Rasterize(list, w, h, cell)
	if err != nil {
		return err
	}
	s, err := constrain.New(ts, w, h, cell)
	if err != nil {
		return err
	}
	c := &constraints{s: s, last: d.e.Stats().Step}
	if old != nil {
		s.Inherit(old.s)
		c.adj = old.adj
	}
	prev := d.cons
	d.cons = c
	if err := d.setUplift(d.spec.Up); err != nil {
		d.cons = prev
		return err
	}
	return nil
}

// Step runs one step: the scheme's, then the constraints' adjustment when
// it is due. The error is the engine's (non-finite heights) or the
// constraint solver's.
func (d *Driver) Step() (engine.StepStats, error) {
	st := d.sch.Step()
	if err := d.e.Err(); err != nil {
		return st, err
	}
	if d.cons != nil {
		if err := d.constrain(st.Step); err != nil {
			return st, err
		}
	}
	return st, nil
}

// constrain adjusts the uplift when it is due: ConstraintEvery steps after
// the last adjustment, or when the terrain has settled with a constraint
// still off by more than ConstraintTol of the relief.
func (d *Driver) constrain(step int) error {
	c := d.cons
	c.met = false
	hs := d.e.Heights()
	if d.sch.Settled() {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range hs {
			lo, hi = min(lo, float64(v)), max(hi, float64(v))
		}
		if d.worst(hs) <= ConstraintTol*(hi-lo) {
			c.met = true
			return nil
		}
	} else if step-c.last < ConstraintEvery {
		return nil
	}
	if err := c.s.Adjust(hs, d.sch.Params()); err != nil {
		return err
	}
	c.last = step
	c.adj++
	if err := d.setUplift(d.spec.Up); err != nil {
		return err
	}
	d.sch.Restart() // a new uplift: settle again from the user's dt
	return nil
}

func (d *Driver) worst(hs []float32) float64 {
	w := 0.0
	for _, v := range d.cons.s.Error(hs, len(d.list)) {
		w = max(w, v)
	}
	return w
}

// Settled reports whether the terrain has settled: the last step, at the
// user's dt, changed no height faster than the tolerance, and every
// constraint is met.
func (d *Driver) Settled() bool {
	return d.sch.Settled() && (d.cons == nil || d.cons.met)
}

// Stalled reports whether the terrain has gone the scheme's patience
// without getting closer to a steady state, and the last step's fastest
// change, m/yr (settle.Scheme.Stalled).
func (d *Driver) Stalled() (bool, float64) { return d.sch.Stalled() }

// Adjustments is how many times the constraints adjusted the uplift.
func (d *Driver) Adjustments() int {
	if d.cons == nil {
		return 0
	}
	return d.cons.adj
}

// ConstraintErrors are the largest |height − target| of each constraint
// on the engine's heights, metres (nil without constraints).
func (d *Driver) ConstraintErrors() []float64 {
	if d.cons == nil {
		return nil
	}
	return d.cons.s.Error(d.e.Heights(), len(d.list))
}

// ConstraintCells counts the cells of each constraint on the grid (nil
// without constraints).
func (d *Driver) ConstraintCells() []int {
	if d.cons == nil {
		return nil
	}
	n := make([]int, len(d.list))
	for _, t := range d.cons.s.Targets() {
		n[t.C]++
	}
	return n
}

// Finish records the scheme's last settling time (settle.Scheme.Finish).
func (d *Driver) Finish() { d.sch.Finish() }
