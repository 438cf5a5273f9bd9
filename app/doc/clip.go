package doc

import (
	"errors"
	"fmt"
	"image"
	"math"
	"slices"

	"orogen/sim"
	"orogen/uplifttree"
)

// Clip is a copied subtree of the Uplift Tree: its shapes (copies) and
// structure, where it stood, and which node it came from. It holds no
// reference into the document, so it pastes into another document opened
// later (as a copy; an instance needs the original).
type Clip struct {
	Shapes   []uplifttree.Shape // preorder
	Children [][]int            // indices into Shapes, per shape
	Center   uplifttree.Point   // the centre of the subtree's bounds, metres
	From     uplifttree.ID      // the node copied
	Source   *Doc               // the document copied from (for instances)
	Layers   []string           // the layers its Raster nodes read
}

// CopySubtree copies node id and everything below it.
func (d *Doc) CopySubtree(id uplifttree.ID) (*Clip, error) {
	if _, ok := d.tree.Node(id); !ok {
		return nil, fmt.Errorf("no node %d to copy", id)
	}
	c := &Clip{From: id, Source: d}
	var walk func(id uplifttree.ID) int
	walk = func(id uplifttree.ID) int {
		n, _ := d.tree.Node(id) // a copy of the shape
		k := len(c.Shapes)
		c.Shapes = append(c.Shapes, n.Shape)
		c.Children = append(c.Children, nil)
		if r, ok := n.Shape.(*uplifttree.Raster); ok && !slices.Contains(c.Layers, r.Layer) {
			c.Layers = append(c.Layers, r.Layer)
		}
		for _, ch := range n.Children {
			c.Children[k] = append(c.Children[k], walk(ch))
		}
		return k
	}
	walk(id)
	b := d.tree.Bounds(id)
	if b.IsEmpty() || !finiteRect(b) {
		b = d.world
	}
	c.Center = uplifttree.Point{X: (b.X0 + b.X1) / 2, Y: (b.Y0 + b.Y1) / 2}
	return c, nil
}

func finiteRect(r uplifttree.Rect) bool {
	for _, v := range []float64{r.X0, r.Y0, r.X1, r.Y1} {
		if v != v || v > 1e300 || v < -1e300 {
			return false
		}
	}
	return true
}

// PasteSubtree adds the clip under parent, moved so that its centre lands
// at (x, y) metres: a copy inside a Transform, or with instance an Instance
// of the original node that follows its edits (same document only). One
// undo entry; it returns the new top node.
func (d *Doc) PasteSubtree(c *Clip, parent uplifttree.ID, x, y float64, instance bool) (uplifttree.ID, error) {
	d.endStroke()
	if c == nil || len(c.Shapes) == 0 {
		return 0, errors.New("nothing copied")
	}
	frame := uplifttree.Identity
	frame.Translate = uplifttree.Point{X: x - c.Center.X, Y: y - c.Center.Y}
	if instance {
		if c.Source != d {
			return 0, errors.New("an instance follows its original, which is in another project: paste a copy")
		}
		if _, ok := d.tree.Node(c.From); !ok {
			return 0, fmt.Errorf("the original node %d is gone: paste a copy", c.From)
		}
		e, err := d.tree.Add(parent, -1, &uplifttree.Instance{Ref: c.From, Frame: frame})
		if err != nil {
			return 0, err
		}
		d.treeEdit("Paste instance", "", e)
		return e.Node(), nil
	}
	var edits []*uplifttree.Edit
	fail := func(err error) (uplifttree.ID, error) {
		for _, e := range slices.Backward(edits) {
			_ = e.Undo(d.tree)
		}
		return 0, err
	}
	// A node with children is built around its first child (Wrap), so
	// operators that need a child are never empty; the others follow.
	var paste func(k int, parent uplifttree.ID) (uplifttree.ID, error)
	paste = func(k int, parent uplifttree.ID) (uplifttree.ID, error) {
		kids := c.Children[k]
		if len(kids) == 0 {
			e, err := d.tree.Add(parent, -1, c.Shapes[k])
			if err != nil {
				return 0, err
			}
			edits = append(edits, e)
			return e.Node(), nil
		}
		first, err := paste(kids[0], parent)
		if err != nil {
			return 0, err
		}
		e, err := d.tree.Wrap(first, c.Shapes[k])
		if err != nil {
			return 0, err
		}
		edits = append(edits, e)
		for _, ch := range kids[1:] {
			if _, err := paste(ch, e.Node()); err != nil {
				return 0, err
			}
		}
		return e.Node(), nil
	}
	top, err := paste(0, parent)
	if err != nil {
		return fail(err)
	}
	e, err := d.tree.Wrap(top, &uplifttree.Transform{Frame: frame})
	if err != nil {
		return fail(err)
	}
	edits = append(edits, e)
	d.treeEdit("Paste", "", edits...)
	return e.Node(), nil
}

