package engines

import (
	"slices"

	"orogen/sim/engine"
)

// Coefficient is one of an engine's own coefficients (beside the
// stream-power parameters; engine.Coefficients): a slider of the app's
// parameter panel, a `set` script command and a command-line flag.
type Coefficient struct {
	Name  string // slider and script name
	Flag  string // command-line flag, without the dashes
	Label string
	Unit  string
	Help  string // meaning and units, after the papers (the slider's tooltip)
	Usage string // the flag's one line
	// Min and Max bound the slider; a Log slider moves by ratios and its
	// left end is 0 (the term off).
	Min, Max float64
	Log      bool
	// Slider: the app shows it (else only the flag sets it).
	Slider bool
	// Get reads the coefficient from a value of the engine's coefficient
	// type; Set returns a copy with it changed.
	Get func(c any) float64
	Set func(c any, v float64) any
}

// Coefficients lists the coefficients of every registered engine, with
// the kind each belongs to, in registry order.
func Coefficients() []OwnedCoefficient {
	var out []OwnedCoefficient
	for _, k := range Kinds() {
		for _, c := range Must(k).Coefficients {
			out = append(out, OwnedCoefficient{Kind: k, Coefficient: c})
		}
	}
	return out
}

// OwnedCoefficient is a coefficient and the engine it belongs to.
type OwnedCoefficient struct {
	Kind engine.Kind
	Coefficient
}

// CoefficientGroup is the parameter group of engine k's own coefficients:
// its name (Entry.Reads(string(k)) holds for it).
func CoefficientGroup(k engine.Kind) string { return string(k) }

// readsOwn adds an entry's own coefficient group to its groups.
func (e *Entry) readsOwn() {
	if len(e.Coefficients) > 0 && !slices.Contains(e.Groups, string(e.Kind)) {
		e.Groups = append(e.Groups, string(e.Kind))
	}
}
