package amplify

import (
	"math"
)

// segment is the river bed from a coarse river cell to its receiver: a
// cardinal spline (tension) through the cell centres (the main donor before, the
// receiver's receiver after), wandered sideways, sampled at 2F+1 points
// in fine cells (fine cell (x, y) has its centre at (x+½, y+½)). Along it
// the bed top (the water surface) falls linearly from z0 to z1 and the
// depth and half width grow from d0, hw0 to d1, hw1.
type segment struct {
	pts      [][2]float32
	z0, z1   float32 // bed top, m
	d0, d1   float32 // depth, m
	hw0, hw1 float32 // half width, fine cells
	reach    float32 // footprint radius: the widest half width, fine cells
	bx0, by0 int32   // box, fine cells, [bx0, bx1) × [by0, by1)
	bx1, by1 int32
	src, dst int32     // coarse cells
	zs       []float32 // bed top per point (followTops; nil: linear)
	axis     []float32 // the displaced base at each point (bank blend; nil: none)
}

// tension straightens the river curves towards the chain of cell centres
// (0: Catmull-Rom), so that they cut less into the valley walls at the
// bends of the coarse network.
const tension = 0.5

// mix64 is SplitMix64's finalizer: a well-mixed hash of one word.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// unit returns a hashed value in [−1, 1) for (seed, salt, i).
func unit(seed, salt uint64, i int) float64 {
	h := mix64(seed ^ mix64(salt^mix64(uint64(i))))
	return float64(h>>11)/float64(1<<52) - 1
}

// minHalfWidth is the least half width of a bed, fine cells: above ½, the
// cells whose centres lie that close to a curve always form a chain of
// 8-neighbours (a continuous bed on the fine grid), and below √2/2 a
// diagonal step of the coarse network does not reach into the corners of
// the two cells beside it.
const minHalfWidth = 0.55

// hydraulic returns the bankfull depth (m) and half width (fine cells, at
// least minHalfWidth, at most half a coarse cell) for drainage area a,
// m². A channel wider than a coarse cell is the coarse grid's to hold (it
// spans cells the simulation keeps at its level); carved wider, it would
// take the whole of a neighbouring cell that stands higher (a talus slope
// above the river) down to the bed, and with it that cell's mean.
func (p *prep) hydraulic(a float32) (depth, hw float32) {
	km2 := float64(a) / 1e6
	d := p.o.DepthCoef * math.Pow(km2, p.o.DepthExp)
	w := p.o.WidthCoef * math.Pow(km2, p.o.WidthExp)
	hw = float32(min(w/2/p.fcell, float64(p.F)/2))
	return float32(d), max(hw, minHalfWidth)
}

// valleyFree is the multiple of RiverArea from which a cell carries a bed
// whatever the shape across its flow.
const valleyFree = 8

// riverCells returns the coarse cells that carry a river bed.
func (p *prep) riverCells() []bool {
	W, H := p.W, p.H
	n := W * H
	rec, area := p.s.Receivers, p.s.Area
	thr := float32(p.o.RiverArea)
	h := p.s.Height
	// A cell carries a bed when it drains RiverArea and lies in a valley
	// (lower than the mean of its two neighbours across the flow by a
	// tenth of its drop to the receiver), or drains valleyFree times
	// RiverArea: the parallel flow lines of a planar hillslope, which the
	// coarse grid routes cell by cell, are no rivers.
	river := make([]bool, n)
	for i := range n {
		r := int(rec[i])
		if r == i || area[i] < thr {
			continue
		}
		if area[i] >= valleyFree*thr {
			river[i] = true
			continue
		}
		x, y := i%W, i/W
		dx, dy := r%W-x, r/W-y
		ax, ay, bx, by := x-dy, y+dx, x+dy, y-dx
		if ax < 0 || ay < 0 || bx < 0 || by < 0 || ax >= W || bx >= W || ay >= H || by >= H {
			continue
		}
		across := 0.5*float64(h[ay*W+ax]+h[by*W+bx]) - float64(h[i])
		river[i] = across > 0.1*float64(h[i]-h[r])
	}
	// A river flows on to the outlet: every cell below a river cell is one
	// (else its bed would end in a hollow at a cell that failed the valley
	// test).
	for i := range n {
		if !river[i] {
			continue
		}
		for r := int(rec[i]); r != int(rec[r]) && !river[r]; r = int(rec[r]) {
			river[r] = true
		}
	}
	return river
}

