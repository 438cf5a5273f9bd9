package worker

import (
	"slices"

	"orogen/app/engines"
	"orogen/app/run"
	"orogen/sim/engine"
)

// SceneSpec returns the engine of a scene (a preset name or
// a scene file; "" is the default preset) at size cells along its longer
// side (0 keeps the scene's size): what the app hands New at launch. It
// resolves the scene as `orogen run --scene NAME --size N` does, so the
// worker and the CLI start from the same terrain.
func SceneSpec(name string, size int) (engines.Spec, error) {
	job, err := run.Prepare(run.Options{Scene: name, Size: size, Engine: engine.Grid.String()})
	if err != nil {
		return engines.Spec{}, err
	}
	e := job.Engine
	w, h, cell := e.Size()
	cfg := engines.Spec{
		Kind: engine.Grid, W: w, H: h, Cell: cell,
		InitNoise: job.Scene.Params.InitNoiseM,
		Seed:      job.Scene.Seed,
		Params:    e.Params(),
	}
	if s := e.Snapshot(); s.Uplift != nil {
		cfg.Up = s.Uplift
	}
	if job.Scene.Init != nil && job.Scene.Init.Image != "" {
		// The engine's heights are the scene's, resampled, with the
		// initial noise already added.
		cfg.Init, cfg.InitNoise = slices.Clone(e.Heights()), 0
	}
	return cfg, nil
}