// RegionClip is a rectangle of a painted layer's values, copied.
type RegionClip struct {
	Field *sim.Field // the values, W×H of the rectangle
	Layer string     // the layer it came from
}

// CopyRegion copies the cells r (clipped to the grid) of layer name.
func (d *Doc) CopyRegion(name string, r image.Rectangle) (*RegionClip, error) {
	l := d.layers[name]
	if l == nil {
		return nil, fmt.Errorf("no layer %q to copy from", name)
	}
	r = r.Canon().Intersect(image.Rect(0, 0, d.w, d.h))
	if r.Dx() < 1 || r.Dy() < 1 {
		return nil, errors.New("the region to copy is empty or off the map")
	}
	f := sim.NewField(r.Dx(), r.Dy(), d.cell)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		copy(f.Data[(y-r.Min.Y)*f.W:(y-r.Min.Y+1)*f.W], l.Field.Data[y*d.w+r.Min.X:y*d.w+r.Max.X])
	}
	return &RegionClip{Field: f, Layer: name}, nil
}

// PasteRegion writes the clip into layer name centred on cell (cx, cy)
// (cell centres at integer coordinates plus ½, as map coordinates),
// rotated by angle degrees (clockwise on the map) and scaled by scale:
// every cell whose centre falls inside the placed rectangle takes the
// clip's value there (bilinear). One undo entry; the cells it covers are
// returned.
func (d *Doc) PasteRegion(name string, c *RegionClip, cx, cy, angle, scale float64) (image.Rectangle, error) {
	d.endStroke()
	l := d.layers[name]
	switch {
	case l == nil:
		return image.Rectangle{}, fmt.Errorf("no layer %q to paste into", name)
	case c == nil || c.Field == nil:
		return image.Rectangle{}, errors.New("no region copied")
	case !(scale >= 0.05 && scale <= 20) || math.IsNaN(angle) || math.IsInf(angle, 0):
		return image.Rectangle{}, fmt.Errorf("paste: scale %g must be in [0.05, 20] and the angle finite", scale)
	}
	f := c.Field
	hw, hh := float64(f.W)*scale/2, float64(f.H)*scale/2
	s, co := math.Sincos(angle * math.Pi / 180)
	// The placed rectangle's bounding box, in cells.
	ex := math.Abs(co)*hw + math.Abs(s)*hh
	ey := math.Abs(s)*hw + math.Abs(co)*hh
	box := image.Rect(int(math.Floor(cx-ex)), int(math.Floor(cy-ey)), int(math.Ceil(cx+ex)), int(math.Ceil(cy+ey))).Intersect(image.Rect(0, 0, d.w, d.h))
	if box.Empty() {
		return image.Rectangle{}, errors.New("the pasted region falls off the map")
	}
	before := slices.Clone(l.Field.Data)
	for y := box.Min.Y; y < box.Max.Y; y++ {
		for x := box.Min.X; x < box.Max.X; x++ {
			// Back to the clip's frame: undo the move, the rotation, the
			// scale; clip cell centres at integer + ½.
			dx, dy := float64(x)+0.5-cx, float64(y)+0.5-cy
			u := (co*dx + s*dy) / scale
			v := (-s*dx + co*dy) / scale
			px, py := u+float64(f.W)/2, v+float64(f.H)/2
			if px < 0 || py < 0 || px > float64(f.W) || py > float64(f.H) {
				continue
			}
			l.Field.Data[y*d.w+x] = float32(f.Sample(px-0.5, py-0.5))
		}
	}
	o := &dataOp{name: name, l: l, before: before, after: slices.Clone(l.Field.Data), baseBefore: l.Base, baseAfter: l.Base}
	d.refresh(d.layerCells(name, l.Field, box), false)
	d.push("Paste region", "", o)
	return box, nil
}
