package amplify

import (
	"math"
	"slices"
	"testing"
)

// The coarse grid does not show: on the settled test terrain the mean
// |Δh| between fine cells across coarse-cell edges over that inside them
// (Imprint) stays near 1 at ×4 and ×8 (measured 1.123 and 1.080; without
// the displaced base, Warp < 0, 1.45 and 1.37), the cell means stay
// within 1 % of the relief and no fine cell lies below base level. The
// bound is 1.10 at ×8 and 1.15 at ×4, where the displacement is held to
// 0.378 cells so that the beds do not roughen the terrain below the
// coarse cell more than the undisplaced base did (warpAmp); issue 34's
// target, 1.10 on the default preset at 256² and 512², is
// app/run's TestAmplifyMeansLarge (1.068 and 1.061 there). At ×2 the base
// is not displaced: the imprint (1.73 here) is logged, not asserted.
func TestNoImprint(t *testing.T) {
	s := settled(t, 64)
	lo, hi := slices.Min(s.Height), slices.Max(s.Height)
	for _, f := range []int{2, 4, 8} {
		r := run(t, s, DefaultOptions(f))
		a, i := Imprint(r.Height, r.W, r.H, f)
		bound := map[int]float64{2: math.Inf(1), 4: 1.15, 8: 1.10}[f]
		if a/i > bound {
			t.Errorf("×%d: across/inside %.3g (%.3g / %.3g m); want ≤ %g", f, a/i, a, i, bound)
		}
		worst, _ := MeanError(s.Height, s.W, s.H, r.Height, r.W)
		if rel := worst / float64(hi-lo); rel > 0.01 {
			t.Errorf("×%d: cell means off by %.3g %% of the relief; want ≤ 1 %%", f, 100*rel)
		}
		if m := slices.Min(r.Height); m < lo {
			t.Errorf("×%d: lowest fine cell %g m below base level %g m", f, m, lo)
		}
		t.Logf("×%d: imprint %.3f (%.3g / %.3g m), cell means within %.3g %% of the relief", f, a/i, a, i, 100*worst/float64(hi-lo))
	}
}
