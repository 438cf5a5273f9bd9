package grid

import "orogen/sim/engine"

// Kind is the grid engine's name in scenes, projects, reports and flags.
const Kind engine.Kind = "grid"

// Constrainable: the grid's heights are its cells and it erodes by the
// stream-power law, so elevation constraints can steer it
// (engine.Constrainable).
func (e *Engine) Constrainable() {}

// Summary measures the final terrain on the cells (engine.Summarizer):
// lakes are the cells under their passes' level.
func (e *Engine) Summary() engine.Summary {
	var s engine.Summary
	hs := e.Heights()
	s.MinHeight, s.MaxHeight, s.MeanHeight = engine.HeightFigures(hs)
	if e.Stats().Step > 0 {
		area := e.as // the same values as Area's, in drainage order
		if !e.routed {
			area = e.Area()
		}
		for _, a := range area {
			s.MaxDrainage = max(s.MaxDrainage, a)
		}
		for _, d := range e.Graph().WaterDepth(nil, hs) {
			if d > 0 {
				s.LakeCells++
				s.MaxLakeDepth = max(s.MaxLakeDepth, float64(d))
			}
		}
	}
	return s
}

// Deposits reports whether the engine deposits sediment: with Params.G > 0
// (engine.Depositing).
func (e *Engine) Deposits() bool { return e.p.G > 0 }
