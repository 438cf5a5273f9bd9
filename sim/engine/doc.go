// Package engine is the contract between Orogen's erosion engines and
// everything above them: the snapshot every view and export reads, the
// statistics of a step and the names of its phases, the stream-power
// parameters, the interface the app's driver steps (Engine), the optional
// capabilities an engine may have, and the Kind that names an engine in
// scenes, projects and reports.
//
// The engine packages (sim/grid, sim/graph, sim/roudier, sim/hydro) each
// declare their Kind and implement this contract; they never import one
// another. Above them, app/engines is the registry that alone lists them;
// the driver (app/drive), the views (package viewer), the exports and the
// app read only this package. The building blocks the engines share
// (sim/flow, sim/spl, sim/talus, sim/water, ...) sit below it.
//
// Capabilities are small optional interfaces a caller checks with a type
// assertion, never a switch on the kind: Geologic and MapGeologic (erosion
// by the rock under the terrain), PerStep (laws per step: settling keeps
// the user's dt), Rebalanced (a split hillslope term whose rest state
// does not depend on dt: settling may lengthen dt with creep on),
// Constrainable (elevation constraints may steer it),
// Coefficients (coefficients of its own beside Params), Summarizer (its
// own final figures), Watered (the lakes' water budget), Stratified (strata
// of its own) and Accounted (an account of its own for the report). The
// conformance suite every engine's tests run is package enginetest.
//
// Units are those of package sim: metres, years (seconds for the
// hydraulic engine, sim/hydro), m/yr, m². Rasters are row-major, index
// y*W + x.
//
// A Snapshot is a copy: once an engine returns it, nobody writes it, and
// any number of goroutines may read it.
package engine
