package water

import "orogen/sim"

// pairing is a set of pairing heaps (Fredman et al. 1986) over items
// 0..n-1 keyed by key, ties going to the lower item: meld in O(1), pop in
// O(log n) amortized. Each lake keeps its pass entries and its basins in
// such heaps, so merging lakes melds their heaps. A heap is named by its
// root item, -1 when empty.
type pairing struct {
	key        []float64
	child, sib []int32
	tmp        []int32
}

// reset sizes the heaps for n items, each in no heap.
func (p *pairing) reset(n int) {
	p.key = sim.ResizeSpare(p.key, n)
	p.child = sim.ResizeSpare(p.child, n)
	p.sib = sim.ResizeSpare(p.sib, n)
	for i := range p.child {
		p.child[i], p.sib[i] = -1, -1
	}
}

func (p *pairing) less(a, b int32) bool {
	return p.key[a] < p.key[b] || (p.key[a] == p.key[b] && a < b)
}

// meld returns the root of the union of heaps a and b.
func (p *pairing) meld(a, b int32) int32 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	if p.less(b, a) {
		a, b = b, a
	}
	p.sib[b] = p.child[a]
	p.child[a] = b
	return a
}

// pop removes root r from its heap and returns the new root.
func (p *pairing) pop(r int32) int32 {
	// Two-pass pairing: meld the children in pairs left to right, then
	// the pairs right to left.
	q := p.tmp[:0]
	for c := p.child[r]; c >= 0; {
		a := c
		b := p.sib[a]
		p.sib[a] = -1
		if b < 0 {
			q = append(q, a)
			break
		}
		c = p.sib[b]
		p.sib[b] = -1
		q = append(q, p.meld(a, b))
	}
	p.child[r] = -1
	root := int32(-1)
	for k := len(q) - 1; k >= 0; k-- {
		root = p.meld(q[k], root)
	}
	p.tmp = q
	return root
}
