package settle

import (
	"fmt"
	"math"
	"time"

	"orogen/sim/engine"
	"orogen/sim/flow"
)

// Options tune a Scheme. The zero value of a field takes its default.
type Options struct {
	// Tol is the convergence tolerance, m/yr (default 1e-6).
	Tol float64
	// Calm is the fraction of receivers changing per step under which dt
	// may grow (default 0.03).
	Calm float64
	// Grow multiplies dt after each calm step (default 2).
	Grow float64
	// MaxFactor caps dt at MaxFactor times the base (default 4096).
	MaxFactor float64
	// Fixed keeps the base dt at every step: the scheme only reports when
	// the engine has settled.
	Fixed bool
	// Patience is how many steps the terrain may go without halving its
	// fastest change (max |Δh|/dt) before the scheme gives up on it
	// settling: Stalled (default 20 000; the fixed-dt run of the default
	// preset at 1024² once went 1 262 steps without halving it).
	Patience int
	// LongPatience is how many steps longer than the base in a row may go
	// without getting closer to rest before the scheme goes back to the
	// base dt for good (until Restart): at long steps some terrains never
	// get closer to rest (receivers near a tie switching, each long step
	// landing on the rest state of the other; default 64). Closer to rest
	// is the fastest change halving or, with D8 routing everywhere, the
	// fraction of receivers changing halving (see Scheme.Step).
	LongPatience int
}

// Defaults of Options.
const (
	DefaultTol          = 1e-6
	DefaultCalm         = 0.03
	DefaultGrow         = 2
	DefaultMaxFactor    = 4096
	DefaultPatience     = 20000
	DefaultLongPatience = 64
)

func (o Options) withDefaults() (Options, error) {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.Tol, DefaultTol)
	def(&o.Calm, DefaultCalm)
	def(&o.Grow, DefaultGrow)
	def(&o.MaxFactor, DefaultMaxFactor)
	if o.Patience == 0 {
		o.Patience = DefaultPatience
	}
	if o.LongPatience == 0 {
		o.LongPatience = DefaultLongPatience
	}
	switch {
	case !(o.Tol > 0) || math.IsInf(o.Tol, 0):
		return o, fmt.Errorf("settle: tolerance %g m/yr: must be finite and > 0", o.Tol)
	case !(o.Calm > 0 && o.Calm <= 1):
		return o, fmt.Errorf("settle: calm fraction %g: must be in (0, 1]", o.Calm)
	case !(o.Grow > 1 && o.Grow <= 16):
		return o, fmt.Errorf("settle: growth %g: must be in (1, 16]", o.Grow)
	case !(o.MaxFactor >= 1 && o.MaxFactor <= 1e6):
		return o, fmt.Errorf("settle: max factor %g: must be in [1, 1e6]", o.MaxFactor)
	case o.Patience < 1:
		return o, fmt.Errorf("settle: patience %d steps: must be >= 1", o.Patience)
	case o.LongPatience < 1:
		return o, fmt.Errorf("settle: long-step patience %d steps: must be >= 1", o.LongPatience)
	}
	return o, nil
}

// Scheme steps an engine with adaptive time steps until it settles. It is
// owned by the engine's goroutine. The engine's parameters are the user's
// (the base) except for Dt, which the scheme sets before each step; use
// Scheme.SetParams rather than the engine's, and Restart after changing the
// uplift or the heights.
type Scheme struct {
	e    engine.Engine
	o    Options
	base engine.Params
	dt   float64 // the next step's

	settled  bool
	steps    int           // since the last restart
	elapsed  time.Duration // stepping time since the last restart
	settleAt int           // steps to settle (0 while not settled)
	settleIn time.Duration // stepping time to settle

	// Progress towards settling: the fastest change (max |Δh|/dt, m/yr)
	// of the step that last halved it, and that step's number.
	mark   float64
	markAt int
	rate   float64 // the last step's

	// The same over the steps longer than the base since the last step
	// at the base dt, and whether long steps stalled (the base dt until
	// Restart).
	longMark  float64
	longRecv  float64
	longSince int
	hold      bool
	// The confirmations that failed (confirm): the last step's dt, the
	// fastest change of the failed confirmation that last halved it, and
	// how many failed since.
	lastDt       float64
	confirmMark  float64
	confirmSince int
}

