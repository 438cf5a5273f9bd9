package uplifttree

import (
	"fmt"
	"image"
	"maps"
	"math"
	"slices"

	"orogen/sim"
)

// Edit is the undo record of one edit. Undo and Redo move the tree between
// the states before and after the edit; both states have the same dirty
// rectangle. Records must be undone in reverse order and redone in order;
// a record applied to a tree in the wrong state returns an error and
// changes nothing.
type Edit struct {
	node       ID
	changes    []change
	rootBefore ID
	rootAfter  ID
	nextBefore ID
	nextAfter  ID
	dirty      Rect
}

// change is one node's state before and after an edit (nil: absent).
type change struct {
	id            ID
	before, after *node
}

// Node returns the node the edit is about: the new node for Add and Wrap,
// the removed node for Remove and Unwrap, the edited one otherwise.
func (e *Edit) Node() ID { return e.node }

// Dirty returns the world rectangle where the tree's value may differ
// between the states before and after the edit (Everywhere when it cannot
// be bounded, for instance when a change alters a value far from any
// primitive). Re-rasterizing the cells CellRect gives for it brings a
// raster of one state to the other exactly.
func (e *Edit) Dirty() Rect { return e.dirty }

// Undo returns t to its state before the edit.
func (e *Edit) Undo(t *Tree) error {
	return e.apply(t, false)
}

// Redo applies the edit again after Undo.
func (e *Edit) Redo(t *Tree) error {
	return e.apply(t, true)
}

func (e *Edit) apply(t *Tree, redo bool) error {
	from, to := e.rootAfter, e.rootBefore
	nfrom, nto := e.nextAfter, e.nextBefore
	if redo {
		from, to, nfrom, nto = to, from, nto, nfrom
	}
	if t.root != from || t.next != nfrom {
		return fmt.Errorf("uplifttree: the tree is not in the state this edit expects; undo in reverse order, redo in order")
	}
	for _, c := range e.changes {
		want := c.after
		if redo {
			want = c.before
		}
		if t.nodes[c.id] != want {
			return fmt.Errorf("uplifttree: node %d is not in the state this edit expects; undo in reverse order, redo in order", c.id)
		}
	}
	for _, c := range e.changes {
		n := c.before
		if redo {
			n = c.after
		}
		if n == nil {
			delete(t.nodes, c.id)
		} else {
			t.nodes[c.id] = n
		}
	}
	t.root, t.next = to, nto
	t.mu.Lock()
	if t.an != nil {
		t.stale = t.an
	}
	t.an = nil
	t.mu.Unlock()
	return nil
}

// draft collects the changes of an edit on a copy of the node map.
type draft struct {
	t       *Tree
	nodes   map[ID]*node
	root    ID
	next    ID
	changed map[ID]bool
	order   []ID
	moved   ID // a child moved within one parent (Move), for the dirty rectangle
}

func (t *Tree) draft() *draft {
	return &draft{t: t, nodes: maps.Clone(t.nodes), root: t.root, next: t.next, changed: map[ID]bool{}}
}

// set replaces (nil: deletes) node id in the draft.
func (d *draft) set(id ID, n *node) {
	if !d.changed[id] {
		d.changed[id] = true
		d.order = append(d.order, id)
	}
	if n == nil {
		delete(d.nodes, id)
	} else {
		d.nodes[id] = n
	}
}

// withChildren returns a copy of n with the given children.
func withChildren(n *node, kids []ID) *node { return &node{shape: n.shape, children: kids} }

// commit validates the draft, computes the dirty rectangle and makes the
// draft the tree's state.
func (d *draft) commit(about ID) (*Edit, error) {
	t := d.t
	oldAn := t.analysis()
	newAn, err := analyze(d.nodes, d.root, oldAn)
	if err != nil {
		return nil, err
	}
	e := &Edit{node: about, rootBefore: t.root, rootAfter: d.root, nextBefore: t.next, nextAfter: d.next}
	for _, id := range d.order {
		e.changes = append(e.changes, change{id, t.nodes[id], d.nodes[id]})
	}
	e.dirty = d.dirtyRect(oldAn, newAn, e.changes)
	t.nodes, t.root, t.next = d.nodes, d.root, d.next
	t.mu.Lock()
	t.an = newAn
	t.mu.Unlock()
	return e, nil
}

