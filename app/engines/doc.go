// Package engines is the registry of the erosion engines a scene may run
// on, and the one place that names them: one Entry per engine (its kind,
// label, one-line help, whether it takes a node count, the parameter
// groups it reads, whether constraints may steer it, its constructor
// from a Spec, and the memory a run of it takes a cell), registered in
// builtin.go. EstimateBytes (memory.go) is the one estimate of a run's
// peak memory that `orogen run`, `orogen build` and the app's New dialog
// use (docs/MEMORY.md). The scene's validation, the
// desktop app's engine list and parameter panel, the command line's
// --engine and the reports all read it; nothing above the engines
// switches on a kind. A new engine is its package plus one Register
// call.
//
// A Spec is everything an engine is built from: its kind and node count,
// the grid, the uplift and initial heights as rasters, the seed, the
// stream-power parameters, and the coefficients and lithology of Roudier's
// engine. app/scene makes one from a scene (Scene.EngineSpec).
//
// The stream graph (sim/graph on Poisson samples of the domain, seen on
// the grid through graph.OnGrid) has more than a constructor here: its
// mesh, its rebuilding at another node count and its progressive
// refinement (Graph, Refine), and the Gaussian raster of its nodes, which
// `orogen run` offers.
package engines
