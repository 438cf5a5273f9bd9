package engines

import (
	"errors"
	"fmt"

	"orogen/app/scene"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/geology"
	"orogen/sim/grid"
	"orogen/sim/roudier"
	"orogen/sim/talus"
)

// Spec describes an engine on a W×H grid of Cell metres.
type Spec struct {
	Kind engine.Kind
	// Samples is the stream graph's node count (0: DefaultSamples); it
	// must be 0 for the grid.
	Samples int
	W, H    int
	Cell    float64   // metres
	Up      []float32 // uplift, m/yr, W·H values; nil for none
	Init    []float32 // initial heights, m, W·H values; nil for a flat start
	// InitNoise adds seeded uniform noise in [0, InitNoise) metres to the
	// initial heights (flat starts route without ties).
	InitNoise float64
	Seed      uint64
	Params    engine.Params
	// Roudier are the coefficients of Roudier's engine and Lith the rock
	// it erodes when there is no Geology (nil: roudier.DefaultStrata);
	// the other engines ignore them.
	Roudier roudier.Params
	Lith    geology.Lithology
	// Geology is the rock under the terrain (nil: uniform rock); the grid
	// and the stream graph erode it differentially (engine.Geologic).
	Geology *geology.Model
}

// ErrSamplesGrid is the error of a node count given to the grid engine.
var ErrSamplesGrid = errors.New("--samples applies to the stream graph only: add --engine graph")

// New builds the engine s describes. The engine may keep s's slices.
func New(s Spec) (engine.Engine, error) {
	switch s.Kind {
	case engine.Grid:
		if s.Samples != 0 {
			return nil, ErrSamplesGrid
		}
		e, err := grid.New(s.gridConfig())
		if err != nil {
			return nil, err
		}
		if s.Geology != nil {
			e.SetGeology(s.Geology)
		}
		return e, nil
	case engine.Graph:
		g, err := NewGraph(s)
		if err != nil {
			return nil, err
		}
		return g.Grid, nil
	case engine.Roudier:
		if s.Samples != 0 {
			return nil, ErrSamplesGrid
		}
		return roudier.New(roudier.Config{W: s.W, H: s.H, Cell: s.Cell, Up: s.Up, Init: s.Init, InitNoise: s.InitNoise,
			Seed: s.Seed, Params: s.Params, Roudier: s.Roudier, Lith: s.Lith, Geology: s.Geology})
	}
	return nil, fmt.Errorf("engines: engine %v: must be grid, graph or roudier", s.Kind)
}

// gridConfig is the grid engine's configuration of s.
func (s Spec) gridConfig() grid.Config {
	return grid.Config{W: s.W, H: s.H, Cell: s.Cell, Up: s.Up, Init: s.Init, InitNoise: s.InitNoise, Seed: s.Seed, Params: s.Params}
}

// Params converts a scene's parameters into the engines' stream-power
// parameters, validated: the desktop app calls it on every slider change.
func Params(sc *scene.Scene) (engine.Params, error) {
	sp := sc.Params
	p := engine.Params{
		K: sp.K, M: sp.M, N: sp.N, Dt: sp.DtYr, Kappa: sp.DiffusionM2PerYr,
		Rain: sp.RainMPerYr, Evap: sp.Evaporation,
		NaturalDist: sp.NaturalDistanceM,
		CreepSc:     sp.CreepCriticalSlope, G: sp.DepositionG,
		KNoise: sp.KNoise, KNoiseWavelength: sp.KNoiseWavelengthM,
		Routing: flow.Routing(sp.HillslopeRouting), ChannelArea: sp.ChannelAreaM2,
		Seed: uint64(sc.Seed),
		Talus: talus.Model{
			Mode: talus.Mode(sp.Talus.Mode), AngleDeg: sp.Talus.AngleDeg,
			LowDeg: sp.Talus.LowDeg, HighDeg: sp.Talus.HighDeg, HeightM: sp.Talus.HeightM, BlendM: sp.Talus.BlendM,
			MinDeg: sp.Talus.MinDeg, MaxDeg: sp.Talus.MaxDeg, WavelengthM: sp.Talus.WavelengthM, Octaves: sp.Talus.Octaves,
			Seed: sc.Seed,
		},
	}
	var err error
	edge := func(s string) flow.Boundary {
		b, e := flow.ParseBoundary(s)
		if e != nil && err == nil {
			err = e
		}
		return b
	}
	p.Edges = flow.Edges{
		North: edge(sp.Edges.North), South: edge(sp.Edges.South),
		East: edge(sp.Edges.East), West: edge(sp.Edges.West),
	}
	if err != nil {
		return p, err
	}
	return p, p.Validate()
}

// RoudierParams are the scene's coefficients of Roudier's engine, or
// roudier.DefaultParams when it gives none.
func RoudierParams(sc *scene.Scene) roudier.Params {
	if sc.Roudier != nil {
		return *sc.Roudier
	}
	return roudier.DefaultParams()
}

// FromScene is the engine a scene describes on its own grid, with the
// given uplift (m/yr, nil for none) and initial heights (m, nil for the
// scene's flat start with its seeded noise). The fields are used, not
// copied.
func FromScene(sc *scene.Scene, up, init *sim.Field) (Spec, error) {
	p, err := Params(sc)
	if err != nil {
		return Spec{}, err
	}
	w, h := sc.Width, sc.Height
	s := Spec{Kind: sc.Engine, W: w, H: h, Cell: sc.DomainM / float64(max(w, h)),
		InitNoise: sc.Params.InitNoiseM, Seed: sc.Seed, Params: p}
	if sc.Engine == engine.Graph {
		s.Samples = sc.Samples
	}
	s.Roudier = RoudierParams(sc)
	if s.Geology, err = Geology(sc); err != nil {
		return Spec{}, err
	}
	for _, f := range []struct {
		name string
		f    *sim.Field
		dst  *[]float32
	}{{"uplift", up, &s.Up}, {"initial heights", init, &s.Init}} {
		if f.f == nil {
			continue
		}
		if f.f.W != w || f.f.H != h {
			return Spec{}, fmt.Errorf("engines: %s are %d×%d; the scene's grid is %d×%d", f.name, f.f.W, f.f.H, w, h)
		}
		*f.dst = f.f.Data
	}
	return s, nil
}

// Geology compiles the scene's geology (nil when it has none).
func Geology(sc *scene.Scene) (*geology.Model, error) {
	if sc.Geology == nil {
		return nil, nil
	}
	m, err := sc.Geology.Compile()
	if err != nil {
		return nil, fmt.Errorf("scene: %w", err)
	}
	return m, nil
}

// Label names the engine of s for people: "grid engine", "stream graph,
// 40000 nodes".
func (s Spec) Label() string {
	if s.Kind != engine.Graph {
		return s.Kind.Label() + " engine"
	}
	if s.Samples == 0 {
		return s.Kind.Label() + ", default nodes"
	}
	return fmt.Sprintf("%s, %d nodes", s.Kind.Label(), s.Samples)
}
