package session

import (
	"fmt"
	"math"

	"orogen/app/engines"
	"orogen/app/scene"
	"orogen/sim/engine"
)

// Param is one live parameter of the document: what the Simulation panel
// shows as a slider and a script sets with `set NAME VALUE`. Values are in
// Unit; Log parameters move by ratios.
type Param struct {
	Name     string // script and report name
	Label    string
	Unit     string
	Help     string // meaning and units, after the papers
	Min, Max float64
	Log      bool
	Format   string
	// Zeroable parameters take 0 (off) at the left end of their slider.
	Zeroable bool
	// Group is the parameter group of the engines it acts on (an
	// app/engines group: engines.StreamPower, engines.Roudier; "" for
	// every engine: the time step, the uplift).
	Group string
	get   func(s *Session) float64
	set   func(s *Session, v float64) error
}

// AppliesTo reports whether the parameter acts on engine k (its registry
// entry reads the parameter's group): the app shows only those sliders.
func (p Param) AppliesTo(k engine.Kind) bool {
	e, err := engines.Lookup(k)
	return err == nil && e.Reads(p.Group)
}

// baseParams are the parameters of the stream power and of every engine.
var baseParams = []Param{
	{Name: "k", Label: "k (erodibility)", Unit: "1/yr", Help: "Stream power erodibility k in E = k·A^m·S^n (Cordonnier et al. 2016, §3.1). " +
		"Higher k cuts deeper valleys and lowers the steady-state relief: " +
		"h_max ~ 2.244·u/k for the paper's defaults. Cordonnier et al. 2016 uses 5.61e-7 /yr.",
		Min: 1e-9, Max: 1e-3, Log: true, Format: "%.3g", Group: engines.StreamPower,
		get: func(s *Session) float64 { return s.doc.Scene().Params.K },
		set: setScene("k", func(p *scene.Params, v float64) { p.K = v })},
	{Name: "m", Label: "m (area exponent)", Help: "Drainage-area exponent m of the stream power law. " +
		"m/n ~ 0.4-0.6 in nature (the concavity of river profiles); Cordonnier et al. 2016 uses 0.5.",
		Min: 0.1, Max: 1.5, Format: "%.3f", Group: engines.StreamPower,
		get: func(s *Session) float64 { return s.doc.Scene().Params.M },
		set: setScene("m", func(p *scene.Params, v float64) { p.M = v })},
	{Name: "n", Label: "n (slope exponent)", Help: "Slope exponent n of the stream power law; n = 1 is solved in closed form, " +
		"other values by Newton iterations. Cordonnier et al. 2016 uses 1.",
		Min: 0.5, Max: 3, Format: "%.3f", Group: engines.StreamPower,
		get: func(s *Session) float64 { return s.doc.Scene().Params.N },
		set: setScene("n", func(p *scene.Params, v float64) { p.N = v })},
	{Name: "dt", Label: "dt (time step)", Unit: "yr", Help: "Length of one engine step in years. The implicit scheme is stable for any dt; " +
		"Cordonnier et al. 2016 uses 2.5e5 yr. Smaller steps show the transient in more detail.",
		Min: 1e2, Max: 1e7, Log: true, Format: "%.3g",
		get: func(s *Session) float64 { return s.doc.Scene().Params.DtYr },
		set: setScene("dt", func(p *scene.Params, v float64) { p.DtYr = v })},
	{Name: "talus", Label: "talus angle", Unit: "°", Help: "Largest slope that the terrain holds before it slides (thermal erosion, Cordonnier et al. 2016, §6.4): " +
		"30° is the usual talus angle; higher values keep cliffs.",
		Min: 5, Max: 85, Format: "%.1f", Group: engines.StreamPower,
		get: func(s *Session) float64 {
			if t := s.doc.Scene().Params.Talus; t.Mode == "constant" {
				return t.AngleDeg
			}
			return 85
		},
		// A constant angle replaces the talus of any mode whole: the fields
		// of a noise or height talus left beside it are refused by the
		// scene's strict check (the soil presets' talus is by noise).
		set: setScene("talus", func(p *scene.Params, v float64) { p.Talus = scene.Talus{Mode: "constant", AngleDeg: v} })},
	{Name: "diffusion", Label: "hillslope diffusivity", Unit: "m²/yr", Help: "Linear hillslope diffusion kappa in dh/dt = kappa·lap(h): soil creep that rounds " +
		"crests and valley floors. 0 turns it off (the paper's setting); 0.01-1 m²/yr is typical of soil-mantled hills.",
		Min: 0, Max: 10, Format: "%.3g", Group: engines.StreamPower,
		get: func(s *Session) float64 { return s.doc.Scene().Params.DiffusionM2PerYr },
		set: setScene("diffusion", func(p *scene.Params, v float64) { p.DiffusionM2PerYr = v })},
	{Name: "creep-sc", Label: "creep critical slope", Help: "Critical slope S_c of nonlinear creep, q = κ·S/(1 − (S/S_c)²) " +
		"(Roering, Kirchner and Dietrich 1999; they measure 1.25): hilltops round and slopes approach S_c without piling onto it. " +
		"Acts with the hillslope diffusivity κ. The left end is 0: linear diffusion.",
		Min: 0.1, Max: 10, Log: true, Zeroable: true, Format: "%.3g", Group: engines.Creep,
		get: func(s *Session) float64 { return s.doc.Scene().Params.CreepCriticalSlope },
		set: setScene("creep-sc", func(p *scene.Params, v float64) { p.CreepCriticalSlope = v })},
	{Name: "deposition", Label: "deposition G", Help: "Deposition coefficient G of the sediment carried by the rivers (Yuan et al. 2019; about 1): " +
		"valleys get alluvial floors, lakes and sinking basins fill until they spill. The left end is 0: no deposition (detachment-limited).",
		Min: 0.01, Max: 100, Log: true, Zeroable: true, Format: "%.3g", Group: engines.Deposition,
		get: func(s *Session) float64 { return s.doc.Scene().Params.DepositionG },
		set: setScene("deposition", func(p *scene.Params, v float64) { p.DepositionG = v })},
	{Name: "k-noise", Label: "k variation", Help: "Standard deviation of ln k over the map: erodibility varies in fractal patches " +
		"(with a geology, on top of the rock's), so the drainage stops printing the grid. 0: uniform k.",
		Min: 0, Max: 3, Format: "%.2f", Group: engines.KNoise,
		get: func(s *Session) float64 { return s.doc.Scene().Params.KNoise },
		set: setScene("k-noise", func(p *scene.Params, v float64) { p.KNoise = v })},
	{Name: "rain", Label: "rain", Unit: "m/yr", Help: "Rain r of the lakes' water budget (Błaszczuk et al. 2023): every step adds dt·r·A to the basins, " +
		"lakes fill, overflow into their neighbours and merge. 0 turns the budget off and fills every lake to its pass. " +
		"With the geological dt of 1e5 yr, 1e-5 to 1e-3 m/yr keeps lakes partly full. It never changes the terrain. " +
		"The left end (1e-7) is 0: off.",
		Min: 1e-7, Max: 10, Log: true, Format: "%.3g", Group: engines.StreamPower, Zeroable: true,
		get: func(s *Session) float64 { return s.doc.Scene().Params.RainMPerYr },
		set: setScene("rain", func(p *scene.Params, v float64) { p.RainMPerYr = v })},
	{Name: "evaporation", Label: "evaporation", Unit: "m^½/yr", Help: "Evaporation e of the water budget: a lake of V m³ loses e·V^(5/6) m³/yr, " +
		"so large lakes lose less per m³. Raise it to dry lakes out. The left end (1e-7) is 0.",
		Min: 1e-7, Max: 1e3, Log: true, Format: "%.3g", Group: engines.StreamPower, Zeroable: true,
		get: func(s *Session) float64 { return s.doc.Scene().Params.Evaporation },
		set: setScene("evaporation", func(p *scene.Params, v float64) { p.Evaporation = v })},
	{Name: "umax", Label: "uplift scale", Unit: "m/yr", Help: "Uplift rate of a normalized uplift value of 1 (white in the uplift map). " +
		"Cordonnier et al. 2016 §6 uses 5e-4 m/yr (0.5 mm/yr); relief grows in proportion.",
		Min: 1e-6, Max: 1e-2, Log: true, Format: "%.3g",
		get: func(s *Session) float64 { return s.doc.Scene().Uplift.UmaxMPerYr },
		set: func(s *Session, v float64) error { return s.doc.SetUmax(v, "slider:umax") }},
}

