// Package run runs a scene headless: it builds an engine from a scene and
// the command line's overrides, steps it, writes the requested heightmaps,
// masks and the JSON report. It is what `orogen run` and `make run` do, and
// the benchmarks of the whole engine live here.
package run

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"math"
	"orogen/app/compute"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"orogen/app/doc"
	"orogen/app/drive"
	"orogen/app/engines"
	"orogen/app/export"
	"orogen/app/project"
	"orogen/app/rasterio"
	"orogen/app/safefile"
	"orogen/app/scene"
	"orogen/sim"
	"orogen/sim/amplify"
	"orogen/sim/constrain"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/grid"
	"orogen/sim/spl"
	"orogen/viewer"
)

// Options are a run's scene and the command line's overrides. Pointer and
// zero fields keep the scene's value.
type Options struct {
	Scene string // preset name or scene file; "" = default
	// Project runs a saved project (its scene, Uplift Tree, painted
	// layers, constraints and geology) as the desktop app does; it takes
	// no scene overrides.
	Project        string
	Size           int // cells per side (with Init: of the longer side)
	Cell           float64
	Steps          int
	UntilConverged bool
	// FixedDt keeps the time step at dt until convergence; without it an
	// --until-converged run takes longer steps while the terrain settles
	// (package settle) and stops at the same test, at the user's dt.
	FixedDt bool
	// Patience: with UntilConverged, stop after this many steps without
	// getting closer to a steady state (settle.Options.Patience; 0: its
	// default).
	Patience  int
	Tolerance float64 // m/yr
	Engine    string  // "grid", "graph" or "roudier"; "" keeps the scene's
	// Samples is the graph engine's node count (0: DefaultSamples).
	Samples int
	// Raster is how a graph run's heightmap (--out) is made from its
	// nodes: "linear" (over the Delaunay triangles, the default) or
	// "gaussian" (the normalized Gaussian kernel of Cordonnier et al.
	// 2016, §6.2, σ the mean node spacing). Masks and pictures are always
	// linear.
	Raster      string
	K, M, N, Dt *float64
	Talus       *float64 // degrees; 0 turns the limit off
	Diffusion   *float64 // m²/yr; 0 turns hillslope off
	// The lakes' water budget: rain (m/yr; 0 off), evaporation (m^½/yr),
	// the river threshold of --out-rivers (m³/yr), and a rain map (an
	// image scaled to [0, rain], or a float .tif in m/yr).
	Rain, Evaporation, RiverThreshold *float64
	RainMap                           string
	Seed                              *uint64
	Umax                              *float64 // m/yr
	TargetHeight                      *float64 // metres; sets k from h_max ≈ 2.244 u/k
	Edges                             string   // "outlet", "closed", "natural", or "north=natural,west=closed,..."
	Uplift                            string   // uplift image
	Init                              string   // initial heights
	// InitNoise is the seeded uniform noise, metres, added to the initial
	// heights; nil keeps the scene's init_noise_m, except with Init (an
	// imported heightmap stays as it is unless asked): 0 there.
	InitNoise *float64

	Out, OutDrainage, OutWater string
	// OutLakes is the water budget's lakes as JSON; OutRivers the river
	// mask (1 where the discharge reaches the river threshold, outside
	// lakes).
	OutLakes, OutRivers string
	// OutPreview is a PNG of the final terrain as the 2D view shows it
	// (viewer.DefaultOptions: hillshade, rivers, lakes), one pixel per cell.
	OutPreview string
	Report     string
	// VRT writes a GDAL .vrt beside every .r16 raster output.
	VRT bool
	// Target, ExportSize and Tiles export the raster outputs for a game
	// engine (app/export): its sizes and formats, resampled to ExportSize
	// pixels per side ("" / 0: generic at the grid's size), split into
	// "RxC" tiles.
	Target     string
	ExportSize int
	Tiles      string
	// OutSize, when 2, 4 or 8 times the grid's longer side, amplifies the
	// heightmap and the water, river and rock outputs to it (sim/amplify)
	// instead of resampling them; --export-size and --target then resample
	// the amplified terrain. OutSize equal to the grid's side changes
	// nothing. StrictTalus holds the amplified terrain to the talus
	// angle at every fine cell (amplify.Options.StrictTalus).
	// OutHydroSteps finishes the amplified terrain with that many steps
	// of the hydraulic pass (amplify.Options.HydroSteps).
	OutSize       int
	StrictTalus   bool
	OutHydroSteps int
	// HydroDevice is where the grid engine and the hydraulic pass of
	// OutHydroSteps run (package compute; the CPU by default): --device.
	HydroDevice compute.Device

	// Geology is a geology JSON file (package geology) that replaces the
	// scene's; OutRock the exposed layer per cell as an 8-bit PNG with a
	// legend sidecar; OutAlluvium the alluvium's thickness, m.
	Geology, OutRock, OutAlluvium string
	// OutSediment is the sediment's thickness, m: what deposition
	// (params.deposition_g > 0) laid on the rock; with a geology or
	// Roudier's engine, their alluvium.
	OutSediment string

	// Progress receives the run's messages (what an export wrote, the
	// sizes chosen; nil: none), Meter its progress (nil: none). OnStep, if
	// set, is called after every step.
	Progress io.Writer
	Meter    Meter
	OnStep   func(engine.StepStats)

	// Coefficients are the command line's values of the engine's own
	// coefficients, by flag name (engines.Coefficient.Flag), applied over
	// the scene's before it is checked.
	Coefficients map[string]float64
}

