package roudier

import (
	"fmt"

	"orogen/sim/engine"
)

// Kind is the name of Roudier's engine in scenes, projects, reports and
// flags.
const Kind engine.Kind = "roudier"

// PerStepLaws: the processes of Roudier et al. 1993 act per step, so
// settling keeps the user's dt (engine.PerStep).
func (e *Engine) PerStepLaws() {}

// SetCoefficients sets the engine's coefficients, a Params
// (engine.Coefficients).
func (e *Engine) SetCoefficients(v any) error {
	p, ok := v.(Params)
	if !ok {
		return fmt.Errorf("roudier: coefficients of type %T; want roudier.Params", v)
	}
	return e.SetRoudier(p)
}

// Coefficients returns the coefficients in force, a Params.
func (e *Engine) Coefficients() any { return e.rp }

// OwnStrata returns the strata the engine erodes without a geology and the
// layer exposed at each cell (engine.Stratified); idx is nil with a
// geology model or a lithology that is not Strata of at most 255 layers.
func (e *Engine) OwnStrata() (idx []uint8, layers []engine.Stratum, repeat float64) {
	st := e.Strata()
	if st == nil {
		return nil, nil, 0
	}
	z := st.Base
	for _, l := range st.Layers {
		layers = append(layers, engine.Stratum{Rock: l.Rock, Bottom: z, Top: z + l.Thickness})
		z += l.Thickness
	}
	return e.ExposedStrata(), layers, st.Period()
}

// Account is what a run on the engine adds to its report: the
// coefficients and the run's account in the paper's terms (Budget: rock
// removed = detritus out + creep out + dissolved + alluvium stored), with
// its residual, m³.
type Account struct {
	Params   Params  `json:"params"`
	Budget   Budget  `json:"budget"`
	Residual float64 `json:"residual_m3"`
	// AlluviumMaxM is the thickest alluvium at the end, m.
	AlluviumMaxM float64 `json:"alluvium_max_m"`
}

// Account returns the engine's Account (engine.Accounted).
func (e *Engine) Account() any {
	b := e.TotalBudget()
	a := Account{Params: e.Roudier(), Budget: b, Residual: b.Residual()}
	for _, v := range e.Alluvium() {
		a.AlluviumMaxM = max(a.AlluviumMaxM, v)
	}
	return a
}

// Summary measures the final terrain on the cells (engine.Summarizer).
func (e *Engine) Summary() engine.Summary {
	var s engine.Summary
	s.MinHeight, s.MaxHeight, s.MeanHeight = engine.HeightFigures(e.Heights())
	if e.Stats().Step > 0 {
		for _, a := range e.Snapshot().Area {
			s.MaxDrainage = max(s.MaxDrainage, float64(a))
		}
	}
	return s
}

// Deposits is true: the engine always lays alluvium (engine.Depositing).
func (e *Engine) Deposits() bool { return true }
