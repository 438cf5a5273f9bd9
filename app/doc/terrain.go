package doc

import (
	"fmt"
	"image"

	"orogen/sim"
)

// Terrain returns the heights, metres, the engine starts from (a kept
// hydraulic pass or imported heights), or nil when it starts from the
// scene's initial heights or its flat start. Do not modify it.
func (d *Doc) Terrain() *sim.Field { return d.terrain }

// TerrainVersion increases whenever Terrain changes (by SetTerrain, undo
// or redo): the engine then restarts from it.
func (d *Doc) TerrainVersion() uint64 { return d.terVer }

// SetTerrain makes f (copied; resampled to the grid when its size
// differs) the heights the engine starts from, as an undoable edit named
// label; nil returns to the scene's initial heights. The project saves it.
func (d *Doc) SetTerrain(f *sim.Field, label string) error {
	var g *sim.Field
	if f != nil {
		if i := sim.FirstNonFinite(f.Data); i >= 0 {
			return fmt.Errorf("terrain: cell (%d, %d) is %v: heights must be finite", i%f.W, i/f.W, f.Data[i])
		}
		g = f.Clone()
		if g.W != d.w || g.H != d.h {
			g = g.Resample(d.w, d.h)
		}
		g.Cell = d.cell
	}
	o := &terrainOp{before: d.terrain, after: g}
	d.terrain = g
	d.terVer++
	d.push(label, "", o)
	return nil
}

// terrainOp replaces the terrain the engine starts from.
type terrainOp struct{ before, after *sim.Field }

func (o *terrainOp) apply(d *Doc, redo bool) (image.Rectangle, bool, error) {
	if redo {
		d.terrain = o.after
	} else {
		d.terrain = o.before
	}
	d.terVer++
	return image.Rectangle{}, false, nil
}

func (o *terrainOp) size() int {
	n := opSize
	for _, f := range []*sim.Field{o.before, o.after} {
		if f != nil {
			n += 4 * len(f.Data)
		}
	}
	return n
}
