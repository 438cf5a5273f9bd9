package engine

import (
	"math"

	"orogen/sim/geology"
	"orogen/sim/water"
)

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

// The capabilities below are optional: a caller asks an engine what it can
// do with a type assertion on the contract (as io.WriterTo beside
// io.Reader), never by its kind.

// PerStep is an engine whose laws are per step, not per year (Roudier et
// al. 1993's processes): a longer dt would only scale the uplift, so the
// adaptive settling of package settle keeps the user's dt on it.
type PerStep interface {
	Engine
	PerStepLaws()
}

// Rebalanced is an engine whose hillslope term, applied split from the
// stream power, can keep the steady state of the unsplit physics whatever
// dt (rebalanced splitting, Speth et al. 2013; sim/grid). The engine's own
// steps are Lie-split, whose rest state moves with dt; SetRebalanced(true)
// turns the balance on for the steps that follow, so that the adaptive
// settling of package settle may take steps far longer than the user's
// with κ > 0 (it turns the balance off again for the steps at the
// user's dt, which alone say that the terrain has settled).
type Rebalanced interface {
	Engine
	SetRebalanced(on bool)
}

// Constrainable is an engine that elevation constraints (package
// constrain) can steer: its Heights are the grid's cells and it erodes by
// the stream-power law of its Params, so the constraint solver's inversion
// of that law, applied to the uplift, moves its terrain towards the
// targets.
type Constrainable interface {
	Engine
	Constrainable()
}

// Coefficients is an engine with coefficients of its own beside Params
// (Roudier's engine: its roudier.Params). SetCoefficients takes a value of
// the engine's own type and refuses any other with an error; the change
// takes effect at the next Step. Coefficients returns the ones in force.
type Coefficients interface {
	Engine
	SetCoefficients(v any) error
	Coefficients() any
}

// Summary is the final terrain as a report gives it, measured on the
// engine's own nodes.
type Summary struct {
	MinHeight, MaxHeight, MeanHeight float64 // metres
	MaxDrainage                      float64 // m²
	LakeCells                        int     // grid cells under lake water
	MaxLakeDepth                     float64 // metres
}

// Summarizer is an engine that measures its own final terrain (on its
// nodes, not the rasterized snapshot: a stream graph's mean height is
// over its near-uniform samples). SummaryOf measures any engine.
type Summarizer interface {
	Engine
	Summary() Summary
}

// SummaryOf is e's Summary: its own if it is a Summarizer, else the
// snapshot's heights, drainage and water.
func SummaryOf(e Engine) Summary {
	if s, ok := e.(Summarizer); ok {
		return s.Summary()
	}
	sn := e.Snapshot()
	var out Summary
	out.MinHeight, out.MaxHeight, out.MeanHeight = HeightFigures(sn.Height)
	for _, a := range sn.Area {
		out.MaxDrainage = max(out.MaxDrainage, float64(a))
	}
	for _, d := range sn.Water {
		if d > 0 {
			out.LakeCells++
			out.MaxLakeDepth = max(out.MaxLakeDepth, float64(d))
		}
	}
	return out
}

// HeightFigures returns the lowest, highest and mean of hs (the mean
// summed in float64).
func HeightFigures(hs []float32) (lo, hi, mean float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	var sum float64
	for _, v := range hs {
		lo, hi = min(lo, float64(v)), max(hi, float64(v))
		sum += float64(v)
	}
	return lo, hi, sum / float64(len(hs))
}

// Watered is an engine that runs the lakes' water budget (Błaszczuk et al.
// 2023, package water): Water is its model, nil while the budget is off.
type Watered interface {
	Engine
	Water() *water.Model
}

// Stratum is one layer of an engine's own strata.
type Stratum struct {
	Rock        geology.Rock
	Bottom, Top float64 // metres
}

// Stratified is an engine that erodes strata of its own when it is given
// no geology (Roudier's engine): OwnStrata returns the layer exposed at
// each cell (an index of layers; len(layers) is the alluvium), the layers
// bottom to top and the height after which they repeat (0: they do not).
// idx is nil when its rock has no such index.
type Stratified interface {
	Engine
	OwnStrata() (idx []uint8, layers []Stratum, repeat float64)
}

// Accounted is an engine that keeps an account of its own beside
// StepStats.Mass (Roudier's: rock removed = detritus out + creep out +
// dissolved + alluvium stored): Account returns it as a value the run
// report writes as JSON under "account".
type Accounted interface {
	Engine
	Account() any
}

// Depositing is an engine that may deposit sediment (the grid with
// Params.G > 0, Roudier's alluvium): Deposits says whether it does with
// the parameters in force; the snapshot's Alluvium then carries the
// deposit's thickness. Deposits reports it for any engine.
type Depositing interface {
	Engine
	Deposits() bool
}

// Deposits reports whether e deposits sediment (Depositing).
func Deposits(e Engine) bool {
	d, ok := e.(Depositing)
	return ok && d.Deposits()
}

// Releaser is an engine that can drop the scratch buffers its steps
// reuse: a run calls Release after its last step and snapshot, before
// writing its outputs, so the memory goes to them. The engine stays
// whole: its next Step grows the buffers again and gives the results it
// would have given without the Release.
type Releaser interface {
	Engine
	Release()
}

// Release calls e's Release if it is a Releaser.
func Release(e Engine) {
	if r, ok := e.(Releaser); ok {
		r.Release()
	}
}
