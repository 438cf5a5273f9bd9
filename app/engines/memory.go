package engines

import (
	"orogen/sim/engine"
	"orogen/sim/flow"
)

// Memory of a run, measured (docs/MEMORY.md): the peak of `orogen run
// --steps 2` is BaseBytes, the program's own, plus Entry.BytesPerCell a
// cell of the grid (the live heap's peak and about a fifth for the
// collector's headroom) plus, when the outputs are amplified,
// BytesPerFineCell a cell of the amplified grid. `orogen run`, `orogen
// build` and the app's New dialog all ask EstimateBytes.
const (
	BaseBytes        = 64 << 20
	BytesPerFineCell = 32
)

// EstimateBytes is the peak memory, bytes, of a run of the engine s
// describes (s.Kind on an s.W×s.H grid with s.Params and s.Samples;
// its fields are not read) whose outputs are amplified by amp (1: none).
// An unknown kind is estimated as the grid engine.
func EstimateBytes(s Spec, amp int) int64 {
	cells := int64(s.W) * int64(s.H)
	b := BaseBytes + int64(BytesPerCell(s))*cells
	if amp > 1 {
		fine := int64(amp) * int64(amp)
		if amp == 2 {
			// ×2 is the 2×2 mean of a ×4 run (sim/amplify, fineViaFour):
			// its ×4 fields and its own (512²: 251 MB resident, the ×4
			// run's 249).
			fine = 16 + 4
		}
		b += BytesPerFineCell * cells * fine
	}
	return b
}

// BytesPerCell is what a cell of s's grid costs: its entry's
// BytesPerCell, or the grid engine's.
func BytesPerCell(s Spec) int {
	e, err := Lookup(s.Kind)
	if err != nil || e.BytesPerCell == nil {
		return GridBytesPerCell(s.Params)
	}
	return e.BytesPerCell(s)
}

// The grid engine: the live heap of `orogen run --steps 2` peaks at about
// 82 bytes a cell with the default scene's processes (docs/MEMORY.md), in
// the report's analysis. The processes that keep fields of their own add
// theirs: split by the fields each keeps, and together a fifth over what
// the lakes scene, which has them all, adds to the live peak (50 bytes a
// cell at 2048², in the steps' deposition).
const (
	gridBytes     = 100
	sedimentBytes = 32 // G > 0: heights before the erosion, flux and outflow (float64), deposition rate, lake levels and indices, alluvium
	kNoiseBytes   = 6  // k's noise factor per cell and in drainage order
	creepBytes    = 6  // the nonlinear creep's fluxes
	randomBytes   = 4  // random routing: the last choices, the area in grid order while routing
	waterBytes    = 10 // the lakes' water budget: the trees it reads, its lakes, water depth and discharge in the snapshot
)

// GridBytesPerCell is what a cell of the grid engine costs with
// parameters p: gridBytes and what the processes p turns on keep
// (SoilBytesPerCell).
func GridBytesPerCell(p engine.Params) int {
	b := gridBytes + SoilBytesPerCell(p)
	if p.Routing == flow.RoutingRandom {
		b += randomBytes
	}
	return b
}

// SoilBytesPerCell is what the processes p turns on (sediment, k noise,
// creep, the lakes' water budget) add to a stream-power engine's cell.
func SoilBytesPerCell(p engine.Params) int {
	extra := 0
	if p.G > 0 {
		extra += sedimentBytes
	}
	if p.KNoise > 0 {
		extra += kNoiseBytes
	}
	if p.CreepSc > 0 && p.Kappa > 0 {
		extra += creepBytes
	}
	if p.Rain > 0 {
		extra += waterBytes
	}
	return extra
}

// The stream graph, with its default node count (one per 4 cells): the
// live heap peaks at about 146 bytes a cell with the default scene's
// processes, 252 with the lakes scene's (docs/MEMORY.md).
const graphBytes = 176

// graphBytesPerCell is graphBytes and two and a half times what the
// processes add on the grid (SoilBytesPerCell: the graph keeps them per
// node and on the raster), scaled up by the node count when it is above
// the default.
func graphBytesPerCell(s Spec) int {
	b := graphBytes + 5*SoilBytesPerCell(s.Params)/2
	if def := DefaultSamples(s.W, s.H); s.Samples > def {
		b = int((int64(b)*int64(s.Samples) + int64(def) - 1) / int64(def))
	}
	return b
}

// Roudier's engine: its live heap peaks at about 184 bytes a cell on its
// own strata and 215 with the folded scene's geology (docs/MEMORY.md);
// the stream-power parameters do not change it.
const roudierBytes = 260
