// Package cellheap is a binary min-heap of grid cells keyed by height,
// ties going to the lower cell index, so that the order cells come out in
// depends only on what went in: the priority queue of Priority-Flood
// depression filling (sim/analysis) and of lake filling (sim/roudier).
package cellheap

// Heap holds cells (indices) with their heights. The zero value is empty
// and ready to use.
type Heap[H float32 | float64] struct {
	i []int32
	h []H
}

// Len returns the number of cells in the heap.
func (q *Heap[H]) Len() int { return len(q.i) }

// Reset empties the heap, keeping its storage.
func (q *Heap[H]) Reset() { q.i, q.h = q.i[:0], q.h[:0] }

func (q *Heap[H]) less(a, b int) bool {
	return q.h[a] < q.h[b] || (q.h[a] == q.h[b] && q.i[a] < q.i[b])
}

func (q *Heap[H]) swap(a, b int) {
	q.i[a], q.i[b] = q.i[b], q.i[a]
	q.h[a], q.h[b] = q.h[b], q.h[a]
}

// Push adds cell i at height h.
func (q *Heap[H]) Push(i int32, h H) {
	q.i = append(q.i, i)
	q.h = append(q.h, h)
	for k := len(q.i) - 1; k > 0; {
		p := (k - 1) / 2
		if !q.less(k, p) {
			break
		}
		q.swap(k, p)
		k = p
	}
}

// Pop removes and returns the lowest cell and its height (of equal
// heights, the lowest index). The heap must not be empty.
func (q *Heap[H]) Pop() (int32, H) {
	i, h := q.i[0], q.h[0]
	last := len(q.i) - 1
	q.swap(0, last)
	q.i, q.h = q.i[:last], q.h[:last]
	for k := 0; ; {
		l, r, m := 2*k+1, 2*k+2, k
		if l < last && q.less(l, m) {
			m = l
		}
		if r < last && q.less(r, m) {
			m = r
		}
		if m == k {
			break
		}
		q.swap(k, m)
		k = m
	}
	return i, h
}
