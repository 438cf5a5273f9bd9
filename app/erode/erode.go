// Package erode is the `orogen erode` job: it reads a heightmap, runs the
// hydraulic and thermal erosion engine (sim/hydro) on it for a number of
// steps, and writes the eroded terrain, the water and sediment masks and a
// JSON report. Inputs are read and outputs written with app/rasterio, as
// `orogen run` does; every problem with the inputs comes back as an error
// naming the file or flag and the remedy.
package erode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"orogen/app/compute"
	"orogen/app/export"
	"orogen/app/rasterio"
	"orogen/app/run"
	"orogen/app/safefile"
	"orogen/sim"
	"orogen/sim/geology"
	"orogen/sim/hydro"
)

// Options describe one run.
type Options struct {
	In    string  // heights: .png or .r16 with sidecar, or .tif
	Cell  float64 // cell size in metres; 0 takes the sidecar's
	Steps int

	RainMap  string // rain factors: grayscale .png (0..1) or float .tif
	Hardness string // hardness in [0, 1]: grayscale .png or float .tif
	// Geology is a geology JSON file (package geology): the hardness then
	// comes from the exposed rock every step, and Hardness may not be
	// given.
	Geology string
	Sources []hydro.Source

	// Override, if set, adjusts the parameters after the defaults for the
	// cell size are made (hydro.DefaultParams).
	Override func(p *hydro.Params)

	Out, OutWater, OutSediment, OutHardness string
	Report                                  string

	// Device is where the pass runs (package compute): the CPU, a GPU,
	// or a hardware GPU if there is one.
	Device compute.Device

	Progress io.Writer                // messages; nil for none
	Meter    run.Meter                // the progress; nil for none
	OnStep   func(st hydro.StepStats) // called after every step, if set
}

// Job is a prepared run.
type Job struct {
	Opt    Options
	Engine compute.Engine
	// Hydro is the engine with the device it runs on; Hydro.Fallback is
	// the line saying why a GPU run is on the CPU.
	Hydro *compute.Hydro
	Init  []float32 // the initial heights
}

// MaxSteps bounds Options.Steps.
const MaxSteps = 10_000_000

// Prepare reads the inputs and builds the engine.
func Prepare(o Options) (*Job, error) {
	if o.In == "" {
		return nil, fmt.Errorf("--in is required: the heightmap to erode (.png or .r16 with its sidecar, or .tif)")
	}
	if o.Steps < 1 || o.Steps > MaxSteps {
		return nil, fmt.Errorf("--steps %d: must be in [1, %d]", o.Steps, MaxSteps)
	}
	var claims export.Claims
	for _, out := range []struct{ flag, path string }{
		{"--out", o.Out}, {"--out-water", o.OutWater}, {"--out-sediment", o.OutSediment}, {"--out-hardness", o.OutHardness},
	} {
		if out.path == "" {
			continue
		}
		if err := rasterio.CheckPath(out.path); err != nil {
			return nil, err
		}
		if err := claims.Claim(out.flag+" "+out.path, export.RasterFiles(out.path, false)...); err != nil {
			return nil, err
		}
	}
	if o.Report != "" {
		if err := safefile.CheckDir(o.Report); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		if err := claims.Claim("--report "+o.Report, o.Report); err != nil {
			return nil, err
		}
	}
	if !(o.Cell == 0 || o.Cell >= 1e-3 && o.Cell <= 1e5) {
		return nil, fmt.Errorf("--cell %g: must be a size in metres in [0.001, 1e5]", o.Cell)
	}
	f, err := rasterio.ReadHeights(o.In)
	if err != nil {
		return nil, fmt.Errorf("heights: %w", err)
	}
	if o.Cell > 0 {
		f.Cell = o.Cell
	}
	if !(f.Cell > 0) {
		return nil, fmt.Errorf("heights: %s has no cell size (no sidecar, and no GeoTIFF pixel size in projected metres): give --cell in metres", o.In)
	}
	cfg := hydro.Config{Terrain: f, Sources: o.Sources}
	if cfg.Rain, err = readMap("rain map", o.RainMap, f); err != nil {
		return nil, err
	}
	if cfg.Hardness, err = readMap("hardness", o.Hardness, f); err != nil {
		return nil, err
	}
	if o.Geology != "" {
		if o.Hardness != "" {
			return nil, fmt.Errorf("--hardness and --geology both set the hardness: keep one")
		}
		b, err := safefile.ReadFile(o.Geology)
		if err != nil {
			return nil, fmt.Errorf("--geology: %w", err)
		}
		if cfg.Geology, err = geology.Parse(b); err != nil {
			return nil, fmt.Errorf("--geology %s: %w", o.Geology, err)
		}
	}
	cfg.Params = hydro.DefaultParams(f.Cell)
	if o.Override != nil {
		o.Override(&cfg.Params)
	}
	h, err := compute.NewHydro(o.Device, cfg)
	if err != nil {
		return nil, err
	}
	return &Job{Opt: o, Engine: h.Engine, Hydro: h, Init: append([]float32(nil), f.Data...)}, nil
}

