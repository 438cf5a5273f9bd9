package roudier

// Filling pits. The detritus a pit receives (Roudier et al. 1993: "In case
// of basins, the model fills them as much as possible to prevent
// generating disconnected streams") is spread over its depression rather
// than piled on the one cell: a lake grows from the pit by a priority
// flood (the lowest cell of its rim joins it next) and its level rises
// until the detritus is used up. If the rim's lowest cell is lower than
// the level, the lake has reached its pass: it is full, and the rest
// runs down the other side from that cell, where a new lake starts (the
// cells already visited stay out of it). An outlet on the rim (fixed, or
// a natural edge cell with no lower neighbour) lets the rest leave the
// map. At a dead end (every rim cell already visited) or after maxLake
// cells visited, the rest raises every visited cell evenly. The pits are
// filled one after the other, in the order of their trees, after the
// sweep: the result does not depend on the number of workers.
//
// Cost. Most of a fill's cells are on its way down from passes, where the
// lake is one cell: its lowest neighbour is found by looking at the eight,
// without the heap. Once a lake grows, its rim goes on a heap
// (sim/cellheap), each cell once (a mark per cell). A fill in parallel was
// measured and not pursued: on the folded preset at 1024² (26 000 fills a
// step), a fill reads cells that an earlier fill of the same batch wrote
// for 25 % of fills in batches of 16 and 54 % in batches of 256, so most
// would have to run again in order.

// maxLake bounds a lake's cells.
const maxLake = 1 << 14

// lakeCell is a cell of a lake and its height before the fill.
type lakeCell struct {
	i int32
	h float64
}

// fillPits fills every pit that received detritus in the sweep.
func (e *Engine) fillPits() {
	e.spilled = 0
	n := len(e.cells)
	if len(e.mark) != n {
		e.mark = make([]fillMark, n)
		e.lakeGen, e.frontGen = 0, 0
	}
	st := e.g.Stack
	for t, s := range e.trees {
		if s.pitLoad > 0 {
			e.fill(int(st[e.g.Trees[t]]), s.pitLoad)
		}
	}
}

// fill spreads load m³ of detritus over the depression of pit.
func (e *Engine) fill(pit int, load float64) {
	e.lakeGen++
	if e.lakeGen == 0 { // wrapped: clear the marks
		clear(e.mark)
		e.lakeGen, e.frontGen = 1, 0
	}
	gen := e.lakeGen
	cells, a := e.cellsN, e.area
	h := func(i int) float64 { return cells[i].rock + cells[i].alluv }
	e.lake = append(e.lake[:0], lakeCell{int32(pit), h(pit)})
	e.visited = append(e.visited[:0], int32(pit))
	e.mark[pit].lake = gen
	level := h(pit)
	// The frontier is the cells next to the lake not visited by this
	// fill; the lowest (of equal heights, the lowest index) joins next.
	// While the lake is one cell, as on the way down from a pass, that is
	// the lowest of its neighbours, found without the heap.
	one := true
	for load > 0 && len(e.visited) < maxLake {
		var c int
		var hc float64
		if one {
			var ok bool
			if c, hc, ok = e.lowestRim(int(e.lake[0].i), gen); !ok {
				break // a dead end
			}
		} else {
			if e.front.Len() == 0 {
				break // a dead end
			}
			c32, h := e.front.Pop()
			if c, hc = int(c32), h; e.mark[c].lake == gen {
				continue // visited since it was pushed (pushRim prevents it)
			}
		}
		if e.g.IsFixed(c) || (e.g.Rec[c] == int32(c) && e.g.Dist[c] > 0) {
			// Over the rim into an outlet: the rest leaves the map.
			if hc > level {
				cost := (hc - level) * a * float64(len(e.lake))
				if cost >= load {
					level += load / (a * float64(len(e.lake)))
					load = 0
					break
				}
				load -= cost
				level = hc
			}
			e.spilled += load
			load = 0
			break
		}
		e.mark[c].lake = gen
		e.visited = append(e.visited, int32(c))
		if hc < level {
			// The pass: the lake is full and the rest runs down the
			// other side, where a new lake starts.
			e.settle(level)
			e.lake = append(e.lake[:0], lakeCell{int32(c), hc})
			level = hc
			one = true
			continue
		}
		// Raise the lake to the rim cell's height, or as far as the
		// load goes.
		cost := (hc - level) * a * float64(len(e.lake))
		if cost >= load {
			level += load / (a * float64(len(e.lake)))
			load = 0
			break
		}
		load -= cost
		level = hc
		if one {
			// The lake grows past one cell: its frontier goes on the
			// heap (c, now visited, is left out).
			e.resetFront()
			e.pushRim(int(e.lake[0].i), gen)
			one = false
		}
		e.lake = append(e.lake, lakeCell{int32(c), hc})
		e.pushRim(c, gen)
	}
	e.settle(level)
	if load > 0 {
		// A dead end (every rim cell visited) or maxLake cells visited:
		// the rest raises every visited cell evenly.
		d := load / (a * float64(len(e.visited)))
		for _, i := range e.visited {
			cells[i].alluv += d
		}
	}
}