// New returns a scheme for e at its current parameters, starting at the
// base dt. An engine whose laws are per step (engine.PerStep) keeps the
// base dt whatever o.Fixed says: a longer dt would only scale its uplift.
func New(e engine.Engine, o Options) (*Scheme, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	if _, ok := e.(engine.PerStep); ok {
		o.Fixed = true
	}
	s := &Scheme{e: e, o: o, base: e.Params()}
	s.dt = s.base.Dt
	s.mark, s.rate = math.Inf(1), math.NaN()
	s.longMark, s.longRecv = math.Inf(1), math.Inf(1)
	s.lastDt, s.confirmMark = s.base.Dt, math.Inf(1)
	s.balance()
	return s, nil
}

// Engine returns the engine the scheme drives.
func (s *Scheme) Engine() engine.Engine { return s.e }

// Params returns the user's parameters (with the base dt).
func (s *Scheme) Params() engine.Params { return s.base }

// SetParams sets the user's parameters and restarts the scheme.
func (s *Scheme) SetParams(p engine.Params) error {
	if err := s.e.SetParams(p); err != nil {
		s.e.SetParams(s.base) // keep the engine as it was
		return err
	}
	s.base = p
	s.Restart()

	return nil
}

// Restart goes back to the base dt: call it when the uplift, the rain or
// the heights changed, so the network can reorganize at the user's dt.
func (s *Scheme) Restart() {
	s.dt = s.base.Dt
	s.settled = false
	s.steps, s.elapsed = 0, 0
	s.settleAt, s.settleIn = 0, 0
	s.mark, s.markAt, s.rate = math.Inf(1), 0, math.NaN()
	s.longMark, s.longRecv, s.longSince, s.hold = math.Inf(1), math.Inf(1), 0, false
	s.lastDt, s.confirmMark, s.confirmSince = s.base.Dt, math.Inf(1), 0
	s.apply()
}

// apply gives the engine the next step's dt. A dt the engine refuses (its
// limits on κ·dt, say) is halved until it accepts one; the base dt always
// passes, since the engine took the base parameters.
func (s *Scheme) apply() {
	p := s.base
	for {
		p.Dt = s.dt
		if s.e.SetParams(p) == nil || s.dt <= s.base.Dt {
			break
		}
		s.dt = math.Max(s.base.Dt, s.dt/2)
	}
	s.balance()
}

// balance turns an engine.Rebalanced's balance on for the steps longer
// than the base and off for those at the base dt, which are the user's
// physics.
func (s *Scheme) balance() {
	if r, ok := s.e.(engine.Rebalanced); ok {
		r.SetRebalanced(s.dt > s.base.Dt)
	}
}

// Dt is the time step the next Step takes, years.
func (s *Scheme) Dt() float64 { return s.dt }

