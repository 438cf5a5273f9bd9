package doc

import (
	"fmt"
	"image"
	"slices"

	"orogen/app/scene"
	"orogen/brushes"
	"orogen/sim"
	"orogen/uplifttree"
)

// An op is one reversible step of an undo entry, created done.
type op interface {
	// apply undoes the op (redo false) or redoes it, and returns the cells
	// of the uplift it may have changed and whether umax changed.
	apply(d *Doc, redo bool) (cells image.Rectangle, rescale bool, err error)
	// size returns the memory the op keeps alive, bytes.
	size() int
}

// entry is one undo entry: ops done in order, undone in reverse.
type entry struct {
	label string
	merge string // merge key, "" for none
	ops   []op
	id    uint64 // the document's state after the entry
	size  int
}

// opSize is what an op without pixels is counted as.
const opSize = 256

// strokeOp is a brush stroke.
type strokeOp struct {
	name string
	l    *brushes.Layer
	e    *brushes.Edit
}

func (o *strokeOp) apply(d *Doc, redo bool) (image.Rectangle, bool, error) {
	var r image.Rectangle
	if redo {
		r = o.e.Redo()
	} else {
		r = o.e.Undo()
	}
	return d.layerCells(o.name, o.l.Field, r), false, nil
}

func (o *strokeOp) size() int { return opSize + o.e.Bytes() }

// treeOp is a tree edit.
type treeOp struct{ e *uplifttree.Edit }

func (o *treeOp) apply(d *Doc, redo bool) (image.Rectangle, bool, error) {
	var err error
	if redo {
		err = o.e.Redo(d.tree)
	} else {
		err = o.e.Undo(d.tree)
	}
	return d.treeCells(o.e), false, err
}

func (o *treeOp) size() int { return opSize }

// layerOp adds a layer (added) or removes it.
type layerOp struct {
	name  string
	l     *brushes.Layer
	added bool
}

func (o *layerOp) apply(d *Doc, redo bool) (image.Rectangle, bool, error) {
	if redo == o.added {
		d.layers[o.name], d.lmap[o.name] = o.l, o.l.Field
	} else {
		delete(d.layers, o.name)
		delete(d.lmap, o.name)
	}
	return d.layerCells(o.name, o.l.Field, image.Rect(0, 0, d.w, d.h)), false, nil
}

func (o *layerOp) size() int {
	n := opSize + 4*len(o.l.Field.Data)
	if o.l.Base != nil {
		n += 4 * len(o.l.Base.Data)
	}
	return n
}

// dataOp replaces a layer's pixels and base.
type dataOp struct {
	name                  string
	l                     *brushes.Layer
	before, after         []float32
	baseBefore, baseAfter *sim.Field
}

func (o *dataOp) apply(d *Doc, redo bool) (image.Rectangle, bool, error) {
	if redo {
		copy(o.l.Field.Data, o.after)
		o.l.Base = o.baseAfter
	} else {
		copy(o.l.Field.Data, o.before)
		o.l.Base = o.baseBefore
	}
	return d.layerCells(o.name, o.l.Field, image.Rect(0, 0, d.w, d.h)), false, nil
}

func (o *dataOp) size() int {
	n := opSize + 4*(len(o.before)+len(o.after))
	for _, b := range []*sim.Field{o.baseBefore, o.baseAfter} {
		if b != nil {
			n += 4 * len(b.Data)
		}
	}
	return n
}

// sceneOp replaces the scene (its settings; the tree is the same object).
type sceneOp struct{ before, after *scene.Scene }

func (o *sceneOp) apply(d *Doc, redo bool) (image.Rectangle, bool, error) {
	if redo {
		d.sc = o.after
	} else {
		d.sc = o.before
	}
	return image.Rectangle{}, o.before.Uplift.UmaxMPerYr != o.after.Uplift.UmaxMPerYr, nil
}

func (o *sceneOp) size() int { return opSize }

// State identifies a state of the document's content: two calls of State
// return the same value exactly when the content (layers, tree, scene) is
// the same as far as the undo history can tell. See MarkSavedState.
type State uint64

func (d *Doc) newID() uint64 {
	d.lastID++
	return d.lastID
}

// state returns the current state's ID.
func (d *Doc) state() uint64 {
	if d.stroke != nil && !d.stroke.Dirty().Empty() {
		return d.strokeID
	}
	if n := len(d.undo); n > 0 {
		return d.undo[n-1].id
	}
	return d.baseID
}

// State returns the current state, to mark saved once a save of the
// Project taken at the same time has succeeded.
func (d *Doc) State() State { return State(d.state()) }

// Dirty reports whether the document differs from the state last marked
// saved (a new document counts as saved).
func (d *Doc) Dirty() bool { return d.state() != d.savedID }

// MarkSaved marks the current state saved.
func (d *Doc) MarkSaved() { d.MarkSavedState(d.State()) }

// MarkSavedState marks state s saved: the document is clean whenever it is
// back in state s. Use it when a save ran in the background (see the
// package documentation).
func (d *Doc) MarkSavedState(s State) {
	d.savedID = uint64(s)
	d.changed++
}

