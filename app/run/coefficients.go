package run

import (
	"fmt"
	"slices"

	"orogen/app/engines"
	"orogen/app/scene"
)

// applyCoefficients applies the command line's values of the engine's own
// coefficients (--roudier-alpha, ...) to the scene; a flag of another
// engine's is an error naming the engine it needs.
func (o *Options) applyCoefficients(sc *scene.Scene) error {
	if len(o.Coefficients) == 0 {
		return nil
	}
	flags := make([]string, 0, len(o.Coefficients))
	for f := range o.Coefficients {
		flags = append(flags, f)
	}
	slices.Sort(flags)
	ent, err := engines.Lookup(sc.Engine)
	if err != nil {
		return err
	}
	v := sc.EngineCoefficients()
	for _, f := range flags {
		var c *engines.OwnedCoefficient
		for _, oc := range engines.Coefficients() {
			if oc.Flag == f {
				c = &oc
				break
			}
		}
		if c == nil {
			return fmt.Errorf("--%s: no engine has this coefficient", f)
		}
		if c.Kind != ent.Kind {
			return fmt.Errorf("--%s is a coefficient of %s (engine %s), not of the %s engine: drop it or add --engine %s", f, engines.Label(c.Kind), c.Kind, ent.Kind, c.Kind)
		}
		v = c.Set(v, o.Coefficients[f])
	}
	return sc.SetCoefficients(v)
}
