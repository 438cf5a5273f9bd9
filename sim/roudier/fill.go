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
// cells visited, the rest raises every visited cell evenly. The pits are filled one after the other, in the
// order of their trees, after the sweep: the result does not depend on
// the number of workers.

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
	if len(e.lakeOf) != n {
		e.lakeOf = make([]uint32, n)
		e.lakeGen = 0
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
		clear(e.lakeOf)
		e.lakeGen = 1
	}
	gen := e.lakeGen
	cells, a := e.cellsN, e.area
	h := func(i int) float64 { return cells[i].rock + cells[i].alluv }
	e.lake = append(e.lake[:0], lakeCell{int32(pit), h(pit)})
	e.visited = append(e.visited[:0], int32(pit))
	e.lakeOf[pit] = gen
	e.front.Reset()
	e.pushRim(pit, gen)
	level := h(pit)
	for load > 0 && len(e.visited) < maxLake && e.front.Len() > 0 {
		c32, hc := e.front.Pop()
		c := int(c32)
		if e.lakeOf[c] == gen {
			continue // pushed twice
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
		e.lakeOf[c] = gen
		e.visited = append(e.visited, int32(c))
		if hc < level {
			// The pass: the lake is full and the rest runs down the
			// other side, where a new lake starts.
			e.settle(level)
			e.lake = append(e.lake[:0], lakeCell{int32(c), hc})
			level = hc
			e.front.Reset()
			e.pushRim(c, gen)
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

// pushRim puts the neighbours of cell i that are not in the lake on the
// frontier, with their heights.
func (e *Engine) pushRim(i int, gen uint32) {
	w, hgt := e.w, e.h
	x, y := i%w, i/w
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			nx, ny := x+dx, y+dy
			if (dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= hgt {
				continue
			}
			j := ny*w + nx
			if e.lakeOf[j] != gen {
				e.front.Push(int32(j), e.cellsN[j].rock+e.cellsN[j].alluv)
			}
		}
	}
}
