package grid

import (
	"orogen/sim/engine"
	"orogen/sim/parallel"
	"orogen/sim/water"
)

// Snapshot copies the engine's current state. The receivers, area and
// basins are those of the last step's routing, the lake levels and water
// depths those of the basins' passes on the current heights; before the first step, or after the
// edges changed, every cell is its own receiver with its own area and there
// are no lakes.
func (e *Engine) Snapshot() *engine.Snapshot {
	n := e.w * e.h
	s := &engine.Snapshot{
		Kind: Kind, W: e.w, H: e.h, Cell: e.cell, Step: e.step, Time: e.time, Stats: e.stats, Param: e.p,
		Height:    append([]float32(nil), e.hgt...),
		Area:      make([]float32, n),
		Receivers: make([]int32, n),
	}
	if e.up != nil {
		s.Uplift = e.up // SetUplift replaces it, never writes it
	}
	if e.geo != nil {
		s.Geology = e.geo.Model()
		s.Rock = e.geo.Exposed(make([]uint8, n), e.hgt, e.alluv)
	}
	if e.alluv != nil && (e.geo != nil || e.p.G > 0) {
		// The sediment's thickness (deposition on, or a geology).
		s.Alluvium = append([]float32(nil), e.alluv...)
	}
	if e.routed {
		s.Lakes = e.g.LakesOn(e.hgt)
		copy(s.Receivers, e.g.Rec)
		e.areaTo(s.Area)
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

// areaTo sets dst[i] to the drainage area of cell i, as Area gives it,
// without keeping Area's grid-order copy.
func (e *Engine) areaTo(dst []float32) {
	if e.areaOK {
		parallel.Blocks(len(dst), 1<<15, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				dst[i] = float32(e.area[i])
			}
		})
		return
	}
	st := e.g.Stack
	parallel.Blocks(len(st), 1<<15, func(_, lo, hi int) {
		for k := lo; k < hi; k++ {
			dst[st[k]] = float32(e.as[k])
		}
	})
}