// rivers builds the river segments of every coarse river cell (p.river,
// but those between two lake cells: the lake floor has no bed) and
// buckets them by coarse row.
func (p *prep) rivers() {
	W, H, F := p.W, p.H, p.F
	n := W * H
	rec, area := p.s.Receivers, p.s.Area
	river := p.river
	isRiver := func(i int) bool { return river[i] }
	p.bedCell = make([]bool, n)
	for i := range n {
		p.bedCell[i] = river[i] || p.lake[i]
	}
	// The main donor of each cell: its river donor of largest area (ties:
	// the lower index, by scanning in order).
	main := make([]int32, n)
	for i := range main {
		main[i] = -1
	}
	for i := range n {
		if !isRiver(i) {
			continue
		}
		r := rec[i]
		if m := main[r]; m < 0 || area[i] > area[m] {
			main[r] = int32(i)
		}
	}
	centre := func(i int) [2]float64 {
		return [2]float64{(float64(i%W) + 0.5) * float64(F), (float64(i/W) + 0.5) * float64(F)}
	}
	K := 2*F + 1
	p.byRow = make([][]int32, H)
	for i := range n {
		if !isRiver(i) {
			continue
		}
		r := int(rec[i])
		if p.lake[i] && p.lake[r] {
			continue
		}
		P1, P2 := centre(i), centre(r)
		var P0, P3 [2]float64
		if m := main[i]; m >= 0 {
			P0 = centre(int(m))
		} else {
			P0 = [2]float64{2*P1[0] - P2[0], 2*P1[1] - P2[1]}
		}
		if rr := int(rec[r]); rr != r {
			P3 = centre(rr)
		} else {
			P3 = [2]float64{2*P2[0] - P1[0], 2*P2[1] - P1[1]}
		}
		cx, cy := P2[0]-P1[0], P2[1]-P1[1]
		cl := math.Hypot(cx, cy)
		nx, ny := -cy/cl, cx/cl
		// Rivers wander on gentle beds (a fifth of a coarse cell below a
		// slope of 1 %) and keep to their valleys on steep ones (a
		// twentieth above 5 %), where a bend would cut into the walls.
		chSlope := float64(p.bed[i]-p.bed[r]) / (cl / float64(F) * p.cell)
		amp := float64(F) * p.o.Meander * (0.05 + 0.15*min(1, max(0, (0.05-chSlope)/0.04)))
		a1, a2 := amp*unit(p.o.Seed, 1, i), 0.5*amp*unit(p.o.Seed, 2, i)
		sg := segment{pts: make([][2]float32, K), src: int32(i), dst: int32(r)}
		for k := range K {
			t := float64(k) / float64(K-1)
			t2, t3 := t*t, t*t*t
			var q [2]float64
			for c := range 2 {
				// Cardinal spline (Hermite with tangents scaled by
				// 1 − tension): Catmull-Rom at tension 0.
				m1 := (1 - tension) * (P2[c] - P0[c]) / 2
				m2 := (1 - tension) * (P3[c] - P1[c]) / 2
				q[c] = (2*t3-3*t2+1)*P1[c] + (t3-2*t2+t)*m1 + (-2*t3+3*t2)*P2[c] + (t3-t2)*m2
			}
			s := math.Sin(math.Pi * t)
			off := a1*s*s + a2*s*math.Sin(2*math.Pi*t)
			sg.pts[k] = p.warp.image(F, q[0]+off*nx, q[1]+off*ny)
		}
		sg.z0, sg.z1 = p.bed[i], p.bed[r]
		sg.d0, sg.hw0 = p.hydraulic(area[i])
		sg.d1, sg.hw1 = p.hydraulic(area[r])
		sg.d1, sg.hw1 = max(sg.d1, sg.d0), max(sg.hw1, sg.hw0)
		sg.reach = sg.hw1
		if p.warp != nil && !p.o.StrictTalus {
			// Under StrictTalus the beds fall linearly: following the
			// base, they would fall steeper than the limit in places.
			sg.zs, sg.axis = p.followTops(&sg)
			if p.F == 4 {
				sg.reach += bankBlend
			} else {
				sg.axis = nil // the bank blend is ×4's (bankBlend)
			}
		}
		x0, y0 := float32(math.Inf(1)), float32(math.Inf(1))
		x1, y1 := float32(math.Inf(-1)), float32(math.Inf(-1))
		for _, q := range sg.pts {
			x0, y0, x1, y1 = min(x0, q[0]), min(y0, q[1]), max(x1, q[0]), max(y1, q[1])
		}
		sg.bx0, sg.by0 = int32(math.Floor(float64(x0-sg.reach))), int32(math.Floor(float64(y0-sg.reach)))
		sg.bx1, sg.by1 = int32(math.Ceil(float64(x1+sg.reach)))+1, int32(math.Ceil(float64(y1+sg.reach)))+1
		id := int32(len(p.segs))
		p.segs = append(p.segs, sg)
		for cy := max(0, int(sg.by0)/F); cy <= min(H-1, int(sg.by1-1)/F); cy++ {
			p.byRow[cy] = append(p.byRow[cy], id)
		}
	}
}

