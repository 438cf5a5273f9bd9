package uplifttree

import (
	"fmt"
	"maps"
	"slices"
	"sync"
)

// node is one stored node. Nodes are immutable once in a tree: an edit
// replaces a node by a modified copy, which lets undo records and clones
// share them.
type node struct {
	shape    Shape
	children []ID
}

// Tree is an Uplift Tree: a root node, its descendants, and the compiled
// form used to evaluate it. Make one with New or Unmarshal; the zero Tree
// is not usable. See the package documentation for who may call what
// concurrently.
type Tree struct {
	nodes  map[ID]*node
	root   ID
	next   ID // the next ID Add and Wrap hand out
	layers Layers

	mu    sync.Mutex // guards an and stale
	an    *analysis  // derived from nodes and root; nil until needed
	stale *analysis  // an earlier analysis whose compiled nodes may be reused
}

// Node is a copy of one node of a tree.
type Node struct {
	ID       ID
	Shape    Shape
	Children []ID
}

// Error is a problem with a tree read from JSON or with an edit: the node
// it concerns (0 for the document as a whole), the node's type when known,
// the field (JSON key, or a path into a list such as "ctrl[2].t"), and what
// is wrong.
type Error struct {
	ID    ID
	Type  string
	Field string
	Msg   string
}

func (e *Error) Error() string {
	s := "uplifttree: "
	if e.ID != 0 {
		s += fmt.Sprintf("node %d", e.ID)
		if e.Type != "" {
			s += " (" + e.Type + ")"
		}
		s += ": "
	}
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Msg
}

func nodeErr(id ID, s Shape, field, format string, args ...any) *Error {
	e := &Error{ID: id, Field: field, Msg: fmt.Sprintf(format, args...)}
	if s != nil {
		e.Type = s.Type()
	}
	return e
}

// New returns a tree holding one empty Sum as its root, with ID 1.
func New() *Tree {
	return &Tree{nodes: map[ID]*node{1: {shape: &Sum{}}}, root: 1, next: 2}
}

// Clone returns an independent copy of t (nodes and compiled evaluators
// are shared, which is safe because they are never modified). The copy has
// no layers bound.
func (t *Tree) Clone() *Tree {
	t.mu.Lock()
	defer t.mu.Unlock()
	return &Tree{nodes: maps.Clone(t.nodes), root: t.root, next: t.next, an: t.an, stale: t.stale}
}

// Root returns the ID of the root node.
func (t *Tree) Root() ID { return t.root }

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.nodes) }

// IDs returns the IDs of all nodes in increasing order.
func (t *Tree) IDs() []ID {
	return slices.Sorted(maps.Keys(t.nodes))
}

// Node returns a copy of node id.
func (t *Tree) Node(id ID) (Node, bool) {
	n, ok := t.nodes[id]
	if !ok {
		return Node{}, false
	}
	return Node{ID: id, Shape: n.shape.clone(), Children: slices.Clone(n.children)}, true
}

// Parent returns the parent of id, or 0 for the root or a missing node.
func (t *Tree) Parent(id ID) ID { return t.analysis().parent[id] }

// Bounds returns the box of node id in its own frame (world metres when no
// transform or warp lies above it), outside of which it takes one constant
// value; Empty for a missing node.
func (t *Tree) Bounds(id ID) Rect {
	if e, ok := t.analysis().enodes[id]; ok {
		return e.h().box
	}
	return Empty
}

// Param returns a copy of parameter name of node id.
func (t *Tree) Param(id ID, name string) (any, error) {
	n, ok := t.nodes[id]
	if !ok {
		return nil, &Error{ID: id, Msg: "no such node"}
	}
	p, ok := lookup(n.shape, name)
	if !ok {
		return nil, nodeErr(id, n.shape, name, "unknown parameter; %s", paramList(n.shape))
	}
	return p.get(), nil
}

func paramList(s Shape) string {
	var names []string
	for _, p := range s.params() {
		names = append(names, p.name)
	}
	if len(names) == 0 {
		return "a " + s.Type() + " has no parameters"
	}
	return fmt.Sprintf("a %s has %q", s.Type(), names)
}

