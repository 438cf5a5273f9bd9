package analysis

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/stat"
)

// SlopeArea is a fit of the slope–area relation S = Ks·A^Exponent over the
// river cells (Flint's law; at the steady state of the stream power law
// E = k·A^m·S^n with uniform uplift u, S = (u/k)^(1/n)·A^(−m/n), so
// Exponent = −m/n and Ks = (u/k)^(1/n): Whipple and Tucker 1999). S is the
// drop to the cell's receiver over the distance to it (m/m), A the
// drainage area in m².
type SlopeArea struct {
	Exponent  float64 `json:"exponent"`  // −θ, θ the concavity
	Concavity float64 `json:"concavity"` // θ = −Exponent
	// Ks is the steepness, m^(2θ): 10^Log10Ks, NaN (JSON null) where
	// that is not a normal float64 (power.go).
	Ks      float64 `json:"ks"`
	Log10Ks float64 `json:"log10_ks"` // the fit's intercept, log10 of the slope at A = 1 m²
	R2      float64 `json:"r2"`
	Points  int     `json:"points"`
	Bins    []Bin   `json:"bins"` // medians by area, 10 bins a decade
}

// Bin is the median slope of the river cells whose area falls in one bin.
type Bin struct {
	Area   float64 `json:"area_m2"` // geometric centre of the bin
	Slope  float64 `json:"slope"`   // median slope of its cells
	Points int     `json:"points"`
}

// binsPerDecade sets the width of the slope–area bins: a tenth of a
// decade of area, narrow enough to show the trend over the two to four
// decades of a map's rivers, wide enough to hold many cells each.
const binsPerDecade = 10

// FitSlopeArea fits log10 S against log10 A by least squares (gonum's
// stat.LinearRegression) over the nodes of t with area ≥ minArea m² and a
// positive slope on heights h, except those skip marks (cells a fill raised;
// nil: none). Nodes whose slope is zero or negative (flats, the reversed
// paths of lakes) have no logarithm and are left out.
func FitSlopeArea(t Tree, h []float32, skip []bool, minArea float64) (SlopeArea, error) {
	t.check()
	if len(h) != len(t.Rec) {
		panic(fmt.Sprintf("analysis: %d heights for %d nodes", len(h), len(t.Rec)))
	}
	return fitSlopeArea(t, t.Area(nil), h, skip, minArea)
}

func fitSlopeArea(t Tree, area []float64, h []float32, skip []bool, minArea float64) (SlopeArea, error) {
	var xs, ys []float64
	for i, a := range area {
		r := t.Rec[i]
		if a < minArea || r == int32(i) || (skip != nil && skip[i]) {
			continue
		}
		s := (float64(h[i]) - float64(h[r])) / float64(t.Dist[i])
		if !(s > 0) {
			continue
		}
		xs = append(xs, math.Log10(a))
		ys = append(ys, math.Log10(s))
	}
	return slopeAreaFromLogs(xs, ys, minArea)
}

// slopeAreaFromLogs fits ys = log10 S against xs = log10 A (A ≥ minArea m²).
func slopeAreaFromLogs(xs, ys []float64, minArea float64) (SlopeArea, error) {
	if len(xs) < 3 {
		return SlopeArea{}, fmt.Errorf("analysis: %d river cells (draining %g m² or more) slope downhill: too few to fit slope against area", len(xs), minArea)
	}
	alpha, beta := stat.LinearRegression(xs, ys, nil, false)
	if math.IsNaN(beta) || math.IsInf(beta, 0) {
		return SlopeArea{}, fmt.Errorf("analysis: the %d river cells all drain the same area: slope against area has no exponent", len(xs))
	}
	return SlopeArea{
		Exponent: beta, Concavity: -beta, Ks: pow10(alpha), Log10Ks: alpha,
		R2: stat.RSquared(xs, ys, nil, alpha, beta), Points: len(xs),
		Bins: medians(xs, ys, math.Log10(minArea)),
	}, nil
}

// medians returns the median of ys in bins of xs (log10 area) a tenth of a
// decade wide from x0.
func medians(xs, ys []float64, x0 float64) []Bin {
	key := func(x float64) int { return int(math.Floor((x - x0) * binsPerDecade)) }
	nb := 0
	for _, x := range xs {
		nb = max(nb, key(x)+1)
	}
	per := make([][]float64, nb)
	for i, x := range xs {
		k := max(key(x), 0)
		per[k] = append(per[k], ys[i])
	}
	var out []Bin
	for k, v := range per {
		if len(v) == 0 {
			continue
		}
		slices.Sort(v)
		m := v[len(v)/2]
		if len(v)%2 == 0 {
			m = (v[len(v)/2-1] + m) / 2
		}
		out = append(out, Bin{Area: math.Pow(10, x0+(float64(k)+0.5)/binsPerDecade), Slope: math.Pow(10, m), Points: len(v)})
	}
	return out
}
