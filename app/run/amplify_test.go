package run

import (
	"context"
	"math"
	"testing"

	"orogen/app/rasterio"
	"orogen/sim"
	"orogen/sim/amplify"
	"orogen/sim/analysis"
	"orogen/sim/engine"
)

// defaultSettled is the default preset at 128² settled (--until-converged).
func defaultSettled(t *testing.T) *engine.Snapshot {
	t.Helper()
	o := Options{Scene: "default", Size: 128, UntilConverged: true, Steps: 20000}
	job, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Converged {
		t.Fatalf("the default preset at 128² did not settle in %d steps", rep.Steps)
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
// README there), the fine cell here 1/F of the preset's. At ×2 the band
// (wavelengths under 2 cells) is the DEM's Nyquist corner, which its
// bilinear warp to 90 m cells has smoothed away: no fair reference there.
func TestAmplifyDefaultPreset(t *testing.T) {
	s := defaultSettled(t)
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
		lo, hi := math.Inf(1), math.Inf(-1)
		worst := 0.0
		for cy := range s.H {
			for cx := range s.W {
				var m float64
				for y := cy * f; y < (cy+1)*f; y++ {
					for x := cx * f; x < (cx+1)*f; x++ {
						m += float64(r.Height[y*r.W+x])
					}
				}
				v := float64(s.Height[cy*s.W+cx])
				lo, hi = min(lo, v), max(hi, v)
				worst = max(worst, math.Abs(m/float64(f*f)-v))
			}
		}
		if worst > 0.01*(hi-lo) {
			t.Errorf("×%d: cell means off by up to %.3g m, %.3g %% of the relief; want ≤ 1 %%", f, worst, 100*worst/(hi-lo))
		}
		t.Logf("×%d: Hack %.3f (coarse %.3f); roughness %.4g, the DEM's %.4g (ratio %.3g); cell means within %.3g %% of the relief; %d pits drained",
			f, hf, hc, got, want, got/want, 100*worst/(hi-lo), r.Stats.Pits)
	}
}
