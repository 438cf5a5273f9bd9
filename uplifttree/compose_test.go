package uplifttree_test

import (
	"slices"
	"testing"

	"orogen/brushes"
	"orogen/sim"
	"orogen/uplifttree"
)

// TestPaintedLayerComposesWithTree paints a layer that a Raster node of a
// tree reads, and checks that re-rasterizing only the dirty rectangle the
// tree derives from the stroke gives the same bytes as a full rasterization:
// painting and tree editing compose.
func TestPaintedLayerComposesWithTree(t *testing.T) {
	const doc = `{"version": 1, "root": 1, "nodes": [
	  {"id": 1, "type": "max", "children": [2, 3]},
	  {"id": 2, "type": "disc", "center": [20000, 20000], "radius": 9000, "value": 0.8},
	  {"id": 3, "type": "raster", "layer": "paint", "rect": [0, 0, 50000, 50000], "value": 1}
	]}`
	tree, err := uplifttree.Unmarshal([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	layer := brushes.NewLayer(sim.NewField(256, 256, 50000.0/256))
	layers := uplifttree.LayerMap{"paint": layer.Field}
	dst := sim.NewField(512, 512, 50000.0/512)
	dom := uplifttree.Domain(dst)
	tree.Rasterize(dst, dom, layers)
	before := append([]float32(nil), dst.Data...)

	b := brushes.Default(brushes.Raise)
	b.Radius, b.Strength = 20, 0.8
	st, err := brushes.Begin(layer, b, 60, 70)
	if err != nil {
		t.Fatal(err)
	}
	st.To(140, 120)
	st.To(180, 60)
	_, last := st.End()
	cells := st.Dirty().Union(last)

	dirty := tree.LayerDirty("paint", layer.Field, cells)
	tree.RasterizeRect(dst, dom, uplifttree.CellRect(dst, dom, dirty), layers)
	full := sim.NewField(512, 512, 50000.0/512)
	tree.Rasterize(full, dom, layers)
	if !slices.Equal(dst.Data, full.Data) {
		t.Fatal("dirty-rectangle update after a stroke differs from a full rasterization")
	}
	if slices.Equal(full.Data, before) {
		t.Fatal("the stroke changed nothing")
	}
}

// BenchmarkStampUpdate times what the app does per brush stamp: one stamp
// of radius 64 px on a 1024² layer, then re-rasterizing the dirty rectangle
// of a 1024² uplift raster whose tree reads the layer.
func BenchmarkStampUpdate(b *testing.B) {
	const doc = `{"version": 1, "root": 1, "nodes": [
	  {"id": 1, "type": "max", "children": [2, 3, 4]},
	  {"id": 2, "type": "disc", "center": [20000, 20000], "radius": 9000, "value": 0.8},
	  {"id": 3, "type": "segment", "a": [5000, 40000], "b": [45000, 30000], "ctrl": [{"t": 0, "r": 5000, "u": 0.6}]},
	  {"id": 4, "type": "raster", "layer": "paint", "rect": [0, 0, 50000, 50000], "value": 1}
	]}`
	tree, err := uplifttree.Unmarshal([]byte(doc))
	if err != nil {
		b.Fatal(err)
	}
	layer := brushes.NewLayer(sim.NewField(1024, 1024, 50000.0/1024))
	layers := uplifttree.LayerMap{"paint": layer.Field}
	dst := sim.NewField(1024, 1024, 50000.0/1024)
	dom := uplifttree.Domain(dst)
	tree.Rasterize(dst, dom, layers)
	br := brushes.Default(brushes.Raise)
	br.Radius = 64
	st, err := brushes.Begin(layer, br, 100, 500)
	if err != nil {
		b.Fatal(err)
	}
	step := br.Radius * br.Spacing
	x := 100.0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		x += step // one stamp per call
		if x > 900 {
			x = 100
		}
		cells := st.To(x, 500)
		dirty := tree.LayerDirty("paint", layer.Field, cells)
		tree.RasterizeRect(dst, dom, uplifttree.CellRect(dst, dom, dirty), layers)
	}
}
