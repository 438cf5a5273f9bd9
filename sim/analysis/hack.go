package analysis

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"

	"orogen/sim"
	"orogen/sim/flow"
)

// Route returns the flow graph of heights f with the given edges, lakes
// connected through their passes.
func Route(f *sim.Field, edges flow.Edges) (*flow.Graph, error) {
	if err := checkField(f); err != nil {
		return nil, err
	}
	g := flow.NewGraph(f.W, f.H, f.Cell, edges, 0)
	g.Update(f.Data)
	return g, nil
}

// checkField returns an error naming what makes f unfit for routing.
func checkField(f *sim.Field) error {
	if f.W < 3 || f.H < 3 || len(f.Data) != f.W*f.H {
		return fmt.Errorf("analysis: a %d×%d map with %d heights: need at least 3×3 cells to route water", f.W, f.H, len(f.Data))
	}
	if !(f.Cell > 0) || math.IsInf(f.Cell, 0) {
		return fmt.Errorf("analysis: cell size %g m: need a positive cell size (give one with --cell)", f.Cell)
	}
	if i := sim.FirstNonFinite(f.Data); i >= 0 {
		bad := 0
		for _, v := range f.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				bad++
			}
		}
		return fmt.Errorf("analysis: %d cells have no height (NaN or infinite), the first at x=%d, y=%d: fill or crop the no-data cells first",
			bad, i%f.W, i/f.W)
	}
	return nil
}

// Hack is a fit of Hack's law l = C·a^H, l the length of the longest flow
// path above a cell (km), a the cell's drainage area (km²).
type Hack struct {
	H float64 `json:"h"` // exponent
	// C is the coefficient (km, km²): 10^Log10C, NaN (JSON null) where
	// that is not a normal float64 (power.go).
	C      float64 `json:"c"`
	Log10C float64 `json:"log10_c"` // the fit's intercept, log10 of l at a = 1 km²
	R2     float64 `json:"r2"`      // coefficient of determination of the log-log fit
	Points int     `json:"points"`  // cells fitted
}

// FitHack fits Hack's law over the cells of g draining at least minCells
// cells (FitHackTree on TreeOf(g)).
func FitHack(g *flow.Graph, minCells float64) (Hack, error) {
	t := TreeOf(g)
	return FitHackTree(t, minCells*t.CellArea)
}

// FitHackTree fits Hack's law over the nodes of t draining at least minArea
// m², on their longest flow lengths (Tree.Length).
func FitHackTree(t Tree, minArea float64) (Hack, error) {
	return fitHack(t.Area(nil), t.Length(nil), minArea)
}

// fitHack fits log10 l against log10 a by least squares (gonum's
// stat.LinearRegression) over the cells with area ≥ minArea; area in m²,
// length in metres.
func fitHack(area, length []float64, minArea float64) (Hack, error) {
	var xs, ys []float64
	for i, a := range area {
		if a >= minArea {
			xs = append(xs, math.Log10(a/1e6))
			ys = append(ys, math.Log10(length[i]/1e3))
		}
	}
	return hackFromLogs(xs, ys, minArea)
}

func hackFromLogs(xs, ys []float64, minArea float64) (Hack, error) {
	if len(xs) < 3 {
		return Hack{}, fmt.Errorf("analysis: %d cells drain %g m² or more: too few to fit Hack's law", len(xs), minArea)
	}
	alpha, beta := stat.LinearRegression(xs, ys, nil, false)
	if math.IsNaN(beta) || math.IsInf(beta, 0) {
		return Hack{}, fmt.Errorf("analysis: the %d fitted cells all drain the same area: Hack's law has no slope", len(xs))
	}
	return Hack{H: beta, C: pow10(alpha), Log10C: alpha, R2: stat.RSquared(xs, ys, nil, alpha, beta), Points: len(xs)}, nil
}
