package run

import (
	"fmt"
	"math"
	"strings"

	"orogen/app/safefile"
	"orogen/sim"
	"orogen/sim/analysis"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/talus"
	"orogen/sim/water"
)

// Report is the JSON summary of a run (ARCHITECTURE.md, "The CLI
// contract"). Times are milliseconds; per-step arrays have one entry per
// step. Every figure is a finite number or null: null where it does not
// exist (max_dh_2step_m on the first step) or does not fit in a float64
// (a power law's coefficient, whose log10 is given beside it:
// analysis.SlopeArea.Ks, analysis.Hack.C); ratios whose reference may be
// empty are defined finite where they are measured (the threshold spike's
// reference band counts as one cell at least).
type Report struct {
	Version   int     `json:"version"`
	Engine    string  `json:"engine"`
	Scene     string  `json:"scene"`
	Width     int     `json:"width"`
	Height    int     `json:"height"`
	CellSize  float64 `json:"cell_size_m"`
	Steps     int     `json:"steps"`
	Converged bool    `json:"converged"`
	// Stalled: --until-converged gave up, the terrain having gone
	// settle.Options.Patience steps without getting closer to a steady
	// state; StalledRate is its fastest change then, m/yr.
	Stalled     bool    `json:"stalled,omitempty"`
	StalledRate float64 `json:"stalled_rate_m_per_yr,omitempty"`
	// Scheme is how the steps were chosen: "fixed" (dt at every step) or
	// "adaptive" (longer steps while settling, package settle).
	Scheme string `json:"scheme"`
	// Device is where the engine computed ("cpu", or the GPU's one-line
	// report: --device) and DeviceFallback why a gpu or auto run's
	// engine ran on the CPU.
	Device         string  `json:"device"`
	DeviceFallback string  `json:"device_fallback,omitempty"`
	Tolerance      float64 `json:"tolerance_m_per_yr"`
	MaxHeight      float64 `json:"max_height_m"`
	MeanHeight     float64 `json:"mean_height_m"`
	Years          float64 `json:"simulated_years"`
	WallS          float64 `json:"wall_s"`
	// PeakRSS is the run's peak resident memory up to the report's
	// writing, outputs included (PeakRSS; 0 where the system does not
	// tell), bytes.
	PeakRSS     int64                `json:"peak_rss_bytes,omitempty"`
	Params      ReportParams         `json:"params"`
	StepMs      []float64            `json:"step_ms"`
	DtYr        []float64            `json:"dt_yr"` // each step's time step
	PhaseMs     map[string][]float64 `json:"phase_ms"`
	MaxDh       []float64            `json:"max_dh_m"`
	MaxDh2      []*float64           `json:"max_dh_2step_m"` // max |h(t)-h(t-2)|; null on the first step
	MeanDh      []float64            `json:"mean_dh_m"`
	RecvChanged []float64            `json:"receivers_changed"`
	Lakes       []int                `json:"lakes"`
	Clamped     []int                `json:"talus_clamped"`
	Final       FinalStats           `json:"final"`
	// Mass is the rock account of the whole run (engine.Mass, summed over
	// the steps); Water the lakes' water budget when it runs.
	Mass  MassBudget   `json:"mass_budget"`
	Water *WaterBudget `json:"water_budget,omitempty"`
	// Amplify is --out-size's amplification, when it ran.
	Amplify *AmplifyReport `json:"amplify,omitempty"`
	// Constraints are the scene's elevation constraints at the end, and
	// ConstraintAdjustments how often the uplift was adjusted to them.
	Constraints           []ConstraintFigure `json:"constraints,omitempty"`
	ConstraintAdjustments int                `json:"constraint_adjustments,omitempty"`
	// Account is the engine's own account, for an engine that keeps one
	// (engine.Accounted: Roudier's roudier.Account); nil otherwise.
	Account any `json:"account,omitempty"`
}

// MassBudget is the run's engine.Mass with what left the domain and the
// residual, m³. A graph run's refinement re-interpolates the heights
// between stages; that change is in no step's account.
type MassBudget struct {
	engine.Mass
	Out      float64 `json:"out_m3"`      // eroded + diffused + talus + dissolved − deposited: left the domain
	Residual float64 `json:"residual_m3"` // uplift − out − stored
	// SedimentResidual is eroded + talus − deposited − sediment out,
	// with deposition on (engine.Mass.SedimentResidual).
	SedimentResidual float64 `json:"sediment_residual_m3,omitempty"`
}

