package grid

import (
	"orogen/sim"
	"orogen/sim/flow"
	"orogen/sim/parallel"
	"orogen/sim/water"
)

// Snapshot is a copy of everything a view or an export needs after a step.
// It is never modified after Snapshot returns and may be shared between
// goroutines.
type Snapshot struct {
	W, H  int
	Cell  float64 // metres
	Step  int
	Time  float64 // years
	Stats StepStats
	Param Params

	Height    []float32 // metres
	Area      []float32 // drainage area, m²
	Receivers []int32   // receiver of each cell (itself for outlets)
	Water     []float32 // lake water depth over the terrain, metres (0 where dry)
	Uplift    []float32 // m/yr; nil when there is none
	Lakes     []flow.Lake

	// Arcs are the stream arcs of an engine on another mesh than the grid
	// (the stream graph): node to receiver, in grid cells, with the
	// drainage area at the upstream node. nil for the grid engine, whose
	// receivers are Receivers.
	Arcs []Arc

	// Sediment (suspended sediment, m) and Hardness (rock hardness in
	// [0, 1]) are the hydraulic engine's (sim/hydro); nil otherwise.
	Sediment []float32
	Hardness []float32

	// With the lakes' water budget on (Params.Rain > 0): Water holds the
	// depth of its lakes (filled as rain and evaporation dictate, not to
	// their passes), WaterLakes lists them (sim/water.Lake; indices of
	// nodes are cells) and Discharge is the rain from upstream flowing
	// through each cell, m³/yr (001 Fig. 6). nil otherwise.
	WaterLakes []water.Lake
	Discharge  []float32
	// WaterPits holds the pit of every pit basin (the numbers in
	// water.Lake.Basins), in grid cells from the top-left corner.
	WaterPits [][2]float32
}

// Arc is a stream arc from (X0, Y0) to (X1, Y1), in grid cells from the
// top-left corner of the grid (cell (i, j) spans [i, i+1]×[j, j+1]),
// carrying the drainage area Area, m².
type Arc struct {
	X0, Y0, X1, Y1 float32
	Area           float32
}

// Snapshot copies the engine's current state. The receivers, area and
// basins are those of the last step's routing, the lake levels and water
// depths those of the basins' passes on the current heights; before the first step, or after the
// edges changed, every cell is its own receiver with its own area and there
// are no lakes.
func (e *Engine) Snapshot() *Snapshot {
	n := e.w * e.h
	s := &Snapshot{
		W: e.w, H: e.h, Cell: e.cell, Step: e.step, Time: e.time, Stats: e.stats, Param: e.p,
		Height:    append([]float32(nil), e.hgt...),
		Area:      make([]float32, n),
		Receivers: make([]int32, n),
	}
	if e.up != nil {
		s.Uplift = append([]float32(nil), e.up...)
	}
	if e.routed {
		s.Lakes = e.g.LakesOn(e.hgt)
		copy(s.Receivers, e.g.Rec)
		area := e.Area()
		parallel.Blocks(n, 1<<15, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				s.Area[i] = float32(area[i])
			}
		})
		if e.wat != nil && e.watOK {
			s.Water = e.wat.WaterDepth(nil, &e.win)
			s.WaterLakes = water.CloneLakes(e.wat.Lakes())
			s.WaterPits = make([][2]float32, len(e.win.Root))
			for b, r := range e.win.Root {
				s.WaterPits[b] = [2]float32{float32(int(r)%e.w) + 0.5, float32(int(r)/e.w) + 0.5}
			}
			q := water.Discharge(nil, e.g.Stack, e.g.Rec, nil, e.cell*e.cell, e.waterParams())
			s.Discharge = make([]float32, n)
			for i, v := range q {
				s.Discharge[i] = float32(v)
			}
		} else {
			s.Water = e.g.WaterDepth(nil, e.hgt)
		}
	} else {
		for i := range s.Receivers {
			s.Receivers[i] = int32(i)
			s.Area[i] = float32(e.cell * e.cell)
		}
		s.Water = make([]float32, n)
	}
	return s
}

// Field wraps one of the snapshot's slices as a field sharing its data.
func (s *Snapshot) Field(data []float32) *sim.Field {
	return &sim.Field{W: s.W, H: s.H, Cell: s.Cell, Data: data}
}