// Job is a prepared run: a scene resolved, its fields loaded, an engine
// built.
type Job struct {
	Opt   Options
	Scene *scene.Scene
	// Engine is the run's engine on its grid, which the outputs are
	// written on: the grid engine, or the stream graph rasterized.
	Engine engine.Engine
	// Refine is the stream graph's refinement stages (SetRefine).
	Refine    int
	spec      engines.Spec // what Engine was built from
	drv       *drive.Driver
	plans     map[string]*export.Plan // by output path, with --target, --export-size or --tiles
	rockPlan  *export.Plan            // the rock mask's size, with --target or --export-size
	Steps     int
	Tolerance float64
	Umax      float64

	cons []constrain.Constraint // the scene's elevation constraints

	amp    int             // --out-size's factor (1: none)
	ampRes *amplify.Result // the amplified terrain, once made

	// set holds the outputs while Run writes them, committed together
	// (nil: each file saved at once).
	set *safefile.Set
}

// Prepare loads the scene, applies the overrides, reads the uplift and
// initial height files and builds the engine. Every problem with the input
// comes back as an error naming it.
func Prepare(o Options) (*Job, error) {
	for _, out := range []string{o.Out, o.OutDrainage, o.OutWater, o.OutAlluvium, o.OutSediment} {
		if out != "" {
			if err := rasterio.CheckPath(out); err != nil {
				return nil, err
			}
		}
	}
	if o.VRT && !slices.ContainsFunc([]string{o.Out, o.OutDrainage, o.OutWater, o.OutRivers}, rasterio.IsRaw) {
		return nil, errors.New("--vrt describes .r16 files: give an .r16 output (--out h.r16)")
	}
	if o.OutPreview != "" {
		if err := CheckPNGPath(o.OutPreview); err != nil {
			return nil, fmt.Errorf("preview: %w", err)
		}
	}
	if o.OutRock != "" {
		if err := CheckPNGPath(o.OutRock); err != nil {
			return nil, fmt.Errorf("--out-rock: %w", err)
		}
	}
	if o.Report != "" {
		if err := safefile.CheckDir(o.Report); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
	}
	if o.Project != "" {
		return prepareProject(o)
	}
	name := o.Scene
	if name == "" {
		name = "default"
	}
	sc, err := scene.Load(name)
	if err != nil {
		return nil, err
	}
	if err := o.apply(sc); err != nil {
		return nil, err
	}
	if err := o.applyCoefficients(sc); err != nil {
		return nil, err
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	ent := engines.Must(sc.Engine)
	if o.Samples != 0 && !ent.Nodes {
		return nil, engines.ErrSamplesGrid
	}
	if o.Raster != "" && !ent.Nodes {
		return nil, errors.New("--raster applies to the stream graph only: add --engine graph")
	}
	w, h := sc.Width, sc.Height
	cell := sc.DomainM / float64(max(w, h))
	if o.Cell != 0 {
		cell = o.Cell
	}

	var init []float32
	initPath := o.Init
	if initPath == "" && sc.Init != nil && sc.Init.Image != "" {
		initPath = sc.Init.Image
	}
	if initPath != "" {
		f, err := loadHeights(sc, initPath, o.Init != "")
		if err != nil {
			return nil, err
		}
		if o.Init != "" {
			// --init: the grid is the file's unless --size says otherwise,
			// and so is the extent when the file knows its cell size.
			if o.Size == 0 {
				w, h = f.W, f.H
			} else {
				// --size sets the longer side; the file keeps its shape.
				long := float64(max(f.W, f.H))
				w = max(3, int(math.Round(float64(o.Size)*float64(f.W)/long)))
				h = max(3, int(math.Round(float64(o.Size)*float64(f.H)/long)))
			}
			switch {
			case o.Cell != 0:
			case f.Cell > 0:
				cell = f.Cell * float64(max(f.W, f.H)) / float64(max(w, h))
			default:
				cell = sc.DomainM / float64(max(w, h))
			}
		}
		if f.W != w || f.H != h {
			f = f.Resample(w, h)
		}
		init = f.Data
	}

	// Before the fields are loaded: refuse what cannot fit.
	if amp, err := o.amplifyFactor(w, h); err == nil {
		p, err := sc.EngineParams()
		if err != nil {
			return nil, err
		}
		ms := engines.Spec{Kind: ent.Kind, W: w, H: h, Params: p, Samples: sc.Samples}
		if o.Samples != 0 {
			ms.Samples = o.Samples
		}
		if err := CheckMemory(ms, amp, "run", "--size %d"); err != nil {
			return nil, err
		}
	}
	var up []float32
	umax := sc.Uplift.UmaxMPerYr
	if o.Umax != nil {
		umax = *o.Umax
	}
	upField, err := sc.UpliftField(o.Uplift, w, h, cell, umax)
	if err != nil {
		return nil, err
	}
	if upField != nil {
		up = upField.Data
	}
	if init == nil && !anyNonZero(up) {
		return nil, errors.New("the scene has neither uplift nor initial heights: nothing would happen; give --uplift (with --umax > 0) or --init")
	}

	p, err := sc.EngineParams()
	if err != nil {
		return nil, err
	}
	if o.TargetHeight != nil {
		th := *o.TargetHeight
		if !(th >= 1 && th <= 1e5) {
			return nil, fmt.Errorf("--target-height %g: must be a height in [1, 1e5] metres", th)
		}
		if !(umax > 0) {
			return nil, errors.New("--target-height needs a positive uplift (--umax)")
		}
		p.K = spl.TargetK(umax, th)
	}
	noise := sc.Params.InitNoiseM
	switch {
	case o.InitNoise != nil:
		noise = *o.InitNoise
	case o.Init != "":
		noise = 0
	}
	geo, err := sc.CompileGeology()
	if err != nil {
		return nil, err
	}
	spec := engines.Spec{Kind: ent.Kind, W: w, H: h, Cell: cell, Up: up, Init: init,
		InitNoise: noise, Seed: sc.Seed, Params: p, Geology: geo, Device: o.HydroDevice}
	spec.Coefficients = sc.EngineCoefficients()
	if ent.Nodes {
		spec.Samples = sc.Samples
		if o.Samples != 0 {
			spec.Samples = o.Samples
		}
	}
	j := &Job{Opt: o, Scene: sc, spec: spec}
	if j.Engine, err = engines.New(spec); err != nil {
		return nil, err
	}
	j.shareFields()
	if _, own := j.Engine.(engine.Stratified); geo == nil && !own && (o.OutRock != "" || o.OutAlluvium != "") {
		return nil, errNoGeology
	}
	if o.OutSediment != "" && geo == nil && !engine.Deposits(j.Engine) {
		return nil, errNoSediment
	}
	return j, j.prepareRun(w, h, cell, umax)
}

// prepareProject prepares a run of a saved project, built as the desktop
// app builds it (doc.EngineSpec).
func prepareProject(o Options) (*Job, error) {
	if o.Scene != "" || o.Size != 0 || o.Cell != 0 || o.Engine != "" || o.Samples != 0 || o.Raster != "" ||
		o.K != nil || o.M != nil || o.N != nil || o.Dt != nil || o.Talus != nil || o.Diffusion != nil ||
		o.Rain != nil || o.Evaporation != nil || o.RiverThreshold != nil || o.RainMap != "" || o.Seed != nil ||
		o.Umax != nil || o.TargetHeight != nil || o.Edges != "" || o.Uplift != "" || o.Init != "" ||
		o.InitNoise != nil || o.Geology != "" || o.Coefficients != nil {
		return nil, fmt.Errorf("--project %s runs the project as saved: change its scene in the app (or run a scene with --scene and overrides)", o.Project)
	}
	p, err := project.Load(o.Project)
	if err != nil {
		return nil, err
	}
	d, err := doc.New(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Project, err)
	}
	spec, err := d.EngineSpec()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.Project, err)
	}
	sc := d.Scene()
	if o.UntilConverged {
		sc.UntilConverged = true
	}
	spec.Device = o.HydroDevice
	j := &Job{Opt: o, Scene: sc, spec: spec}
	if j.Engine, err = engines.New(spec); err != nil {
		return nil, err
	}
	j.shareFields()
	if _, own := j.Engine.(engine.Stratified); spec.Geology == nil && !own && (o.OutRock != "" || o.OutAlluvium != "") {
		return nil, errNoGeology
	}
	return j, j.prepareRun(spec.W, spec.H, spec.Cell, sc.Uplift.UmaxMPerYr)
}