// carver accumulates, over the fine cells of a band, the lowest bed
// surface of every segment reaching them.
type carver struct {
	gx0, gy0, w, h int       // the band, fine cells
	f, cw          int       // the factor, the coarse width
	bedCell        []bool    // coarse cells a bed may cross
	v              []float32 // lowest carved surface (+Inf: none)
	depth          []float32 // bed depth below its top, m (0 outside beds)
	core           []bool    // inside some bed
	warp           *warp     // the base's displacement (nil: none)
	// The bank blend (segments with followed tops): per fine cell, the
	// offset the nearest such bed gives the base beside it and that
	// bed's distance (+Inf: none).
	shift, near []float32
}

// bankBlend is the width, fine cells, over which the base beside a bed
// with followed tops is moved by the bed's offset from it (the top less
// the displaced base at the axis), fading by a smoothstep from the bank
// to nothing: the banks meet the bed without a step, and the valley
// around it takes the bed's level. Default preset 256² ×4, roughness
// over the Jacksboro DEM's: 2.26 without, 2.17/2.05/1.97/1.95/2.07/2.34
// over 1/1.5/2/3/4/6 fine cells (wider, the nearest bed changes between
// neighbouring cells with offsets apart). At ×4 only: at ×8 it gains
// little (over 3 fine cells, 0.35 and 0.51 against 0.36 and 0.53 at 128²
// and 256²) and moves the worst cell mean at 512² from 0.91 to 0.99 % of
// the relief.
const bankBlend = 3

func (c *carver) reset(gx0, gy0, w, h int) {
	c.gx0, c.gy0, c.w, c.h = gx0, gy0, w, h
	n := w * h
	if cap(c.v) < n {
		c.v, c.depth, c.core = make([]float32, n), make([]float32, n), make([]bool, n)
	}
	c.v, c.depth, c.core = c.v[:n], c.depth[:n], c.core[:n]
	inf := float32(math.Inf(1))
	for i := range c.v {
		c.v[i], c.depth[i], c.core[i] = inf, 0, false
	}
	if c.warp != nil && c.f == 4 {
		if cap(c.shift) < n {
			c.shift, c.near = make([]float32, n), make([]float32, n)
		}
		c.shift, c.near = c.shift[:n], c.near[:n]
		for i := range c.near {
			c.shift[i], c.near[i] = 0, inf
		}
	}
}

// carve adds segment sg: within the bed (distance d below the half
// width hw) its full depth D over the half cell around the axis (a
// thalweg one cell wide, level across, so that the cells along the axis
// fall with the bed), then a parabola up to the banks:
// z − D·(1 − ((d − ½)/(hw − ½))²).
func (c *carver) carve(sg *segment, fcell float32) {
	K := len(sg.pts)
	bx0, by0 := max(int(sg.bx0), c.gx0), max(int(sg.by0), c.gy0)
	bx1, by1 := min(int(sg.bx1), c.gx0+c.w), min(int(sg.by1), c.gy0+c.h)
	if bx0 >= bx1 || by0 >= by1 {
		return
	}
	for k := 0; k+1 < K; k++ {
		a, b := sg.pts[k], sg.pts[k+1]
		ex, ey := b[0]-a[0], b[1]-a[1]
		l2 := ex*ex + ey*ey
		lo := [2]float32{min(a[0], b[0]) - sg.reach, min(a[1], b[1]) - sg.reach}
		hi := [2]float32{max(a[0], b[0]) + sg.reach, max(a[1], b[1]) + sg.reach}
		x0, x1 := max(bx0, int(math.Floor(float64(lo[0])))), min(bx1, int(math.Ceil(float64(hi[0])))+1)
		y0, y1 := max(by0, int(math.Floor(float64(lo[1])))), min(by1, int(math.Ceil(float64(hi[1])))+1)
		for y := y0; y < y1; y++ {
			qy := float32(y) + 0.5 - a[1]
			row := (y - c.gy0) * c.w
			for x := x0; x < x1; x++ {
				qx := float32(x) + 0.5 - a[0]
				tau := float32(0)
				if l2 > 0 {
					tau = min(1, max(0, (qx*ex+qy*ey)/l2))
				}
				dx, dy := qx-tau*ex, qy-tau*ey
				d := float32(math.Sqrt(float64(dx*dx + dy*dy)))
				if d >= sg.reach {
					continue
				}
				t := (float32(k) + tau) / float32(K-1)
				z := sg.z0 + (sg.z1-sg.z0)*t
				if sg.zs != nil {
					z = sg.zs[k] + (sg.zs[k+1]-sg.zs[k])*tau
				}
				hw := sg.hw0 + (sg.hw1-sg.hw0)*t
				i := row + x - c.gx0
				if sg.axis != nil && d < c.near[i] {
					switch {
					case d < hw:
						c.near[i], c.shift[i] = d, 0
					case d < hw+bankBlend:
						o := z - (sg.axis[k] + (sg.axis[k+1]-sg.axis[k])*tau)
						u := (d - hw) / bankBlend
						c.near[i], c.shift[i] = d, o*(1-u*u*(3-2*u))
					}
				}
				if d >= hw {
					continue
				}
				if ci := c.cellOf(x, y); !c.bedCell[ci] && d > 0.5 {
					continue // a bend cuts into the hillslope beside by its axis only
				}
				{
					dep := (sg.d0 + (sg.d1-sg.d0)*t)
					if d > 0.5 {
						r := (d - 0.5) / (hw - 0.5)
						dep *= 1 - r*r
					}
					c.v[i] = min(c.v[i], z-dep)
					c.core[i] = true
					c.depth[i] = max(c.depth[i], dep)
				}
			}
		}
	}
}

