// Package sim holds the terrain fields that every Orogen engine shares and
// the rules they follow.
//
// Grids are row-major flat slices: cell (x, y) is Data[y*W+x], with x growing
// east and y growing south (row 0 is the north edge). Heights are in metres,
// time in years, uplift in m/yr, drainage area in m². Fields store float32;
// sums over many cells accumulate in float64.
//
// Below sim, three layers, each importing only those under it:
//
//   - the engine contract, engine (snapshot, step statistics, parameters,
//     the optional capabilities), with its conformance suite
//     engine/enginetest;
//   - the engines, which implement it and never import one another: grid
//     (stream power on the regular grid), graph (on a stream graph of
//     Poisson nodes), roudier (Roudier et al. 1993's processes), hydro
//     (virtual-pipe hydraulic and thermal erosion), each naming its own
//     Kind;
//   - what they are built from and what works on their terrains: flow
//     (routing, lakes, drainage order and area), spl (the implicit
//     stream-power solver), hillslope (diffusion), talus (the thermal slope
//     limit), water (the lakes' water budget), passq and cellheap (priority
//     queues), geology (the rock under the terrain), noise, poisson and
//     delaunay (the graph's nodes and mesh), parallel (deterministic
//     parallel loops), enum (names of small enums); settle (adaptive steps
//     to steady state over any engine), constrain (elevation constraints),
//     invert (uplift from a DEM), amplify (a settled terrain at a finer
//     resolution), analysis (drainage measures on any heightmap), and
//     simtest (test terrains).
//
// Nothing under sim imports a UI, the app or uses cgo, and every result is
// independent of the number of worker goroutines.
//
// Scratch buffers that every step reuses are sized with Resize (lengths
// fixed by the grid or the node count) or ResizeSpare (counts that vary from
// step to step); neither promises to keep the contents.
//
// Misuse by a programmer (sizes that differ, indices out of range) panics
// with a "sim: " prefix; bad input from the outside world is an error.
package sim