// region returns the rectangle (in the node's frame) where a node that
// went from box/out a to box/out b may have changed value: both boxes when
// the outside value is the same, everywhere otherwise.
func region(a, b *hdr) Rect {
	if a.out != b.out {
		return Everywhere
	}
	return a.box.Union(b.box)
}

// dirtyRect bounds where the edit changes the root's value. Every node
// whose content changed seeds the region where its own value changed;
// the regions are carried up to the root through parents (lifted through
// transforms and warps) and through the instances that copy them, in the
// old tree and in the new one.
func (d *draft) dirtyRect(oldAn, newAn *analysis, changes []change) Rect {
	dirty := Empty
	if d.root != d.t.root {
		dirty = region(oldAn.root.h(), newAn.root.h())
	}
	seeds := map[ID]Rect{}
	for _, c := range changes {
		if c.before == nil || c.after == nil {
			continue // added or removed: seen by its parent's change
		}
		seeds[c.id] = d.seed(c, oldAn, newAn)
	}
	return dirty.Union(oldAn.propagate(seeds)).Union(newAn.propagate(seeds))
}

// seed returns the region, in the node's frame, where node c.id changed.
func (d *draft) seed(c change, oldAn, newAn *analysis) Rect {
	oh, nh := oldAn.enodes[c.id].h(), newAn.enodes[c.id].h()
	whole := region(oh, nh)
	if c.before.shape != c.after.shape {
		return whole // parameters changed
	}
	typ := c.before.shape.Type()
	if typ != TypeSum && typ != TypeMax && typ != TypeMin {
		return whole
	}
	old, cur := c.before.children, c.after.children
	var removed, added, commonOld, commonNew []ID
	for _, k := range old {
		if slices.Contains(cur, k) {
			commonOld = append(commonOld, k)
		} else {
			removed = append(removed, k)
		}
	}
	for _, k := range cur {
		if slices.Contains(old, k) {
			commonNew = append(commonNew, k)
		} else {
			added = append(added, k)
		}
	}
	if !slices.Equal(commonOld, commonNew) {
		// Only a child moved within this node is understood: outside its
		// box it is exactly 0 and the others keep their relative order.
		m := d.moved
		if m == 0 || !slices.Equal(del(commonOld, m), del(commonNew, m)) {
			return whole
		}
		removed, added = append(removed, m), append(added, m)
		commonOld, commonNew = del(commonOld, m), del(commonNew, m)
	}
	r := Empty
	for _, set := range []struct {
		kids   []ID
		common []ID
		an     *analysis
	}{{removed, commonOld, oldAn}, {added, commonNew, newAn}} {
		for _, k := range set.kids {
			kh := set.an.enodes[k].h()
			if !neutral(typ, kh.out, set.common, set.an) {
				return whole
			}
			r = r.Union(kh.box)
		}
	}
	return r
}

// neutral reports whether a child whose outside value is out changes
// nothing, outside its box, when it joins (or leaves) an operator of type
// typ whose other children are common: for a sum, out must be 0; for a max
// (min), out must not exceed (fall below) the least (greatest) value the
// others' max (min) can take.
func neutral(typ string, out float64, common []ID, an *analysis) bool {
	if typ == TypeSum {
		return out == 0
	}
	if len(common) == 0 {
		return false
	}
	if typ == TypeMax {
		lo := math.Inf(-1)
		for _, k := range common {
			lo = max(lo, an.enodes[k].h().lo)
		}
		return out <= lo
	}
	hi := math.Inf(1)
	for _, k := range common {
		hi = min(hi, an.enodes[k].h().hi)
	}
	return out >= hi
}

func del(ids []ID, x ID) []ID {
	return slices.DeleteFunc(slices.Clone(ids), func(v ID) bool { return v == x })
}

// propagate carries regions seeded at nodes (each in its node's frame, for
// nodes of this analysis) up to the root and returns their union there.
func (an *analysis) propagate(seeds map[ID]Rect) Rect {
	acc := map[ID]Rect{}
	start := len(an.order)
	for id, r := range seeds {
		if i, ok := an.index[id]; ok {
			acc[id] = r
			start = min(start, i)
		}
	}
	add := func(id ID, r Rect) {
		if q, ok := acc[id]; ok {
			r = q.Union(r)
		}
		acc[id] = r
	}
	world := Empty
	for _, id := range an.order[start:] {
		r, ok := acc[id]
		if !ok || r.IsEmpty() {
			continue
		}
		if id == an.root.h().id {
			world = world.Union(r)
		}
		if p, ok := an.parent[id]; ok {
			add(p, lift(an.enodes[p], r))
		}
		for _, u := range an.users[id] {
			add(u, lift(an.enodes[u], r))
		}
	}
	return world
}

