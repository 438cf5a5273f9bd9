// Package engines builds the erosion engine a scene asks for, seen on the
// scene's grid: the grid engine (sim/grid), or the stream graph
// (sim/graph) on Poisson samples of the domain, rasterized through
// graph.OnGrid. The desktop app's worker and `orogen run` both build their
// engines here, so the app and the command line start from the same
// terrain.
//
// A Spec is everything an engine is built from: its kind and node count,
// the grid, the uplift and initial heights as rasters, the seed and the
// stream-power parameters. FromScene makes one from a scene.
package engines
