package engine

import "time"

// Phase is one phase of a stream-power step (grid and graph engines), an
// index into StepStats.Phase.
type Phase int

// The phases, in report order (not the order a step runs them: see each
// engine's doc).
const (
	PhaseRouting Phase = iota
	PhaseStack
	PhaseLakes
	PhaseArea
	PhaseErosion
	PhaseHillslope
	PhaseTalus
	PhaseLayout
	PhaseWater
	PhaseGeology // the exposed rock and k's field (with a geology)
	PhaseDeposit // sediment transport and deposition (Params.G > 0)
	NumPhases
)

// PhaseNames are the report names of the phases ("phase_ms" keys). "layout"
// is the copying of heights, distances and uplift into drainage order and
// back.
var PhaseNames = [NumPhases]string{"routing", "stack", "lakes", "area", "erosion", "hillslope", "talus", "layout", "water", "geology", "deposit"}

// String returns the phase's report name.
func (p Phase) String() string {
	if p >= 0 && p < NumPhases {
		return PhaseNames[p]
	}
	return "phase?"
}

// StepStats describe one step. Engines fill what they measure and leave
// the rest zero (the hydraulic engine has no drainage: Lakes, Clamped and
// RecvChanged stay 0, and its phases are its own, see sim/hydro).
type StepStats struct {
	Step int     // steps done so far, this one included
	Time float64 // simulated time so far: years (seconds for Hydro)
	// Dt is the step's time step (years): the engine's Params.Dt when it
	// stepped, which an adaptive scheme (package settle) sets before each
	// step.
	Dt    float64
	MaxDh float64 // max |Δh| over the step, metres
	// MaxDh2 is max |h(t) - h(t-2)|, metres: the change over two steps,
	// which vanishes when a few cells only alternate between two states
	// (NaN after the first step).
	MaxDh2      float64
	MeanDh      float64 // mean |Δh|, metres
	RecvChanged float64 // fraction of nodes whose receiver changed since the last step
	Lakes       int     // basins connected through passes
	Clamped     int     // nodes lowered by the talus limit
	// Mass is the step's rock account (grid and graph engines; the
	// hydraulic engine keeps its own, see sim/hydro's Mass).
	Mass  Mass
	Phase [NumPhases]time.Duration
	Total time.Duration
}

// Mass is a rock account, m³: heights times the area of each cell or
// node, summed in float64 in an order that does not depend on the number
// of workers. Without deposition (Params.G = 0) the stream power is
// detachment-limited (Braun and Willett 2013): the rock it removes leaves
// the domain through the outlets, as does what the talus limit cuts. With
// deposition the rock the stream power and the talus limit remove is
// sediment: Deposited of it stays on the terrain (lakes, floors, fans)
// and SedimentOut leaves through the outlets, Eroded + Talus = Deposited
// + SedimentOut (SedimentResidual: zero to float64 rounding, the fluxes
// being summed from the rounded heights). Hillslope diffusion only moves
// rock, except across fixed (outlet) edges, where what it loses leaves.
// Uplift − Eroded − Diffused − Talus + Deposited = Stored up to the
// float32 rounding of the heights; Residual returns the difference. Uplift is Σ u·Δt·area
// over the nodes the uplift raises (not fixed outlets), computed from the
// rates; the other terms are measured on the heights before and after
// each phase.
type Mass struct {
	Uplift   float64 `json:"uplift_m3"`
	Eroded   float64 `json:"eroded_m3"`   // removed by the stream power
	Diffused float64 `json:"diffused_m3"` // lost by hillslope diffusion across fixed edges
	Talus    float64 `json:"talus_m3"`    // cut by the talus limit
	// Deposited is the sediment laid on the terrain (Params.G > 0), and
	// SedimentOut the sediment that left through the outlets, counted
	// from the fluxes at the outlets.
	Deposited   float64 `json:"deposited_m3,omitempty"`
	SedimentOut float64 `json:"sediment_out_m3,omitempty"`
	// Dissolved is what chemical dissolution took away (Roudier's engine,
	// sim/roudier); it leaves the domain with the infiltrated water.
	Dissolved float64 `json:"dissolved_m3,omitempty"`
	Stored    float64 `json:"stored_m3"` // change of the terrain's volume
	// Alluvium is the change of the volume of alluvium on the terrain
	// (Roudier's engine): a part of Stored, not a separate term.
	Alluvium float64 `json:"alluvium_m3,omitempty"`
}

// Out returns the rock that left the domain: Eroded + Diffused + Talus +
// Dissolved − Deposited.
func (m Mass) Out() float64 { return m.Eroded + m.Diffused + m.Talus + m.Dissolved - m.Deposited }

// SedimentResidual returns Eroded + Talus − Deposited − SedimentOut, m³,
// with deposition on: zero (to rounding) when every grain the step
// removed either stayed on the map or left it through an outlet. Without
// deposition it is not meaningful (SedimentOut is 0).
func (m Mass) SedimentResidual() float64 { return m.Eroded + m.Talus - m.Deposited - m.SedimentOut }

// Residual returns Uplift − Out − Stored, m³: zero for an exact account.
func (m Mass) Residual() float64 { return m.Uplift - m.Out() - m.Stored }

// Add returns the account of two runs one after the other.
func (m Mass) Add(o Mass) Mass {
	return Mass{Uplift: m.Uplift + o.Uplift, Eroded: m.Eroded + o.Eroded, Diffused: m.Diffused + o.Diffused,
		Talus: m.Talus + o.Talus, Deposited: m.Deposited + o.Deposited, SedimentOut: m.SedimentOut + o.SedimentOut, Dissolved: m.Dissolved + o.Dissolved, Stored: m.Stored + o.Stored,
		Alluvium: m.Alluvium + o.Alluvium}
}