// LayerDirty returns the world rectangle where the tree's value may change
// when cells of the named layer (the field layer, as supplied through
// Layers) change: the cells' bilinear footprint in every Raster node that
// reads the layer, carried up to the root.
func (t *Tree) LayerDirty(name string, layer *sim.Field, cells image.Rectangle) Rect {
	an := t.analysis()
	cells = cells.Intersect(image.Rect(0, 0, layer.W, layer.H))
	if cells.Empty() {
		return Empty
	}
	seeds := map[ID]Rect{}
	for id, n := range t.nodes {
		r, ok := n.shape.(*Raster)
		if !ok || r.Layer != name {
			continue
		}
		cw := (r.Rect.X1 - r.Rect.X0) / float64(layer.W)
		ch := (r.Rect.Y1 - r.Rect.Y0) / float64(layer.H)
		// A cell's value reaches one cell beyond its centre; at the layer's
		// border the edge value also fills the outer half-cell.
		q := Rect{
			r.Rect.X0 + float64(cells.Min.X-1)*cw, r.Rect.Y0 + float64(cells.Min.Y-1)*ch,
			r.Rect.X0 + float64(cells.Max.X+1)*cw, r.Rect.Y0 + float64(cells.Max.Y+1)*ch,
		}
		seeds[id] = q.Intersect(an.enodes[id].h().box).pad()
	}
	return an.propagate(seeds)
}

// ---- edits ----

func (t *Tree) node(id ID) (*node, error) {
	n, ok := t.nodes[id]
	if !ok {
		return nil, &Error{ID: id, Msg: "no such node"}
	}
	return n, nil
}

func insertAt(ids []ID, i int, id ID) ([]ID, error) {
	if i < 0 {
		i = len(ids)
	}
	if i > len(ids) {
		return nil, fmt.Errorf("index %d is beyond the %d children", i, len(ids))
	}
	return slices.Insert(slices.Clone(ids), i, id), nil
}

// Add inserts a new node of shape s (copied) as child index of parent
// (index −1 appends). s must be a primitive, an instance or an operator
// that may have no children (sum, max, min, blend); wrap existing nodes in
// other operators with Wrap. The new node's ID is the returned Edit's
// Node().
func (t *Tree) Add(parent ID, index int, s Shape) (*Edit, error) {
	if s == nil {
		return nil, &Error{Msg: "Add: nil shape"}
	}
	p, err := t.node(parent)
	if err != nil {
		return nil, err
	}
	if lo, _ := childRange(s); lo > 0 {
		return nil, &Error{Type: s.Type(), Msg: fmt.Sprintf("a %s needs a child; add it around an existing node with Wrap", s.Type())}
	}
	kids, err := insertAt(p.children, index, t.next)
	if err != nil {
		return nil, nodeErr(parent, p.shape, "children", "%v", err)
	}
	d := t.draft()
	id := d.next
	d.next++
	d.set(parent, withChildren(p, kids))
	d.set(id, &node{shape: s.clone()})
	return d.commit(id)
}

// Wrap puts a new node of shape s (copied) in the place of node id and
// makes id its only child: a transform, warp, clamp or scale around a
// subtree, or a group. The new node's ID is the returned Edit's Node().
func (t *Tree) Wrap(id ID, s Shape) (*Edit, error) {
	if s == nil {
		return nil, &Error{Msg: "Wrap: nil shape"}
	}
	if _, err := t.node(id); err != nil {
		return nil, err
	}
	if lo, hi := childRange(s); lo > 1 || hi == 0 {
		return nil, &Error{Type: s.Type(), Msg: fmt.Sprintf("a %s cannot take one child", s.Type())}
	}
	d := t.draft()
	w := d.next
	d.next++
	d.set(w, &node{shape: s.clone(), children: []ID{id}})
	d.replaceChild(id, w)
	return d.commit(w)
}

