package run

import (
	"context"
	"math"
	"os"
	"slices"
	"testing"

	"orogen/app/rasterio"
	"orogen/app/scene/scenetest"
	"orogen/sim"
	"orogen/sim/amplify"
	"orogen/sim/analysis"
	"orogen/sim/engine"
)

// defaultSettled is the default preset's grid and uplift with the classic
// physics (scenetest) at n² settled (--until-converged): tens of steps.
func defaultSettled(t *testing.T, n int) *engine.Snapshot {
	t.Helper()
	o := Options{Scene: scenetest.File(t, "default"), Size: n, UntilConverged: true, Steps: 20000}
	job, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Converged {
		t.Fatalf("the default preset at %d² did not settle in %d steps", n, rep.Steps)
	}
	return job.Engine.Snapshot()
}

// The amplified default preset keeps its drainage network's shape:
// Hack's exponent within 0.05 of the coarse terrain's and inside
// [0.45, 0.7] (the tolerances; Schott et al. 2022, §5's range).
// Both are fitted over the cells draining at least 50 coarse cells' area
// (analysis.DefaultMinArea on the coarse grid, 50·F² fine cells on the
// fine one): the same rivers, not the fine hillslopes the coarse grid has
// no cells for.
//
// It keeps the cell means: averaged back to the coarse grid, within 1 % of
// the relief (the tolerance).
//
// And it has relief below the coarse cell: amplify.Roughness (the power
// at wavelengths under F fine cells over the power from F to 4F, detrended
// and Hann-windowed) is within a factor of 3 of a real DEM's at F of its
// own cells, at ×4 and ×8. The DEM is app/cli/testdata/jacksboro.tif (90 m
// cells of the Cumberland Mountains, Tennessee; source and licence in the
// README there), the fine cell here 1/F of the preset's. At ×2 the ratio
// is logged, not asserted: the band (wavelengths under 2 cells) is the
// DEM's Nyquist corner, which its bilinear warp to 90 m cells has smoothed
// away, so the reference is biased low, and the ratio is not robust: 2.64
// before the beds were capped at a coarse cell's width, 2.81 after (2.85
// with seed 3), 3.36 with the preset at 256², 4.89 at 512² (the same
// measure at ×4: 1.52, 2.01, 2.56; at ×8: 0.36, 0.47, 0.59), a bound of 3
// there would fail on changes that have nothing to do with the detail.
// Since the base surface is displaced off the coarse grid at ×4 and ×8
// (sim/amplify, step 1), 1.24 at ×4 and 0.366 at ×8 here (×4 at 256²
// 1.71, at 512² 2.45; ×8 0.539 and 0.763); ×2 is not displaced. Laid
// linearly on the displaced base, or with their tops at its lowest point
// beside them, the beds had ×4 at 2.72 here, 3.78 at 256² and 5.06 at
// 512², and the ×2 displacement that brings its imprint under 1.10 had
// ×2 at 8.73 (sim/amplify's warpAmp).
func TestAmplifyDefaultPreset(t *testing.T) {
	s := defaultSettled(t, 128)
	dem, err := rasterio.ReadHeights("../cli/testdata/jacksboro.tif")
	if err != nil {
		t.Fatal(err)
	}
	edges := s.Param.Edges
	coarse, err := analysis.Analyze(s.Field(s.Height), analysis.Options{Edges: edges})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []int{2, 4, 8} {
		r, err := amplify.Amplify(context.Background(), s, amplify.DefaultOptions(f))
		if err != nil {
			t.Fatal(err)
		}
		fine, err := analysis.Analyze(&sim.Field{W: r.W, H: r.H, Cell: r.Cell, Data: r.Height},
			analysis.Options{Edges: edges, MinArea: analysis.DefaultMinArea * float64(f*f)})
		if err != nil {
			t.Fatal(err)
		}
		hc, hf := coarse.Hack.H, fine.Hack.H
		if math.Abs(hf-hc) > 0.05 || hf < analysis.HackRange[0] || hf > analysis.HackRange[1] {
			t.Errorf("×%d: Hack's exponent %.3f; want within 0.05 of the coarse %.3f and in [0.45, 0.7]", f, hf, hc)
		}
		got := amplify.Roughness(r.Height, r.W, r.H, f)
		want := amplify.Roughness(dem.Data, dem.W, dem.H, f)
		if ratio := got / want; f > 2 && !(ratio >= 1.0/3 && ratio <= 3) {
			t.Errorf("×%d: roughness %.4g; the DEM's %.4g (ratio %.3g); want within a factor of 3", f, got, want, ratio)
		}
		worst, _ := meanError(s, r)
		if worst > 0.01 {
			t.Errorf("×%d: cell means off by up to %.3g %% of the relief; want ≤ 1 %%", f, 100*worst)
		}
		t.Logf("×%d: Hack %.3f (coarse %.3f); roughness %.4g, the DEM's %.4g (ratio %.3g); cell means within %.3g %% of the relief; %d pits drained",
			f, hf, hc, got, want, got/want, 100*worst, r.Stats.Pits)
	}
}

