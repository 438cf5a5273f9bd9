package enginetest

import (
	"math"
	"runtime"
	"slices"
	"testing"

	"orogen/sim/engine"
)

// Config is what a Factory builds an engine from.
type Config struct {
	W, H int
	Cell float64   // metres
	Up   []float32 // uplift, m/yr, W·H values; the engine may keep it
	Seed uint64
}

// Factory builds a new engine of the kind under test from c, with the
// engine's usual parameters. Two calls with the same c must give engines
// that step identically.
type Factory func(t testing.TB, c Config) engine.Engine

// Options tune Run.
type Options struct {
	// Size is the side of the test grid (default 64: large enough that
	// the engines split their loops over 3 workers).
	Size int
	// Steps is the number of steps each check runs (default 20).
	Steps int
	// Cell is the size of the test grid's cells, metres (default 100).
	Cell float64
	// MassTol is the largest |Residual| of the summed rock account,
	// relative to Uplift + Out (default 1e-5: float32 heights; an
	// engine that keeps no account, with Uplift 0, is not checked).
	MassTol float64
}

func (o Options) withDefaults() Options {
	if o.Size == 0 {
		o.Size = 64
	}
	if o.Steps == 0 {
		o.Steps = 20
	}
	if o.Cell == 0 {
		o.Cell = 100
	}
	if o.MassTol == 0 {
		o.MassTol = 1e-5
	}
	return o
}

// Dome is the suite's uplift: a dome falling to zero at the edges, at
// most umax m/yr.
func Dome(w, h int, umax float32) []float32 {
	u := make([]float32, w*h)
	for y := range h {
		for x := range w {
			dx := (float64(x)+0.5)/float64(w) - 0.5
			dy := (float64(y)+0.5)/float64(h) - 0.5
			u[y*w+x] = umax * float32(math.Max(0, 1-4*(dx*dx+dy*dy)))
		}
	}
	return u
}

