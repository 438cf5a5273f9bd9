// Package pitfill is Priority-Flood+ε (Barnes, Lehman and Mulla 2014) on a
// grid of heights: every cell that has no descending path to an outlet is
// raised, cell by cell, one float32 step above the cell the flood reached
// it from, so that afterwards every cell has a strictly lower neighbour
// (8-connected) on a path to an outlet. Depressions are filled to their
// spill height, plus a rise of one step per cell away from the spill.
//
// # Grid and rules
//
// Heights are row-major, index y·W + x, metres as float32; neighbours are
// taken in the order E, SE, S, SW, W, NW, N, NE. The caller says which
// cells are outlets (the open edges of a map, lakes) and the level each
// outlet's water stands at (its height, or a lake's surface). Fill
// changes the heights in place and nothing else; outlets are never
// changed. Cells are taken lowest first from a heap whose ties go to the
// lower index (sim/cellheap), and a cell raised by the flood is taken next
// from a plain queue: the result depends only on the heights and the
// outlets, never on GOMAXPROCS (the loop is serial).
//
// Step chooses the rise: Next is the next float32 up (Barnes et al.'s ε),
// NextNormal the same but never a subnormal height (from 0, a plain at
// base level, the first step is 2^−126 m, not 1e-45 m).
//
// Users: sim/analysis (Fill, the filled terrain `orogen analyze` routes),
// sim/graph (the rasterized snapshot's last drainage step) and
// sim/amplify (the drainage pass's finish).
package pitfill