// meanError returns the worst and the mean, over the coarse cells, of
// |fine mean − coarse height| as shares of the coarse relief.
func meanError(s *engine.Snapshot, r *amplify.Result) (worst, mean float64) {
	worst, mean = amplify.MeanError(s.Height, s.W, s.H, r.Height, r.W)
	lo, hi := slices.Min(s.Height), slices.Max(s.Height)
	return worst / float64(hi-lo), mean / float64(hi-lo)
}

// The cell means hold at the sizes people amplify, where a coarse cell is
// a few tens of metres and the large rivers are as wide as it: a bed that
// covers its cell keeps the cell's mean by its own height, since the mean
// correction moves only the dry cells beside it (sim/amplify's doc, steps
// 3 and 5). Before beds were capped at a coarse cell's width and their
// tops set by how much of the cell they cover, the default preset at 256²
// had its means off by 0.52, 0.81 and 1.00 % of the relief at ×2, ×4
// and ×8, and the error grew with the size (512²: 0.34, 0.95, 1.17 %;
// 1024²: 0.63, 1.30, 1.44 %). Then 0.55, 0.32 and 0.40 % at 256² (512²:
// 0.27, 0.30, 0.40 %; 1024²: 0.14, 0.21, 0.26 %); with the displaced
// base (sim/amplify, step 1) 0.42, 0.63 and 0.59 % (512²: 0.36, 0.91,
// 0.92 %; 1024² ×4: 0.66 %). The tolerance at 256²
// is 0.75 %, tighter than the 1 %, so that the growth with size
// that broke 1 % at 512² shows at a size the unit tests afford; 512² (not
// under -short) and 1024² (OROGEN_AMPLIFY_1024=1, about a minute) hold
// the 1 %.
//
// At ×4 and ×8 the coarse grid does not show (issue 34's target, at the
// sizes it names): the mean |Δh| between fine cells across coarse-cell
// edges is within 10 % of that inside them (amplify.Imprint; measured at
// 256² 1.068 and 1.033, at 512² 1.061 and 1.026; undisplaced 1.23 and
// 1.22 at both), nothing lies below base level, and at ×4 the power below
// the coarse cell, over the Jacksboro DEM's (TestAmplifyDefaultPreset's
// measure), is no more than it was with the undisplaced base (1.98 at
// 256², 2.54 at 512²; measured 1.71 and 2.46). At ×2 the base is not
// displaced (sim/amplify's warpAmp says why): imprint 1.31, logged.
func TestAmplifyMeansLarge(t *testing.T) {
	sizes := []struct {
		n     int
		tol   float64
		rough float64 // the ×4 roughness over the DEM's, undisplaced
	}{{256, 0.0075, 1.98}, {512, 0.01, 2.54}, {1024, 0.01, 0}}
	dem, err := rasterio.ReadHeights("../cli/testdata/jacksboro.tif")
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range sizes {
		if sz.n == 512 && testing.Short() {
			continue
		}
		if sz.n == 1024 && os.Getenv("OROGEN_AMPLIFY_1024") == "" {
			continue
		}
		s := defaultSettled(t, sz.n)
		for _, f := range []int{2, 4, 8} {
			r, err := amplify.Amplify(context.Background(), s, amplify.DefaultOptions(f))
			if err != nil {
				t.Fatal(err)
			}
			worst, mean := meanError(s, r)
			if worst > sz.tol {
				t.Errorf("%d² ×%d: cell means off by up to %.3g %% of the relief; want ≤ %g %%", sz.n, f, 100*worst, 100*sz.tol)
			}
			a, i := amplify.Imprint(r.Height, r.W, r.H, f)
			if f > 2 && a/i > 1.10 {
				t.Errorf("%d² ×%d: imprint %.3f (across %.3g m, inside %.3g m); want ≤ 1.10", sz.n, f, a/i, a, i)
			}
			if lo, m := slices.Min(s.Height), slices.Min(r.Height); m < lo {
				t.Errorf("%d² ×%d: lowest fine cell %g m, below base level %g m", sz.n, f, m, lo)
			}
			if f == 4 && sz.rough > 0 {
				got := amplify.Roughness(r.Height, r.W, r.H, f) / amplify.Roughness(dem.Data, dem.W, dem.H, f)
				if got > sz.rough {
					t.Errorf("%d² ×4: roughness %.3g times the DEM's; want ≤ %g (the undisplaced base's)", sz.n, got, sz.rough)
				}
				t.Logf("%d² ×4: roughness %.3g times the DEM's", sz.n, got)
			}
			t.Logf("%d² ×%d: cell means within %.3g %% of the relief (mean %.3g %%), imprint %.3f", sz.n, f, 100*worst, 100*mean, a/i)
		}
	}
}
