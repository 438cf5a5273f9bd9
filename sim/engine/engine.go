package engine

import "orogen/sim/geology"

// Engine is a stream-power engine seen on a scene's grid: what the app's
// worker steps and `orogen run` runs. *grid.Engine is one; the stream
// graph is one through *graph.OnGrid (uplift and initial heights given as
// rasters, snapshots rasterized with the stream arcs added).
//
// An Engine is owned by one goroutine: Step, the setters and Snapshot must
// not run concurrently. Setters take effect at the next Step.
type Engine interface {
	// Step advances the terrain by one time step. After an error (Err)
	// it does nothing and returns the last statistics.
	Step() StepStats
	// Err is why the engine stopped (a step whose heights overflowed),
	// or nil.
	Err() error
	// Converged reports whether the terrain changes slower than tol m/yr.
	Converged(tol float64) bool
	SetParams(p Params) error
	Params() Params
	// SetUplift takes the uplift as a W·H raster, m/yr (nil: none). The
	// engine may keep u; the caller must not modify it afterwards.
	SetUplift(u []float32) error
	// SetRainMap takes the rain of the lakes' water budget as a W·H
	// raster, m/yr (nil: the uniform Params.Rain).
	SetRainMap(r []float32) error
	Stats() StepStats
	// Heights are the engine's own: cells, or graph nodes. They are valid
	// until the next Step; the caller must not modify them.
	Heights() []float32
	// Size is the grid the engine is seen on.
	Size() (w, h int, cell float64)
	Snapshot() *Snapshot
}

// Geologic is an engine whose erosion follows the rock under the terrain
// (package geology): the stream-power engines multiply k cell by cell by
// the exposed rock's geology.Model.Erodibility, and track the alluvium
// they deposit.
type Geologic interface {
	// SetGeology lays m on the engine's grid from the next step on; nil
	// returns to uniform rock. The alluvium tracked so far is kept.
	SetGeology(m *geology.Model)
	Geology() *geology.Model
}

// MapGeologic is a Geologic engine on a grid that lays its geology through
// a geology.Map: SetGeologyMap(m.Map(Size())) does exactly what
// SetGeology(m) does, so a caller may lay the map, the costly part (every
// cell's deformations undone), on another goroutine while the engine
// steps. A map of another grid is refused.
type MapGeologic interface {
	Geologic
	SetGeologyMap(g *geology.Map) error
}
