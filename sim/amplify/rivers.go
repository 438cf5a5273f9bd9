package amplify

import (
	"math"
)

// segment is the river bed from a coarse river cell to its receiver: a
// Catmull-Rom curve through the cell centres (the main donor before, the
// receiver's receiver after), wandered sideways, sampled at 2F+1 points
// in fine cells (fine cell (x, y) has its centre at (x+½, y+½)). Along it
// the bed top (the water surface) falls linearly from z0 to z1 and the
// depth and half width grow from d0, hw0 to d1, hw1.
type segment struct {
	pts      [][2]float32
	z0, z1   float32 // bed top, m
	d0, d1   float32 // depth, m
	hw0, hw1 float32 // half width, fine cells
	tan      float32 // bank slope (the talus tangent), m/m
	reach    float32 // footprint radius, fine cells
	bx0, by0 int32   // box, fine cells, [bx0, bx1) × [by0, by1)
	bx1, by1 int32
	src, dst int32 // coarse cells
}

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

// hydraulic returns the bankfull depth (m) and half width (fine cells, at
// least ¾ of a cell so that a bed is always continuous on the fine grid)
// for drainage area a, m².
func (p *prep) hydraulic(a float32) (depth, hw float32) {
	km2 := float64(a) / 1e6
	d := p.o.DepthCoef * math.Pow(km2, p.o.DepthExp)
	w := p.o.WidthCoef * math.Pow(km2, p.o.WidthExp)
	return float32(d), float32(max(w/2/p.fcell, 0.75))
}

// rivers builds the river segments of every coarse cell draining at least
// RiverArea (but those between two lake cells: the lake floor has no bed)
// and buckets them by coarse row.
func (p *prep) rivers() {
	W, H, F := p.W, p.H, p.F
	n := W * H
	rec, area := p.s.Receivers, p.s.Area
	thr := float32(p.o.RiverArea)
	isRiver := func(i int) bool { return area[i] >= thr && int(rec[i]) != i }
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
		amp := 0.2 * float64(F) * p.o.Meander
		a1, a2 := amp*unit(p.o.Seed, 1, i), 0.5*amp*unit(p.o.Seed, 2, i)
		sg := segment{pts: make([][2]float32, K), src: int32(i), dst: int32(r)}
		for k := range K {
			t := float64(k) / float64(K-1)
			t2, t3 := t*t, t*t*t
			var q [2]float64
			for c := range 2 {
				q[c] = 0.5 * (2*P1[c] + (P2[c]-P0[c])*t +
					(2*P0[c]-5*P1[c]+4*P2[c]-P3[c])*t2 +
					(3*P1[c]-P0[c]-3*P2[c]+P3[c])*t3)
			}
			s := math.Sin(math.Pi * t)
			off := a1*s*s + a2*s*math.Sin(2*math.Pi*t)
			sg.pts[k] = [2]float32{float32(q[0] + off*nx), float32(q[1] + off*ny)}
		}
		sg.z0, sg.z1 = p.bed[i], p.bed[r]
		sg.d0, sg.hw0 = p.hydraulic(area[i])
		sg.d1, sg.hw1 = p.hydraulic(area[r])
		sg.d1, sg.hw1 = max(sg.d1, sg.d0), max(sg.hw1, sg.hw0)
		sg.tan = min(p.tanT[i], p.tanT[r])
		sg.reach = min(sg.hw1+3*sg.d1/(sg.tan*float32(p.fcell))+0.5*float32(F), sg.hw1+2*float32(F))
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

// carver accumulates, over the fine cells of a band, the lowest bed or
// bank surface of every segment reaching them.
type carver struct {
	gx0, gy0, w, h int       // the band, fine cells
	v              []float32 // lowest carved surface (+Inf: none)
	depth          []float32 // bed depth below its top, m (0 outside beds)
	core           []bool    // inside some bed
}

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
}

// carve adds segment sg: within the bed (distance d below the half
// width) a parabolic section z − D·(1 − (d/hw)²), beyond it a bank rising
// at the talus slope, up to the reach.
func (c *carver) carve(sg *segment, fcell float32) {
	K := len(sg.pts)
	bx0, by0 := max(int(sg.bx0), c.gx0), max(int(sg.by0), c.gy0)
	bx1, by1 := min(int(sg.bx1), c.gx0+c.w), min(int(sg.by1), c.gy0+c.h)
	if bx0 >= bx1 || by0 >= by1 {
		return
	}
	bank := sg.tan * fcell
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
				hw := sg.hw0 + (sg.hw1-sg.hw0)*t
				i := row + x - c.gx0
				var v float32
				if d < hw {
					dep := (sg.d0 + (sg.d1-sg.d0)*t)
					r := d / hw
					dep *= 1 - r*r
					v = z - dep
					c.core[i] = true
					c.depth[i] = max(c.depth[i], dep)
				} else {
					v = z + (d-hw)*bank
				}
				c.v[i] = min(c.v[i], v)
			}
		}
	}
}