// replaceChild puts node to where node from is: in its parent's children,
// or as the root.
func (d *draft) replaceChild(from, to ID) {
	if from == d.root {
		d.root = to
		return
	}
	p := d.t.Parent(from)
	pn := d.nodes[p]
	kids := slices.Clone(pn.children)
	kids[slices.Index(kids, from)] = to
	d.set(p, withChildren(pn, kids))
}

// Unwrap removes operator id, which must have exactly one child, and puts
// the child in its place.
func (t *Tree) Unwrap(id ID) (*Edit, error) {
	n, err := t.node(id)
	if err != nil {
		return nil, err
	}
	if len(n.children) != 1 {
		return nil, nodeErr(id, n.shape, "children", "can only unwrap a node with exactly one child, it has %d", len(n.children))
	}
	if err := t.checkUnreferenced(id, []ID{id}); err != nil {
		return nil, err
	}
	d := t.draft()
	d.replaceChild(id, n.children[0])
	d.set(id, nil)
	return d.commit(id)
}

// subtree returns id and its descendants.
func (t *Tree) subtree(id ID) []ID {
	out := []ID{id}
	for i := 0; i < len(out); i++ {
		out = append(out, t.nodes[out[i]].children...)
	}
	return out
}

// checkUnreferenced fails if an instance outside gone references a node in
// gone.
func (t *Tree) checkUnreferenced(id ID, gone []ID) error {
	an := t.analysis()
	for _, g := range gone {
		for _, u := range an.users[g] {
			if !slices.Contains(gone, u) {
				return nodeErr(id, t.nodes[id].shape, "", "node %d is referenced by instance %d; remove or retarget the instance first", g, u)
			}
		}
	}
	return nil
}

// Remove deletes node id and its descendants. The root cannot be removed,
// nor the only child of an operator that needs one (remove or unwrap the
// operator instead), nor a node an instance elsewhere references.
func (t *Tree) Remove(id ID) (*Edit, error) {
	n, err := t.node(id)
	if err != nil {
		return nil, err
	}
	if id == t.root {
		return nil, nodeErr(id, n.shape, "", "the root cannot be removed; wrap or replace it instead")
	}
	gone := t.subtree(id)
	if err := t.checkUnreferenced(id, gone); err != nil {
		return nil, err
	}
	p := t.Parent(id)
	pn := t.nodes[p]
	d := t.draft()
	d.set(p, withChildren(pn, del(pn.children, id)))
	for _, g := range gone {
		d.set(g, nil)
	}
	return d.commit(id)
}

// Move makes node id child number index of newParent (−1: the last),
// counting positions after id has left its old place; newParent may be
// id's current parent, which reorders. newParent may not be id or one of
// its descendants.
func (t *Tree) Move(id, newParent ID, index int) (*Edit, error) {
	n, err := t.node(id)
	if err != nil {
		return nil, err
	}
	np, err := t.node(newParent)
	if err != nil {
		return nil, err
	}
	if id == t.root {
		return nil, nodeErr(id, n.shape, "", "the root cannot be moved")
	}
	if slices.Contains(t.subtree(id), newParent) {
		return nil, nodeErr(id, n.shape, "", "cannot move under itself or its descendant %d", newParent)
	}
	old := t.Parent(id)
	d := t.draft()
	on := t.nodes[old]
	d.set(old, withChildren(on, del(on.children, id)))
	base := d.nodes[newParent].children
	if newParent != old {
		base = np.children
	}
	kids, err := insertAt(base, index, id)
	if err != nil {
		return nil, nodeErr(newParent, np.shape, "children", "%v", err)
	}
	d.set(newParent, withChildren(np, kids))
	if old == newParent {
		d.moved = id
	}
	return d.commit(id)
}

// SetParam sets parameter name of node id to v, a value of the Go type its
// ParamType names (see Params). The new value is validated as Unmarshal
// would; an instance's ref may not create a cycle.
func (t *Tree) SetParam(id ID, name string, v any) (*Edit, error) {
	n, err := t.node(id)
	if err != nil {
		return nil, err
	}
	s := n.shape.clone()
	p, ok := lookup(s, name)
	if !ok {
		return nil, nodeErr(id, s, name, "unknown parameter; %s", paramList(s))
	}
	if err := p.set(v); err != nil {
		return nil, nodeErr(id, s, name, "%v", err)
	}
	d := t.draft()
	d.set(id, &node{shape: s, children: n.children})
	return d.commit(id)
}
