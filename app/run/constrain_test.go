package run

import (
	"context"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orogen/app/drive"
	"orogen/app/engines"
	"orogen/app/rasterio"
	"orogen/app/scene/scenetest"
	"orogen/sim"
	"orogen/sim/analysis"
	"orogen/sim/constrain"
	"orogen/sim/flow"
	"orogen/sim/grid"
)

// outletOf returns, for every cell, the root its water reaches.
// meanErr is, per constraint, the mean |height - target| over its cells.
func meanErr(h []float32, targets []constrain.Target) []float64 {
	sum, cnt := make([]float64, 2), make([]float64, 2)
	for _, t := range targets {
		sum[t.C] += math.Abs(float64(h[t.Cell]) - t.H)
		cnt[t.C]++
	}
	for i := range sum {
		sum[i] /= max(1, cnt[i])
	}
	return sum
}

func outletOf(g *flow.Graph) []int32 {
	out := make([]int32, len(g.Rec))
	for _, i := range g.Stack { // receivers come first
		if r := g.Rec[i]; r == i {
			out[i] = i
		} else {
			out[i] = out[r]
		}
	}
	return out
}

// Issue 15's done-when for elevation constraints, at 128²: with the
// default preset converged, a point constraint of 1 500 m at the centre
// (2 344 m unconstrained) and a level ridge-curve constraint of 1 700 m
// along the south-west crest (1 800 to 2 400 m unconstrained) are met
// within 2 % of the relief at every cell, every cell still drains (no
// pit), and the terrain away from the constraints' basins is unchanged
// within 1 % (measured: 0 m; see below for what "away" means).
func TestConstraintsDefaultPreset(t *testing.T) {
	if testing.Short() {
		t.Skip("4 400 steps at 128²")
	}
	const n = 128
	sc := scenetest.Classic(t, "default") // the classic physics the figures were measured with
	sc.Width, sc.Height = n, n
	cell := sc.DomainM / n
	up, err := sc.UpliftField("", n, n, cell, sc.Uplift.UmaxMPerYr)
	if err != nil {
		t.Fatal(err)
	}
	p, err := sc.EngineParams()
	if err != nil {
		t.Fatal(err)
	}
	e0, err := grid.New(grid.Config{W: n, H: n, Cell: cell, Up: up.Data, InitNoise: 1, Seed: 1, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	// Unconstrained: converged after ~200 steps at 128² (max change 0
	// m/yr from step 300 on); 400 to be safe.
	for range 400 {
		e0.Step()
	}
	h0 := append([]float32(nil), e0.Heights()...)
	g0 := flow.NewGraph(n, n, cell, p.Edges, p.NaturalDist)
	g0.Update(h0)
	lo, hi := (&sim.Field{W: n, H: n, Data: h0}).MinMax()
	rel0 := float64(hi - lo)
	at := func(x, _ float64) float64 { return (x + 0.5) * cell }
	cs := []constrain.Constraint{
		{Points: []constrain.Point{{X: at(64, 0), Y: at(64, 0), H: 1500}}},
		// Along the crest of the south-west arm (1 900 to 2 400 m
		// unconstrained): a level crest at 1 700 m.
		{Points: []constrain.Point{{X: at(56, 0), Y: at(78, 0), H: 1700}, {X: at(52, 0), Y: at(88, 0), H: 1700}, {X: at(46, 0), Y: at(98, 0), H: 1700}}},
	}
	targets, err := constrain.Rasterize(cs, n, n, cell)
	if err != nil {
		t.Fatal(err)
	}
	before := meanErr(h0, targets)
	// As in the app: constraints added to the converged terrain, the
	// simulation running on, through the driver both the app and orogen
	// run use (app/drive): adjustments every 100 steps or when settled
	// with a constraint off by more than 2 % of the relief.
	spec := engines.Spec{Kind: grid.Kind, W: n, H: n, Cell: cell, Up: up.Data, InitNoise: 1, Seed: 1, Params: p}
	d, err := drive.With(e0, spec, drive.Options{Fixed: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Apply(drive.SetConstraints{C: cs}); err != nil {
		t.Fatal(err)
	}
	e := d.Engine().(*grid.Engine)
	var errs []float64
	for k := 0; !d.Settled(); k++ {
		if k == 4000 {
			t.Fatalf("not settled with the constraints met after %d steps (%d adjustments, errors %.0f m)", k, d.Adjustments(), d.ConstraintErrors())
		}
		if _, err := d.Step(); err != nil {
			t.Fatal(err)
		}
		if k%100 == 99 {
			errs = append(errs, slices.Max(d.ConstraintErrors()))
		}
	}
	s, err := constrain.New(targets, n, n, cell)
	if err != nil {
		t.Fatal(err)
	}
	// At convergence: 300 more steps under the final uplift.
	for range 300 {
		e.Step()
	}
	h1 := e.Heights()
	lo1, hi1 := (&sim.Field{W: n, H: n, Data: h1}).MinMax()
	rel1 := float64(hi1 - lo1)
	ce := s.Error(h1, len(cs))
	after := meanErr(h1, targets)
	t.Logf("worst error every 100 steps %.0f m (%d adjustments); at convergence, of a %.0f m relief: point off by %.1f m; curve (%d cells) off by %.0f m at most, %.0f m on average (%.0f m before)",
		errs, d.Adjustments(), rel1, ce[0], len(targets)-1, ce[1], after[1], before[1])
	// The point: the 2 % of the relief.
	if ce[0] > 0.02*rel1 {
		t.Errorf("point constraint off by %.1f m; want <= 2 %% of the %.0f m relief", ce[0], rel1)
	}
	// The curve: 2 % of the relief at every cell (measured 19 m, 0.7 %;
	// 7 m on average, from 376 m before).
	if ce[1] > 0.02*rel1 {
		t.Errorf("curve constraint off by %.0f m at worst (%.0f m on average, %.0f m before); want <= 2 %% of the %.0f m relief", ce[1], after[1], before[1], rel1)
	}
	r, err := analysis.Analyze(&sim.Field{W: n, H: n, Cell: cell, Data: h1}, analysis.Options{Edges: p.Edges})
	if err != nil {
		t.Fatal(err)
	}
	if r.Drainage.Pits != 0 {
		t.Errorf("%d pits in the constrained terrain; want every cell draining", r.Drainage.Pits)
	}
	// The constraints' basins: the drainage basins (cells by the outlet
	// their water reaches) holding a target or a cell whose uplift the
	// constraints changed, in the unconstrained or the constrained
	// terrain; then, until none is left, any basin that traded cells with
	// one of them. A lowered crest is a divide: the basin beside it gains
	// or loses headwater cells, its trunk's drainage area changes and with
	// it every height upstream (measured: up to 46 m, 1.7 %, in such
	// basins). That is the constraint's doing through the drainage
	// network, not uplift leaking across a divide; every other basin keeps
	// its heights.
	basin := map[int32]bool{}
	o0, o1 := outletOf(g0), outletOf(e.Graph())
	for _, out := range [][]int32{o0, o1} {
		for _, tg := range targets {
			basin[out[tg.Cell]] = true
		}
		for i := range h0 {
			if s.Set(i) {
				basin[out[i]] = true
			}
		}
	}
	direct := maps.Clone(basin)
	for changed := true; changed; {
		changed = false
		for i := range o0 {
			if a, b := o0[i], o1[i]; a != b && basin[a] != basin[b] {
				basin[a], basin[b] = true, true
				changed = true
			}
		}
	}
	away, moved, awayDirect, movedDirect := 0, 0.0, 0, 0.0
	for i := range h0 {
		d := math.Abs(float64(h1[i]) - float64(h0[i]))
		if !direct[o0[i]] && !direct[o1[i]] {
			awayDirect++
			movedDirect = max(movedDirect, d)
		}
		if basin[o0[i]] || basin[o1[i]] {
			continue
		}
		away++
		moved = max(moved, d)
	}
	t.Logf("%d of %d cells outside the constraints' basins moved by at most %.1f m (%.2f %% of the relief); counting the basins that traded cells with them as away, %d cells moved by at most %.0f m (%.1f %%)",
		away, n*n, moved, 100*moved/rel0, awayDirect, movedDirect, 100*movedDirect/rel0)
	if away < n*n/10 {
		t.Errorf("only %d cells away from the constraints' basins: the far-field check measures nothing", away)
	}
	if moved > 0.01*rel0 {
		t.Errorf("terrain away from the constraints' basins moved by %.0f m; want <= 1 %% of the %.0f m relief", moved, rel0)
	}
}

// orogen run with a scene's constraints, end to end: the report gives
// each constraint's error and the adjustments made; a point constraint of
// 1 500 m on the summit of a cone of uplift (about 2 000 m unconstrained)
// ends within 2 % of the relief once converged. A constraint outside the
// map is refused, naming it.
func TestRunWithConstraints(t *testing.T) {
	dir := t.TempDir()
	const n = 64
	up := sim.NewField(n, n, 1)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			d := math.Hypot(float64(x)-31.5, float64(y)-31.5) / 32
			up.Data[y*n+x] = float32(max(0, 1-d*d))
		}
	}
	if err := rasterio.Write(filepath.Join(dir, "up.png"), up); err != nil {
		t.Fatal(err)
	}
	write := func(name, constraints string) string {
		p := filepath.Join(dir, name)
		sc := `{"version": 1, "name": "cone", "width": 64, "height": 64, "domain_m": 64000, "until_converged": true, "steps": 2000,
  "uplift": {"image": "up.png", "umax_m_per_yr": 5e-4}, "constraints": ` + constraints + `}`
		if err := os.WriteFile(p, []byte(sc), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("c.json", `[{"point": [32000, 32000], "height_m": 1500}]`)
	j, err := Prepare(Options{Scene: good, Report: filepath.Join(dir, "r.json")})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := j.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	relief := rep.MaxHeight - rep.Final.MinHeight
	if len(rep.Constraints) != 1 || rep.Constraints[0].Kind != "point" || rep.Constraints[0].Cells != 1 {
		t.Fatalf("report constraints %+v; want one point of one cell", rep.Constraints)
	}
	t.Logf("%d steps, %d adjustments, converged %v: point off by %.1f m of a %.0f m relief",
		rep.Steps, rep.ConstraintAdjustments, rep.Converged, rep.Constraints[0].MaxErrorM, relief)
	if !rep.Converged || rep.ConstraintAdjustments == 0 || rep.Constraints[0].MaxErrorM > 0.02*relief {
		t.Errorf("converged %v after %d adjustments, off by %.1f m; want converged within 2 %% of %.0f m",
			rep.Converged, rep.ConstraintAdjustments, rep.Constraints[0].MaxErrorM, relief)
	}
	bad := write("bad.json", `[{"point": [32000, 32000], "height_m": 1500}, {"curve": [[0, 0, 10], [70000, 5, 10]]}]`)
	if _, err := Prepare(Options{Scene: bad}); err == nil || !strings.Contains(err.Error(), "constraints[1], vertex 1") {
		t.Errorf("a curve leaving the map: %v; want an error naming constraints[1], vertex 1", err)
	}
}
