package engine

import (
	"errors"
	"fmt"
	"math"

	"orogen/sim/flow"
	"orogen/sim/spl"
	"orogen/sim/talus"
	"orogen/sim/water"
)

// Params are the physical parameters of the stream-power engines (grid and
// graph). They may change between steps (Engine.SetParams).
type Params struct {
	K     float64 // erodibility, yr⁻¹
	M     float64 // drainage area exponent
	N     float64 // slope exponent
	Dt    float64 // time step, years
	Kappa float64 // hillslope diffusivity, m²/yr; 0 turns the term off
	Talus talus.Model
	Edges flow.Edges
	// NaturalDist is the distance D of the virtual node behind Natural
	// edges, metres; 0 means the longer side of the domain.
	NaturalDist float64
	// Rain r, m/yr, and Evap e, m^½/yr, drive the lakes' water budget
	// (sim/water, Błaszczuk et al. 2023, §III.B): with Rain > 0 (or a
	// rain map, SetRainMap) every step also fills, drains and merges
	// lakes from the water that falls and evaporates, and snapshots draw
	// those lakes. The budget never changes the terrain (Błaszczuk et al.
	// 2023, §III.B.4). Rain 0 turns it off: lakes are then drawn filled
	// to their passes.
	Rain, Evap float64

	// CreepSc is the critical slope S_c (a tangent, m/m) of nonlinear
	// hillslope creep (Roering, Kirchner and Dietrich 1999): with κ > 0
	// the hillslope flux is q = κ∇h/(1 − (|∇h|/S_c)²) (sim/hillslope's
	// Creeper). 0 keeps linear diffusion κ∇²h, the creep's low-slope
	// limit.
	CreepSc float64
	// G is the dimensionless deposition coefficient of Yuan et al. 2019
	// (Fastscape's G): with G > 0 the rock the stream power and the talus
	// limit remove travels down the receivers as sediment, each node
	// keeps G·Qs/A of the flux Qs reaching it (A its drainage area), and
	// lakes fill with what reaches them up to their spill level. 0: the
	// detachment-limited law of Braun and Willett 2013, nothing deposits.
	G float64
	// PlainUplift, m/yr, when > 0 makes the ground whose uplift is
	// below it the base-level plain, the sea around the ranges: the
	// deposition term G·Qs/A is off there (lakes on it still fill), so
	// the rivers carry their sediment across it to the outlets, as the
	// sea would carry it away. Without it a plain at base level aggrades
	// into alluvial ridges whose interfluves, neither uplifted nor fed
	// (the sediment follows one receiver), erode below them: the rivers
	// avulse from step to step and never settle (docs/REALISM.md). 0
	// turns it off; it needs G > 0 to matter.
	PlainUplift float64
	// KNoise is the standard deviation of ln k over the map: k becomes
	// k·exp(KNoise·z), z a seeded fractal field (sim/noise) of unit
	// standard deviation clamped to ±3, of first wavelength
	// KNoiseWavelength metres (0: a quarter of the longer side). 0 keeps
	// k uniform (but for a geology's factors).
	KNoise, KNoiseWavelength float64
	// Routing is how hillslope cells (drainage area below ChannelArea
	// m²) choose their receiver: RoutingD8 (steepest descent, the
	// default) or RoutingRandom (a seeded choice among the downhill
	// neighbours weighted by slope, Holmgren 1994's weights with
	// exponent 1, fixed per cell: no D8 imprint on the hillslopes).
	// Channels always keep the steepest receiver. ChannelArea 0 means
	// 100 cells.
	Routing     flow.Routing
	ChannelArea float64
	// Seed seeds the k noise and the random routing (the scene's seed).
	Seed uint64
}

// DefaultParams returns the values of Cordonnier et al. 2016, §6:
// k = 5.61e-7 /yr, m = 0.5, n = 1, dt = 2.5e5 yr, talus 30°, all edges
// outlets, no hillslope term.
func DefaultParams() Params {
	return Params{
		K: 5.61e-7, M: 0.5, N: 1, Dt: 2.5e5,
		Talus: talus.Model{Mode: talus.ModeConstant, AngleDeg: 30},
	}
}

