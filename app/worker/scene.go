package worker

import (
	"slices"

	"orogen/app/run"
	"orogen/sim/grid"
)

// SceneConfig returns the engine configuration of a scene (a preset name or
// a scene file; "" is the default preset) at size cells along its longer
// side (0 keeps the scene's size): what the app hands New at launch. It
// resolves the scene as `orogen run --scene NAME --size N` does, so the
// worker and the CLI start from the same terrain.
func SceneConfig(name string, size int) (grid.Config, error) {
	job, err := run.Prepare(run.Options{Scene: name, Size: size})
	if err != nil {
		return grid.Config{}, err
	}
	e := job.Engine
	w, h, cell := e.Size()
	cfg := grid.Config{
		W: w, H: h, Cell: cell,
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