// prepareRun sets the run's length and tolerance from the scene and the
// options, and checks and plans its outputs, constraints and rain map.
func (j *Job) prepareRun(w, h int, cell, umax float64) error {
	o, sc := j.Opt, j.Scene
	steps := sc.Steps
	if o.UntilConverged {
		// The scene's step count is a run's length, not a cap on settling.
		steps = max(steps, ConvergeCap)
	}
	if o.Steps > 0 {
		steps = o.Steps
	}
	tol := sc.ToleranceMPerYr
	if o.Tolerance > 0 {
		tol = o.Tolerance
	}
	j.Steps, j.Tolerance, j.Umax = steps, tol, umax
	var err error
	if j.amp, err = o.amplifyFactor(w, h); err != nil {
		return err
	}
	if err := j.planExports(w*j.amp, h*j.amp); err != nil {
		return err
	}
	if err := j.claimOutputs(); err != nil {
		return err
	}
	if err := j.prepareConstraints(); err != nil {
		return err
	}
	if (o.OutLakes != "" || (o.OutRivers != "" && j.amp == 1)) && !(sc.Params.RainMPerYr > 0) {
		return errNoBudget
	}
	if o.RainMap != "" {
		if err := j.setRainMap(o.RainMap, w, h, cell); err != nil {
			return err
		}
	}
	return nil
}

