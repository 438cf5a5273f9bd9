package amplify

import (
	"context"
	"fmt"
	"math"
	"slices"

	"orogen/sim/cellheap"
	"orogen/sim/parallel"
	"orogen/sim/pitfill"
)

// drainer makes every dry fine cell drain: afterwards each has a strictly
// lower neighbour (by its surface: the height, or a lake's level) or lies
// on an edge water leaves by. Lake cells (wat > 0) are sinks and are never
// changed.
type drainer struct {
	w, h                     int
	hgt, wat, riv            []float32 // heights, lake water, river beds (never cut)
	north, south, west, east bool      // edges water leaves by
	partial                  bool      // leave what the local passes leave (a later pass finishes)
	mark                     []bool    // when not nil, the fills mark the cells they change

	stamp  []uint32
	parent []int32 // the cell the flood reached each cell from
	// touched lists the cells the round's fills changed: the next
	// round's pits are among them and their neighbours (a cell becomes a
	// pit only when it or a neighbour is raised), so pitsNear need not
	// scan the region again.
	touched []int32
	cur     uint32
	q       cellheap.Heap[float32]
}

// maxLocalRounds is the number of local passes before drain floods the
// whole region.
const maxLocalRounds = 8

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

// pitsNear lists, in index order, the pits among the touched cells and
// their 8 neighbours: every pit after a round of fills (see touched).
func (d *drainer) pitsNear() []int32 {
	// Marked in stamp under a generation of their own (as fill's).
	if d.cur > math.MaxUint32-4 {
		clear(d.stamp)
		d.cur = 0
	}
	d.cur++
	g := d.cur
	var cand []int32
	for _, c := range d.touched {
		cx, cy := int(c)%d.w, int(c)/d.w
		for k := -1; k < 8; k++ {
			nx, ny := cx, cy
			if k >= 0 {
				nx, ny = cx+dx8[k], cy+dy8[k]
			}
			if nx < 0 || ny < 0 || nx >= d.w || ny >= d.h {
				continue
			}
			if j := ny*d.w + nx; d.stamp[j] != g {
				d.stamp[j] = g
				cand = append(cand, int32(j))
			}
		}
	}
	slices.Sort(cand)
	out := cand[:0]
	for _, c := range cand {
		if d.pit(int(c)%d.w, int(c)/d.w) {
			out = append(out, c)
		}
	}
	return out
}

// drain removes every pit, one at a time in index order (so the result
// depends only on the heights), by fill; the work is local to each
// depression. A pass that leaves a pit (an outlet that was itself in a
// depression) is followed by another; after maxLocalRounds passes,
// floodAll finishes the region.
func (d *drainer) drain(ctx context.Context) (Stats, error) {
	var st Stats
	d.touched = d.touched[:0]
	for round := 0; ; round++ {
		var ps []int32
		if round == 0 {
			ps = d.pits()
		} else {
			ps = d.pitsNear()
		}
		d.touched = d.touched[:0]
		if len(ps) == 0 {
			return st, nil
		}
		if round == 0 {
			st.Pits = len(ps)
		}
		if round == maxLocalRounds && d.partial {
			return st, nil // a later pass finishes
		}
		if round == maxLocalRounds {
			// Nested depressions in near-flat ground (a hydraulic pass's
			// deposits, float32 steps apart) can hand pits back and forth:
			// finish with one Priority-Flood+ε over the whole region.
			st.Raised += d.floodAll()
			if ps := d.pits(); len(ps) != 0 {
				return st, fmt.Errorf("amplify: %d fine cells still have no way down after the drainage passes", len(ps))
			}
			return st, nil
		}
		if d.stamp == nil {
			d.stamp = make([]uint32, d.w*d.h)
			d.parent = make([]int32, d.w*d.h)
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

// fill drains the depression of pit p and returns the cells it changed.
// Cells are taken from the pit lowest first (Priority-Flood) until one,
// the spill, has an unseen neighbour strictly lower than itself (the
// outlet), or is a lake or on an open edge (then it is its own outlet).
// The level L is the higher of the pit and the outlet. The path by which
// the flood reached the spill is cut down to L (but for river beds, which
// keep their fall), then the taken cells are
// flooded again from the outlet, lowest first, each raised to just above
// the cell it is reached from if it is not already higher (Barnes et al.
// 2014's +ε): the depression is filled to L, not to its rim, and drains
// through the cut (a hybrid of breaching and filling, as Lindsay 2016
// recommends for the least change).
func (d *drainer) fill(p int32) (int, error) {
	if d.cur > math.MaxUint32-4 {
		clear(d.stamp)
		d.cur = 0
	}
	seen, taken, done := d.cur+1, d.cur+2, d.cur+3
	d.cur += 3
	d.q.Reset()
	d.stamp[p] = seen
	d.parent[p] = -1
	d.q.Push(p, d.surf(int(p)))
	spill, out := int32(-1), int32(-1)
	for spill < 0 {
		if d.q.Len() == 0 {
			return 0, fmt.Errorf("amplify: a depression of fine cells has no way out: every edge of the map is closed and no lake takes its water")
		}
		c, v := d.q.Pop()
		d.stamp[c] = taken
		cx, cy := int(c)%d.w, int(c)/d.w
		if d.wat[c] > 0 || d.edge(cx, cy) {
			spill, out = c, c
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
				spill, out = c, j
				break
			} else {
				d.stamp[j] = seen
				d.parent[j] = c
				d.q.Push(j, sj)
			}
		}
	}
	level := d.hgt[p]
	if out != spill {
		level = max(level, d.surf(int(out)))
	} else if d.wat[out] > 0 {
		level = max(level, d.surf(int(out)))
	}
	changed := 0
	for c := spill; c >= 0; c = d.parent[c] {
		if d.wat[c] == 0 && d.riv[c] == 0 && d.hgt[c] > level {
			d.hgt[c] = level
			d.touched = append(d.touched, c)
			if d.mark != nil {
				d.mark[c] = true
			}
			changed++
		}
	}
	// Flood the taken cells again from the outlet.
	d.q.Reset()
	if out == spill {
		d.stamp[out] = done
		d.q.Push(out, d.surf(int(out)))
	} else {
		d.q.Push(out, d.surf(int(out)))
	}
	for d.q.Len() > 0 {
		c, v := d.q.Pop()
		up := math.Nextafter32(v, float32(math.Inf(1)))
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
				d.touched = append(d.touched, j)
				if d.mark != nil {
					d.mark[j] = true
				}
				changed++
			}
			d.q.Push(j, d.hgt[j])
		}
	}
	return changed, nil
}

// floodAll raises, in one Priority-Flood+ε from the open edges and the
// lakes at their surface (Barnes et al. 2014; sim/pitfill), every dry cell that has no descending path to
// them, and returns how many it raised. Ties go to the lower index
// (cellheap): the result depends only on the heights.
func (d *drainer) floodAll() int {
	return pitfill.Fill(d.hgt, d.w, d.h, func(i int) (float32, bool) {
		return d.surf(i), d.wat[i] > 0 || d.edge(i%d.w, i/d.w)
	}, pitfill.Next, nil)
}
