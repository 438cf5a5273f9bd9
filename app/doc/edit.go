package doc

import (
	"errors"
	"fmt"
	"image"
	"math"
	"reflect"
	"slices"
	"strings"

	"orogen/app/engines"
	"orogen/app/project"
	"orogen/app/scene"
	"orogen/brushes"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/uplifttree"
)

// ---- painting ----

// BeginStroke starts a stroke of brush b on the named layer at pixel
// (x, y) and places its first stamp. A stroke in progress is ended first.
// It returns an error, and changes nothing, for an unknown layer, bad
// brush parameters or a point that is not finite.
func (d *Doc) BeginStroke(layer string, b brushes.Brush, x, y float64) error {
	d.endStroke()
	l := d.layers[layer]
	if l == nil {
		return fmt.Errorf("doc: no layer %q to paint on (the tree reads %s)", layer, names(d.tree.LayerNames()))
	}
	s, err := brushes.Begin(l, b, x, y)
	if err != nil {
		return err
	}
	d.gesture = ""
	d.stroke, d.strokeLayer, d.strokeID = s, layer, d.newID()
	d.refresh(d.layerCells(layer, l.Field, s.Dirty()), false)
	d.changed++
	return nil
}

func names(ns []string) string {
	if len(ns) == 0 {
		return "no layer"
	}
	return fmt.Sprintf("%q", ns)
}

// StrokeTo extends the stroke in progress in a straight line to pixel
// (x, y) and re-rasterizes the uplift where it painted. Without a stroke,
// or for a point that is not finite or beyond ±brushes.MaxCoord, it does
// nothing.
func (d *Doc) StrokeTo(x, y float64) {
	if d.stroke == nil || !(math.Abs(x) <= brushes.MaxCoord && math.Abs(y) <= brushes.MaxCoord) {
		return
	}
	r := d.stroke.To(x, y)
	if r.Empty() {
		return
	}
	l := d.layers[d.strokeLayer]
	d.refresh(d.layerCells(d.strokeLayer, l.Field, r), false)
	d.changed++
}

// EndStroke ends the stroke in progress, if any, and records it as one
// undo entry (unless it touched no pixel).
func (d *Doc) EndStroke() { d.endStroke() }

// Stroking reports whether a stroke is in progress.
func (d *Doc) Stroking() bool { return d.stroke != nil }

func (d *Doc) endStroke() {
	s := d.stroke
	if s == nil {
		return
	}
	d.stroke = nil
	l := d.layers[d.strokeLayer]
	e, r := s.End()
	if !r.Empty() {
		d.refresh(d.layerCells(d.strokeLayer, l.Field, r), false)
	}
	if e.Tiles() == 0 {
		d.changed++
		return
	}
	d.push(strokeLabel(s.Brush()), "", &strokeOp{name: d.strokeLayer, l: l, e: e})
}

func strokeLabel(b brushes.Brush) string { return title(b.Kind.String()) + " stroke" }

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ---- tree edits ----