// NewJob prepares a run of the engine spec describes on the grid of scene
// sc, whose uplift and heights spec already holds (a project's, see
// app/build): the scene's step count, or with until_converged up to
// ConvergeCap steps, and its tolerance. o gives the progress and outputs,
// as for Prepare; its scene overrides are not applied.
func NewJob(sc *scene.Scene, spec engines.Spec, o Options) (*Job, error) {
	j := &Job{Opt: o, Scene: sc, spec: spec}
	e, err := engines.New(spec)
	if err != nil {
		return nil, err
	}
	j.Engine = e
	j.shareFields()
	if err := j.prepareConstraints(); err != nil {
		return nil, err
	}
	j.Steps = sc.Steps
	if sc.UntilConverged {
		j.Steps = max(sc.Steps, ConvergeCap)
	}
	j.Tolerance, j.Umax = sc.ToleranceMPerYr, sc.Uplift.UmaxMPerYr
	return j, nil
}

// setRainMap loads --rain-map: a float .tif in m/yr as stored, or an image
// normalized to [0, 1] and scaled by the rain; resampled to the grid.
func (j *Job) setRainMap(path string, w, h int, cell float64) error {
	rain := j.Scene.Params.RainMPerYr
	if !(rain > 0) {
		return errors.New("--rain-map needs --rain > 0: the map scales the rain")
	}
	ext := strings.ToLower(filepath.Ext(path))
	var f *sim.Field
	var err error
	if ext == ".tif" || ext == ".tiff" {
		f, err = rasterio.ReadHeights(path)
	} else {
		f, err = rasterio.ReadNormalized(path)
		if err == nil {
			for i := range f.Data {
				f.Data[i] *= float32(rain)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("--rain-map: %w", err)
	}
	f = f.Resample(w, h)
	f.Cell = cell
	if err := j.Engine.SetRainMap(f.Data); err != nil {
		return fmt.Errorf("--rain-map %s: %w", path, err)
	}
	return nil
}

// apply writes the command line's overrides into the scene.
func (o Options) apply(sc *scene.Scene) error {
	if o.Geology != "" {
		g, err := ReadGeology(o.Geology)
		if err != nil {
			return err
		}
		sc.Geology = g
	}
	if o.Samples < 0 {
		return fmt.Errorf("--samples %d: must be > 0", o.Samples)
	}
	switch o.Raster {
	case "", "linear", "gaussian":
	default:
		return fmt.Errorf("--raster %q: must be linear or gaussian", o.Raster)
	}
	if o.Size < 0 || o.Size > 16384 {
		return fmt.Errorf("--size %d: must be in [3, 16384]", o.Size)
	}
	if o.Size > 0 {
		sc.Width, sc.Height = o.Size, o.Size
	}
	if o.Cell != 0 && !(o.Cell >= 1e-3 && o.Cell <= 1e6) {
		return fmt.Errorf("--cell %g: must be a size in metres in [0.001, 1e6]", o.Cell)
	}
	if o.Steps < 0 || o.Steps > MaxSteps {
		return fmt.Errorf("--steps %d: must be in [0, %d]", o.Steps, MaxSteps)
	}
	if v := o.InitNoise; v != nil && !(*v >= 0 && *v <= 1e4) {
		return fmt.Errorf("--init-noise %g: must be in [0, 1e4] metres", *v)
	}
	if !(o.Tolerance >= 0 && o.Tolerance <= MaxTolerance) {
		return fmt.Errorf("--tolerance %g: must be > 0 and <= %g m/yr (the scene's is 1e-6)", o.Tolerance, MaxTolerance)
	}
	if v := o.Umax; v != nil && !(math.Abs(*v) <= MaxUmax) {
		return fmt.Errorf("--umax %g: must be within ±%g m/yr (5e-4 is a fast mountain range)", *v, MaxUmax)
	}

	if o.Engine != "" {
		k, err := engines.Parse(o.Engine)
		if err != nil {
			return fmt.Errorf("--engine: %w", err)
		}
		sc.Engine = k
	}
	if o.UntilConverged {
		sc.UntilConverged = true
	}
	set := func(dst *float64, v *float64) {
		if v != nil {
			*dst = *v
		}
	}
	set(&sc.Params.K, o.K)
	set(&sc.Params.M, o.M)
	set(&sc.Params.N, o.N)
	set(&sc.Params.DtYr, o.Dt)
	set(&sc.Params.DiffusionM2PerYr, o.Diffusion)
	set(&sc.Params.RainMPerYr, o.Rain)
	set(&sc.Params.Evaporation, o.Evaporation)
	set(&sc.Params.RiverThresholdM3PerYr, o.RiverThreshold)
	if o.Talus != nil {
		a := *o.Talus
		if math.IsNaN(a) || a < 0 || a >= 90 {
			return fmt.Errorf("--talus %g: must be an angle in [0, 90) degrees (0 turns the limit off)", a)
		}
		if a == 0 {
			sc.Params.Talus = scene.Talus{Mode: "off"}
		} else {
			sc.Params.Talus = scene.Talus{Mode: "constant", AngleDeg: a}
		}
	}
	if o.Seed != nil {
		sc.Seed = *o.Seed
	}
	if o.Edges != "" {
		if err := applyEdges(&sc.Params.Edges, o.Edges); err != nil {
			return err
		}
	}
	return nil
}

// applyEdges parses --edges: one kind for all four sides, or a comma
// separated list of side=kind.
func applyEdges(e *scene.Edges, spec string) error {
	bad := func(why string) error {
		return fmt.Errorf("--edges %q: %s (want outlet, closed or natural, for all sides or as north=natural,west=closed,...)", spec, why)
	}
	kind := func(k string) (string, error) {
		if _, err := flow.ParseBoundary(k); err != nil {
			return "", bad(fmt.Sprintf("unknown kind %q", k))
		}
		return k, nil
	}
	if !strings.Contains(spec, "=") {
		k, err := kind(spec)
		if err != nil {
			return err
		}
		*e = scene.Edges{North: k, South: k, East: k, West: k}
		return nil
	}
	seen := map[string]bool{}
	for _, part := range strings.Split(spec, ",") {
		side, k, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return bad(fmt.Sprintf("%q is not side=kind", part))
		}
		long := map[string]string{"n": "north", "s": "south", "e": "east", "w": "west"}[side]
		if long == "" {
			long = side
		}
		if seen[long] {
			return bad(fmt.Sprintf("%s is given twice", long))
		}
		seen[long] = true
		v, err := kind(k)
		if err != nil {
			return err
		}
		switch side {
		case "north", "n":
			e.North = v
		case "south", "s":
			e.South = v
		case "east", "e":
			e.East = v
		case "west", "w":
			e.West = v
		default:
			return bad(fmt.Sprintf("unknown side %q", side))
		}
	}
	return nil
}

// loadHeights reads initial heights named by the command line (a path) or
// by the scene (relative to it).
func loadHeights(sc *scene.Scene, name string, fromCLI bool) (*sim.Field, error) {
	path := name
	if !fromCLI {
		path = sc.Path(name)
		if path == "" {
			return nil, fmt.Errorf("scene %s: initial heights %s: embedded scenes cannot hold heightmaps", sc.Name, name)
		}
	}
	f, err := rasterio.ReadHeights(path)
	if err != nil {
		if !fromCLI && errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("scene %s: initial heights %s: no such file (moved, or the scene came from another machine): put the file there, fix \"init\": {\"image\"} in the scene, or give --init FILE", sc.Name, path)
		}
		return nil, fmt.Errorf("initial heights: %w", err)
	}
	return f, nil
}

