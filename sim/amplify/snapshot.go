package amplify

import (
	"context"

	"orogen/sim/engine"
	"orogen/sim/flow"
)

// Snapshot returns the amplified terrain as an engine snapshot on its
// fine grid, for the views and the exports: the fine heights, lake water
// and rock (with the coarse snapshot's geology), the coarse run's kind,
// step, time and parameters, and the drainage of the fine heights routed
// by sim/flow with the given edges (receivers and area, m²). inflow, when
// not nil, adds area entering from outside the result (a window's
// upstream) to the fine cells' own before it is accumulated. It shares
// r's slices. A result under 3×3 cells is not routed (no Area, no
// Receivers).
func (r *Result) Snapshot(ctx context.Context, coarse *engine.Snapshot, edges flow.Edges, inflow func(area []float64)) (*engine.Snapshot, error) {
	f := &engine.Snapshot{
		Kind: coarse.Kind, W: r.W, H: r.H, Cell: r.Cell, Step: coarse.Step, Time: coarse.Time, Stats: coarse.Stats, Param: coarse.Param,
		Height: r.Height, Water: r.Water,
	}
	if r.Rock != nil && coarse.Geology != nil {
		f.Rock, f.Geology = r.Rock, coarse.Geology
	}
	if r.W < 3 || r.H < 3 {
		return f, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g := flow.NewGraph(r.W, r.H, r.Cell, edges, 0)
	g.Update(r.Height)
	area := make([]float64, r.W*r.H)
	own := r.Cell * r.Cell
	for i := range area {
		area[i] = own
	}
	if inflow != nil {
		inflow(area)
	}
	for k := len(g.Stack) - 1; k >= 0; k-- { // donors before their receivers
		i := g.Stack[k]
		if rc := g.Rec[i]; rc != i {
			area[rc] += area[i]
		}
	}
	f.Area = make([]float32, len(area))
	for i, v := range area {
		f.Area[i] = float32(v)
	}
	f.Receivers = g.Rec
	return f, ctx.Err()
}
