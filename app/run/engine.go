package run

import (
	"fmt"

	"orogen/app/scene"
	"orogen/sim"
	"orogen/sim/grid"
)

// EngineParams converts a scene's parameters into the grid engine's,
// validated: the desktop app calls it on every slider change.
func EngineParams(sc *scene.Scene) (grid.Params, error) {
	p, err := engineParams(sc)
	if err != nil {
		return p, err
	}
	return p, p.Validate()
}

// EngineConfig is the grid engine configuration of a scene with the given
// uplift (m/yr, nil for none) and initial heights (m, nil for the scene's
// flat start with its seeded noise). The fields are used, not copied.
func EngineConfig(sc *scene.Scene, up, init *sim.Field) (grid.Config, error) {
	p, err := EngineParams(sc)
	if err != nil {
		return grid.Config{}, err
	}
	w, h := sc.Width, sc.Height
	c := grid.Config{W: w, H: h, Cell: sc.DomainM / float64(max(w, h)),
		InitNoise: sc.Params.InitNoiseM, Seed: sc.Seed, Params: p}
	for _, f := range []struct {
		name string
		f    *sim.Field
		dst  *[]float32
	}{{"uplift", up, &c.Up}, {"initial heights", init, &c.Init}} {
		if f.f == nil {
			continue
		}
		if f.f.W != w || f.f.H != h {
			return grid.Config{}, fmt.Errorf("run: %s are %d×%d; the scene's grid is %d×%d", f.name, f.f.W, f.f.H, w, h)
		}
		*f.dst = f.f.Data
	}
	return c, nil
}

// Engine is an erosion engine seen on a scene's grid, what the desktop
// app's worker steps: *grid.Engine, or the stream graph through
// *graph.OnGrid (uplift and initial heights as rasters, snapshots
// rasterized with the stream arcs added).
type Engine interface {
	Step() grid.StepStats
	Err() error
	Converged(tol float64) bool
	SetParams(p grid.Params) error
	Params() grid.Params
	SetUplift(u []float32) error
	Stats() grid.StepStats
	// Heights are the engine's own: cells, or graph nodes.
	Heights() []float32
	Size() (w, h int, cell float64)
	Snapshot() *grid.Snapshot
}

// Engine kinds, as a scene's "engine" names them.
const (
	EngineGrid  = "grid"
	EngineGraph = "graph"
)

// NewEngine builds an engine of the kind ("grid", "" for grid, or
// "graph") from cfg. The graph engine samples the domain with about
// samples Poisson nodes (0: DefaultSamples), seeded with cfg.Seed, and
// samples cfg.Up and cfg.Init at the nodes. The engine may keep cfg's
// slices.
func NewEngine(kind string, samples int, cfg grid.Config) (Engine, error) {
	switch kind {
	case "", EngineGrid:
		if samples != 0 {
			return nil, errSamplesGrid
		}
		return grid.New(cfg)
	case EngineGraph:
		if err := cfg.Params.Validate(); err != nil {
			return nil, err
		}
		var up *sim.Field
		if cfg.Up != nil {
			if len(cfg.Up) != cfg.W*cfg.H {
				return nil, fmt.Errorf("run: %d uplift values for a %d×%d grid", len(cfg.Up), cfg.W, cfg.H)
			}
			up = &sim.Field{W: cfg.W, H: cfg.H, Cell: cfg.Cell, Data: cfg.Up}
		}
		if cfg.Init != nil && len(cfg.Init) != cfg.W*cfg.H {
			return nil, fmt.Errorf("run: %d initial heights for a %d×%d grid", len(cfg.Init), cfg.W, cfg.H)
		}
		if cfg.W < 3 || cfg.H < 3 || !(cfg.Cell > 0) {
			return nil, fmt.Errorf("run: grid %d×%d of %g m cells: too small for a stream graph", cfg.W, cfg.H, cfg.Cell)
		}
		g, err := prepareGraph(samples, cfg.W, cfg.H, cfg.Cell, up, cfg.Init, cfg.InitNoise, cfg.Seed, cfg.Params)
		if err != nil {
			return nil, err
		}
		return g.Grid, nil
	}
	return nil, fmt.Errorf("run: engine %q: must be grid or graph", kind)
}