// Run steps the engine, writes the outputs and returns the report. The
// outputs and the report are staged in one safefile.Set and committed
// together, the report last; a failure while writing leaves earlier files
// as they were. A cancelled ctx stops after the current step, or stops
// the save, and nothing is written: the error is an *InterruptedError
// (wrapping ctx's error), returned with the report.
//
// A run --until-converged steps through the adaptive scheme of package
// settle unless Options.FixedDt (or a refined graph run, whose stages
// follow the step count) asks for the fixed dt; it stops when a step at the
// user's dt passes the tolerance, either way.
func (j *Job) Run(ctx context.Context) (*Report, error) {
	desc := "eroding"
	if j.Scene.UntilConverged {
		desc = "eroding (until converged)"
	}
	d, err := drive.With(j.Engine, j.spec, drive.Options{Tol: j.Tolerance, Fixed: !j.Adaptive(), Patience: j.Opt.Patience})
	if err != nil {
		return nil, err
	}
	if err := d.Apply(drive.SetConstraints{C: j.cons}); err != nil {
		return nil, err
	}
	j.drv = d
	defer d.Finish()
	bar := j.Opt.Meter
	if bar == nil {
		bar = NoMeter{}
	}
	bar.Start(j.Steps, desc)
	rep := newReport(j)
	rep.Device, rep.DeviceFallback = engines.DeviceOf(j.Engine)
	rep.Scheme = "fixed"
	if j.Adaptive() {
		rep.Scheme = "adaptive"
	}
	start := time.Now()
	var runErr error
	for range j.Steps {
		if err := ctx.Err(); err != nil {
			runErr = err
			break
		}
		st, err := d.Step()
		if err != nil {
			runErr = err
			break
		}
		rep.add(st)
		if j.Opt.OnStep != nil {
			j.Opt.OnStep(st)
		}
		bar.Step(fmt.Sprintf("eroding  max|Δh| %.3g m  dt %.3g yr", st.MaxDh, st.Dt))
		if !j.Scene.UntilConverged {
			continue
		}
		if d.Settled() {
			rep.Converged = true
			break
		}
		// With constraints, a run ends when they are met on a settled
		// terrain: the uplift they adjust keeps it from stalling for good.
		if stalled, rate := d.Stalled(); stalled && len(j.cons) == 0 {
			rep.Stalled, rep.StalledRate = true, rate
			break
		}
	}
	bar.Done()
	rep.WallS = time.Since(start).Seconds()
	if runErr != nil && ctx.Err() != nil && errors.Is(runErr, ctx.Err()) {
		// Interrupted: the outputs of an earlier run stay as they were.
		return rep, &InterruptedError{Steps: rep.Steps, Of: j.Steps, Err: runErr}
	}
	// The engine's scratch goes back before the summary, the analysis,
	// the snapshot and the outputs take their memory (docs/MEMORY.md);
	// what they read of the engine is what it was before.
	engine.Release(j.Engine)
	rep.finish(j)
	p := j.Engine.Params()
	// The grid engine's heights are the heightmap's: the analysis reads
	// them before the snapshot takes its memory (docs/MEMORY.md), the
	// same figures bit for bit.
	analyzed := false
	if j.spec.Kind == grid.Kind {
		if w, h, cell := j.Engine.Size(); len(j.Engine.Heights()) == w*h {
			rep.analyze(j.Engine.Heights(), w, h, cell, p.Edges, ConstantTalus(p))
			analyzed = true
		}
	}
	// One snapshot (and one raster of a graph's heights) serves every
	// output (and the analysis of other engines): at 4096² each copy is
	// hundreds of MB.
	s := j.Engine.Snapshot()
	var hs []float32
	if s != nil {
		hs = j.heights(s)
		if !analyzed {
			rep.analyze(hs, s.W, s.H, s.Cell, p.Edges, ConstantTalus(p))
		}
	}
	// The outputs and then the report are staged and committed as one
	// set: a failure or an interrupt while writing leaves the files of an
	// earlier run as they were.
	j.set = &safefile.Set{Cancel: ctx.Err}
	defer func() { j.set = nil }()
	err = j.writeOutputs(rep, s, hs)
	if err == nil && j.Opt.Report != "" {
		err = rep.saveIn(j.set, j.Opt.Report)
	}
	if err == nil {
		err = j.set.Commit()
	}
	if err != nil {
		j.set.Abort()
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return rep, &InterruptedError{Steps: rep.Steps, Of: j.Steps, Saving: true, Err: err}
		}
		return rep, err
	}
	return rep, runErr
}

