package engine

import (
	"orogen/sim"
	"orogen/sim/flow"
	"orogen/sim/geology"
	"orogen/sim/water"
)

// Snapshot is a copy of everything a view or an export needs after a step,
// on a W×H grid of Cell metres, whatever the engine's own nodes are. It is
// never modified after an engine returns it and may be shared between
// goroutines.
//
// The fields up to Lakes are every engine's (Uplift nil without uplift,
// Lakes nil for the hydraulic engine). The rest are typed extras, embedded
// so that their fields read as the snapshot's own: StreamArcs (an engine on
// a mesh of its own), Hydraulic (the hydraulic engine), LakeBudget (the
// lakes' water budget) and Rocks (an engine eroding a geology or strata).
// An engine fills the extras it has and leaves the others zero: their
// slices nil.
type Snapshot struct {
	Kind  Kind // the engine that made it
	W, H  int
	Cell  float64 // metres
	Step  int
	Time  float64 // years (seconds for Hydro)
	Stats StepStats
	Param Params // the stream-power parameters (zero for Hydro)

	Height    []float32 // metres
	Area      []float32 // drainage area, m²
	Receivers []int32   // receiver of each cell (itself for outlets)
	Water     []float32 // lake water depth over the terrain, metres (0 where dry)
	Uplift    []float32 // m/yr; nil when there is none
	Lakes     []flow.Lake

	StreamArcs
	Hydraulic
	LakeBudget
	Rocks
}

// StreamArcs are the stream arcs of an engine on another mesh than the
// grid (the stream graph): node to receiver, in grid cells, with the
// drainage area at the upstream node. nil for the grid engines, whose
// receivers are Snapshot.Receivers.
type StreamArcs struct {
	Arcs []Arc
}

// Hydraulic is the hydraulic engine's: suspended sediment, m, and rock
// hardness in [0, 1].
type Hydraulic struct {
	Sediment []float32
	Hardness []float32
}

// LakeBudget is the lakes' water budget's, with it on (Params.Rain > 0):
// Snapshot.Water then holds the depth of its lakes (filled as rain and
// evaporation dictate, not to their passes), WaterLakes lists them
// (sim/water.Lake; indices of nodes are cells) and Discharge is the rain
// from upstream flowing through each cell, m³/yr (Błaszczuk et al. 2023,
// Fig. 6). WaterPits holds the pit of every pit basin (the numbers in
// water.Lake.Basins), in grid cells from the top-left corner.
type LakeBudget struct {
	WaterLakes []water.Lake
	Discharge  []float32
	WaterPits  [][2]float32
}

// Rocks is an engine's that erodes by the rock (engine.Geologic, or
// Roudier's strata): the model, the layer exposed at each cell (an index
// of Geology's expanded stack, 0 the bottom; Geology.NumLayers() is
// alluvium) and the alluvium's thickness, m. Roudier's engine always sets
// Alluvium.
type Rocks struct {
	Geology  *geology.Model
	Rock     []uint8
	Alluvium []float32
}

// Arc is a stream arc from (X0, Y0) to (X1, Y1), in grid cells from the
// top-left corner of the grid (cell (i, j) spans [i, i+1]×[j, j+1]),
// carrying the drainage area Area, m².
type Arc struct {
	X0, Y0, X1, Y1 float32
	Area           float32
}

// Field wraps one of the snapshot's slices as a field sharing its data.
func (s *Snapshot) Field(data []float32) *sim.Field {
	return &sim.Field{W: s.W, H: s.H, Cell: s.Cell, Data: data}
}
