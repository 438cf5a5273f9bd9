// Package cellheap is a binary min-heap of grid cells keyed by height,
// ties going to the lower cell index, so that the order cells come out in
// depends only on what went in: the priority queue of Priority-Flood
// depression filling (sim/analysis) and of lake filling (sim/roudier).
package cellheap

// Heap holds cells (indices) with their heights. The zero value is empty
// and ready to use.
type Heap[H float32 | float64] struct {
	e []entry[H]
}

// entry is a cell and its height, side by side: a comparison reads one
// place in memory.
type entry[H float32 | float64] struct {
	h H
	i int32
}

// Len returns the number of cells in the heap.
func (q *Heap[H]) Len() int { return len(q.e) }

// Reset empties the heap, keeping its storage.
func (q *Heap[H]) Reset() { q.e = q.e[:0] }

// less orders entries by height, then index.
func less[H float32 | float64](a, b entry[H]) bool {
	return a.h < b.h || (a.h == b.h && a.i < b.i)
}

// Push adds cell i at height h.
func (q *Heap[H]) Push(i int32, h H) {
	x := entry[H]{h, i}
	q.e = append(q.e, x)
	e := q.e
	k := len(e) - 1
	for k > 0 {
		p := (k - 1) / 2
		if !less(x, e[p]) {
			break
		}
		e[k] = e[p]
		k = p
	}
	e[k] = x
}

// Pop removes and returns the lowest cell and its height (of equal
// heights, the lowest index). The heap must not be empty.
func (q *Heap[H]) Pop() (int32, H) {
	e := q.e
	top := e[0]
	last := len(e) - 1
	x := e[last]
	e = e[:last]
	q.e = e
	if last == 0 {
		return top.i, top.h
	}
	// Sift the last entry down from the root.
	k := 0
	for {
		l := 2*k + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && less(e[r], e[l]) {
			m = r
		}
		if !less(e[m], x) {
			break
		}
		e[k] = e[m]
		k = m
	}
	e[k] = x
	return top.i, top.h
}