// SetLayers binds the layers that Eval, Pick and (when given nil layers)
// Rasterize sample.
func (t *Tree) SetLayers(l Layers) { t.layers = l }

// LayerNames returns the names of the layers the tree's Raster nodes read,
// sorted, without repeats.
func (t *Tree) LayerNames() []string {
	var names []string
	for _, n := range t.nodes {
		if r, ok := n.shape.(*Raster); ok && !slices.Contains(names, r.Layer) {
			names = append(names, r.Layer)
		}
	}
	slices.Sort(names)
	return names
}

// analysis is everything derived from a tree's nodes: parents, a
// topological order, instance users and the compiled evaluators.
type analysis struct {
	parent map[ID]ID
	order  []ID       // every node after its children and its instance target
	index  map[ID]int // position in order
	users  map[ID][]ID
	enodes map[ID]enode
	root   enode
}

// enode returns the compiled node id of an (which may be nil).
func (an *analysis) enode(id ID) (enode, bool) {
	if an == nil {
		return nil, false
	}
	e, ok := an.enodes[id]
	return e, ok
}

// analysis returns the tree's analysis, building it if needed.
func (t *Tree) analysis() *analysis {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.an == nil {
		an, err := analyze(t.nodes, t.root, t.stale)
		if err != nil {
			panic("uplifttree: internal: stored tree is invalid: " + err.Error())
		}
		t.an, t.stale = an, nil
	}
	return t.an
}

// analyze validates nodes rooted at root and derives their analysis. It is
// the one check behind Unmarshal and every edit. Compiled nodes of prev
// (an analysis of an earlier state, or nil) are reused where the node and
// everything it depends on are unchanged.
func analyze(nodes map[ID]*node, root ID, prev *analysis) (*analysis, error) {
	if len(nodes) > maxNodes {
		return nil, &Error{Field: "nodes", Msg: fmt.Sprintf("at most %d nodes, got %d", maxNodes, len(nodes))}
	}
	if _, ok := nodes[root]; !ok {
		return nil, &Error{Field: "root", Msg: fmt.Sprintf("names node %d, which does not exist", root)}
	}
	ids := slices.Sorted(maps.Keys(nodes))
	an := &analysis{parent: make(map[ID]ID, len(nodes)), users: map[ID][]ID{}}
	for _, id := range ids {
		n := nodes[id]
		if id <= 0 {
			return nil, &Error{ID: id, Field: "id", Msg: "must be positive"}
		}
		if pe, ok := prev.enode(id); !ok || pe.h().src != n {
			if e := n.shape.check(); e != nil {
				return nil, nodeErr(id, n.shape, e.field, "%s", e.msg)
			}
		}
		lo, hi := childRange(n.shape)
		if k := len(n.children); k < lo || (hi >= 0 && k > hi) {
			return nil, nodeErr(id, n.shape, "children", "%s", countMsg(n.shape, k))
		}
		for _, c := range n.children {
			if _, ok := nodes[c]; !ok {
				return nil, nodeErr(id, n.shape, "children", "names node %d, which does not exist", c)
			}
			if c == root {
				return nil, nodeErr(id, n.shape, "children", "names the root %d", c)
			}
			if p, dup := an.parent[c]; dup {
				return nil, nodeErr(id, n.shape, "children", "node %d is already a child of node %d", c, p)
			}
			an.parent[c] = id
		}
		if in, ok := n.shape.(*Instance); ok {
			if _, ok := nodes[in.Ref]; !ok {
				return nil, nodeErr(id, n.shape, "ref", "names node %d, which does not exist", in.Ref)
			}
			an.users[in.Ref] = append(an.users[in.Ref], id)
		}
	}
	for _, id := range ids {
		if _, ok := an.parent[id]; !ok && id != root {
			return nil, nodeErr(id, nodes[id].shape, "", "is not reachable from the root %d; give it a parent or remove it", root)
		}
	}
	if err := an.sort(nodes, root); err != nil {
		return nil, err
	}
	if len(an.order) != len(nodes) {
		seen := make(map[ID]bool, len(an.order))
		for _, id := range an.order {
			seen[id] = true
		}
		for _, id := range ids {
			if !seen[id] {
				return nil, nodeErr(id, nodes[id].shape, "", "is not reachable from the root %d (its ancestors form a cycle)", root)
			}
		}
	}
	an.index = make(map[ID]int, len(an.order))
	for i, id := range an.order {
		an.index[id] = i
	}
	an.enodes = make(map[ID]enode, len(nodes))
	fresh := map[ID]bool{} // compiled anew, so their users must be too
	for _, id := range an.order {
		n := nodes[id]
		var ref ID
		if in, ok := n.shape.(*Instance); ok {
			ref = in.Ref
		}
		if pe, ok := prev.enode(id); ok && pe.h().src == n && !fresh[ref] &&
			!slices.ContainsFunc(n.children, func(c ID) bool { return fresh[c] }) {
			an.enodes[id] = pe
			continue
		}
		fresh[id] = true
		kids := make([]enode, len(n.children))
		for i, c := range n.children {
			kids[i] = an.enodes[c]
		}
		e := compile(id, n.shape, kids, an.enodes[ref])
		h := e.h()
		h.src = n
		if h.depth > maxDepth {
			return nil, nodeErr(id, n.shape, "", "nests %d levels deep (instances expanded); the limit is %d", h.depth, maxDepth)
		}
		if h.cost > maxCost {
			return nil, nodeErr(id, n.shape, "", "costs %d units per point (instances expanded); the limit is %d", h.cost, maxCost)
		}
		an.enodes[id] = e
	}
	an.root = an.enodes[root]
	return an, nil
}