// WaterBudget is the lakes' water budget of the run (water.Budget), m³:
// rain = evaporated + outflow + stored.
type WaterBudget struct {
	Rain       float64 `json:"rain_m3"`
	Evaporated float64 `json:"evaporated_m3"`
	Outflow    float64 `json:"outflow_m3"`
	Stored     float64 `json:"stored_m3"`
	Residual   float64 `json:"residual_m3"` // rain − evaporated − outflow − stored
}

// closeBudgets fills the mass budget's sums and the water budget of wat
// (nil: none).
func (r *Report) closeBudgets(wat *water.Model) {
	r.Mass.Out, r.Mass.Residual = r.Mass.Mass.Out(), r.Mass.Mass.Residual()
	if r.Mass.SedimentOut != 0 || r.Mass.Deposited != 0 {
		r.Mass.SedimentResidual = r.Mass.Mass.SedimentResidual()
	}
	if wat == nil {
		return
	}
	b := wat.Budget()
	r.Water = &WaterBudget{Rain: b.Rain, Evaporated: b.Evaporated, Outflow: b.Outflow, Stored: b.Stored,
		Residual: b.Rain - b.Evaporated - b.Outflow - b.Stored}
}

// ReportParams records the parameters the run used.
type ReportParams struct {
	K         float64 `json:"k"`
	M         float64 `json:"m"`
	N         float64 `json:"n"`
	Dt        float64 `json:"dt_yr"`
	Diffusion float64 `json:"diffusion_m2_per_yr"`
	Talus     string  `json:"talus"`
	Umax      float64 `json:"umax_m_per_yr"`
	Seed      uint64  `json:"seed"`
	Edges     string  `json:"edges"`
}

// FinalStats describe the terrain at the end of the run.
type FinalStats struct {
	MinHeight    float64 `json:"min_height_m"`
	MaxDrainage  float64 `json:"max_drainage_m2"`
	LakeCells    int     `json:"lake_cells"`
	MaxLakeDepth float64 `json:"max_lake_depth_m"`
	// Analysis is the drainage of the final heightmap (package
	// sim/analysis, routed with the run's edges, rivers from
	// analysis.DefaultMinArea cells).
	Analysis FinalAnalysis `json:"analysis"`
}

// FinalAnalysis holds Hack's law, slope–area, the concavity of the
// channels (by the χ method, which the verdict reads, and by slope–area),
// the realism measures and the verdict of the final terrain, or
// why they could not be measured (Error: a flat terrain, no rivers yet).
type FinalAnalysis struct {
	Hack      *analysis.Hack         `json:"hack"`
	SlopeArea *analysis.SlopeArea    `json:"slope_area"`
	Chi       *analysis.ChiConcavity `json:"chi_concavity,omitempty"`
	Channels  *analysis.SlopeArea    `json:"channel_concavity,omitempty"`
	Realism   *analysis.Realism      `json:"realism,omitempty"`
	Natural   bool                   `json:"natural"`
	Criteria  []analysis.Criterion   `json:"criteria,omitempty"`
	Verdict   string                 `json:"verdict,omitempty"`
	Error     string                 `json:"error,omitempty"`
}

// analyze fills r.Final.Analysis from the heights hs of the final terrain;
// talus is the run's constant talus angle in degrees (0: none, or one that
// varies: the spike is then measured at the slope histogram's mode).
func (r *Report) analyze(hs []float32, w, h int, cell float64, edges flow.Edges, talus float64) {
	a, err := analysis.Analyze(&sim.Field{W: w, H: h, Cell: cell, Data: hs}, analysis.Options{Edges: edges, Talus: talus})
	if err != nil {
		r.Final.Analysis = FinalAnalysis{Error: err.Error()}
		return
	}
	fa := FinalAnalysis{Hack: a.Hack, SlopeArea: a.SlopeA, Chi: a.Chi, Channels: a.Channels, Realism: a.Realism,
		Natural: a.Verdict.Natural, Criteria: a.Verdict.Criteria, Verdict: a.Verdict.Line}
	var errs []string
	for _, e := range []string{a.HackErr, a.SlopeErr, a.ChiErr, a.ChannelErr} {
		if e != "" {
			errs = append(errs, e)
		}
	}
	fa.Error = strings.Join(errs, "; ")
	r.Final.Analysis = fa
}

