package brushes

import (
	"fmt"

	"orogen/sim"
)

// Layer is a raster that brushes paint: a leaf of the Uplift Tree holding
// dimensionless uplift, typically in [0, 1] (the tree scales it to m/yr).
// Brushes never clamp it; the tree has a clamp operator for that.
type Layer struct {
	// Field holds the painted values. Strokes write it in place.
	Field *sim.Field
	// Base is what Erase returns to: the layer as imported or as created.
	// It has Field's shape, or is nil for a base of zeros. Brushes never
	// write it.
	Base *sim.Field
	// Periodic makes stamps wrap around the borders, so that a stamp near
	// the east edge also paints the west edge (and likewise north and
	// south) and Smooth exchanges across them. Painting an uplift map wants
	// false, where stamps are clipped at the borders; tests use true to
	// check that Smooth conserves the layer's sum. On a periodic layer
	// every stamp paints, so a move costs its length in stamps even far
	// off the layer, and Begin rejects a radius with 2·radius + 1 wider
	// than the layer.
	Periodic bool
}

// NewLayer returns a layer painting f, with a copy of f as its base.
func NewLayer(f *sim.Field) *Layer {
	return &Layer{Field: f, Base: f.Clone()}
}

// check panics unless l is usable: a field whose data matches its size and
// a base of the same shape.
func (l *Layer) check() {
	if l == nil || l.Field == nil {
		panic("brushes: nil layer")
	}
	f := l.Field
	if f.W <= 0 || f.H <= 0 || len(f.Data) != f.W*f.H {
		panic(fmt.Sprintf("brushes: layer field is %d×%d with %d values", f.W, f.H, len(f.Data)))
	}
	if b := l.Base; b != nil {
		if b.W != f.W || b.H != f.H || len(b.Data) != b.W*b.H {
			panic(fmt.Sprintf("brushes: layer base is %d×%d with %d values; want the field's %d×%d", b.W, b.H, len(b.Data), f.W, f.H))
		}
	}
}