// readMap reads a per-cell map that must match the terrain's size.
func readMap(what, path string, terrain *sim.Field) ([]float32, error) {
	if path == "" {
		return nil, nil
	}
	m, err := rasterio.ReadNormalized(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if m.W != terrain.W || m.H != terrain.H {
		return nil, fmt.Errorf("%s: %s is %d×%d, the heightmap %d×%d: resample it to the heightmap's size", what, path, m.W, m.H, terrain.W, terrain.H)
	}
	return m.Data, nil
}

// ParseSource parses a point source "x,y,radius,rate": cell coordinates
// from the north-west corner, a radius in cells and a rate in m³/s.
func ParseSource(s string) (hydro.Source, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 4 {
		return hydro.Source{}, fmt.Errorf("--source %q: want x,y,radius,rate (cells, cells, cells, m³/s)", s)
	}
	var v [4]float64
	for k, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return hydro.Source{}, fmt.Errorf("--source %q: %q is not a finite number", s, p)
		}
		v[k] = f
	}
	if v[2] < 0 || v[3] < 0 {
		return hydro.Source{}, fmt.Errorf("--source %q: radius and rate must be >= 0", s)
	}
	return hydro.Source{X: v[0], Y: v[1], Radius: v[2], Rate: v[3]}, nil
}

// Run steps the engine, writes the outputs and returns the report. The
// outputs and the report are staged in one safefile.Set and committed
// together, the report last, so a failure while writing leaves the files
// of an earlier run as they were. A cancelled ctx stops after the current
// step, or stops the save, and nothing is written: the error is a
// *run.InterruptedError (wrapping ctx's error), returned with the report.
func (j *Job) Run(ctx context.Context) (*Report, error) {
	e := j.Engine
	defer j.Hydro.Close()
	rep := newReport(j)
	bar := j.Opt.Meter
	if bar == nil {
		bar = run.NoMeter{}
	}
	bar.Start(j.Opt.Steps, "eroding")
	start := time.Now()
	var runErr error
	for range j.Opt.Steps {
		if err := ctx.Err(); err != nil {
			runErr = err
			break
		}
		st := e.Step()
		if err := j.Hydro.Err(); err != nil {
			return rep, err
		}
		rep.add(st)
		if j.Opt.OnStep != nil {
			j.Opt.OnStep(st)
		}
		bar.Step(fmt.Sprintf("eroding  max depth %.3g m", st.MaxDepth))
	}
	bar.Done()
	rep.WallS = time.Since(start).Seconds()
	if runErr != nil {
		// Interrupted: the outputs of an earlier run stay as they were.
		return rep, &run.InterruptedError{Steps: rep.Steps, Of: j.Opt.Steps, Err: runErr}
	}
	rep.finish(j)
	set := &safefile.Set{Cancel: ctx.Err}
	err := j.writeOutputs(set)
	if err == nil && j.Opt.Report != "" {
		if err = safefile.WriteJSONIn(set, j.Opt.Report, rep); err != nil {
			err = fmt.Errorf("report: %w", err)
		}
	}
	if err == nil {
		err = set.Commit()
	}
	if err != nil {
		set.Abort()
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return rep, &run.InterruptedError{Steps: rep.Steps, Of: j.Opt.Steps, Saving: true, Err: err}
		}
		return rep, err
	}
	return rep, nil
}