// Step advances the engine by one step and chooses the next dt. The stats
// carry the step's dt.
func (s *Scheme) Step() engine.StepStats {
	dt := s.dt
	st := s.e.Step()
	st.Dt = dt
	if s.e.Err() != nil {
		return st
	}
	s.steps++
	s.elapsed += st.Total
	if s.rate = st.MaxDh / dt; s.rate <= s.mark/2 {
		s.mark, s.markAt = s.rate, s.steps
	}
	base := s.base.Dt
	// Progress of the long steps since the last step at the base dt: the
	// fastest change halved or, with D8 routing, the receivers changing
	// halved. D8 receivers are a function of the heights, so a long step
	// lands on the rest state of its receivers, and receivers that keep
	// settling are a network still getting closer to it while a few cells
	// hold its fastest change up (the classic preset at 1024²: the
	// receivers changing fall from 2 % a step to none over the 180 long
	// steps at 4 096·dt that settle it, while its fastest change went 64
	// of them without halving). Random hillslope receivers are redrawn at
	// every long step, and their fraction keeps halving for hundreds of
	// long steps that never come to rest (the default preset at 512²: 375
	// steps to settle counting them, 319 without).
	switch {
	case dt == base:
		s.longMark, s.longRecv, s.longSince = math.Inf(1), math.Inf(1), 0
	case math.IsInf(s.longMark, 1):
		s.longMark, s.longRecv, s.longSince = s.rate, st.RecvChanged, 0
	case s.rate <= s.longMark/2:
		s.longMark, s.longSince = s.rate, 0
	case s.base.Routing != flow.RoutingRandom && st.RecvChanged < s.longRecv/2:
		s.longRecv, s.longSince = st.RecvChanged, 0
	default:
		s.longSince++
	}
	switch {
	case dt > base && s.longSince >= s.o.LongPatience:
		// Long steps stopped getting closer to rest: the base dt from
		// here on, as a fixed-step run.
		s.dt, s.hold = base, true
	case dt == base:
		if s.e.Converged(s.o.Tol) {
			if !s.settled {
				s.settled = true
				s.settleAt, s.settleIn = s.steps, s.elapsed
			}
			return st // settled: stay at the base dt
		}
		s.settled = false
		if dt < s.lastDt {
			s.confirm()
		}
		if s.grows() && st.RecvChanged < s.o.Calm {
			s.dt = math.Min(base*s.o.Grow, base*s.o.MaxFactor)
		}
	case st.MaxDh < s.o.Tol*base || st.MaxDh2 < 2*s.o.Tol*base:
		// A long step that moved nothing more than a base step may at
		// convergence: confirm at the base dt.
		s.dt = base
	case st.RecvChanged < s.o.Calm:
		s.dt = math.Min(dt*s.o.Grow, base*s.o.MaxFactor)
	}
	s.lastDt = dt
	if s.dt != dt {
		s.apply()
	}
	return st
}

// ConfirmPatience is how many confirmations in a row may fail (a step at
// the base dt after long steps that came to rest, not converged) without
// halving the change they find before the scheme holds the base dt. A
// terrain whose long steps come to rest where a step at the base dt does
// not would else grow, confirm and fail for ever, the same change at
// every confirmation, each one starting the long steps' LongPatience
// again: the strata preset at 64² and 128² (8.6 m and 36–40 m at each of
// 23 and 21 confirmations, docs/REALISM.md), which the base dt settles
// (246 steps at 128²).
const ConfirmPatience = 4

// confirm counts a failed confirmation: the step just taken at the base
// dt followed a long step and did not converge.
func (s *Scheme) confirm() {
	if s.rate <= s.confirmMark/2 {
		s.confirmMark, s.confirmSince = s.rate, 0
		return
	}
	if s.confirmSince++; s.confirmSince >= ConfirmPatience {
		s.hold = true
	}
}

// grows reports whether the scheme may lengthen steps. With hillslope
// diffusion only on an engine.Rebalanced: other engines split a step into
// diffusion, then uplift and stream power (Lie splitting), so their rest
// state drifts with dt; a step of κ·dt far longer than the user's diffuses
// relief the next base step brings back, and the long steps never confirm
// (measured on the default preset with κ = 2 m²/yr: a limit cycle at any
// factor ≥ 8, and a ladder stepping dt back down saved 24 % of the steps
// on the grid and lost 9 % on the graph).
func (s *Scheme) grows() bool {
	if s.o.Fixed || s.hold {
		return false
	}
	_, balanced := s.e.(engine.Rebalanced)
	return s.base.Kappa == 0 || balanced
}

// Settled reports whether the last step, at the base dt, changed no height
// faster than the tolerance.
func (s *Scheme) Settled() bool { return s.settled }

// SettledAfter returns the steps and the stepping time (the sum of the
// steps' durations) it took to settle since the last restart, or 0, 0 while
// the terrain has not settled.
func (s *Scheme) SettledAfter() (steps int, d time.Duration) { return s.settleAt, s.settleIn }

// Stalled reports whether the terrain has not settled and has gone
// Options.Patience steps without halving its fastest change: it is not
// getting closer to a steady state (a limit cycle, or cliffs retreating
// through layered rock as a travelling wave). Rate is the last step's
// fastest change, m/yr.
func (s *Scheme) Stalled() (stalled bool, rate float64) {
	return !s.settled && s.steps-s.markAt >= s.o.Patience, s.rate
}

// Steps is the number of steps since the last restart.
func (s *Scheme) Steps() int { return s.steps }

// Finish puts the base dt back into the engine, for whoever steps it next.
func (s *Scheme) Finish() {
	s.dt = s.base.Dt
	s.apply()
}
