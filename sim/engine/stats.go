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
	NumPhases
)

// PhaseNames are the report names of the phases ("phase_ms" keys). "layout"
// is the copying of heights, distances and uplift into drainage order and
// back.
var PhaseNames = [NumPhases]string{"routing", "stack", "lakes", "area", "erosion", "hillslope", "talus", "layout", "water"}

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
	Phase       [NumPhases]time.Duration
	Total       time.Duration
}
