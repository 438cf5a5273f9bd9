package analysis

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"

	"orogen/sim"
	"orogen/sim/flow"
)

// Route returns the flow graph of heights f with the given edges, lakes
// connected through their passes.
func Route(f *sim.Field, edges flow.Edges) (*flow.Graph, error) {
	if err := sim.CheckFinite("analysis: heights", "cell", f.Data); err != nil {
		return nil, err
	}
	if f.W < 3 || f.H < 3 || len(f.Data) != f.W*f.H || !(f.Cell > 0) {
		return nil, fmt.Errorf("analysis: a %d×%d grid of %g m cells with %d heights: need at least 3×3 cells of positive size", f.W, f.H, f.Cell, len(f.Data))
	}
	g := flow.NewGraph(f.W, f.H, f.Cell, edges, 0)
	g.Update(f.Data)
	return g, nil
}

// Hack is a fit of Hack's law l = C·a^H, l the length of the longest flow
// path above a cell (km), a the cell's drainage area (km²).
type Hack struct {
	H, C   float64 // exponent, coefficient (km, km²)
	R2     float64 // coefficient of determination of the log-log fit
	Points int     // cells fitted
}

// FitHack fits Hack's law over the cells of g draining at least minCells
// cells, by least squares on log10 l against log10 a (gonum's
// stat.LinearRegression). The longest flow length of a cell is the longest
// chain of receiver steps above it, its own cell included (half a cell
// for a source, so sources do not have zero length).
func FitHack(g *flow.Graph, minCells float64) (Hack, error) {
	n := g.W * g.H
	cellA := g.Cell * g.Cell
	area := g.Accumulate(nil, cellA)
	length := make([]float64, n)
	for i := range length {
		length[i] = g.Cell / 2
	}
	// Reverse stack order: every donor before its receiver.
	for k := n - 1; k >= 0; k-- {
		i := g.Stack[k]
		if r := g.Rec[i]; r != i {
			length[r] = math.Max(length[r], length[i]+float64(g.Dist[i]))
		}
	}
	var xs, ys []float64
	for i := range n {
		if area[i] >= minCells*cellA {
			xs = append(xs, math.Log10(area[i]/1e6))
			ys = append(ys, math.Log10(length[i]/1e3))
		}
	}
	if len(xs) < 3 {
		return Hack{}, fmt.Errorf("analysis: %d cells drain %g cells or more: too few to fit Hack's law", len(xs), minCells)
	}
	alpha, beta := stat.LinearRegression(xs, ys, nil, false)
	if math.IsNaN(beta) {
		return Hack{}, errors.New("analysis: every fitted cell has the same drainage area: Hack's law has no slope")
	}
	return Hack{H: beta, C: math.Pow(10, alpha), R2: stat.RSquared(xs, ys, nil, alpha, beta), Points: len(xs)}, nil
}
