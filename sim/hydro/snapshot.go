package hydro

import (
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/geology"
)

// Snapshot is a copy of the engine's state after a step, for a view or an
// export. It is never modified after Snapshot returns and may be shared
// between goroutines.
type Snapshot struct {
	W, H  int
	Cell  float64 // metres
	Step  int
	Time  float64 // simulated seconds
	Stats StepStats
	Param Params

	Terrain  []float32 // terrain height b, metres
	Water    []float32 // water depth d, metres
	Sediment []float32 // suspended sediment s, metres
	Hardness []float32 // hardness R
	VX, VY   []float32 // velocity, m/s, east and south

	// With a geology (SetGeology): the model, the layer exposed at each
	// cell and the alluvium, m; nil otherwise.
	Geology  *geology.Model
	Rock     []uint8
	Alluvium []float32
}

// Snapshot copies the engine's current state.
func (e *Engine) Snapshot() *Snapshot {
	cp := func(v []float32) []float32 { return append([]float32(nil), v...) }
	s := &Snapshot{
		W: e.w, H: e.h, Cell: e.cell, Step: e.step, Time: e.time, Stats: e.stats, Param: e.p,
		Terrain: cp(e.b[e.cur]), Water: cp(e.d), Sediment: cp(e.s), Hardness: cp(e.hard),
		VX: cp(e.vx), VY: cp(e.vy),
	}
	if e.rs.geo != nil {
		s.Geology = e.rs.geo.Model()
		s.Alluvium = cp(e.rs.alluv)
		s.Rock = e.rs.geo.Exposed(make([]uint8, len(s.Terrain)), s.Terrain, s.Alluvium)
	}
	return s
}

// Field wraps one of the snapshot's slices as a field sharing its data.
func (s *Snapshot) Field(data []float32) *sim.Field {
	return &sim.Field{W: s.W, H: s.H, Cell: s.Cell, Data: data}
}

// View returns the snapshot as the contract's engine.Snapshot, what every
// view and export reads: Height the terrain, Water the water depth where it
// is at least minDepth metres (0 elsewhere: the thin film of rain over
// every slope would otherwise tint the whole map), Sediment and Hardness;
// no drainage or receivers. The slices are shared with s except Water.
func (s *Snapshot) View(minDepth float64) *engine.Snapshot {
	shown := make([]float32, len(s.Water))
	for i, d := range s.Water {
		if float64(d) >= minDepth {
			shown[i] = d
		}
	}
	st := s.Stats
	return &engine.Snapshot{
		Kind: Kind, W: s.W, H: s.H, Cell: s.Cell, Step: s.Step, Time: s.Time,
		Stats:     engine.StepStats{Step: st.Step, Time: st.Time, MaxDh: st.MaxDh, Total: st.Total},
		Height:    s.Terrain,
		Water:     shown,
		Hydraulic: engine.Hydraulic{Sediment: s.Sediment, Hardness: s.Hardness},
		Rocks:     engine.Rocks{Geology: s.Geology, Rock: s.Rock, Alluvium: s.Alluvium},
	}
}
