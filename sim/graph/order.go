package graph

import (
	"sync/atomic"

	"orogen/sim"
	"orogen/sim/parallel"
)

// The stream trees in parallel. Every receiver is a Delaunay neighbour (the
// routing picks one, carving reverses paths of them), so the donors of node
// r are its neighbours j with rec[j] == r, ascending because Nbr is sorted:
// each node finds its own, with no shared counter. Workers then list the
// trees of the roots they claim, each breadth-first from its root, into
// their own buffers; the stack is the trees in root order, concatenated.
//
// A tree's list is the subsequence of the single breadth-first traversal
// from all roots that the serial engine made (its queue is first in, first
// out, and a tree's nodes only ever enter it behind the tree's earlier
// nodes), so every node's donors keep their relative order in the stack,
// and sums over donors in reverse stack order (drainage area, discharge)
// add the same terms in the same order, bit for bit. Which worker lists
// which tree varies from run to run; no tree's contents or order do.

// rootBlock is the number of roots a worker claims at a time.
const rootBlock = 16

// stackBlock is the number of stack positions per block of the loops in
// drainage order that need no whole trees (layout, copies).
const stackBlock = 1 << 13

// trees finds the donors of e.rec, the roots (ascending) and the stream
// tree of each root, breadth-first into the workers' buffers, and labels
// each node with its tree's root in e.basin. assemble then builds the
// stack.
func (e *Engine) trees() {
	m := e.m
	n := m.N
	nb := parallel.NumBlocks(n, measureBlock)
	e.don = sim.Resize(e.don, len(m.Nbr))
	e.ndon = sim.Resize(e.ndon, n)
	e.blockRoots = sim.Resize(e.blockRoots, nb)
	e.blockLinks = sim.Resize(e.blockLinks, nb)
	parallel.Blocks(n, measureBlock, func(b, lo, hi int) {
		roots := e.blockRoots[b][:0]
		var links int64
		for r := lo; r < hi; r++ {
			k0 := m.NbrOff[r]
			k := k0
			for _, j := range m.Nbr[k0:m.NbrOff[r+1]] {
				if int(e.rec[j]) == r {
					e.don[k] = j
					k++
				}
			}
			e.ndon[r] = k - k0
			links += int64(k - k0)
			if int(e.rec[r]) == r {
				roots = append(roots, int32(r))
			}
		}
		e.blockRoots[b] = roots
		e.blockLinks[b] = links
	})
	e.roots = e.roots[:0]
	var links int64
	for b := range nb {
		e.roots = append(e.roots, e.blockRoots[b]...)
		links += e.blockLinks[b]
	}
	if int(links) != n-len(e.roots) {
		panic("graph: a receiver is not a neighbour")
	}
	nr := len(e.roots)
	e.segW = sim.ResizeSpare(e.segW, nr)
	e.segOff = sim.ResizeSpare(e.segOff, nr)
	e.treeOff = sim.ResizeSpare(e.treeOff, nr+1)
	workers := min(parallel.Workers(), parallel.NumBlocks(nr, rootBlock))
	for len(e.bufs) < workers {
		e.bufs = append(e.bufs, nil)
	}
	var next atomic.Int64
	parallel.Do(workers, func(w int) {
		buf := e.bufs[w][:0]
		for {
			lo := int(next.Add(rootBlock)) - rootBlock
			if lo >= nr {
				break
			}
			for t := lo; t < min(nr, lo+rootBlock); t++ {
				root := e.roots[t]
				start := len(buf)
				e.segW[t], e.segOff[t] = int32(w), int32(start)
				e.basin[root] = root
				buf = append(buf, root)
				for q := start; q < len(buf); q++ {
					i := buf[q]
					k0 := m.NbrOff[i]
					for _, d := range e.don[k0 : k0+e.ndon[i]] {
						e.basin[d] = root
						buf = append(buf, d)
					}
				}
				e.treeOff[t+1] = int32(len(buf) - start) // the size, for now
			}
		}
		e.bufs[w] = buf
	})
	e.treeOff[0] = 0
	for t := range nr {
		e.treeOff[t+1] += e.treeOff[t]
	}
	if int(e.treeOff[nr]) != n {
		panic("graph: receivers form a cycle")
	}
}

// assemble concatenates the trees listed by trees into e.stack, in root
// order (Stack[treeOff[t]:treeOff[t+1]] is the tree of roots[t]), and sets
// e.pos.
func (e *Engine) assemble() {
	n := e.m.N
	e.stack = sim.Resize(e.stack, n)
	parallel.Blocks(n, stackBlock, func(_, lo, hi int) {
		// The first tree reaching into [lo, hi).
		a, b := 0, len(e.roots)
		for a < b {
			mid := (a + b) / 2
			if int(e.treeOff[mid+1]) <= lo {
				a = mid + 1
			} else {
				b = mid
			}
		}
		for t, k := a, lo; k < hi; t++ {
			t0, t1 := int(e.treeOff[t]), int(e.treeOff[t+1])
			buf, off := e.bufs[e.segW[t]], int(e.segOff[t])-t0
			for ; k < min(hi, t1); k++ {
				i := buf[off+k]
				e.stack[k] = i
				e.pos[i] = int32(k)
			}
		}
	})
}

// chunks returns the boundaries of at most workers ranges of the stack,
// each a run of whole trees of about equal total size: ranges that the
// loops walking receivers (accumulate, erode, talus) may run concurrently.
func (e *Engine) chunks(workers int) []int {
	nr := len(e.roots)
	e.sizes = sim.ResizeSpare(e.sizes, nr)
	for t := range nr {
		e.sizes[t] = e.treeOff[t+1] - e.treeOff[t]
	}
	b := parallel.Split(e.sizes, workers)
	for k, t := range b {
		b[k] = int(e.treeOff[t])
	}
	return b
}
