// Package engine is the contract between Orogen's erosion engines and
// everything above them: the snapshot every view and export reads, the
// statistics of a step and the names of its phases, the stream-power
// parameters, the interface the app's runners drive, and the typed kind
// that names an engine in scenes, projects and reports.
//
// The engine packages (sim/grid, sim/graph, sim/hydro, and the engines to
// come) implement this contract and never import one another; the views
// (package viewer), the exports and the app read only this package. The
// building blocks the engines share (sim/flow, sim/spl, sim/talus,
// sim/water, ...) sit below it.
//
// Units are those of package sim: metres, years (seconds for the
// hydraulic engine, whose Snapshot.Kind is Hydro), m/yr, m². Rasters are
// row-major, index y*W + x.
//
// A Snapshot is a copy: once an engine returns it, nobody writes it, and
// any number of goroutines may read it.
package engine
