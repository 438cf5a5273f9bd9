package doc

import (
	"fmt"

	"orogen/app/engines"
	"orogen/app/rasterio"
	"orogen/sim"
)

// EngineSpec is the engine the document describes: its scene's engine on
// the scene's grid, under the document's uplift (the tree with its
// painted layers; a copy the caller owns), from the document's terrain
// (a kept hydraulic pass or imported heights) when it has one, else the
// scene's initial heights when it names an image (resampled to the grid),
// else its flat start. The desktop app, `orogen run --project` and `orogen build` all
// build their engines from it.
func (d *Doc) EngineSpec() (engines.Spec, error) {
	sc := d.Scene()
	var init *sim.Field
	if d.terrain != nil {
		init = d.terrain.Clone()
	} else if sc.Init != nil && sc.Init.Image != "" {
		f, err := rasterio.ReadHeights(sc.Path(sc.Init.Image))
		if err != nil {
			return engines.Spec{}, fmt.Errorf("initial heights: %w", err)
		}
		if f.W != sc.Width || f.H != sc.Height {
			f = f.Resample(sc.Width, sc.Height)
		}
		init = f
	}
	return sc.EngineSpec(d.Uplift().Clone(), init)
}
