package flow

import (
	"fmt"

	"orogen/sim/parallel"
)

// Routing is how hillslope cells choose their receiver (see
// Graph.Randomize).
type Routing string

// The routings. The empty Routing means RoutingD8.
const (
	RoutingD8     Routing = "d8"     // steepest descent everywhere
	RoutingRandom Routing = "random" // slope-weighted random choice on hillslopes
)

// Validate returns an error for an unknown routing.
func (r Routing) Validate() error {
	switch r {
	case "", RoutingD8, RoutingRandom:
		return nil
	}
	return fmt.Errorf("flow: routing %q: want %q or %q", string(r), RoutingD8, RoutingRandom)
}

// Randomize replaces the receiver of every cell whose drainage area
// area[i] (m², grid order, from the last routing) is below channel by a
// random choice among its downhill neighbours on heights h, each with
// probability proportional to its slope (Holmgren 1994's weights tan^x
// with x = 1; Freeman 1991's multiple flow shares the flow by the same
// weights): over many cells the hillslope receivers follow the
// gradient's direction in the mean, not D8's eight. A cell whose area
// reached channel stays a channel for ChannelHold further calls after
// the last one that saw it there (hysteresis: the area is the last
// routing's, so a cell deciding on it would otherwise flip between the
// two rules as its own choice moves its neighbours' areas). A cell keeps the
// receiver Randomize gave it last time while that neighbour is still
// downhill, so that the choices settle with the terrain (a choice drawn
// anew every step would never let it converge). The random number of a
// cell is a hash of seed and the cell's index, so the result does not
// depend on the number of workers. Call it after Route and before Order;
// fixed and edge cells keep Route's receivers. While it holds a cell a
// channel, the next Route keeps the cell's receiver within ChannelKeep
// of the steepest rather than Hysteresis.
func (g *Graph) Randomize(h []float32, area []float64, channel float64, seed uint64) {
	if len(h) != g.W*g.H || len(area) != g.W*g.H {
		panic(fmt.Sprintf("flow: %d heights and %d areas for a %d×%d grid", len(h), len(area), g.W, g.H))
	}
	if len(g.rdir) != len(h) {
		g.rdir = make([]uint8, len(h))
		for i := range g.rdir {
			g.rdir[i] = 8
		}
		g.rhold = make([]uint8, len(h))
	}
	w := g.W
	parallel.Blocks(g.H-2, rowBlock, func(_, y0, y1 int) {
		var wt [8]float32
		for y := y0 + 1; y < y1+1; y++ {
			for x := 1; x < w-1; x++ {
				i := y*w + x
				if area[i] >= channel || g.kind[i] == fixed {
					g.rdir[i], g.rhold[i] = 8, ChannelHold
					continue
				}
				if g.rhold[i] > 0 {
					g.rhold[i]--
					continue // still a channel: Route's receiver
				}
				hi := h[i]
				if k := g.rdir[i]; k < 8 && h[i+int(g.off[k])] < hi {
					g.dir[i] = k
					g.Rec[i] = int32(i) + g.off[k]
					g.Dist[i] = g.dlen[k]
					continue
				}
				var sum float32
				for k := range 8 {
					s := hi - h[i+int(g.off[k])]
					if k&1 == 1 {
						s *= invSqrt2
					}
					if s <= 0 {
						s = 0
					}
					wt[k] = s
					sum += s
				}
				if sum <= 0 {
					g.rdir[i] = 8
					continue // a pit: Route's receiver (itself)
				}
				u := float32(unit(seed, uint64(i))) * sum
				bk := -1
				for k := range 8 {
					if wt[k] > 0 {
						bk = k
						if u < wt[k] {
							break
						}
						u -= wt[k]
					}
				}
				g.dir[i], g.rdir[i] = uint8(bk), uint8(bk)
				g.Rec[i] = int32(i) + g.off[bk]
				g.Dist[i] = g.dlen[bk]
			}
		}
	})
}

// ForgetRandom drops Randomize's state (the random receivers and the
// channels held), for a graph routed by steepest descent from now on:
// Route then keeps every receiver within Hysteresis alone.
func (g *Graph) ForgetRandom() { g.rdir, g.rhold = nil, nil }

// ChannelHold is how many further Randomize calls a cell stays a channel
// (keeps Route's receiver) after the last call that saw its drainage area
// at or above the channel threshold. Without it, a cell whose area
// crosses the threshold switches between D8 and a random receiver, which
// moves the area of the cells around it across the threshold in turn:
// measured on the default preset at 256² with the physics of issue 34,
// clusters of cells then cycled with periods of 2 to 20 steps (period 2:
// the area lags one step behind the receivers it decides) and changed
// heights by 100–200 m a step for 3 000 steps; with a hold of 16 calls
// the run settled in 1 747 steps, with 64 in 1 413.
const ChannelHold = 64

