// Package sim holds the terrain fields that every Orogen engine shares and
// the rules they follow.
//
// Grids are row-major flat slices: cell (x, y) is Data[y*W+x], with x growing
// east and y growing south (row 0 is the north edge). Heights are in metres,
// time in years, uplift in m/yr, drainage area in m². Fields store float32;
// sums over many cells accumulate in float64.
//
// The erosion engines live in sub-packages: flow (routing, lakes, drainage
// order and area), spl (the implicit stream-power solver), hillslope (linear
// diffusion), talus (the thermal slope limit) and grid (the engine that
// composes them on a regular grid). Nothing under sim imports a UI or uses
// cgo, and every result is independent of the number of worker goroutines.
//
// Scratch buffers that every step reuses are sized with Resize (lengths
// fixed by the grid or the node count) or ResizeSpare (counts that vary from
// step to step); neither promises to keep the contents.
//
// Misuse by a programmer (sizes that differ, indices out of range) panics
// with a "sim: " prefix; bad input from the outside world is an error.
package sim