// InterruptedError is Run's error when its context was cancelled (Ctrl+C):
// nothing was written over earlier outputs.
type InterruptedError struct {
	Steps, Of int  // steps done of the steps asked for (the cap)
	Saving    bool // the interrupt came while the outputs were written
	Err       error
}

func (e *InterruptedError) Error() string {
	if e.Saving {
		return fmt.Sprintf("interrupted while saving, after %d steps: nothing written, existing outputs are unchanged", e.Steps)
	}
	return fmt.Sprintf("interrupted after %d of %d steps: nothing written, existing outputs are unchanged", e.Steps, e.Of)
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// ConvergeCap is the step cap of --until-converged without --steps.
const ConvergeCap = 100000

// The bounds of the command line's values: MaxSteps steps (a run that
// long takes days at any size), a tolerance of MaxTolerance m/yr (any
// terrain passes it at once) and an uplift of MaxUmax m/yr (2 000 times
// a fast mountain range).
const (
	MaxSteps     = 10_000_000
	MaxTolerance = 1.0
	MaxUmax      = 1.0
)

// Adaptive reports whether Run takes longer steps while the terrain
// settles: with --until-converged, unless --fixed-dt or a refined graph
// (whose stages follow the step count) or an engine whose laws are per
// step (engine.PerStep: Roudier's; a longer dt would only scale the
// uplift).
func (j *Job) Adaptive() bool {
	_, perStep := j.Engine.(engine.PerStep)
	return j.Scene.UntilConverged && !j.Opt.FixedDt && j.Refine == 0 && !perStep
}

// writeOutputs writes the heightmap, masks and preview the options ask for
// from the engine's final snapshot s and its heights hs (j.heights). A
// graph run's are rasterized on the run's grid.
func (j *Job) writeOutputs(rep *Report, s *engine.Snapshot, hs []float32) error {
	if j.Opt.Out == "" && j.Opt.OutDrainage == "" && j.Opt.OutWater == "" && j.Opt.OutPreview == "" &&
		j.Opt.OutLakes == "" && j.Opt.OutRivers == "" && j.Opt.OutRock == "" && j.Opt.OutAlluvium == "" && j.Opt.OutSediment == "" {
		return nil
	}
	if j.amp > 1 {
		return j.writeAmplified(s, rep)
	}
	if j.Opt.OutRock != "" {
		if err := j.writeRock(j.Opt.OutRock, s); err != nil {
			return err
		}
	}
	if err := j.writeWaterOutputs(s); err != nil {
		return err
	}
	if j.Opt.OutPreview != "" {
		if err := WritePNGIn(j.set, j.Opt.OutPreview, viewer.Relief(nil, s, viewer.DefaultOptions())); err != nil {
			return err
		}
	}
	outs := []struct {
		path string
		data []float32
	}{
		{j.Opt.Out, hs},
		{j.Opt.OutDrainage, s.Area},
		{j.Opt.OutWater, s.Water},
		{j.Opt.OutAlluvium, s.Alluvium},
		{j.Opt.OutSediment, s.Alluvium},
	}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if err := j.writeRaster(o.path, s.Field(o.data)); err != nil {
			return err
		}
	}
	return nil
}