// settle raises the lake's cells to level with alluvium.
func (e *Engine) settle(level float64) {
	for _, lc := range e.lake {
		if d := level - lc.h; d > 0 {
			e.cellsN[lc.i].alluv += d
		}
	}
}

// lowestRim returns the lowest neighbour of cell i (of equal heights, the
// lowest index) not visited by the fill gen, and its height; false if
// there is none. It is what the heap would give for a lake of the one
// cell i.
func (e *Engine) lowestRim(i int, gen uint32) (int, float64, bool) {
	best, bh := -1, 0.0
	try := func(j int) {
		if e.mark[j].lake == gen {
			return
		}
		if hj := e.cellsN[j].rock + e.cellsN[j].alluv; best < 0 || hj < bh || (hj == bh && j < best) {
			best, bh = j, hj
		}
	}
	if e.interior(i) {
		// The order does not matter: the lowest, then the lowest index.
		w := e.w
		try(i - w - 1)
		try(i - w)
		try(i - w + 1)
		try(i - 1)
		try(i + 1)
		try(i + w - 1)
		try(i + w)
		try(i + w + 1)
	} else {
		e.edgeNeighbours(i, try)
	}
	return best, bh, best >= 0
}

// interior reports whether cell i has eight neighbours.
func (e *Engine) interior(i int) bool {
	x, y := i%e.w, i/e.w
	return x > 0 && y > 0 && x < e.w-1 && y < e.h-1
}

// edgeNeighbours calls fn with every neighbour of edge cell i.
func (e *Engine) edgeNeighbours(i int, fn func(j int)) {
	w, hgt := e.w, e.h
	x, y := i%w, i/w
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			nx, ny := x+dx, y+dy
			if (dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= hgt {
				continue
			}
			fn(ny*w + nx)
		}
	}
}

// fillMark marks a cell: visited by the fill lakeGen when lake is it, on
// the heap when front is frontGen.
type fillMark struct{ lake, front uint32 }

// resetFront empties the frontier's heap.
func (e *Engine) resetFront() {
	e.front.Reset()
	e.frontGen++
	if e.frontGen == 0 { // wrapped: clear the marks
		for i := range e.mark {
			e.mark[i].front = 0
		}
		e.frontGen = 1
	}
}

// pushRim puts the neighbours of cell i that are neither visited by the
// fill gen nor on the heap already, with their heights (a cell
// pushed twice would come out twice, the same).
func (e *Engine) pushRim(i int, gen uint32) {
	push := func(j int) {
		if m := &e.mark[j]; m.lake != gen && m.front != e.frontGen {
			m.front = e.frontGen
			e.front.Push(int32(j), e.cellsN[j].rock+e.cellsN[j].alluv)
		}
	}
	if e.interior(i) {
		// The order does not matter: the heap gives the lowest, then the
		// lowest index.
		w := e.w
		push(i - w - 1)
		push(i - w)
		push(i - w + 1)
		push(i - 1)
		push(i + 1)
		push(i + w - 1)
		push(i + w)
		push(i + w + 1)
		return
	}
	e.edgeNeighbours(i, push)
}
