// Package passq is the priority queue of the tree of lakes (Cordonnier et al.
// 2016, §4.3): a binary min-heap of pass edges keyed by height, ties broken
// by edge number, so the order in which lakes join the outlets depends on
// nothing but the heights. Both engines (sim/flow on the grid, sim/graph on
// the stream graph) use it.
package passq

// Item is one pass edge: its height W (metres) and its number E.
type Item struct {
	W float32
	E int32
}

// Less orders items by height, then edge number.
func (a Item) Less(b Item) bool { return a.W < b.W || (a.W == b.W && a.E < b.E) }

// Queue is a binary min-heap of items. The zero value is empty; reuse one
// with q = q[:0].
type Queue []Item

// Push adds it.
func (q *Queue) Push(it Item) {
	h := append(*q, it)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].Less(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	*q = h
}

// Pop removes and returns the least item. It panics on an empty queue.
func (q *Queue) Pop() Item {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && h[r].Less(h[l]) {
			c = r
		}
		if !h[c].Less(h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	*q = h
	return top
}