// Params are the document's live parameters, in panel order: those of
// the stream power and every engine (above), then each registered
// engine's own coefficients that have a slider (app/engines).
var Params = append(baseParams, coefficientParams()...)

// coefficientParams are the sliders of the registry's engine coefficients.
func coefficientParams() []Param {
	var out []Param
	for _, c := range engines.Coefficients() {
		if !c.Slider {
			continue
		}
		c := c
		out = append(out, Param{Name: c.Name, Label: c.Label, Unit: c.Unit, Help: c.Help, Min: c.Min, Max: c.Max,
			Log: c.Log, Zeroable: c.Log, Format: "%.3g", Group: engines.CoefficientGroup(c.Kind),
			get: func(s *Session) float64 { return c.Get(s.doc.Scene().CoefficientsOf(c.Kind)) },
			set: func(s *Session, v float64) error {
				return s.doc.SetCoefficients(c.Kind, c.Set(s.doc.Scene().CoefficientsOf(c.Kind), v), "slider:"+c.Name)
			}})
	}
	return out
}

// ParamByName returns the live parameter called name.
func ParamByName(name string) (Param, bool) {
	for _, p := range Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Param returns the live parameter name's value in its unit (NaN for an
// unknown name).
func (s *Session) Param(name string) float64 {
	p, ok := ParamByName(name)
	if !ok {
		return math.NaN()
	}
	return p.get(s)
}

// SetParam changes a live parameter (an undoable document edit; a drag of
// one slider merges into one undo step until Doc().EndGesture). The engine
// gets it at the next Sync. A zeroable parameter at or below its Min is 0;
// other values must lie in [Min, Max].
func (s *Session) SetParam(name string, v float64) error {
	if v != v || math.IsInf(v, 0) {
		return fmt.Errorf("%s = %v: not a number", name, v)
	}
	p, ok := ParamByName(name)
	if !ok {
		return fmt.Errorf("unknown parameter %q", name)
	}
	if p.Zeroable && v <= p.Min {
		v = 0 // the left end of these log sliders turns the term off
	} else if v < p.Min || v > p.Max {
		return fmt.Errorf("%s = %g is outside [%g, %g] %s", name, v, p.Min, p.Max, p.Unit)
	}
	return p.set(s, v)
}

// setScene returns the setter of a stream-power parameter: edit writes v
// into a copy of the scene's parameters, which the document takes as one
// undo step per slider gesture.
func setScene(name string, edit func(p *scene.Params, v float64)) func(s *Session, v float64) error {
	return func(s *Session, v float64) error {
		p := s.doc.Scene().Params
		edit(&p, v)
		return s.doc.SetParams(p, "slider:"+name)
	}
}
