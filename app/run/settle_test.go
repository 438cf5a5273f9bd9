package run

import (
	"context"
	"math"
	"orogen/app/scene/scenetest"
	"orogen/sim/engine"
	"runtime"
	"testing"

	"orogen/sim"
	"orogen/sim/analysis"
)

// settledRun runs o until converged and returns the job, its report and
// its heightmap (rasterized for the graph).
func settledRun(t *testing.T, o Options) (*Job, *Report, *sim.Field) {
	t.Helper()
	if o.Scene == "" {
		// default's ridges with the classic physics: the scheme's
		// figures below are its; with the preset's soil physics the
		// adaptive terrain differs from the fixed run's by 10–15 % in
		// height at 128² (random routing keeps the paths the long steps
		// chose: REALISM.md), and the runs took 16 minutes, not 17 s.
		o.Scene = scenetest.File(t, "default")
	}
	o.UntilConverged = true
	o.Steps = 20000
	j, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := j.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Converged {
		t.Fatalf("%+v: not converged after %d steps", o, rep.Steps)
	}
	w, h, cell := j.Engine.Size()
	f := &sim.Field{W: w, H: h, Cell: cell, Data: append([]float32(nil), j.Engine.Snapshot().Height...)}
	return j, rep, f
}

// TestSettleMatchesReference checks that the adaptive scheme settles on
// the terrain a fixed-dt run converges to, for both engines, with and
// without talus, hillslope diffusion and the lakes' water budget, in far
// fewer steps. Tolerances, from the issue that asked for the scheme: the
// highest and the mean height within 3 %, Hack's exponent within 0.03;
// and every cell drains to the border (flow.Graph.Check after routing the
// heightmap with lakes through their passes), and at least 95 % of the
// cells drain to the same side of the border in both, so the main divides
// are where they were. The two runs may organize a few channels
// differently (the long steps start only once fewer than 3 % of the
// receivers change per step), hence tolerances and not equality.
func TestSettleMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"grid", Options{}},
		{"grid-no-talus", Options{Talus: ptr(0.0)}},
		// With diffusion the grid engine's long steps are rebalanced
		// (engine.Rebalanced): they keep the rest state, and the
		// steps at the user's dt are the fixed run's physics. (κ = 2
		// m²/yr: at 0.05, the fixed-dt run itself never converges at
		// 128², a limit cycle of 0.7 m between talus and diffusion.)
		{"grid-diffusion", Options{Diffusion: ptr(2.0)}},
		// Rain turns the lakes' water budget on; the lakes are those of
		// the transient (thousands in the first steps, none at steady
		// state: the lakes preset's sinking basins never reach one).
		{"grid-lakes", Options{Rain: ptr(2e-5), Evaporation: ptr(1e-5)}},
		{"graph", Options{Engine: "graph"}},
		{"graph-no-talus", Options{Engine: "graph", Talus: ptr(0.0)}},
		{"graph-lakes", Options{Engine: "graph", Rain: ptr(2e-5), Evaporation: ptr(1e-5)}},
		{"graph-diffusion", Options{Engine: "graph", Diffusion: ptr(2.0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			if o.Size == 0 {
				o.Size = 128
			}
			ref := o
			ref.FixedDt = true
			j, refRep, want := settledRun(t, ref)
			_, rep, got := settledRun(t, o)
			if rep.Scheme != "adaptive" || refRep.Scheme != "fixed" {
				t.Fatalf("schemes %q and %q", rep.Scheme, refRep.Scheme)
			}
			t.Logf("steps: %d fixed, %d adaptive; max height %.1f / %.1f m; mean %.2f / %.2f m",
				refRep.Steps, rep.Steps, refRep.MaxHeight, rep.MaxHeight, refRep.MeanHeight, rep.MeanHeight)
			switch {
			case o.Diffusion != nil && *o.Diffusion > 0 && o.Engine == "graph":
				// The graph engine is Lie-split: the scheme keeps the
				// user's dt, the same run, the same terrain.
				if rep.Steps != refRep.Steps {
					t.Errorf("with diffusion: %d steps; want the fixed run's %d", rep.Steps, refRep.Steps)
				}
			case o.Diffusion != nil && *o.Diffusion > 0:
				// Rebalanced long steps land on the unsplit physics' rest
				// state; the Lie-split steps at the user's dt then move
				// it to theirs, hillslope by hillslope: fewer steps, not
				// half (measured: 292 against 368).
				if rep.Steps >= refRep.Steps {
					t.Errorf("with diffusion: %d steps; want fewer than the fixed run's %d", rep.Steps, refRep.Steps)
				}
			case rep.Steps*2 > refRep.Steps:
				t.Errorf("adaptive: %d steps; want at most half the fixed run's %d", rep.Steps, refRep.Steps)
			}
			wantMax, wantMean := heightOf(want)
			gotMax, gotMean := heightOf(got)
			within(t, "max height", gotMax, wantMax, 0.03)
			within(t, "mean height", gotMean, wantMean, 0.03)
			edges := j.Engine.Params().Edges
			gw, err := analysis.Route(want, edges)
			if err != nil {
				t.Fatal(err)
			}
			gg, err := analysis.Route(got, edges)
			if err != nil {
				t.Fatal(err)
			}
			if err := gg.Check(); err != nil {
				t.Errorf("adaptive terrain does not drain: %v", err)
			}
			hw, err := analysis.FitHack(gw, 20)
			if err != nil {
				t.Fatal(err)
			}
			hg, err := analysis.FitHack(gg, 20)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("Hack exponent %.3f / %.3f (r² %.2f / %.2f)", hw.H, hg.H, hw.R2, hg.R2)
			if d := math.Abs(hg.H - hw.H); d > 0.03 {
				t.Errorf("Hack exponent %.3f; want %.3f ± 0.03", hg.H, hw.H)
			}
			if edges.AllClosed() {
				return
			}
			same := analysis.SameSide(analysis.Sides(gw), analysis.Sides(gg))
			t.Logf("%.1f %% of cells drain to the same side", 100*same)
			if same < 0.95 {
				t.Errorf("%.1f %% of cells drain to the same side of the border; want >= 95 %%", 100*same)
			}
		})
	}
}

