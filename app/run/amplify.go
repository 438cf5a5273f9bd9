package run

import (
	"context"
	"fmt"
	"orogen/app/compute"
	"time"

	"orogen/sim"
	"orogen/sim/amplify"
	"orogen/sim/engine"
	"orogen/viewer"
)

// AmplifyReport is the report's account of --out-size: the factor, the
// amplified grid and how long sim/amplify took.
type AmplifyReport struct {
	Factor   int     `json:"factor"`
	Width    int     `json:"width"`
	Height   int     `json:"height"`
	CellSize float64 `json:"cell_size_m"`
	Seconds  float64 `json:"seconds"`
	Segments int     `json:"river_segments"`
	Pits     int     `json:"pits_drained"`
	// MeanErrorM is the worst |mean of a grid cell's fine heights − its
	// height|, metres: how far the amplified terrain, averaged back,
	// strays from the simulated one.
	MeanErrorM float64 `json:"cell_mean_error_m"`
	// HydroDevice is where the hydraulic pass ran ("cpu" or the GPU's
	// report; "" without one), HydroFallback why a gpu or auto pass ran
	// on the CPU.
	HydroDevice   string `json:"hydro_device,omitempty"`
	HydroFallback string `json:"hydro_fallback,omitempty"`
}

// amplifyFactor checks --out-size against the w×h grid and returns the
// factor it asks for (1: the grid's own size, nothing to amplify).
func (o Options) amplifyFactor(w, h int) (int, error) {
	if o.OutSize == 0 {
		if o.StrictTalus || o.OutHydroSteps != 0 {
			return 0, fmt.Errorf("--strict-talus and --out-hydro-steps apply to the amplified outputs: give --out-size too")
		}
		return 1, nil
	}
	side := max(w, h)
	switch {
	case o.OutSize < 0:
		return 0, fmt.Errorf("--out-size %d: give a positive size", o.OutSize)
	case o.OutSize == side:
		return 1, nil
	case o.OutSize < side:
		return 0, fmt.Errorf("--out-size %d is below the %d×%d simulation: it only amplifies (2, 4 or 8 times the longer side); resample smaller with --export-size", o.OutSize, w, h)
	}
	if o.OutHydroSteps < 0 || o.OutHydroSteps > amplify.MaxHydroSteps {
		return 0, fmt.Errorf("--out-hydro-steps %d: give 0 (none) to %d", o.OutHydroSteps, amplify.MaxHydroSteps)
	}
	f := o.OutSize / side
	if o.OutSize%side != 0 || (f != 2 && f != 4 && f != 8) {
		return 0, fmt.Errorf("--out-size %d: the simulation is %d×%d: give 2, 4 or 8 times its longer side (%d, %d or %d)", o.OutSize, w, h, 2*side, 4*side, 8*side)
	}
	for _, c := range []struct{ path, flag string }{
		{o.OutDrainage, "--out-drainage"}, {o.OutAlluvium, "--out-alluvium"}, {o.OutSediment, "--out-sediment"}, {o.OutLakes, "--out-lakes"},
	} {
		if c.path != "" {
			return 0, fmt.Errorf("%s is not amplified: drop it or --out-size (--out-size amplifies --out, --out-water, --out-rivers and --out-rock)", c.flag)
		}
	}
	return f, nil
}

// amplified is the run's terrain amplified by j.amp (sim/amplify), seeded
// by the scene's seed; it fills the report's amplify section.
func (j *Job) amplified(s *engine.Snapshot, rep *Report) (*amplify.Result, error) {
	if j.ampRes != nil {
		return j.ampRes, nil
	}
	o := amplify.DefaultOptions(j.amp)
	o.Seed = j.Scene.Seed
	o.StrictTalus = j.Opt.StrictTalus
	o.HydroSteps = j.Opt.OutHydroSteps
	var hydroDevice, hydroFallback string
	if o.HydroSteps > 0 {
		hydroDevice = "cpu"
		if j.Opt.HydroDevice != compute.CPU {
			o.HydroPass = &compute.Pass{D: j.Opt.HydroDevice,
				Note: func(s string) { hydroFallback = s }, Used: func(s string) { hydroDevice = s }}
		}
	}
	if j.Opt.Raster == "gaussian" {
		c := *s
		c.Height = j.heights(s)
		s = &c
	}
	start := time.Now()
	r, err := amplify.Amplify(context.Background(), s, o)
	if err != nil {
		return nil, fmt.Errorf("--out-size: %w", err)
	}
	if rep != nil {
		rep.Amplify = &AmplifyReport{Factor: j.amp, Width: r.W, Height: r.H, CellSize: r.Cell,
			Seconds: time.Since(start).Seconds(), Segments: r.Stats.Segments, Pits: r.Stats.Pits,
			HydroDevice: hydroDevice, HydroFallback: hydroFallback}
		rep.Amplify.MeanErrorM, _ = amplify.MeanError(s.Height, s.W, s.H, r.Height, r.W)
	}
	j.ampRes = r
	return r, nil
}

// bedMask is 1 on the amplified river beds, 0 elsewhere.
func bedMask(r *amplify.Result) []float32 {
	m := make([]float32, len(r.River))
	for i, d := range r.River {
		if d > 0 {
			m[i] = 1
		}
	}
	return m
}

// writeAmplified writes the outputs of a run with --out-size: the
// heightmap, lake water, river beds and exposed rock amplified; the
// preview at the grid's size.
func (j *Job) writeAmplified(s *engine.Snapshot, rep *Report) error {
	r, err := j.amplified(s, rep)
	if err != nil {
		return err
	}
	field := func(data []float32) *sim.Field { return &sim.Field{W: r.W, H: r.H, Cell: r.Cell, Data: data} }
	if j.Opt.OutRock != "" {
		_, leg, err := j.exposedRock(s)
		if err != nil {
			return err
		}
		idx := r.Rock
		if idx == nil { // strata of Roudier's engine: no model to lay at the fine cells
			c, _, _ := j.exposedRock(s)
			idx = NearestIndices(c, s.W, s.H, r.W, r.H)
		}
		if err := j.writeRockIndex(j.Opt.OutRock, idx, leg, r.W, r.H, r.Cell); err != nil {
			return err
		}
	}
	if j.Opt.OutPreview != "" {
		if err := WritePNGIn(j.set, j.Opt.OutPreview, viewer.Relief(nil, s, viewer.DefaultOptions())); err != nil {
			return err
		}
	}
	for _, o := range []struct {
		path string
		data func() []float32
	}{
		{j.Opt.Out, func() []float32 { return r.Height }},
		{j.Opt.OutWater, func() []float32 { return r.Water }},
		{j.Opt.OutRivers, func() []float32 { return bedMask(r) }},
	} {
		if o.path == "" {
			continue
		}
		if err := j.writeRaster(o.path, field(o.data())); err != nil {
			return err
		}
	}
	return nil
}