// Upper bounds of Rain (m/yr, also of every value of a rain map) and Evap
// (m^½/yr): far beyond any climate.
const (
	MaxRain = 100
	MaxEvap = 1e4
)

// maxKappaDt bounds κ·dt, m²: far beyond any useful value (κ = 10 m²/yr
// over 10⁷ yr is 10⁸ m²), and small enough that κ·dt/cell² stays finite for
// any allowed cell size.
const maxKappaDt = 1e15

// Validate returns an error naming the first parameter out of range.
func (p Params) Validate() error {
	if err := (spl.Params{K: p.K, M: p.M, N: p.N, Dt: p.Dt}).Validate(); err != nil {
		return err
	}
	if math.IsNaN(p.Kappa) || math.IsInf(p.Kappa, 0) || p.Kappa < 0 {
		return fmt.Errorf("params: diffusion κ = %g: must be finite and >= 0 (m²/yr)", p.Kappa)
	}
	if p.Kappa*p.Dt > maxKappaDt {
		return fmt.Errorf("params: diffusion κ·dt = %g·%g m² exceeds %g m²: one step would flatten any map; lower κ or dt", p.Kappa, p.Dt, maxKappaDt)
	}
	if math.IsNaN(p.NaturalDist) || math.IsInf(p.NaturalDist, 0) || p.NaturalDist < 0 {
		return fmt.Errorf("params: natural edge distance %g: must be finite and >= 0 (m)", p.NaturalDist)
	}
	if err := (water.Params{Rain: p.Rain, Evap: p.Evap}).Validate(); err != nil {
		return err
	}
	if p.Rain > MaxRain || p.Evap > MaxEvap {
		return fmt.Errorf("params: rain %g m/yr or evaporation %g m^½/yr: absurd (at most %g and %g)", p.Rain, p.Evap, float64(MaxRain), float64(MaxEvap))
	}
	if p.Edges.AllClosed() {
		return errors.New("params: all four edges are closed: water has nowhere to go; make at least one edge outlet or natural")
	}
	for _, b := range []flow.Boundary{p.Edges.North, p.Edges.South, p.Edges.East, p.Edges.West} {
		if b > flow.Natural {
			return fmt.Errorf("params: unknown edge kind %d", b)
		}
	}
	if err := p.validateNew(); err != nil {
		return err
	}
	return p.Talus.Validate()
}

// MaxKNoise bounds Params.KNoise: e^(3·3) ≈ 8 000 between the softest and
// the hardest rock is already beyond nature.
const MaxKNoise = 3

// validateNew checks the creep, deposition, k noise and routing
// parameters.
func (p Params) validateNew() error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	switch {
	case bad(p.PlainUplift) || p.PlainUplift > 1:
		return fmt.Errorf("params: plain uplift %g m/yr: must be in [0, 1] m/yr (0: off)", p.PlainUplift)
	case bad(p.CreepSc) || p.CreepSc > 100:
		return fmt.Errorf("params: creep critical slope S_c = %g: must be 0 (linear diffusion) or a tangent in (0, 100]", p.CreepSc)
	case bad(p.G) || p.G > 100:
		return fmt.Errorf("params: deposition G = %g: must be in [0, 100] (0: no deposition; Yuan et al. 2019 use about 1)", p.G)
	case bad(p.KNoise) || p.KNoise > MaxKNoise:
		return fmt.Errorf("params: k noise %g: must be in [0, %g] (the standard deviation of ln k)", p.KNoise, float64(MaxKNoise))
	case bad(p.KNoiseWavelength) || p.KNoiseWavelength > 1e9:
		return fmt.Errorf("params: k noise wavelength %g m: must be in [0, 1e9] m (0: a quarter of the map)", p.KNoiseWavelength)
	case bad(p.ChannelArea) || p.ChannelArea > 1e15:
		return fmt.Errorf("params: channel area %g m²: must be in [0, 1e15] m² (0: 100 cells)", p.ChannelArea)
	}
	return p.Routing.Validate()
}
