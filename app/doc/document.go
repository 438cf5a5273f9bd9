package doc

import (
	"errors"
	"image"
	"maps"
	"reflect"
	"slices"

	"orogen/app/export"
	"orogen/app/project"
	"orogen/app/scene"
	"orogen/brushes"
	"orogen/sim"
	"orogen/uplifttree"
)

// DefaultUndoLimit is the memory, in bytes, the undo history may keep by
// default.
const DefaultUndoLimit = 256 << 20

// Doc is the live document. See the package documentation.
type Doc struct {
	sc     *scene.Scene // replaced, never modified; Uplift.Tree is tree
	tree   *uplifttree.Tree
	layers map[string]*brushes.Layer
	lmap   uplifttree.LayerMap // layers' fields, bound to tree
	view   project.View
	w, h   int
	cell   float64
	world  uplifttree.Rect
	norm   *sim.Field // tree value at each cell centre
	uplift *sim.Field // norm × umax, m/yr

	stroke      *brushes.Stroke
	strokeLayer string
	strokeID    uint64 // state of the document while stroke paints

	undo, redo []*entry
	bytes      int // memory of undo and redo
	limit      int
	lastID     uint64
	baseID     uint64 // state when undo is empty
	savedID    uint64
	gesture    string // merge key of the open gesture

	upVer, changed uint64

	export *export.Profile // never modified: SetExport replaces it

	terrain *sim.Field // never modified: SetTerrain replaces it
	terVer  uint64
}

// FromScene returns a document of a scene, a preset or a scene file: an
// image uplift becomes the tree Sum{Raster "base", Raster "paint"} with
// the image resampled to the grid as layer "base" and zeros as "paint";
// layer files a tree reads are read in; a tree without a Raster node gets
// a Raster "paint" of zeros over the grid, under a Sum at the root. The
// document starts clean.
func FromScene(sc *scene.Scene) (*Doc, error) {
	p, err := project.FromScene(sc)
	if err != nil {
		return nil, err
	}
	return New(p)
}

// New returns a document of project p, which it copies: later changes to p
// do not reach the document. Uplift files p's scene still names are read
// in (see project.Embed); a tree without a Raster node gets a Raster
// "paint" as in FromScene, and a layer the tree reads but p lacks starts as
// zeros. The uplift is rasterized at the scene's grid. The document starts
// clean. It returns an error naming the problem for an invalid scene, a
// layer of the wrong size or with non-finite values, or bad view settings.
func New(p *project.Project) (*Doc, error) {
	if p == nil || p.Scene == nil {
		return nil, errors.New("doc: no scene")
	}
	q, err := p.Embed()
	if err != nil {
		return nil, err
	}
	if err := q.Validate(); err != nil {
		return nil, err
	}
	sc := project.CloneScene(q.Scene)
	d := &Doc{
		w: sc.Width, h: sc.Height, cell: project.Cell(sc), world: project.World(sc),
		layers: map[string]*brushes.Layer{}, lmap: uplifttree.LayerMap{},
		view: q.View, limit: DefaultUndoLimit, export: q.Export.Clone(),
	}
	d.view.Extra = maps.Clone(d.view.Extra)
	if q.Terrain != nil {
		d.terrain = q.Terrain.Clone()
		d.terrain.Cell = d.cell
	}
	for name, f := range q.Layers {
		g := f.Clone()
		g.Cell = d.cell
		l := &brushes.Layer{Field: g}
		if name == project.BaseLayer {
			l.Base = g.Clone() // Erase returns an imported layer to the import
		}
		d.layers[name], d.lmap[name] = l, g
	}
	if sc.Uplift.Tree == nil {
		sc.Uplift.Tree = uplifttree.New()
	}
	d.tree = sc.Uplift.Tree
	if len(d.tree.LayerNames()) == 0 {
		if _, err := d.addUnderSum(project.PaintLayer, -1); err != nil {
			return nil, err
		}
	}
	for _, name := range d.tree.LayerNames() {
		if d.layers[name] == nil {
			d.newLayer(name)
		}
	}
	d.tree.SetLayers(d.lmap)
	d.sc = sc
	d.norm = sim.NewField(d.w, d.h, d.cell)
	d.uplift = sim.NewField(d.w, d.h, d.cell)
	d.refresh(image.Rect(0, 0, d.w, d.h), false)
	d.upVer = 1
	return d, nil
}

// newLayer adds a layer of zeros and returns it.
func (d *Doc) newLayer(name string) *brushes.Layer {
	l := &brushes.Layer{Field: sim.NewField(d.w, d.h, d.cell)}
	d.layers[name], d.lmap[name] = l, l.Field
	return l
}

// addUnderSum adds a Raster node reading layer name over the whole grid as
// child index of the root, wrapping the root in a Sum first unless it is
// one. It returns the tree edits made.
func (d *Doc) addUnderSum(name string, index int) ([]*uplifttree.Edit, error) {
	var edits []*uplifttree.Edit
	root, _ := d.tree.Node(d.tree.Root())
	if root.Shape.Type() != uplifttree.TypeSum {
		e, err := d.tree.Wrap(d.tree.Root(), &uplifttree.Sum{})
		if err != nil {
			return nil, err
		}
		edits = append(edits, e)
	}
	e, err := d.tree.Add(d.tree.Root(), index, &uplifttree.Raster{Layer: name, Rect: d.world, Value: 1})
	if err != nil {
		for _, u := range slices.Backward(edits) {
			u.Undo(d.tree)
		}
		return nil, err
	}
	return append(edits, e), nil
}