// unit returns a number in [0, 1) from a hash of seed and i
// (SplitMix64's finalizer).
func unit(seed, i uint64) float64 {
	z := seed*0x9e3779b97f4a7c15 + i + 0x632be59bd9b4e019
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// RouteRandom is Route(h) followed by Randomize(h, area, channel, seed)
// in one pass over the grid, with the same receivers, directions,
// distances and Randomize state bit for bit: a cell that Randomize gives
// a receiver of its own (a hillslope cell keeping its last choice or
// drawing a new one) skips the steepest-descent search whose result
// Randomize would overwrite. The drainage area is in grid order with pos
// nil, or, with pos the positions of the last routing's drainage order
// (the Pos its Assemble made, before this call), in that order:
// area[pos[i]] is cell i's (AccumulateStack's result), which saves
// scattering it into grid order first. Route's hysteresis reads the
// channel hold before this call updates it, as Route before Randomize
// does.
func (g *Graph) RouteRandom(h []float32, area []float64, pos []int32, channel float64, seed uint64) {
	n := g.W * g.H
	if len(h) != n || len(area) != n || (pos != nil && len(pos) != n) {
		panic(fmt.Sprintf("flow: %d heights, %d areas and %d positions for a %d×%d grid", len(h), len(area), len(pos), g.W, g.H))
	}
	g.grow()
	if len(g.rdir) != n {
		g.rdir = make([]uint8, n)
		for i := range g.rdir {
			g.rdir[i] = 8
		}
		g.rhold = make([]uint8, n)
	}
	var ch []uint8
	if pos != nil {
		// Whether each position's area reached channel, in the donor
		// masks' buffer (Order writes it anew): the rows read it
		// through pos, a random read a cell into 1 byte a cell rather
		// than into the 8 of the area (that read was 6 of the preset
		// step's 127 ms at 1024² on one core by the profile; the
		// routing is 1–2 ms faster so).
		ch = g.donors
		parallel.Blocks(n, 1<<15, func(_, lo, hi int) {
			c, a := ch[lo:hi], area[lo:hi]
			c = c[:len(a)]
			for k, v := range a {
				c[k] = uint8(b2i(v >= channel))
			}
		})
	}
	parallel.Blocks(g.H, rowBlock, func(_, y0, y1 int) {
		for y := y0; y < y1; y++ {
			g.routeRandomRow(h, area, pos, ch, channel, seed, y)
		}
	})
}

// routeRandomRow is RouteRandom's work on row y; with pos, ch[pos[i]] is
// 1 where cell i's area reached channel.
func (g *Graph) routeRandomRow(h []float32, area []float64, pos []int32, ch []uint8, channel float64, seed uint64, y int) {
	w := g.W
	if y == 0 || y == g.H-1 {
		for x := 0; x < w; x++ {
			g.routeEdgeCell(h, x, y)
		}
		return
	}
	g.routeEdgeCell(h, 0, y)
	g.routeEdgeCell(h, w-1, y)
	row := y * w
	up, mid, dn := h[row-w:row], h[row:row+w], h[row+w:row+2*w]
	rec, dist, dir := g.Rec[row:row+w], g.Dist[row:row+w], g.dir[row:row+w]
	rdir, rhold := g.rdir[row:row+w], g.rhold[row:row+w]
	var offs [9]int32
	var lens [9]float32
	copy(offs[:], g.off[:])
	copy(lens[:], g.dlen[:])
	var wt [8]float32
	for x := 1; x < w-1; x++ {
		i := row + x
		var steepest bool
		if pos != nil {
			steepest = ch[pos[i]] != 0
		} else {
			steepest = area[i] >= channel
		}
		// Randomize's "or fixed" is for edge cells only: the cells
		// here are inner, never fixed (setKinds).
		if steepest || rhold[x] > 0 {
			// Route's receiver stays: Randomize holds the cell a
			// channel.
			bk := g.steepest(h, up, mid, dn, row, x, int(dir[x]))
			dir[x], rec[x], dist[x] = uint8(bk), int32(i)+offs[bk], lens[bk]
			if steepest {
				rdir[x], rhold[x] = 8, ChannelHold
			} else {
				rhold[x]--
			}
			continue
		}
		hi := mid[x]
		if k := rdir[x]; k < 8 && h[i+int(offs[k])] < hi {
			dir[x], rec[x], dist[x] = k, int32(i)+offs[k], lens[k]
			continue
		}
		var sum float32
		for k := range 8 {
			s := hi - h[i+int(offs[k])]
			if k&1 == 1 {
				s *= invSqrt2
			}
			if s <= 0 {
				s = 0
			}
			wt[k] = s
			sum += s
		}
		if sum <= 0 {
			// A pit: Route's receiver (itself, or the last one
			// while the hysteresis keeps it).
			rdir[x] = 8
			bk := g.steepest(h, up, mid, dn, row, x, int(dir[x]))
			dir[x], rec[x], dist[x] = uint8(bk), int32(i)+offs[bk], lens[bk]
			continue
		}
		u := float32(unit(seed, uint64(i))) * sum
		bk := -1
		for k := range 8 {
			if wt[k] > 0 {
				bk = k
				if u < wt[k] {
					break
				}
				u -= wt[k]
			}
		}
		dir[x], rdir[x] = uint8(bk), uint8(bk)
		rec[x], dist[x] = int32(i)+offs[bk], lens[bk]
	}
}