// push records a change already made as an undo entry, or merges it into
// the newest entry when merge continues the open gesture.
func (d *Doc) push(label, merge string, ops ...op) {
	d.changed++
	size := 0
	for _, o := range ops {
		size += o.size()
	}
	if n := len(d.undo); merge != "" && merge == d.gesture && n > 0 && d.undo[n-1].merge == merge {
		top := d.undo[n-1]
		for _, o := range ops {
			if so, ok := o.(*sceneOp); ok {
				if last, ok := top.ops[len(top.ops)-1].(*sceneOp); ok {
					last.after = so.after
					size -= o.size()
					continue
				}
			}
			top.ops = append(top.ops, o)
		}
		top.label = label
		top.size += size
		top.id = d.newID()
		d.bytes += size
		d.trim()
		return
	}
	for _, e := range d.redo {
		d.bytes -= e.size
	}
	clear(d.redo)
	d.redo = d.redo[:0]
	d.undo = append(d.undo, &entry{label: label, merge: merge, ops: ops, id: d.newID(), size: size})
	d.bytes += size
	d.gesture = merge
	d.trim()
}

// trim drops the oldest undo entries while the history holds more than
// its limit, keeping the newest.
func (d *Doc) trim() {
	k := 0
	for k < len(d.undo)-1 && d.bytes > d.limit {
		d.bytes -= d.undo[k].size
		d.baseID = d.undo[k].id
		k++
	}
	if k > 0 {
		d.undo = slices.Delete(d.undo, 0, k)
	}
}

// SetUndoLimit sets the memory the undo history may keep, bytes, and drops
// the oldest entries beyond it. The newest entry is always kept.
func (d *Doc) SetUndoLimit(bytes int) {
	d.limit = bytes
	d.trim()
}

// UndoLimit returns the memory the undo history may keep, bytes.
func (d *Doc) UndoLimit() int { return d.limit }

// UndoBytes returns the memory the undo history keeps now, bytes.
func (d *Doc) UndoBytes() int { return d.bytes }

// UndoLen returns the number of entries that can be undone and redone.
func (d *Doc) UndoLen() (undo, redo int) { return len(d.undo), len(d.redo) }

// EndGesture closes the open gesture: the next call with a merge key
// starts a new undo entry.
func (d *Doc) EndGesture() { d.gesture = "" }

// CanUndo returns the label of the change Undo would undo, and whether
// there is one (a stroke in progress counts: Undo ends it, then undoes it).
func (d *Doc) CanUndo() (label string, ok bool) {
	if d.stroke != nil && d.stroke.Stamps() > 0 && !d.stroke.Dirty().Empty() {
		return strokeLabel(d.stroke.Brush()), true
	}
	if n := len(d.undo); n > 0 {
		return d.undo[n-1].label, true
	}
	return "", false
}

// CanRedo returns the label of the change Redo would redo, and whether
// there is one.
func (d *Doc) CanRedo() (label string, ok bool) {
	if d.stroke != nil && !d.stroke.Dirty().Empty() {
		return "", false // ending the stroke will clear the redo history
	}
	if n := len(d.redo); n > 0 {
		return d.redo[n-1].label, true
	}
	return "", false
}

// Undo undoes the newest change (ending a stroke in progress first) and
// returns its label; ok is false when there was nothing to undo. An error
// means the history did not match the document, which is a bug: the
// document is then left as it is, the uplift re-rasterized, the history
// cleared.
func (d *Doc) Undo() (label string, ok bool, err error) {
	d.endStroke()
	d.gesture = ""
	n := len(d.undo)
	if n == 0 {
		return "", false, nil
	}
	e := d.undo[n-1]
	d.undo = d.undo[:n-1]
	if err := d.applyEntry(e, false); err != nil {
		return e.label, false, err
	}
	d.redo = append(d.redo, e)
	d.changed++
	return e.label, true, nil
}

// Redo redoes the newest undone change and returns its label; ok is false
// when there was nothing to redo. Errors are as Undo's.
func (d *Doc) Redo() (label string, ok bool, err error) {
	d.endStroke()
	d.gesture = ""
	n := len(d.redo)
	if n == 0 {
		return "", false, nil
	}
	e := d.redo[n-1]
	d.redo = d.redo[:n-1]
	if err := d.applyEntry(e, true); err != nil {
		return e.label, false, err
	}
	d.undo = append(d.undo, e)
	d.changed++
	return e.label, true, nil
}

// applyEntry undoes or redoes e and brings the uplift up to date.
func (d *Doc) applyEntry(e *entry, redo bool) error {
	var cells image.Rectangle
	rescale := false
	for i := range e.ops {
		k := len(e.ops) - 1 - i // undo: newest first
		if redo {
			k = i
		}
		c, r, err := e.ops[k].apply(d, redo)
		if err != nil {
			d.undo, d.redo, d.bytes = nil, nil, 0
			d.baseID = d.newID()
			d.refresh(image.Rect(0, 0, d.w, d.h), true)
			d.changed++
			return fmt.Errorf("doc: %s of %q failed, undo history cleared: %w", what(redo), e.label, err)
		}
		cells = cells.Union(c)
		rescale = rescale || r
	}
	d.refresh(cells, rescale)
	return nil
}

func what(redo bool) string {
	if redo {
		return "redo"
	}
	return "undo"
}
