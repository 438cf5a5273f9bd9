package scene

import (
	"fmt"

	"orogen/app/engines"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/geology"
	"orogen/sim/roudier"
	"orogen/sim/talus"
)

// EngineParams converts the scene's parameters into the engines'
// stream-power parameters, validated: the desktop app calls it on every
// slider change.
func (sc *Scene) EngineParams() (engine.Params, error) {
	sp := sc.Params
	p := engine.Params{
		K: sp.K, M: sp.M, N: sp.N, Dt: sp.DtYr, Kappa: sp.DiffusionM2PerYr,
		Rain: sp.RainMPerYr, Evap: sp.Evaporation,
		NaturalDist: sp.NaturalDistanceM,
		CreepSc:     sp.CreepCriticalSlope, G: sp.DepositionG, PlainUplift: sp.PlainUpliftMPerYr,
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
func (sc *Scene) RoudierParams() roudier.Params {
	if sc.Roudier != nil {
		return *sc.Roudier
	}
	return roudier.DefaultParams()
}

// EngineCoefficients are the coefficients of the scene's engine beside its
// parameters (engines.Spec.Coefficients): the ones the scene stores for
// it, else the engine's defaults; nil for an engine that has none.
func (sc *Scene) EngineCoefficients() any { return sc.CoefficientsOf(sc.Engine) }

// CoefficientsOf are engine k's coefficients as the scene gives them (its
// defaults where the scene gives none); nil for an engine that has none.
func (sc *Scene) CoefficientsOf(k engine.Kind) any {
	e, err := engines.Lookup(k)
	if err != nil || e.DefaultCoefficients == nil {
		return nil
	}
	if v := sc.storedCoefficients(e.Kind); v != nil {
		return v
	}
	return e.DefaultCoefficients()
}

// storedCoefficients are the coefficients the scene file stores for engine
// k, or nil. The format keeps one section per engine that has them: the
// "roudier" section holds Roudier's engine's.
func (sc *Scene) storedCoefficients(k engine.Kind) any {
	if k == roudier.Kind && sc.Roudier != nil {
		return *sc.Roudier
	}
	return nil
}

// SetCoefficients stores an engine's coefficients in the scene (the
// section of the engine whose type v is), validated.
func (sc *Scene) SetCoefficients(v any) error {
	switch p := v.(type) {
	case roudier.Params:
		if err := p.Validate(); err != nil {
			return fmt.Errorf("scene: %w", err)
		}
		sc.Roudier = &p
		return nil
	}
	return fmt.Errorf("scene: no section for coefficients of type %T", v)
}

// EngineSpec is the engine the scene describes on its own grid, with the
// given uplift (m/yr, nil for none) and initial heights (m, nil for the
// scene's flat start with its seeded noise). The fields are used, not
// copied.
func (sc *Scene) EngineSpec(up, init *sim.Field) (engines.Spec, error) {
	p, err := sc.EngineParams()
	if err != nil {
		return engines.Spec{}, err
	}
	ent, err := engines.Lookup(sc.Engine)
	if err != nil {
		return engines.Spec{}, fmt.Errorf("scene: %w", err)
	}
	w, h := sc.Width, sc.Height
	s := engines.Spec{Kind: ent.Kind, W: w, H: h, Cell: sc.Cell(),
		InitNoise: sc.Params.InitNoiseM, Seed: sc.Seed, Params: p}
	if ent.Nodes {
		s.Samples = sc.Samples
	}
	s.Coefficients = sc.EngineCoefficients()
	if s.Geology, err = sc.CompileGeology(); err != nil {
		return engines.Spec{}, err
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
			return engines.Spec{}, fmt.Errorf("scene: %s are %d×%d; the scene's grid is %d×%d", f.name, f.f.W, f.f.H, w, h)
		}
		*f.dst = f.f.Data
	}
	return s, nil
}

// Cell is the size of the scene's cells, metres: the domain over the
// longer side.
func (sc *Scene) Cell() float64 { return sc.DomainM / float64(max(sc.Width, sc.Height)) }

// CompileGeology compiles the scene's geology (nil when it has none).
func (sc *Scene) CompileGeology() (*geology.Model, error) {
	if sc.Geology == nil {
		return nil, nil
	}
	m, err := sc.Geology.Compile()
	if err != nil {
		return nil, fmt.Errorf("scene: %w", err)
	}
	return m, nil
}
