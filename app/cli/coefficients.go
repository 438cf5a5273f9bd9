package cli

import (
	"github.com/spf13/cobra"

	"orogen/app/engines"
)

// coefficientFlags registers a flag for every coefficient of the
// registry's engines (--roudier-alpha, ...) on cmd and returns a function
// that, once the flags are parsed, returns the values given, by flag name
// (nil when none is given): only those change the scene's coefficients
// (or the engine's defaults).
func coefficientFlags(cmd *cobra.Command) func() map[string]float64 {
	f := cmd.Flags()
	cs := engines.Coefficients()
	vs := make([]float64, len(cs))
	for i, c := range cs {
		f.Float64Var(&vs[i], c.Flag, 0, c.Usage)
	}
	return func() map[string]float64 {
		var given map[string]float64
		for i, c := range cs {
			if f.Changed(c.Flag) {
				if given == nil {
					given = map[string]float64{}
				}
				given[c.Flag] = vs[i]
			}
		}
		return given
	}
}
