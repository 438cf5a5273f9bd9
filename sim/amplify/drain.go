package amplify

import (
	"context"
	"fmt"
	"math"

	"orogen/sim/cellheap"
	"orogen/sim/parallel"
)

// drainer makes every dry fine cell drain: afterwards each has a strictly
// lower neighbour (by its surface: the height, or a lake's level) or lies
// on an edge water leaves by. Lake cells (wat > 0) are sinks and are never
// changed.
type drainer struct {
	w, h                     int
	hgt, wat                 []float32
	north, south, west, east bool // edges water leaves by

	stamp []uint32
	cur   uint32
	q     cellheap.Heap[float32]
	list  []int32
}

var dx8 = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
var dy8 = [8]int{0, 1, 1, 1, 0, -1, -1, -1}

func (d *drainer) surf(i int) float32 { return d.hgt[i] + d.wat[i] }

func (d *drainer) edge(x, y int) bool {
	return (y == 0 && d.north) || (y == d.h-1 && d.south) || (x == 0 && d.west) || (x == d.w-1 && d.east)
}

// pit reports whether dry cell i = (x, y) has no strictly lower neighbour
// and is on no open edge.
func (d *drainer) pit(x, y int) bool {
	i := y*d.w + x
	if d.wat[i] > 0 || d.edge(x, y) {
		return false
	}
	v := d.hgt[i]
	for k := range 8 {
		nx, ny := x+dx8[k], y+dy8[k]
		if nx >= 0 && ny >= 0 && nx < d.w && ny < d.h && d.surf(ny*d.w+nx) < v {
			return false
		}
	}
	return true
}

// pits lists the pits in index order (found in parallel, merged in order).
func (d *drainer) pits() []int32 {
	nb := parallel.NumBlocks(d.h, bandRows)
	parts := make([][]int32, nb)
	parallel.Blocks(d.h, bandRows, func(b, lo, hi int) {
		for y := lo; y < hi; y++ {
			for x := range d.w {
				if d.pit(x, y) {
					parts[b] = append(parts[b], int32(y*d.w+x))
				}
			}
		}
	})
	var out []int32
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// drain removes every pit, one at a time in index order (so the result
// depends only on the heights): from the pit, cells are taken lowest first
// (Priority-Flood) until one has an unseen neighbour strictly lower than
// itself, is a lake or lies on an open edge: the spill. The cells taken
// before it are then raised, breadth first from the spill, each to the
// next float32 above the cell it is reached from (Barnes et al. 2014's
// +ε), so that they all drain through the spill. The work is local to each
// depression; a pass that makes a new pit (a neighbour left level with a
// raised cell) is followed by another.
func (d *drainer) drain(ctx context.Context) (Stats, error) {
	var st Stats
	for round := 0; ; round++ {
		ps := d.pits()
		if len(ps) == 0 {
			return st, nil
		}
		if round == 0 {
			st.Pits = len(ps)
		}
		if round == 50 {
			return st, fmt.Errorf("amplify: %d fine cells still have no way down after %d drainage passes", len(ps), round)
		}
		if d.stamp == nil {
			d.stamp = make([]uint32, d.w*d.h)
		}
		for k, p := range ps {
			if k%1024 == 0 && ctx.Err() != nil {
				return st, ctx.Err()
			}
			if !d.pit(int(p)%d.w, int(p)/d.w) {
				continue // drained by an earlier one
			}
			n, err := d.fill(p)
			if err != nil {
				return st, err
			}
			st.Raised += n
		}
	}
}

// fill drains the depression of pit p and returns the cells it raised.
func (d *drainer) fill(p int32) (int, error) {
	if d.cur > math.MaxUint32-4 {
		clear(d.stamp)
		d.cur = 0
	}
	seen, taken, done := d.cur+1, d.cur+2, d.cur+3
	d.cur += 3
	d.q.Reset()
	d.list = d.list[:0]
	d.stamp[p] = seen
	d.q.Push(p, d.surf(int(p)))
	spill := int32(-1)
	for spill < 0 {
		if d.q.Len() == 0 {
			return 0, fmt.Errorf("amplify: a depression of %d fine cells has no way out: every edge of the map is closed and no lake takes its water", len(d.list))
		}
		c, v := d.q.Pop()
		d.stamp[c] = taken
		d.list = append(d.list, c)
		cx, cy := int(c)%d.w, int(c)/d.w
		if d.wat[c] > 0 || d.edge(cx, cy) {
			spill = c
			break
		}
		for k := range 8 {
			nx, ny := cx+dx8[k], cy+dy8[k]
			if nx < 0 || ny < 0 || nx >= d.w || ny >= d.h {
				continue
			}
			j := int32(ny*d.w + nx)
			if d.stamp[j] == seen || d.stamp[j] == taken {
				continue
			}
			if sj := d.surf(int(j)); sj < v {
				spill = c
				break
			} else {
				d.stamp[j] = seen
				d.q.Push(j, sj)
			}
		}
	}
	// Raise the taken cells breadth first from the spill.
	d.stamp[spill] = done
	queue := append(d.list[:0], spill)
	raised := 0
	for k := 0; k < len(queue); k++ {
		c := queue[k]
		up := math.Nextafter32(d.surf(int(c)), float32(math.Inf(1)))
		cx, cy := int(c)%d.w, int(c)/d.w
		for n := range 8 {
			nx, ny := cx+dx8[n], cy+dy8[n]
			if nx < 0 || ny < 0 || nx >= d.w || ny >= d.h {
				continue
			}
			j := int32(ny*d.w + nx)
			if d.stamp[j] != taken {
				continue
			}
			d.stamp[j] = done
			if d.hgt[j] < up {
				d.hgt[j] = up
				raised++
			}
			queue = append(queue, j)
		}
	}
	d.list = queue
	return raised, nil
}