// Project returns a copy of the document as a project: the scene with a
// clone of the tree, copies of the layers the tree reads, and the view. It
// shares nothing the document changes, so it may be saved on another
// goroutine. During a stroke it holds the stroke so far.
func (d *Doc) Project() *project.Project {
	sc := *d.sc
	sc.Uplift.Tree = d.tree.Clone()
	if d.sc.Init != nil {
		in := *d.sc.Init
		sc.Init = &in
	}
	p := &project.Project{Scene: &sc, Layers: map[string]*sim.Field{}, View: d.view, Export: d.export.Clone()}
	if d.terrain != nil {
		p.Terrain = d.terrain.Clone()
	}
	p.View.Extra = maps.Clone(d.view.Extra)
	for _, name := range d.tree.LayerNames() {
		if l := d.layers[name]; l != nil {
			p.Layers[name] = l.Field.Clone()
		}
	}
	return p
}

// Scene returns the current scene. Treat it as read-only: a change of
// settings replaces it, and its Uplift.Tree is the live tree.
func (d *Doc) Scene() *scene.Scene { return d.sc }

// Tree returns the live tree, bound to the layers (for Pick and Eval), for
// reading only: edit it through the Doc.
func (d *Doc) Tree() *uplifttree.Tree { return d.tree }

// Layer returns the layer of that name, or nil. Paint it through
// BeginStroke; read its Field between calls.
func (d *Doc) Layer(name string) *brushes.Layer { return d.layers[name] }

// LayerNames returns the names of the layers the tree reads, sorted.
func (d *Doc) LayerNames() []string { return d.tree.LayerNames() }

// PaintLayer returns the layer to paint on by default: "paint" while the
// tree reads it, else the first layer the tree reads, else "".
func (d *Doc) PaintLayer() string {
	names := d.tree.LayerNames()
	if slices.Contains(names, project.PaintLayer) {
		return project.PaintLayer
	}
	if len(names) > 0 {
		return names[0]
	}
	return ""
}

// Uplift returns the current uplift, m/yr, on the scene's grid. It is the
// live raster: copy it to hand it on, and do not modify it.
func (d *Doc) Uplift() *sim.Field { return d.uplift }

// Value returns the tree's value at every cell centre (the uplift over
// umax). It is the live raster: do not modify it.
func (d *Doc) Value() *sim.Field { return d.norm }

// UpliftVersion increases whenever Uplift changes.
func (d *Doc) UpliftVersion() uint64 { return d.upVer }

// Changed increases on every change of anything: layers, tree, scene,
// view, undo and redo, the saved state.
func (d *Doc) Changed() uint64 { return d.changed }

// World returns the world rectangle of the grid, metres.
func (d *Doc) World() uplifttree.Rect { return d.world }

// Cell returns the cell size, metres.
func (d *Doc) Cell() float64 { return d.cell }

// View returns the view settings.
func (d *Doc) View() project.View {
	v := d.view
	v.Extra = maps.Clone(d.view.Extra)
	return v
}

// SetView replaces the view settings, or returns an error naming a bad
// one. View settings are not undone and do not make the document dirty;
// Changed moves only when they differ.
func (d *Doc) SetView(v project.View) error {
	if err := v.Validate(); err != nil {
		return err
	}
	if reflect.DeepEqual(v, d.view) {
		return nil
	}
	v.Extra = maps.Clone(v.Extra)
	d.view = v
	d.changed++
	return nil
}

// refresh re-rasterizes the cells r of the tree's value and the uplift,
// and with rescale recomputes the whole uplift from the value (umax
// changed).
func (d *Doc) refresh(r image.Rectangle, rescale bool) {
	r = r.Intersect(image.Rect(0, 0, d.w, d.h))
	u := float32(d.sc.Uplift.UmaxMPerYr)
	if !r.Empty() {
		d.tree.RasterizeRect(d.norm, d.world, r, d.lmap)
		if !rescale {
			for y := r.Min.Y; y < r.Max.Y; y++ {
				i0, i1 := y*d.w+r.Min.X, y*d.w+r.Max.X
				for i, v := range d.norm.Data[i0:i1] {
					d.uplift.Data[i0+i] = v * u
				}
			}
		}
	}
	if rescale {
		for i, v := range d.norm.Data {
			d.uplift.Data[i] = v * u
		}
	}
	if rescale || !r.Empty() {
		d.upVer++
	}
}

// layerCells returns the cells of the uplift that pixels r of layer name
// can change through the tree's Raster nodes.
func (d *Doc) layerCells(name string, f *sim.Field, r image.Rectangle) image.Rectangle {
	if r.Empty() {
		return image.Rectangle{}
	}
	return uplifttree.CellRect(d.norm, d.world, d.tree.LayerDirty(name, f, r))
}

// treeCells returns the cells of the uplift a tree edit can change.
func (d *Doc) treeCells(e *uplifttree.Edit) image.Rectangle {
	return uplifttree.CellRect(d.norm, d.world, e.Dirty())
}