// cellOf returns the coarse cell whose base surface fine cell (x, y)
// shows.
func (c *carver) cellOf(x, y int) int {
	if c.warp == nil {
		return (y/c.f)*c.cw + x/c.f
	}
	return c.warp.cellOf(c.f, x, y)
}

// followTops lays a bed's top along the surface it is cut into. At each
// point of the segment b is the displaced base at the bed's banks (the
// mean of the two points its half width across the flow), clamped to
// [z1, z0]; the top is the linear fall moved towards the mean of b's two
// envelopes that never rise (the running minimum from the source, the
// running maximum from the outlet: lowering alone drags the top down to
// the deepest dip upstream) by sin(πt), so that the ends keep the node
// tops, then made never to rise (a running minimum). It also keeps the
// base at the axis, for the carver's bank blend. Laid linearly on a
// displaced base, a bed cuts steps into its banks where the base's trough
// floor wanders above or below the line: on the default preset at 128²
// ×4 they had the power below the coarse cell at 4.1 times a real DEM's
// (2.7 following the base at the axis by a running minimum, weighted by
// the share of the cell the bed leaves free; at 256² ×4 3.78, 2.40 with
// the banks' tops of troughAcross, 2.26 following the banks' envelopes).
func (p *prep) followTops(sg *segment) (zs, axis []float32) {
	K := len(sg.pts)
	F := float64(p.F)
	zs, axis = make([]float32, K), make([]float32, K)
	b := make([]float64, 2*K)
	lo, hi := b[:K], b[K:]
	base := func(fx, fy float64) float64 {
		X, Y := fx/F-0.5, fy/F-0.5
		dx, dy := p.warp.at(X, Y)
		return p.baseAt(X-dx, Y-dy)
	}
	for k, q := range sg.pts {
		t := float64(k) / float64(K-1)
		hw := float64(sg.hw0) + float64(sg.hw1-sg.hw0)*t
		qx, qy := float64(q[0]), float64(q[1])
		axis[k] = float32(base(qx, qy))
		v := float64(axis[k])
		a, c := sg.pts[max(k-1, 0)], sg.pts[min(k+1, K-1)]
		tx, ty := float64(c[0]-a[0]), float64(c[1]-a[1])
		if l := math.Hypot(tx, ty); l > 0 {
			nx, ny := -ty/l*hw, tx/l*hw
			v = (base(qx-nx, qy-ny) + base(qx+nx, qy+ny)) / 2
		}
		lo[k] = min(max(v, float64(sg.z1)), float64(sg.z0))
		hi[k] = lo[k]
	}
	for k := 1; k < K; k++ {
		lo[k] = min(lo[k], lo[k-1])
	}
	for k := K - 2; k >= 0; k-- {
		hi[k] = max(hi[k], hi[k+1])
	}
	prev := sg.z0
	for k := range K {
		t := float64(k) / float64(K-1)
		lin := float64(sg.z0) + float64(sg.z1-sg.z0)*t
		prev = min(prev, float32(lin+math.Sin(math.Pi*t)*((lo[k]+hi[k])/2-lin)))
		zs[k] = prev
	}
	zs[K-1] = sg.z1
	return zs, axis
}
