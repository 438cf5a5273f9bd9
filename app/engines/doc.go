// Package engines builds the erosion engine a scene asks for, seen on the
// scene's grid: the grid engine (sim/grid), the stream graph (sim/graph)
// on Poisson samples of the domain, rasterized through graph.OnGrid, or
// Roudier's engine (sim/roudier) on the grid. The desktop app's worker
// and `orogen run` both build their engines here, so the app and the
// command line start from the same terrain.
//
// A Spec is everything an engine is built from: its kind and node count,
// the grid, the uplift and initial heights as rasters, the seed, the
// stream-power parameters, and Roudier's coefficients and lithology.
// FromScene makes one from a scene.
package engines
