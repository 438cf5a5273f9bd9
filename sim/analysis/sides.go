package analysis

import "orogen/sim/flow"

// Sides of the border a cell drains to.
const (
	North  int8 = iota // y = 0
	South              // y = H-1
	West               // x = 0
	East               // x = W-1
	Inside             // a root inside the grid (a pit no pass connects)
)

// Sides returns, for every cell of g, the side of the border its water
// leaves by: the side of the root its receivers lead to (a corner counts as
// north or south). The boundaries between sides are the terrain's main
// divides.
func Sides(g *flow.Graph) []int8 {
	n := g.W * g.H
	side := make([]int8, n)
	for _, i := range g.Stack { // receivers first
		r := g.Rec[i]
		if r != i {
			side[i] = side[r]
			continue
		}
		x, y := int(i)%g.W, int(i)/g.W
		switch {
		case y == 0:
			side[i] = North
		case y == g.H-1:
			side[i] = South
		case x == 0:
			side[i] = West
		case x == g.W-1:
			side[i] = East
		default:
			side[i] = Inside
		}
	}
	return side
}

// SameSide returns the fraction of cells that drain to the same side in a
// and b (of equal length).
func SameSide(a, b []int8) float64 {
	same := 0
	for i := range a {
		if a[i] == b[i] {
			same++
		}
	}
	return float64(same) / float64(len(a))
}
