package graph

import (
	"sync/atomic"

	"orogen/sim"
	"orogen/sim/parallel"
)

// The stream trees in parallel. Blocks of nodes sort the donors by
// receiver (see trees); workers then list the trees of the roots they claim, each breadth-first from its root, into
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

// donorBlock is the number of nodes per block of the donor sort.
const donorBlock = 1 << 13

// stackBlock is the number of stack positions per block of the loops in
// drainage order that need no whole trees (layout, copies).
const stackBlock = 1 << 13

// trees finds the donors of e.rec, the roots (ascending) and the stream
// tree of each root, breadth-first into the workers' buffers, and with
// label labels each node with its tree's root in e.basin. assemble then
// builds the stack.
//
// The donor lists are a counting sort of the nodes by receiver, as a
// serial scan in index order would make them (each list ascending), split
// into fixed blocks of node indices: a block counts and later files the
// donors it holds whose receiver is its own, and passes the others to the
// receiver's block in a list per pair of blocks (receivers are
// neighbours, mostly in the same block). A receiver's block files the
// donors from lower blocks, then its own, then those from higher blocks:
// ascending again.
func (e *Engine) trees(label bool) {
	n := e.m.N
	nb := parallel.NumBlocks(n, donorBlock)
	e.donOff = sim.Resize(e.donOff, n+1)
	e.don = sim.Resize(e.don, n)
	e.blockRoots = sim.Resize(e.blockRoots, nb)
	e.blockLinks = sim.Resize(e.blockLinks, nb+1)
	e.cross = sim.Resize(e.cross, nb*nb)
	off, rec := e.donOff, e.rec
	parallel.Blocks(n, donorBlock, func(b, lo, hi int) {
		clear(off[lo+1 : hi+1])
		roots := e.blockRoots[b][:0]
		cross := e.cross[b*nb : (b+1)*nb]
		for k := range cross {
			cross[k] = cross[k][:0]
		}
		for i := lo; i < hi; i++ {
			r := int(rec[i])
			switch {
			case r == i:
				roots = append(roots, int32(i))
			case r >= lo && r < hi:
				off[r+1]++
			default:
				cross[r/donorBlock] = append(cross[r/donorBlock], link{int32(r), int32(i)})
			}
		}
		e.blockRoots[b] = roots
	})
	parallel.Blocks(n, donorBlock, func(b, lo, hi int) {
		for s := range nb {
			for _, l := range e.cross[s*nb+b] {
				off[l.r+1]++
			}
		}
		var sum int32
		for r := lo; r < hi; r++ {
			sum += off[r+1]
			off[r+1] = sum
		}
		e.blockLinks[b+1] = int64(sum)
	})
	e.roots = e.roots[:0]
	for b := range nb {
		e.roots = append(e.roots, e.blockRoots[b]...)
		e.blockLinks[b+1] += e.blockLinks[b]
	}
	if int(e.blockLinks[nb]) != n-len(e.roots) {
		panic("graph: donor count differs from the non-roots")
	}
	off[0] = 0
	fill, don := e.pos, e.don // pos borrowed as a cursor; assemble rewrites it
	parallel.Blocks(n, donorBlock, func(b, lo, hi int) {
		base := int32(e.blockLinks[b])
		prev := base
		for r := lo; r < hi; r++ {
			fill[r] = prev
			off[r+1] += base
			prev = off[r+1]
		}
		for s := range nb {
			if s != b {
				for _, l := range e.cross[s*nb+b] {
					don[fill[l.r]] = l.i
					fill[l.r]++
				}
				continue
			}
			for i := lo; i < hi; i++ {
				if r := int(rec[i]); r != i && r >= lo && r < hi {
					don[fill[r]] = int32(i)
					fill[r]++
				}
			}
		}
	})
	nr := len(e.roots)
	e.segW = sim.ResizeSpare(e.segW, nr)
	e.segOff = sim.ResizeSpare(e.segOff, nr)
	e.treeOff = sim.ResizeSpare(e.treeOff, nr+1)
	workers := min(parallel.Workers(), parallel.NumBlocks(nr, rootBlock))
	for len(e.bufs) < workers {
		e.bufs = append(e.bufs, nil)
	}
	var next atomic.Int64
	parallel.Do(workers, func(w int) { e.listTrees(w, &next, label) })
	e.treeOff[0] = 0
	for t := range nr {
		e.treeOff[t+1] += e.treeOff[t]
	}
	if int(e.treeOff[nr]) != n {
		panic("graph: receivers form a cycle")
	}
}

// link is a donor i of receiver r.
type link struct{ r, i int32 }

// listTrees lists, for worker w, the trees of the roots it claims from
// next, each breadth-first, into e.bufs[w], labelling the nodes in e.basin
// if label.
func (e *Engine) listTrees(w int, next *atomic.Int64, label bool) {
	roots, off, don, basin := e.roots, e.donOff, e.don, e.basin
	if !label {
		basin = nil
	}
	nr := len(roots)
	buf := e.bufs[w][:0]
	for {
		lo := int(next.Add(rootBlock)) - rootBlock
		if lo >= nr {
			break
		}
		for t := lo; t < min(nr, lo+rootBlock); t++ {
			root := roots[t]
			start := len(buf)
			e.segW[t], e.segOff[t] = int32(w), int32(start)
			buf = append(buf, root)
			if basin != nil {
				basin[root] = root
			}
			for q := start; q < len(buf); q++ {
				i := buf[q]
				for _, d := range don[off[i]:off[i+1]] {
					if basin != nil {
						basin[d] = root
					}
					buf = append(buf, d)
				}
			}
			e.treeOff[t+1] = int32(len(buf) - start) // the size, for now
		}
	}
	e.bufs[w] = buf
}

// assemble concatenates the trees listed by trees into e.stack, in root
// order (Stack[treeOff[t]:treeOff[t+1]] is the tree of roots[t]), and sets
// e.pos.
func (e *Engine) assemble() {
	n := e.m.N
	e.stack = sim.Resize(e.stack, n)
	stack, pos, treeOff, bufs, segW, segOff := e.stack, e.pos, e.treeOff, e.bufs, e.segW, e.segOff
	parallel.Blocks(n, stackBlock, func(_, lo, hi int) {
		// The first tree reaching into [lo, hi).
		a, b := 0, len(e.roots)
		for a < b {
			mid := (a + b) / 2
			if int(treeOff[mid+1]) <= lo {
				a = mid + 1
			} else {
				b = mid
			}
		}
		for t, k := a, lo; k < hi; t++ {
			t0, t1 := int(treeOff[t]), int(treeOff[t+1])
			buf, off := bufs[segW[t]], int(segOff[t])-t0
			for ; k < min(hi, t1); k++ {
				i := buf[off+k]
				stack[k] = i
				pos[i] = int32(k)
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
