package uplifttree_test

import (
	"fmt"

	"orogen/sim"
	"orogen/uplifttree"
)

// Build a range with a valley cut across it, rasterize it, then move the
// valley and re-rasterize only what changed.
func Example() {
	t := uplifttree.New() // root: an empty sum, ID 1
	cut, _ := t.Add(t.Root(), -1, &uplifttree.Min{})
	t.Add(cut.Node(), -1, &uplifttree.Segment{
		A: uplifttree.Point{X: 1000, Y: 5000}, B: uplifttree.Point{X: 9000, Y: 5000},
		Ctrls: []uplifttree.Ctrl{{T: 0, R: 1500, U: 0.6}, {T: 0.5, R: 2500, U: 1}, {T: 1, R: 1500, U: 0.6}},
	})
	valley, _ := t.Add(cut.Node(), -1, &uplifttree.Valley{
		A: uplifttree.Point{X: 5000, Y: 1000}, B: uplifttree.Point{X: 5000, Y: 9000},
		Ctrls: []uplifttree.Ctrl{{T: 0, R: 400, U: 0}}, Outside: 1,
	})

	f := sim.NewField(100, 100, 100) // 10 km at 100 m
	d := uplifttree.Domain(f)
	t.Rasterize(f, d, nil)
	fmt.Printf("on the ridge %.3f, in the valley %.3f\n", t.Eval(3000, 5000), t.Eval(5000, 5000))

	e, _ := t.SetParam(valley.Node(), "a", uplifttree.Point{X: 6000, Y: 1000})
	cells := uplifttree.CellRect(f, d, e.Dirty())
	t.RasterizeRect(f, d, cells, nil)
	fmt.Println("re-rasterized", cells.Dx()*cells.Dy(), "of", f.W*f.H, "cells")

	e.Undo(t)
	fmt.Printf("after undo, in the valley %.3f\n", t.Eval(5000, 5000))
	// Output:
	// on the ridge 0.900, in the valley 0.000
	// re-rasterized 2024 of 10000 cells
	// after undo, in the valley 0.000
}