// writeOutputs stages the rasters asked for in set.
func (j *Job) writeOutputs(set *safefile.Set) error {
	s := j.Engine.Snapshot()
	for _, o := range []struct {
		path string
		data []float32
	}{
		{j.Opt.Out, s.Terrain},
		{j.Opt.OutWater, s.Water},
		{j.Opt.OutSediment, s.Sediment},
		{j.Opt.OutHardness, s.Hardness},
	} {
		if o.path == "" {
			continue
		}
		if err := rasterio.WriteWith(o.path, s.Field(o.data), rasterio.Options{Set: set}); err != nil {
			return err
		}
	}
	return nil
}

// Report is the JSON summary of a run (ARCHITECTURE.md, "The CLI
// contract"). Times are milliseconds; per-step arrays have one entry per
// step.
type Report struct {
	Version int    `json:"version"`
	Engine  string `json:"engine"`
	// Device is where the pass ran: "cpu", or the GPU's renderer,
	// version, vendor and platform; Fallback says why a gpu or auto run
	// ran on the CPU.
	Device     string               `json:"device"`
	Fallback   string               `json:"device_fallback,omitempty"`
	Input      string               `json:"input"`
	Width      int                  `json:"width"`
	Height     int                  `json:"height"`
	CellSize   float64              `json:"cell_size_m"`
	Steps      int                  `json:"steps"`
	Converged  bool                 `json:"converged"` // always false: the run is for a number of steps
	MaxHeight  float64              `json:"max_height_m"`
	MeanHeight float64              `json:"mean_height_m"`
	MinHeight  float64              `json:"min_height_m"`
	SimulatedS float64              `json:"simulated_s"`
	WallS      float64              `json:"wall_s"`
	Params     ReportParams         `json:"params"`
	Warning    string               `json:"warning,omitempty"`
	StepMs     []float64            `json:"step_ms"`
	PhaseMs    map[string][]float64 `json:"phase_ms"`
	MaxDh      []float64            `json:"max_dh_m"`
	MaxDepth   []float64            `json:"max_depth_m"`
	Water      WaterBudget          `json:"water_budget"`
	Mass       MassBudget           `json:"mass_budget"`
	Soil       SoilStats            `json:"soil"`
}

// ReportParams records the parameters of the run.
type ReportParams struct {
	hydro.Params
	StableDt float64        `json:"stable_dt_s"`
	Limit    string         `json:"stable_dt_limit"`
	Sources  []hydro.Source `json:"sources"`
	RainMap  string         `json:"rain_map,omitempty"`
	Hardness string         `json:"hardness_map,omitempty"`
}

// WaterBudget is hydro.Budget in the report, m³.
type WaterBudget struct {
	Initial     float64 `json:"initial_m3"`
	RainIn      float64 `json:"rain_in_m3"`
	Dissolved   float64 `json:"dissolved_m3"`
	Evaporated  float64 `json:"evaporated_m3"`
	Outflow     float64 `json:"outflow_m3"`
	Stored      float64 `json:"stored_m3"`
	Residual    float64 `json:"residual_m3"`
	SedimentOut float64 `json:"sediment_out_m3"`
}

