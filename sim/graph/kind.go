package graph

import (
	"orogen/sim/engine"
	"orogen/sim/water"
)

// Kind is the stream graph's name in scenes, projects, reports and flags.
const Kind engine.Kind = "graph"

// Water is the lakes' water budget of the graph (engine.Watered).
func (g *OnGrid) Water() *water.Model { return g.e.Water() }

// Summary measures the final terrain on the graph's nodes
// (engine.Summarizer): Poisson samples are near-uniform, so their mean
// estimates the areal mean (the raster's would smooth the maximum); lake
// cells are the wet cells of the rasterized depth, the deepest water a
// node's.
func (g *OnGrid) Summary() engine.Summary {
	var s engine.Summary
	e := g.e
	s.MinHeight, s.MaxHeight, s.MeanHeight = engine.HeightFigures(e.Heights())
	if e.Stats().Step > 0 {
		for _, a := range e.DrainageArea() {
			s.MaxDrainage = max(s.MaxDrainage, a)
		}
		wd := e.WaterDepth(nil)
		for _, d := range wd {
			s.MaxLakeDepth = max(s.MaxLakeDepth, float64(d))
		}
		for _, d := range g.Raster(wd) {
			if d > 0 {
				s.LakeCells++
			}
		}
	}
	return s
}

// Deposits reports whether the engine deposits sediment: with Params.G > 0
// (engine.Depositing); the snapshot's Alluvium is then the sediment's
// thickness.
func (g *OnGrid) Deposits() bool { return g.e.p.G > 0 }

var _ engine.Depositing = (*OnGrid)(nil)