func newReport(j *Job) *Report {
	w, h, cell := j.Engine.Size()
	p := j.Engine.Params()
	r := &Report{
		Version: 1, Engine: j.spec.Kind.String(), Scene: j.Scene.Name, Width: w, Height: h, CellSize: cell,
		Tolerance: j.Tolerance,
		Params: ReportParams{
			K: p.K, M: p.M, N: p.N, Dt: p.Dt, Diffusion: p.Kappa, Talus: describeTalus(p),
			Umax: j.Umax, Seed: j.Scene.Seed,
			Edges: fmt.Sprintf("N=%v S=%v E=%v W=%v", p.Edges.North, p.Edges.South, p.Edges.East, p.Edges.West),
		},
		StepMs: []float64{}, DtYr: []float64{},
		PhaseMs: map[string][]float64{},
		MaxDh:   []float64{}, MaxDh2: []*float64{}, MeanDh: []float64{}, RecvChanged: []float64{}, Lakes: []int{}, Clamped: []int{},
	}
	for _, name := range engine.PhaseNames {
		r.PhaseMs[name] = []float64{}
	}
	return r
}

func describeTalus(p engine.Params) string {
	t := p.Talus
	switch t.Mode {
	case "constant":
		return fmt.Sprintf("constant %g°", t.AngleDeg)
	case "height":
		return fmt.Sprintf("height %g° below %g m, %g° above", t.LowDeg, t.HeightM, t.HighDeg)
	case "noise":
		return fmt.Sprintf("noise %g° to %g°", t.MinDeg, t.MaxDeg)
	}
	return string(t.Mode)
}

func ms(d interface{ Seconds() float64 }) float64 { return d.Seconds() * 1e3 }

func (r *Report) add(st engine.StepStats) {
	r.Steps = st.Step
	r.Years = st.Time
	r.StepMs = append(r.StepMs, ms(st.Total))
	r.DtYr = append(r.DtYr, st.Dt)
	for i, name := range engine.PhaseNames {
		r.PhaseMs[name] = append(r.PhaseMs[name], ms(st.Phase[i]))
	}
	r.MaxDh = append(r.MaxDh, st.MaxDh)
	r.MeanDh = append(r.MeanDh, st.MeanDh)
	var d2 *float64
	if !math.IsNaN(st.MaxDh2) {
		d2 = &st.MaxDh2
	}
	r.MaxDh2 = append(r.MaxDh2, d2)
	r.RecvChanged = append(r.RecvChanged, st.RecvChanged)
	r.Lakes = append(r.Lakes, st.Lakes)
	r.Clamped = append(r.Clamped, st.Clamped)
	r.Mass.Mass = r.Mass.Mass.Add(st.Mass)
}

// finish fills the report's final figures from the run's engine: its
// own summary (engine.SummaryOf), its water budget (engine.Watered), its
// account (engine.Accounted) and the constraints.
func (r *Report) finish(j *Job) {
	e := j.Engine
	sum := engine.SummaryOf(e)
	r.Final.MinHeight, r.MaxHeight, r.MeanHeight = sum.MinHeight, sum.MaxHeight, sum.MeanHeight
	r.Final.MaxDrainage, r.Final.LakeCells, r.Final.MaxLakeDepth = sum.MaxDrainage, sum.LakeCells, sum.MaxLakeDepth
	if !j.Scene.UntilConverged {
		r.Converged = e.Converged(j.Tolerance)
	}
	var wat *water.Model
	if w, ok := e.(engine.Watered); ok {
		wat = w.Water()
	}
	r.closeBudgets(wat)
	if a, ok := e.(engine.Accounted); ok {
		r.Account = a.Account()
	}
	r.Constraints = j.constraintFigures()
	if j.drv != nil && len(j.cons) > 0 {
		r.ConstraintAdjustments = j.drv.Adjustments()
	}
}

// Save writes the report as indented JSON, atomically.
func (r *Report) Save(path string) error { return r.saveIn(nil, path) }

// saveIn is Save in set (nil: at once).
func (r *Report) saveIn(set *safefile.Set, path string) error {
	r.PeakRSS = PeakRSS()
	if err := safefile.WriteJSONIn(set, path, r); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// Meter shows a headless run's progress (`orogen run`, `orogen erode`):
// Start with the step count and what is done, Step after every step with a
// line of figures, Done at the end. The command line draws it (a bar on a
// terminal, lines elsewhere); nil shows nothing.
type Meter interface {
	Start(steps int, desc string)
	Step(desc string)
	Done()
}

// ConstantTalus returns p's talus angle in degrees when one angle holds
// everywhere, else 0 (no limit, or an angle that varies by height or
// noise), for the threshold spike of analysis.Options.Talus.
func ConstantTalus(p engine.Params) float64 {
	if p.Talus.Mode == talus.ModeConstant {
		return p.Talus.AngleDeg
	}
	return 0
}