// Run runs the conformance suite on the engines f builds.
func Run(t *testing.T, f Factory, o Options) {
	o = o.withDefaults()
	n := o.Size
	cfg := func() Config {
		return Config{W: n, H: n, Cell: o.Cell, Up: Dome(n, n, 1e-3), Seed: 7}
	}
	steps := func(e engine.Engine, k int) engine.Mass {
		var m engine.Mass
		for range k {
			m = m.Add(e.Step().Mass)
			if err := e.Err(); err != nil {
				t.Fatalf("step %d: %v", e.Stats().Step, err)
			}
		}
		return m
	}

	t.Run("Size", func(t *testing.T) {
		e := f(t, cfg())
		w, h, cell := e.Size()
		if w != n || h != n || cell != o.Cell {
			t.Fatalf("Size: got %d×%d of %g m; want %d×%d of %g m", w, h, cell, n, n, o.Cell)
		}
		steps(e, 2)
		s := e.Snapshot()
		if s.W != n || s.H != n || s.Cell != o.Cell || len(s.Height) != n*n || s.Kind == "" {
			t.Fatalf("snapshot %d×%d of %g m, %d heights, kind %q; want %d×%d of %g m, %d heights, a kind", s.W, s.H, s.Cell, len(s.Height), s.Kind, n, n, o.Cell, n*n)
		}
		if s.Step != 2 || e.Stats().Step != 2 {
			t.Fatalf("after 2 steps: snapshot step %d, stats step %d; want 2", s.Step, e.Stats().Step)
		}
		if len(e.Heights()) == 0 {
			t.Fatal("no heights")
		}
		for i, v := range s.Height {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				t.Fatalf("snapshot height %d is %g", i, v)
			}
		}
	})

	t.Run("Deterministic", func(t *testing.T) {
		run := func(procs int) []float32 {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			e := f(t, cfg())
			steps(e, o.Steps)
			return slices.Clone(e.Snapshot().Height)
		}
		a, b := run(1), run(3)
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
				t.Fatalf("cell %d: %g with 1 worker, %g with 3; want identical bits (Mismatch concurrent)", i, a[i], b[i])
			}
		}
	})

	t.Run("MassCloses", func(t *testing.T) {
		e := f(t, cfg())
		m := steps(e, o.Steps)
		if m.Uplift == 0 && m.Out() == 0 && m.Stored == 0 {
			t.Skip("the engine keeps no rock account")
		}
		scale := math.Abs(m.Uplift) + math.Abs(m.Out())
		if r := m.Residual(); !(math.Abs(r) <= o.MassTol*scale) {
			t.Fatalf("rock account %+v: residual %g m³; want within %g of %g", m, r, o.MassTol, scale)
		}
	})

	t.Run("RefusesBadInput", func(t *testing.T) {
		e := f(t, cfg())
		steps(e, 1)
		before := slices.Clone(e.Snapshot().Height)
		nan := cfg().Up
		nan[n*n/2] = float32(math.NaN())
		inf := cfg().Up
		inf[3] = float32(math.Inf(1))
		for name, err := range map[string]error{
			"uplift NaN":    e.SetUplift(nan),
			"uplift +Inf":   e.SetUplift(inf),
			"uplift short":  e.SetUplift(make([]float32, n*n-1)),
			"rain map NaN":  e.SetRainMap(nan),
			"rain map long": e.SetRainMap(make([]float32, n*n+1)),
		} {
			if err == nil {
				t.Errorf("%s: accepted; want an error", name)
			}
		}
		p := e.Params()
		for name, q := range map[string]engine.Params{
			"dt NaN":   withDt(p, math.NaN()),
			"dt -1":    withDt(p, -1),
			"dt +Inf":  withDt(p, math.Inf(1)),
			"k NaN":    withK(p, math.NaN()),
			"m +Inf":   withM(p, math.Inf(1)),
			"k -1e-6 ": withK(p, -1e-6),
		} {
			if err := e.SetParams(q); err == nil {
				t.Errorf("params %s: accepted; want an error", name)
			}
		}
		if e.Params() != p {
			t.Errorf("params after refusals: %+v; want %+v", e.Params(), p)
		}
		// The engine steps on as if nothing had been asked: like a twin
		// that was asked nothing.
		twin := f(t, cfg())
		steps(twin, 1)
		if !slices.Equal(before, twin.Snapshot().Height) {
			t.Fatal("the twin differs before the refusals: the factory is not deterministic")
		}
		steps(e, 2)
		steps(twin, 2)
		if !slices.Equal(e.Snapshot().Height, twin.Snapshot().Height) {
			t.Fatal("after refused input the engine steps differently from its twin")
		}
	})

	t.Run("SnapshotImmutable", func(t *testing.T) {
		e := f(t, cfg())
		steps(e, 2)
		s := e.Snapshot()
		h, a := slices.Clone(s.Height), slices.Clone(s.Area)
		steps(e, 3)
		if !slices.Equal(h, s.Height) || !slices.Equal(a, s.Area) {
			t.Fatal("a snapshot changed after later steps")
		}
	})

	t.Run("ChangesActAtNextStep", func(t *testing.T) {
		a, b := f(t, cfg()), f(t, cfg())
		steps(a, 3)
		steps(b, 3)
		p := b.Params()
		if err := b.SetParams(withDt(p, 2*p.Dt)); err != nil {
			t.Fatal(err)
		}
		if b.Params().Dt != 2*p.Dt {
			t.Fatalf("Params after SetParams: dt %g; want %g", b.Params().Dt, 2*p.Dt)
		}
		if !slices.Equal(a.Snapshot().Height, b.Snapshot().Height) {
			t.Fatal("SetParams changed the heights before a step")
		}
		steps(a, 1)
		steps(b, 1)
		if slices.Equal(a.Snapshot().Height, b.Snapshot().Height) {
			t.Fatal("a doubled dt changed nothing at the next step")
		}

		c, d := f(t, cfg()), f(t, cfg())
		steps(c, 3)
		steps(d, 3)
		if err := d.SetUplift(Dome(n, n, 3e-3)); err != nil {
			t.Fatal(err)
		}
		steps(c, 1)
		steps(d, 1)
		if slices.Equal(c.Snapshot().Height, d.Snapshot().Height) {
			t.Fatal("a tripled uplift changed nothing at the next step")
		}
	})

	t.Run("ConvergedWhenStill", func(t *testing.T) {
		e := f(t, Config{W: n, H: n, Cell: o.Cell, Seed: 7})
		if err := e.SetUplift(nil); err != nil {
			t.Fatal(err)
		}
		// Without uplift the seeded noise of the start drains away: an
		// engine may want its drainage settled too (no receiver changing).
		for k := 1; !e.Converged(1e-3); k++ {
			if k > 50 {
				t.Fatalf("without uplift, after 50 steps: not converged at 1e-3 m/yr (max |Δh| %g m over %g yr)", e.Stats().MaxDh, e.Stats().Dt)
			}
			steps(e, 1)
		}
	})
}

func withDt(p engine.Params, v float64) engine.Params { p.Dt = v; return p }
func withK(p engine.Params, v float64) engine.Params  { p.K = v; return p }
func withM(p engine.Params, v float64) engine.Params  { p.M = v; return p }
