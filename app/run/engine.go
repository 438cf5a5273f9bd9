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