func countMsg(s Shape, k int) string {
	lo, hi := childRange(s)
	switch {
	case hi == 0:
		return fmt.Sprintf("a %s takes no children, got %d", s.Type(), k)
	case lo == hi:
		return fmt.Sprintf("a %s takes exactly %d child, got %d", s.Type(), lo, k)
	case hi < 0:
		return fmt.Sprintf("a %s takes at least %d children, got %d", s.Type(), lo, k)
	}
	return fmt.Sprintf("a %s takes %d to %d children, got %d", s.Type(), lo, hi, k)
}

// sort fills an.order by a depth-first walk from the root over child and
// instance edges, children and targets first, and reports an instance that
// leads back to itself.
func (an *analysis) sort(nodes map[ID]*node, root ID) error {
	const (
		white = iota
		grey
		black
	)
	colour := make(map[ID]uint8, len(nodes))
	type frame struct {
		id   ID
		next int // index of the next edge to follow
	}
	edges := func(id ID) (kids []ID, ref ID) {
		n := nodes[id]
		if in, ok := n.shape.(*Instance); ok {
			ref = in.Ref
		}
		return n.children, ref
	}
	stack := []frame{{root, 0}}
	colour[root] = grey
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		kids, ref := edges(f.id)
		var to ID
		switch {
		case f.next < len(kids):
			to = kids[f.next]
		case f.next == len(kids) && ref != 0:
			to = ref
		default:
			colour[f.id] = black
			an.order = append(an.order, f.id)
			stack = stack[:len(stack)-1]
			continue
		}
		f.next++
		switch colour[to] {
		case white:
			colour[to] = grey
			stack = append(stack, frame{to, 0})
		case grey:
			// Child edges form a tree, so a cycle passes through an
			// instance; report the innermost one on the cycle.
			for i := len(stack) - 1; i >= 0; i-- {
				id := stack[i].id
				if in, ok := nodes[id].shape.(*Instance); ok {
					return nodeErr(id, in, "ref", "instance of node %d leads back to itself (node %d is its ancestor or reaches it through other instances)", in.Ref, to)
				}
				if id == to {
					break
				}
			}
			return &Error{ID: to, Msg: "is part of a cycle"}
		}
	}
	return nil
}