// nilShape reports whether s is nil or a nil pointer.
func nilShape(s uplifttree.Shape) bool {
	if s == nil {
		return true
	}
	v := reflect.ValueOf(s)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// treeEdit records tree edits already made as one undo entry (merged as
// push merges), adds a layer of zeros for every layer the tree now reads
// and the document lacks, and re-rasterizes the cells they change.
func (d *Doc) treeEdit(label, merge string, edits ...*uplifttree.Edit) {
	var ops []op
	var cells image.Rectangle
	for _, e := range edits {
		ops = append(ops, &treeOp{e})
		cells = cells.Union(d.treeCells(e))
	}
	for _, name := range d.tree.LayerNames() {
		if d.layers[name] == nil {
			l := d.newLayer(name)
			ops = append(ops, &layerOp{name: name, l: l, added: true})
			cells = cells.Union(d.layerCells(name, l.Field, image.Rect(0, 0, d.w, d.h)))
		}
	}
	d.refresh(cells, false)
	d.push(label, merge, ops...)
}

// nodeType returns the type of node id, or "node".
func (d *Doc) nodeType(id uplifttree.ID) string {
	if n, ok := d.tree.Node(id); ok {
		return n.Shape.Type()
	}
	return "node"
}

// AddNode adds a node of shape s (copied) as child index of parent (−1:
// the last) and returns its ID. A Raster node reading a layer the document
// lacks brings a layer of zeros with it. See uplifttree.Tree.Add for what
// may be added where.
func (d *Doc) AddNode(parent uplifttree.ID, index int, s uplifttree.Shape) (uplifttree.ID, error) {
	d.endStroke()
	if nilShape(s) {
		return 0, errors.New("doc: AddNode: no shape")
	}
	e, err := d.tree.Add(parent, index, s)
	if err != nil {
		return 0, err
	}
	d.treeEdit("Add "+s.Type(), "", e)
	return e.Node(), nil
}

// WrapNode puts a new node of shape s (copied) in the place of node id,
// with id as its only child (a transform, warp, clamp or scale around a
// subtree, or a group), and returns the new node's ID.
func (d *Doc) WrapNode(id uplifttree.ID, s uplifttree.Shape) (uplifttree.ID, error) {
	d.endStroke()
	if nilShape(s) {
		return 0, errors.New("doc: WrapNode: no shape")
	}
	e, err := d.tree.Wrap(id, s)
	if err != nil {
		return 0, err
	}
	d.treeEdit("Wrap in "+s.Type(), "", e)
	return e.Node(), nil
}

// UnwrapNode removes operator id, which must have exactly one child, and
// puts the child in its place.
func (d *Doc) UnwrapNode(id uplifttree.ID) error {
	d.endStroke()
	typ := d.nodeType(id)
	e, err := d.tree.Unwrap(id)
	if err != nil {
		return err
	}
	d.treeEdit("Unwrap "+typ, "", e)
	return nil
}

// RemoveNode removes node id and its descendants. Layers its Raster nodes
// read stay in the document (undo brings the nodes back) but are no
// longer saved.
func (d *Doc) RemoveNode(id uplifttree.ID) error {
	d.endStroke()
	typ := d.nodeType(id)
	e, err := d.tree.Remove(id)
	if err != nil {
		return err
	}
	d.treeEdit("Remove "+typ, "", e)
	return nil
}

// MoveNode makes node id child index of newParent (−1: the last),
// counting positions after id has left its old place; see
// uplifttree.Tree.Move.
func (d *Doc) MoveNode(id, newParent uplifttree.ID, index int) error {
	d.endStroke()
	typ := d.nodeType(id)
	e, err := d.tree.Move(id, newParent, index)
	if err != nil {
		return err
	}
	d.treeEdit("Move "+typ, "", e)
	return nil
}

// SetNodeParam sets parameter name of node id to value (of the Go type
// uplifttree.Params gives) as one undo entry.
func (d *Doc) SetNodeParam(id uplifttree.ID, name string, value any) error {
	return d.SetNodeParamMerge(id, name, value, "")
}

// SetNodeParamMerge is SetNodeParam whose consecutive calls with the same
// non-empty merge key, within one gesture, make one undo entry: dragging a
// node's handle or a slider.
func (d *Doc) SetNodeParamMerge(id uplifttree.ID, name string, value any, merge string) error {
	d.endStroke()
	e, err := d.tree.SetParam(id, name, value)
	if err != nil {
		return err
	}
	d.treeEdit("Set "+d.nodeType(id)+" "+name, merge, e)
	return nil
}

// ---- scene settings ----

// setScene makes c the scene as an undo entry.
func (d *Doc) setScene(c *scene.Scene, label, merge string) {
	o := &sceneOp{before: d.sc, after: c}
	d.sc = c
	if o.before.Uplift.UmaxMPerYr != c.Uplift.UmaxMPerYr {
		d.refresh(image.Rectangle{}, true)
	}
	d.push(label, merge, o)
}

// SetParams sets the erosion parameters. Invalid ones return the scene's
// error naming the first bad one and change nothing; unchanged ones make
// no undo entry. merge merges consecutive calls into one entry (see the
// package documentation).
func (d *Doc) SetParams(p scene.Params, merge string) error {
	d.endStroke()
	c := *d.sc
	c.Params = p
	if err := c.Validate(); err != nil {
		return err
	}
	if c.Params == d.sc.Params {
		return nil
	}
	d.setScene(&c, paramsLabel(d.sc.Params, p), merge)
	return nil
}

// SetCoefficients sets an engine's own coefficients (a value of its
// coefficient type, scene.SetCoefficients). Invalid ones return an error
// naming the first bad one and change nothing. merge is as for SetParams.
func (d *Doc) SetCoefficients(k engine.Kind, v any, merge string) error {
	d.endStroke()
	if d.sc.CoefficientsOf(k) == v {
		return nil
	}
	c := *d.sc
	if err := c.SetCoefficients(v); err != nil {
		return err
	}
	if err := c.Validate(); err != nil {
		return err
	}
	d.setScene(&c, "Change the "+engines.Label(k)+" coefficients", merge)
	return nil
}

// paramsLabel names what changed from a to b.
func paramsLabel(a, b scene.Params) string {
	var changed []string
	for _, f := range []struct {
		name string
		same bool
	}{
		{"k", a.K == b.K}, {"m", a.M == b.M}, {"n", a.N == b.N}, {"time step", a.DtYr == b.DtYr},
		{"diffusion", a.DiffusionM2PerYr == b.DiffusionM2PerYr}, {"talus", a.Talus == b.Talus},
		{"edges", a.Edges == b.Edges}, {"natural distance", a.NaturalDistanceM == b.NaturalDistanceM},
		{"initial noise", a.InitNoiseM == b.InitNoiseM},
	} {
		if !f.same {
			changed = append(changed, f.name)
		}
	}
	if len(changed) == 1 {
		return "Set " + changed[0]
	}
	return "Change parameters"
}

// SetUmax sets the uplift of a tree value of 1, m/yr, and rescales the
// uplift. merge is as for SetParams.
func (d *Doc) SetUmax(u float64, merge string) error {
	d.endStroke()
	c := *d.sc
	c.Uplift.UmaxMPerYr = u
	if err := c.Validate(); err != nil {
		return err
	}
	if u == d.sc.Uplift.UmaxMPerYr {
		return nil
	}
	d.setScene(&c, "Set umax", merge)
	return nil
}

// Settings are the scene's settings other than the parameters, umax and
// the grid.
type Settings struct {
	Name            string
	Description     string
	Engine          engine.Kind
	Samples         int // graph nodes, 0 for the default
	Seed            uint64
	Steps           int
	UntilConverged  bool
	ToleranceMPerYr float64
}

// Settings returns the scene's current settings.
func (d *Doc) Settings() Settings {
	sc := d.sc
	return Settings{sc.Name, sc.Description, sc.Engine, sc.Samples, sc.Seed, sc.Steps, sc.UntilConverged, sc.ToleranceMPerYr}
}

// SetSettings sets the scene's settings. Invalid ones return an error
// naming the first bad one and change nothing. merge is as for SetParams.
func (d *Doc) SetSettings(s Settings, merge string) error {
	d.endStroke()
	if s == d.Settings() {
		return nil
	}
	c := *d.sc
	c.Name, c.Description, c.Engine, c.Samples, c.Seed = s.Name, s.Description, s.Engine, s.Samples, s.Seed
	c.Steps, c.UntilConverged, c.ToleranceMPerYr = s.Steps, s.UntilConverged, s.ToleranceMPerYr
	if err := c.Validate(); err != nil {
		return err
	}
	d.setScene(&c, "Change settings", merge)
	return nil
}

// SetConstraints replaces the scene's elevation constraints (package
// constrain) by a copy of cs, in one undo entry named label; merge is as
// for SetParams. Invalid ones (outside the map, not finite, with the graph
// engine) return the scene's error naming the first and change nothing.
func (d *Doc) SetConstraints(cs []scene.Constraint, label, merge string) error {
	d.endStroke()
	c := *d.sc
	c.Constraints = make([]scene.Constraint, len(cs))
	for i, k := range cs {
		c.Constraints[i] = k.Clone()
	}
	if len(cs) == 0 {
		c.Constraints = nil
	}
	if err := c.Validate(); err != nil {
		return err
	}
	if reflect.DeepEqual(c.Constraints, d.sc.Constraints) {
		return nil
	}
	d.setScene(&c, label, merge)
	return nil
}

// ---- imports ----

// ImportUpliftImage replaces layer "base" by the uplift map at path (PNG,
// R16 or float TIFF, see project.ReadImage), resampled to the grid; Erase
// then returns to it. A tree that does not read "base" gets a Raster
// "base" over the grid as the first child of a Sum at the root. One undo
// entry. Errors name the file and change nothing.
func (d *Doc) ImportUpliftImage(path string) error {
	d.endStroke()
	f, err := project.ReadImage(path, d.w, d.h, d.cell, d.sc.Uplift.UmaxMPerYr)
	if err != nil {
		return err
	}
	return d.ImportUpliftField(f, "Import uplift image")
}

// ImportUpliftField makes f (normalized: the uplift over umax, on the
// document's grid) the base layer, as ImportUpliftImage does with an
// image, in one undoable edit named label.
func (d *Doc) ImportUpliftField(f *sim.Field, label string) error {
	d.endStroke()
	if f.W != d.w || f.H != d.h {
		return fmt.Errorf("doc: uplift of %d×%d cells for a %d×%d grid", f.W, f.H, d.w, d.h)
	}
	if err := sim.CheckFinite("doc: uplift", "cell", f.Data); err != nil {
		return err
	}
	f = f.Clone()
	f.Cell = d.cell
	name := project.BaseLayer
	var ops []op
	var cells image.Rectangle
	full := image.Rect(0, 0, d.w, d.h)
	if l := d.layers[name]; l != nil {
		o := &dataOp{name: name, l: l, before: slices.Clone(l.Field.Data), after: f.Data, baseBefore: l.Base, baseAfter: f.Clone()}
		copy(l.Field.Data, f.Data)
		l.Base = o.baseAfter
		ops = append(ops, o)
		cells = cells.Union(d.layerCells(name, l.Field, full))
	} else {
		l := &brushes.Layer{Field: f, Base: f.Clone()}
		d.layers[name], d.lmap[name] = l, f
		ops = append(ops, &layerOp{name: name, l: l, added: true})
	}
	if !slices.Contains(d.tree.LayerNames(), name) {
		edits, err := d.addUnderSum(name, 0)
		if err != nil {
			for _, o := range slices.Backward(ops) {
				o.apply(d, false)
			}
			return err
		}
		for _, e := range edits {
			ops = append(ops, &treeOp{e})
			cells = cells.Union(d.treeCells(e))
		}
	}
	d.refresh(cells, false)
	d.push(label, "", ops...)
	return nil
}

// ---- geology ----

// SetGeology replaces the scene's geology (nil: uniform rock) as an undo
// entry; an invalid one returns geology's error and changes nothing. The
// document keeps a copy: g may be edited afterwards. merge is as for
// SetParams.
func (d *Doc) SetGeology(g *geology.Spec, label, merge string) error {
	d.endStroke()
	c := *d.sc
	c.Geology = nil
	if g != nil {
		cl := g.Clone()
		c.Geology = &cl
		if _, err := cl.Compile(); err != nil {
			return err
		}
	}
	if reflect.DeepEqual(c.Geology, d.sc.Geology) {
		return nil
	}
	if label == "" {
		label = "Edit geology"
	}
	d.setScene(&c, label, merge)
	return nil
}

// BlendWith blends the whole tree with an uplift in the uplift domain
// (Schott et al. 2022, §4, Fig. 7): f (normalized like a layer, on the
// grid) becomes a new layer, and the root is wrapped in a Mix from a (all
// the current tree) to b (all the new layer), whose second child is a
// Raster of that layer over the grid. One undo entry named label; it
// returns the Mix's ID and the layer's name.
func (d *Doc) BlendWith(f *sim.Field, a, b uplifttree.Point, label string) (uplifttree.ID, string, error) {
	return d.blendWith(f, nil, a, b, label)
}

// BlendWithMask is BlendWith through a mask instead of a gradient: mask
// (on the grid, values in [0, 1]: 0 keeps the current tree, 1 takes f)
// becomes a second new layer, read by a Raster that is the Mix's third
// child. The mask layer can then be painted like any other.
func (d *Doc) BlendWithMask(f, mask *sim.Field, label string) (uplifttree.ID, string, error) {
	if mask == nil {
		return 0, "", errors.New("doc: no mask to blend through")
	}
	return d.blendWith(f, mask, uplifttree.Point{}, uplifttree.Point{}, label)
}

func (d *Doc) blendWith(f, mask *sim.Field, a, b uplifttree.Point, label string) (uplifttree.ID, string, error) {
	d.endStroke()
	for _, g := range []*sim.Field{f, mask} {
		if g == nil {
			continue
		}
		if g.W != d.w || g.H != d.h {
			return 0, "", fmt.Errorf("doc: a field of %d×%d cells for a %d×%d grid", g.W, g.H, d.w, d.h)
		}
		if err := sim.CheckFinite("doc: blend", "cell", g.Data); err != nil {
			return 0, "", err
		}
	}
	var ops []op
	undo := func() {
		for _, o := range slices.Backward(ops) {
			o.apply(d, false)
		}
	}
	addLayer := func(base string, f *sim.Field) string {
		name := base
		for k := 2; d.layers[name] != nil || slices.Contains(d.tree.LayerNames(), name); k++ {
			name = fmt.Sprintf("%s-%d", base, k)
		}
		g := f.Clone()
		g.Cell = d.cell
		l := &brushes.Layer{Field: g, Base: g.Clone()}
		d.layers[name], d.lmap[name] = l, g
		ops = append(ops, &layerOp{name: name, l: l, added: true})
		return name
	}
	name := addLayer("blend", f)
	e1, err := d.tree.Wrap(d.tree.Root(), &uplifttree.Mix{A: a, B: b})
	if err != nil {
		undo()
		return 0, "", err
	}
	ops = append(ops, &treeOp{e1})
	e2, err := d.tree.Add(e1.Node(), -1, &uplifttree.Raster{Layer: name, Rect: d.world, Value: 1})
	if err != nil {
		undo()
		return 0, "", err
	}
	ops = append(ops, &treeOp{e2})
	if mask != nil {
		mname := addLayer("blend-mask", mask)
		e3, err := d.tree.Add(e1.Node(), -1, &uplifttree.Raster{Layer: mname, Rect: d.world, Value: 1})
		if err != nil {
			undo()
			return 0, "", err
		}
		ops = append(ops, &treeOp{e3})
	}
	d.refresh(image.Rect(0, 0, d.w, d.h), false)
	d.push(label, "", ops...)
	return e1.Node(), name, nil
}