// claimOutputs refuses, before the run, two outputs that would write one
// file (a path given twice, a report named like a raster's sidecar, a
// tile of one output named like another), and removes the temporary
// files that killed saves of them left (safefile.RemoveStale).
func (j *Job) claimOutputs() error {
	var c export.Claims
	o := j.Opt
	for _, r := range []struct{ flag, path string }{
		{"--out", o.Out}, {"--out-drainage", o.OutDrainage}, {"--out-water", o.OutWater},
		{"--out-rivers", o.OutRivers}, {"--out-alluvium", o.OutAlluvium},
	} {
		if r.path == "" {
			continue
		}
		files := export.RasterFiles(r.path, o.VRT)
		if p := j.plans[r.path]; p != nil {
			files = p.AllFiles(r.path)
		}
		if err := c.Claim(r.flag+" "+r.path, files...); err != nil {
			return err
		}
	}
	for _, r := range []struct {
		flag  string
		files []string
	}{
		{"--out-rock", []string{o.OutRock, rasterio.SidecarPath(o.OutRock)}},
		{"--out-preview", []string{o.OutPreview}},
		{"--out-lakes", []string{o.OutLakes}},
		{"--report", []string{o.Report}},
	} {
		if r.files[0] == "" {
			continue
		}
		if err := c.Claim(r.flag+" "+r.files[0], r.files...); err != nil {
			return err
		}
	}
	// The temporary files a killed run left beside these outputs go now.
	for _, f := range c.Files() {
		safefile.RemoveStale(f)
	}
	return nil
}

// exporting reports whether the raster outputs go through app/export.
func (o Options) exporting() bool { return o.Target != "" || o.ExportSize != 0 || o.Tiles != "" }

