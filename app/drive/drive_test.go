package drive_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"orogen/app/drive"
	"orogen/app/engines"
	"orogen/app/run"
	"orogen/app/scene/scenetest"
	"orogen/sim/constrain"
	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
	"orogen/sim/grid"
	"orogen/sim/roudier"
)

// spec is the default preset's engine at n² cells, its classic physics.
func spec(t *testing.T, n int) engines.Spec {
	t.Helper()
	// default's ridges with the classic physics: settles in tens of steps
	// (with the preset's soil physics TestConstraintsSteer did not settle
	// in 3 000 steps at 48²).
	sc := scenetest.Classic(t, "default")
	sc.Width, sc.Height = n, n
	up, err := sc.UpliftField("", n, n, sc.Cell(), sc.Uplift.UmaxMPerYr)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sc.EngineSpec(up, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func step(t *testing.T, d *drive.Driver, n int) {
	t.Helper()
	for range n {
		if _, err := d.Step(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOneEntryEngine: a new engine needs its package and one registry
// entry, nothing else. The toy engine of enginetest, registered here,
// steps through the driver and runs as `orogen run --engine toy` does.
func TestOneEntryEngine(t *testing.T) {
	engines.Register(engines.Entry{Kind: enginetest.ToyKind, Label: "toy", Help: "uplift against a linear decay (a test engine)",
		New: func(s engines.Spec) (engine.Engine, error) {
			return enginetest.NewToy(s.W, s.H, s.Cell, s.Params, s.Up)
		}})
	s := spec(t, 32)
	s.Kind = enginetest.ToyKind
	d, err := drive.New(s, drive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	step(t, d, 3)
	if got := d.Engine().Snapshot(); got.Kind != enginetest.ToyKind || got.Step != 3 {
		t.Fatalf("snapshot of kind %q at step %d; want toy at 3", got.Kind, got.Step)
	}
	job, err := run.Prepare(run.Options{Engine: "toy", Size: 32, Steps: 5})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Engine != "toy" || rep.Steps != 5 || !(rep.MaxHeight > 0) {
		t.Fatalf("report: engine %q, %d steps, max height %g; want toy, 5 steps, a terrain", rep.Engine, rep.Steps, rep.MaxHeight)
	}
	// Constraints need an engine that says it can take them.
	if err := d.Apply(drive.SetConstraints{C: []constrain.Constraint{{Points: []constrain.Point{{X: 1000, Y: 1000, H: 10}}}}}); err == nil ||
		!strings.Contains(err.Error(), "constraints need") {
		t.Fatalf("constraints on the toy: %v; want refused", err)
	}
}

// TestCommandsActAtNextStep: a command changes nothing before the next
// step, and the driver's heights then follow an engine given the same
// change directly.
func TestCommandsActAtNextStep(t *testing.T) {
	s := spec(t, 48)
	d, err := drive.New(s, drive.Options{Fixed: true})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := grid.New(grid.Config{W: s.W, H: s.H, Cell: s.Cell, Up: s.Up, InitNoise: s.InitNoise, Seed: s.Seed, Params: s.Params})
	if err != nil {
		t.Fatal(err)
	}
	step(t, d, 5)
	for range 5 {
		ref.Step()
	}
	p := d.Params()
	p.K *= 3
	if err := d.Apply(drive.SetParams{P: p}); err != nil {
		t.Fatal(err)
	}
	if err := ref.SetParams(p); err != nil {
		t.Fatal(err)
	}
	up := slices.Clone(s.Up)
	for i := range up {
		up[i] *= 1.5
	}
	if err := d.Apply(drive.SetUplift{U: up}); err != nil {
		t.Fatal(err)
	}
	if err := ref.SetUplift(slices.Clone(up)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Engine().Heights(), ref.Heights()) {
		t.Fatal("the commands changed the heights before a step")
	}
	step(t, d, 4)
	for range 4 {
		ref.Step()
	}
	if !slices.Equal(d.Engine().Heights(), ref.Heights()) {
		t.Fatal("the driver's heights differ from an engine given the same changes")
	}
	// Refused commands leave the driver as it was.
	bad := p
	bad.K = math.NaN()
	h := slices.Clone(d.Engine().Heights())
	for _, c := range []drive.Command{drive.SetParams{P: bad}, drive.SetUplift{U: up[:10]},
		drive.SetCoefficients{V: roudier.DefaultParams()}, drive.SetHeights{}} {
		if err := d.Apply(c); err == nil {
			t.Errorf("%T accepted; want an error", c)
		}
	}
	if d.Params() != p || !slices.Equal(h, d.Engine().Heights()) {
		t.Fatal("a refused command changed the driver")
	}
}

// TestConstraintsSteer: with a point constraint the driver adjusts the
// uplift (every ConstraintEvery steps at most) until the terrain has
// settled with the point within ConstraintTol of the relief, and only then
// reports it settled; a Reset keeps the factors when asked and drops them otherwise.
func TestConstraintsSteer(t *testing.T) {
	const n = 48
	s := spec(t, n)
	d, err := drive.New(s, drive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := []constrain.Constraint{{Points: []constrain.Point{{X: 24.5 * s.Cell, Y: 24.5 * s.Cell, H: 600}}}}
	if err := d.Apply(drive.SetConstraints{C: cs}); err != nil {
		t.Fatal(err)
	}
	// The first adjustment comes at step ConstraintEvery at the latest
	// (sooner if the terrain settles first with the point off), and the
	// driver never reports settled with the point off.
	first := 0
	for k := 1; k <= drive.ConstraintEvery && first == 0; k++ {
		step(t, d, 1)
		if d.Settled() {
			t.Fatalf("settled at step %d before any adjustment, the point off by %.0f m", k, d.ConstraintErrors()[0])
		}
		if d.Adjustments() > 0 {
			first = k
		}
	}
	if first == 0 {
		t.Fatalf("no adjustment by step %d", drive.ConstraintEvery)
	}
	for k := 0; !d.Settled(); k++ {
		if k == 3000 {
			t.Fatalf("not settled after 3 000 steps; errors %v m", d.ConstraintErrors())
		}
		step(t, d, 1)
	}
	lo, hi, _ := engine.HeightFigures(d.Engine().Heights())
	if e := d.ConstraintErrors()[0]; e > drive.ConstraintTol*(hi-lo) {
		t.Fatalf("settled with the point off by %.1f m of a %.0f m relief", e, hi-lo)
	}
	u := d.Engine().Snapshot().Uplift
	if slices.Equal(u, s.Up) {
		t.Fatal("the engine's uplift is the base one: the constraints changed nothing")
	}
	// Reset keeping the factors: the new engine starts under the adjusted
	// uplift; without: under the base one.
	s2 := spec(t, n)
	if err := d.Apply(drive.Reset{Spec: s2, C: cs, KeepFactors: true}); err != nil {
		t.Fatal(err)
	}
	if got := d.Engine().Snapshot().Uplift; !slices.Equal(got, u) {
		t.Fatal("a reset keeping the factors lost them")
	}
	if err := d.Apply(drive.Reset{Spec: spec(t, n), C: cs}); err != nil {
		t.Fatal(err)
	}
	if got := d.Engine().Snapshot().Uplift; !slices.Equal(got, s.Up) {
		t.Fatal("a reset of a new document kept the old factors")
	}
	if err := d.Apply(drive.SetConstraints{}); err != nil {
		t.Fatal(err)
	}
	if d.ConstraintErrors() != nil {
		t.Fatal("constraints left after SetConstraints{}")
	}
}

// TestPerStepKeepsDt: Roudier's engine (engine.PerStep) steps at the
// user's dt even when the driver may lengthen steps.
func TestPerStepKeepsDt(t *testing.T) {
	s := spec(t, 32)
	s.Kind = roudier.Kind
	s.Params.Dt = 500
	s.Coefficients = roudier.DefaultParams()
	d, err := drive.New(s, drive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 40 {
		st, err := d.Step()
		if err != nil {
			t.Fatal(err)
		}
		if st.Dt != 500 {
			t.Fatalf("step %d at dt %g; want the user's 500", st.Step, st.Dt)
		}
	}
}