// MassBudget is hydro.Mass in the report, m³: the rock the terrain lost
// (eroded less deposited) is the sediment still in the water plus what
// left through open edges; Residual is the difference (float32 rounding
// of the fields).
type MassBudget struct {
	Eroded      float64 `json:"eroded_m3"`    // Σ max(0, b0 − b)·cell²
	Deposited   float64 `json:"deposited_m3"` // Σ max(0, b − b0)·cell²
	RockLost    float64 `json:"rock_lost_m3"` // initial terrain volume − final
	Suspended   float64 `json:"suspended_m3"`
	SedimentOut float64 `json:"sediment_out_m3"`
	Residual    float64 `json:"residual_m3"` // RockLost − Suspended − SedimentOut
}

// SoilStats compare the final terrain with the initial one, m³.
type SoilStats struct {
	Eroded    float64 `json:"eroded_m3"`    // Σ max(0, b0 − b)·cell²
	Deposited float64 `json:"deposited_m3"` // Σ max(0, b − b0)·cell²
	Suspended float64 `json:"suspended_m3"` // sediment in the water
	MaxCut    float64 `json:"max_cut_m"`    // deepest lowering
}

func newReport(j *Job) *Report {
	w, h, cell := j.Engine.Size()
	p := j.Engine.Params()
	dt, limit := j.Engine.StableDt()
	r := &Report{
		Version: 1, Engine: "hydro", Device: j.Hydro.Device, Fallback: j.Hydro.Fallback, Input: j.Opt.In, Width: w, Height: h, CellSize: cell,
		Params: ReportParams{Params: p, StableDt: dt, Limit: limit,
			Sources: j.Engine.Sources(), RainMap: j.Opt.RainMap, Hardness: j.Opt.Hardness},
		Warning: j.Engine.Warning(),
		StepMs:  []float64{}, PhaseMs: map[string][]float64{}, MaxDh: []float64{}, MaxDepth: []float64{},
	}
	if r.Params.Sources == nil {
		r.Params.Sources = []hydro.Source{}
	}
	for _, name := range hydro.PhaseNames {
		r.PhaseMs[name] = []float64{}
	}
	return r
}

func (r *Report) add(st hydro.StepStats) {
	r.Steps, r.SimulatedS = st.Step, st.Time
	r.StepMs = append(r.StepMs, st.Total.Seconds()*1e3)
	for k, name := range hydro.PhaseNames {
		r.PhaseMs[name] = append(r.PhaseMs[name], st.Phase[k].Seconds()*1e3)
	}
	r.MaxDh = append(r.MaxDh, st.MaxDh)
	r.MaxDepth = append(r.MaxDepth, st.MaxDepth)
}

func (r *Report) finish(j *Job) {
	e := j.Engine
	_, _, cell := e.Size()
	area := cell * cell
	lo, hi := math.Inf(1), math.Inf(-1)
	var sum float64
	for i, v := range e.Terrain() {
		b := float64(v)
		lo, hi = math.Min(lo, b), math.Max(hi, b)
		sum += b
		dh := b - float64(j.Init[i])
		if dh < 0 {
			r.Soil.Eroded -= dh * area
			r.Soil.MaxCut = math.Max(r.Soil.MaxCut, -dh)
		} else {
			r.Soil.Deposited += dh * area
		}
	}
	for _, s := range e.Sediment() {
		r.Soil.Suspended += float64(s) * area
	}
	r.MaxHeight, r.MinHeight, r.MeanHeight = hi, lo, sum/float64(len(j.Init))
	b := e.Budget()
	r.Water = WaterBudget{Initial: b.Initial, RainIn: b.RainIn, Dissolved: b.Dissolved, Evaporated: b.Evaporated,
		Outflow: b.Outflow, Stored: b.Stored, Residual: b.Residual(), SedimentOut: b.SedimentOut}
	m := e.Mass()
	r.Mass = MassBudget{Eroded: r.Soil.Eroded, Deposited: r.Soil.Deposited, RockLost: m.RockInitial - m.Rock,
		Suspended: m.Suspended, SedimentOut: m.SedimentOut, Residual: m.Residual()}
}

// Save writes the report as indented JSON, atomically.
func (r *Report) Save(path string) error {
	if err := safefile.WriteJSON(path, r); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