// planExports checks, before the run, that the target takes the raster
// outputs at the asked size and tiling; the plans are kept for writing.
func (j *Job) planExports(w, h int) error {
	if !j.Opt.exporting() {
		return nil
	}
	tgt, err := export.LookupTarget(j.Opt.Target)
	if err != nil {
		return fmt.Errorf("--target: %w", err)
	}
	rows, cols, err := export.ParseTiles(j.Opt.Tiles)
	if err != nil {
		return fmt.Errorf("--tiles: %w", err)
	}
	if j.Opt.ExportSize == 0 && tgt.Sizes != nil {
		// The target takes fixed sizes: the smallest that loses no cell.
		j.Opt.ExportSize = tgt.SizeFor(max(w, h))
		if j.Opt.Progress != nil {
			fmt.Fprintf(j.Opt.Progress, "--target %s: --export-size %d, the smallest size it takes not below the %d×%d grid (give --export-size for another)\n",
				tgt.Name, j.Opt.ExportSize, w, h)
		}
	}
	j.plans = map[string]*export.Plan{}
	for _, o := range []struct{ path, kind string }{
		{j.Opt.Out, "heightmap"}, {j.Opt.OutDrainage, "mask:drainage"}, {j.Opt.OutWater, "mask:water"}, {j.Opt.OutRivers, "mask:rivers"},
		{j.Opt.OutAlluvium, "mask:alluvium"},
	} {
		if o.path == "" {
			continue
		}
		spec := export.Spec{Target: tgt, W: j.Opt.ExportSize, Rows: rows, Cols: cols, VRT: j.Opt.VRT,
			Kind: o.kind, Heightmap: o.kind == "heightmap"}
		p, err := spec.Check(o.path, w, h)
		if err != nil {
			return err
		}
		j.plans[o.path] = p
	}
	if j.Opt.OutRock != "" {
		// The rock mask follows the export size, picked by nearest
		// neighbour (writeRock); it is one PNG, not tiled.
		spec := export.Spec{Target: tgt, W: j.Opt.ExportSize, Rows: rows, Cols: cols, Kind: "mask:rock"}
		p, err := spec.Check(j.Opt.OutRock, w, h)
		if err != nil {
			return fmt.Errorf("--out-rock: %w", err)
		}
		if p.Rows > 1 || p.Cols > 1 {
			return fmt.Errorf("--out-rock %s: the rock mask is not tiled: export it whole (without --tiles) and cut it with its legend", j.Opt.OutRock)
		}
		j.rockPlan = p
	}
	return nil
}

// writeRaster writes one raster output: through its export plan when the
// run exports for a target, size or tiles, else as it is.
func (j *Job) writeRaster(path string, f *sim.Field) error {
	p := j.plans[path]
	if p == nil {
		o := j.Opt.writeOptions(path)
		o.Set = j.set
		return rasterio.WriteWith(path, f, o)
	}
	p.Set = j.set
	files, em, err := p.Write(path, f)
	if err != nil {
		return err
	}
	if j.Opt.Progress != nil {
		fmt.Fprintf(j.Opt.Progress, "%s: %d×%d in %d file(s), %s\n", path, p.W, p.H, len(files), p.Target.Name)
		if em != nil {
			fmt.Fprintf(j.Opt.Progress, "  %s\n", export.Describe(em, p.TileW))
		}
	}
	return nil
}

// writeOptions are the rasterio options of the raster output path.
func (o Options) writeOptions(path string) rasterio.Options {
	return rasterio.Options{VRT: o.VRT && rasterio.IsRaw(path)}
}

// CheckPNGPath reports whether path names a .png file in an existing
// directory, so a long run can refuse a picture it could not save before it
// starts.
func CheckPNGPath(path string) error {
	if ext := strings.ToLower(filepath.Ext(path)); ext != ".png" {
		return fmt.Errorf("%s: unknown extension %q: pictures are written as .png", path, ext)
	}
	return safefile.CheckDir(path)
}

// WritePNG saves img as an 8-bit PNG at path, atomically.
func WritePNG(path string, img image.Image) error { return WritePNGIn(nil, path, img) }

// WritePNGIn is WritePNG in set (nil: at once).
func WritePNGIn(set *safefile.Set, path string, img image.Image) error {
	return safefile.WriteIn(set, safefile.File{Path: path, Fill: func(w io.Writer) error {
		return png.Encode(w, img)
	}})
}

func anyNonZero(v []float32) bool {
	for _, x := range v {
		if x != 0 {
			return true
		}
	}
	return false
}

// NoMeter is a Meter that shows nothing.
type NoMeter struct{}

func (NoMeter) Start(int, string) {}
func (NoMeter) Step(string)       {}
func (NoMeter) Done()             {}