func heightOf(f *sim.Field) (hi, mean float64) {
	_, hi, mean = engine.HeightFigures(f.Data)
	return hi, mean
}

func within(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if math.Abs(got-want) > rel*math.Abs(want) {
		t.Errorf("%s %.2f; want %.2f ± %g %%", what, got, want, 100*rel)
	}
}

// TestSettleDeterministic runs the adaptive scheme at GOMAXPROCS 1 and 2:
// the same steps, the same time steps and the same heights, bit for bit.
func TestSettleDeterministic(t *testing.T) {
	for _, eng := range []string{"grid", "graph"} {
		var heights [][]float32
		var dts [][]float64
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
		for _, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			_, rep, f := settledRun(t, Options{Size: 96, Engine: eng})
			heights = append(heights, f.Data)
			dts = append(dts, rep.DtYr)
		}
		if len(dts[0]) != len(dts[1]) {
			t.Fatalf("%s: %d and %d steps", eng, len(dts[0]), len(dts[1]))
		}
		for i := range dts[0] {
			if dts[0][i] != dts[1][i] {
				t.Fatalf("%s: step %d has dt %g and %g", eng, i+1, dts[0][i], dts[1][i])
			}
		}
		for i := range heights[0] {
			if math.Float32bits(heights[0][i]) != math.Float32bits(heights[1][i]) {
				t.Fatalf("%s: cell %d: %g and %g", eng, i, heights[0][i], heights[1][i])
			}
		}
	}
}

// TestStalledRun: the strata preset as it was before session 15 (κ 0.02,
// k noise σ 0.8) with its talus angle set by the rock
// (testdata/strata-cycles.json: the geology of
// testdata/strata-talus-by-rock.json) cycles: the angle comes from the
// rock at the uplifted surface, and cells at the contacts swap angle and
// height from step to step (docs/REALISM.md; 64², 0.0004 m/yr after 339
// steps). So --until-converged gives up after Patience steps without
// getting closer, saying so in the report; the preset as shipped and the
// default settle long before. (With the shipped strata's κ 0.04 and σ 0.4
// the talus by rock settles at 64² too, in 317 steps.)
func TestStalledRun(t *testing.T) {
	const patience = 300
	for _, tc := range []struct {
		scene, geology string
		stalled        bool
	}{{"testdata/strata-cycles.json", "", true}, {"strata", "", false}, {scenetest.File(t, "default"), "", false}} { // default's ridges, the classic physics
		j, err := Prepare(Options{Scene: tc.scene, Geology: tc.geology, Size: 64, UntilConverged: true, Steps: 5000, Patience: patience})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := j.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rep.Stalled != tc.stalled || rep.Converged == tc.stalled {
			t.Fatalf("%s %s: stalled %v, converged %v after %d steps; want stalled %v", tc.scene, tc.geology, rep.Stalled, rep.Converged, rep.Steps, tc.stalled)
		}
		if tc.stalled && (rep.Steps < patience || rep.Steps >= 5000 || !(rep.StalledRate > 1e-5)) {
			t.Fatalf("%s: stalled after %d steps at %g m/yr", tc.scene, rep.Steps, rep.StalledRate)
		}
	}
}
