package enginetest

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"orogen/sim"
	"orogen/sim/engine"
)

// ToyKind is the toy engine's name.
const ToyKind engine.Kind = "toy"

// Toy is the smallest engine that keeps the contract: every cell rises by
// its uplift and decays towards sea level at the rate k (dh/dt = u − k·h,
// explicit, h ≥ 0), each cell its own outlet. It is no landscape model: it
// exists to show what a new engine must provide, and that the registry,
// the driver, the app and the command line need nothing else of it.
type Toy struct {
	w, h  int
	cell  float64
	p     engine.Params
	up    []float32
	hs    []float32
	step  int
	time  float64
	stats engine.StepStats
}

// NewToy returns a toy engine on a w×h grid of cell metres, flat at
// sea level, under uplift up (W·H values, m/yr; nil for none).
func NewToy(w, h int, cell float64, p engine.Params, up []float32) (*Toy, error) {
	if w < 1 || h < 1 || !(cell > 0) || math.IsInf(cell, 0) {
		return nil, fmt.Errorf("toy: grid %d×%d of %g m", w, h, cell)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	e := &Toy{w: w, h: h, cell: cell, p: p, hs: make([]float32, w*h)}
	if err := e.SetUplift(up); err != nil {
		return nil, err
	}
	return e, nil
}

// Step advances the terrain by one time step.
func (e *Toy) Step() engine.StepStats {
	start := time.Now()
	dt, k, area := e.p.Dt, e.p.K, e.cell*e.cell
	decay := math.Min(1, k*dt)
	var m engine.Mass
	var maxDh, sumDh float64
	for i, h0 := range e.hs {
		u := 0.0
		if e.up != nil {
			u = float64(e.up[i])
		}
		h := float64(h0) + u*dt
		loss := decay * h
		h1 := float32(max(0, h-loss))
		// The account is measured on the float32 heights.
		rise := float64(float32(float64(h0)+u*dt)) - float64(h0)
		m.Uplift += rise * area
		m.Eroded += (float64(float32(float64(h0)+u*dt)) - float64(h1)) * area
		m.Stored += (float64(h1) - float64(h0)) * area
		dh := math.Abs(float64(h1) - float64(h0))
		maxDh = max(maxDh, dh)
		sumDh += dh
		e.hs[i] = h1
	}
	e.step++
	e.time += dt
	e.stats = engine.StepStats{Step: e.step, Time: e.time, Dt: dt, MaxDh: maxDh, MaxDh2: math.NaN(),
		MeanDh: sumDh / float64(len(e.hs)), Mass: m, Total: time.Since(start)}
	return e.stats
}

// Err is always nil: the toy's heights stay finite.
func (e *Toy) Err() error { return nil }

// Converged reports whether the last step changed no height faster than
// tol m/yr.
func (e *Toy) Converged(tol float64) bool {
	return e.step > 0 && e.stats.MaxDh <= tol*e.stats.Dt
}

// SetParams takes new parameters from the next step on.
func (e *Toy) SetParams(p engine.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	e.p = p
	return nil
}

// Params returns the parameters in force.
func (e *Toy) Params() engine.Params { return e.p }

// SetUplift takes the uplift, m/yr (nil: none).
func (e *Toy) SetUplift(u []float32) error {
	if u != nil {
		if len(u) != e.w*e.h {
			return fmt.Errorf("toy: %d uplift values for a %d×%d grid", len(u), e.w, e.h)
		}
		if err := sim.CheckFinite("uplift", "cell", u); err != nil {
			return err
		}
	}
	e.up = u
	return nil
}

// SetRainMap refuses a map: the toy has no water.
func (e *Toy) SetRainMap(r []float32) error {
	if r == nil {
		return nil
	}
	if len(r) != e.w*e.h {
		return fmt.Errorf("toy: %d rain values for a %d×%d grid", len(r), e.w, e.h)
	}
	if err := sim.CheckFinite("rain", "cell", r); err != nil {
		return err
	}
	return errors.New("toy: the toy engine has no water budget")
}

// Stats returns the last step's statistics.
func (e *Toy) Stats() engine.StepStats { return e.stats }

// Heights are the cells' heights.
func (e *Toy) Heights() []float32 { return e.hs }

// Size is the grid.
func (e *Toy) Size() (w, h int, cell float64) { return e.w, e.h, e.cell }

// Snapshot copies the terrain: every cell drains only itself.
func (e *Toy) Snapshot() *engine.Snapshot {
	n := e.w * e.h
	s := &engine.Snapshot{Kind: ToyKind, W: e.w, H: e.h, Cell: e.cell, Step: e.step, Time: e.time, Stats: e.stats, Param: e.p,
		Height: slices.Clone(e.hs), Area: make([]float32, n), Receivers: make([]int32, n), Water: make([]float32, n)}
	if e.up != nil {
		s.Uplift = slices.Clone(e.up)
	}
	for i := range n {
		s.Area[i] = float32(e.cell * e.cell)
		s.Receivers[i] = int32(i)
	}
	return s
}
