package viewer

import (
	"math"
	"sync"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/parallel"
)

// Constants of the 3D surface.
const (
	// meshBlockVerts is about how many mesh vertices one parallel block of
	// BuildMesh3D handles.
	meshBlockVerts = 1 << 13
	// riverDecadesToDeep is how many decades of drainage area over the
	// threshold take a river's colour from riverLight to riverColour.
	riverDecadesToDeep = 3
)

// riverLight is the colour of a river at the threshold; it deepens to
// riverColour with drainage area.
var riverLight = rgb{0.42, 0.68, 0.96}

// Mesh3D is the decimated, lit, coloured heightfield of one snapshot, ready
// to be projected for a camera. Vertex (i, j), index j·W + i, stands for a
// block of cells (all the cells of the snapshot when it is at most
// MaxMesh per side, one vertex per cell) and sits at the block's centre:
// world position ((i+0.5)·DX, (j+0.5)·DY, Z[j·W+i]).
//
// A Mesh3D is built by BuildMesh3D and only read by Project, so any number
// of goroutines may project one mesh at once; BuildMesh3D into a mesh must
// not overlap any other use of it.
type Mesh3D struct {
	W, H   int     // vertices per side
	DX, DY float64 // vertex spacing, metres
	// Z is the height of each vertex times the exaggeration, metres: the
	// mean of its block's cells, where a wet cell (when lakes are drawn)
	// counts at its water level, so a lake is flat at its spill level.
	Z []float32
	// Color is each vertex's lit colour, straight-alpha RGBA in [0, 1].
	Color [][4]float32
	// TintMinM and TintMaxM are the height range of the height colours
	// (not exaggerated); Exaggeration the factor in Z; Step the
	// snapshot's step.
	TintMinM, TintMaxM float64
	Exaggeration       float64
	Step               int
	// Wireframe asks Project for the mesh edges (Options3D.Wireframe).
	Wireframe bool

	// Scratch, per vertex: the mean terrain height (not exaggerated), the
	// wet fraction, the mean depth of the wet cells, the river disc radius
	// (mesh cells) and area of river vertices, the mean uplift, the lit
	// fraction of cast shadows.
	hgt, wet, depth, rad, rarea, upl, shadow []float32
	// Per mesh row: height and uplift range (±Inf when empty), the columns
	// of its river vertices.
	rowLo, rowHi, rowULo, rowUHi []float32
	riverCols                    [][]int32
	// Block bounds: vertex i covers cells [xs[i], xs[i+1]), row j rows
	// [ys[j], ys[j+1]).
	xs, ys []int
}

// Pos returns the world position of vertex (i, j), metres (z
// exaggerated).
func (m *Mesh3D) Pos(i, j int) (x, y, z float64) {
	return (float64(i) + 0.5) * m.DX, (float64(j) + 0.5) * m.DY, float64(m.Z[j*m.W+i])
}

// HeightAt returns the height of the mesh surface (exaggerated, metres) at
// world point (x, y), interpolated bilinearly between the vertices and
// held constant beyond the outer ones: for keeping a camera above the
// ground. It returns 0 for an empty mesh.
func (m *Mesh3D) HeightAt(x, y float64) float64 {
	if m.W < 1 || m.H < 1 || len(m.Z) != m.W*m.H {
		return 0
	}
	u := min(max(x/m.DX-0.5, 0), float64(m.W-1))
	v := min(max(y/m.DY-0.5, 0), float64(m.H-1))
	if math.IsNaN(u) || math.IsNaN(v) {
		return 0
	}
	i, j := min(int(u), m.W-2), min(int(v), m.H-2)
	i, j = max(i, 0), max(j, 0)
	fu, fv := u-float64(i), v-float64(j)
	at := func(i, j int) float64 { return float64(m.Z[min(j, m.H-1)*m.W+min(i, m.W-1)]) }
	a := at(i, j) + (at(i+1, j)-at(i, j))*fu
	b := at(i, j+1) + (at(i+1, j+1)-at(i, j+1))*fu
	return a + (b-a)*fv
}

// meshAcc holds one mesh row's sums while BuildMesh3D aggregates blocks.
type meshAcc struct {
	sumH, sumD, sumU []float64
	cnt, nWet        []int32
	amax             []float32
}

var meshAccPool = sync.Pool{New: func() any { return new(meshAcc) }}

func (a *meshAcc) reset(n int) {
	if cap(a.sumH) < n {
		a.sumH, a.sumD, a.sumU = make([]float64, n), make([]float64, n), make([]float64, n)
		a.cnt, a.nWet = make([]int32, n), make([]int32, n)
		a.amax = make([]float32, n)
	}
	a.sumH, a.sumD, a.sumU = a.sumH[:n], a.sumD[:n], a.sumU[:n]
	a.cnt, a.nWet, a.amax = a.cnt[:n], a.nWet[:n], a.amax[:n]
	clear(a.sumH)
	clear(a.sumD)
	clear(a.sumU)
	clear(a.cnt)
	clear(a.nWet)
	clear(a.amax)
}

// BuildMesh3D builds the mesh of s for options o into dst, reusing its
// buffers, and returns it (dst may be nil). Options that fail Validate are
// used with their default values.
//
// Decimation. The mesh has min(W, MaxMesh) × min(H, MaxMesh) vertices;
// vertex i takes the cells [⌊i·W/mw⌋, ⌊(i+1)·W/mw⌋) of each axis, so its
// height (the block's mean) lies within the block's minimum and maximum,
// its drainage area is the block's largest (dry cells only when lakes are
// drawn, so rivers end at the shore) and its wet fraction blends the lake
// colour in.
//
// Light and colour. Each vertex's normal comes from central differences of
// Z (one-sided on the edges); its light is Ambient + (1 - Ambient)·max(0,
// n·sun)·lit, where lit is 1 without cast shadows. The colour (height or
// slope ramp, then rivers, lakes and the uplift blended over it in that
// order) is multiplied by the light; alpha is 1.
//
// Cast shadows. One sweep along the sun's direction, line by line from the
// sun's side, carries the height of the shadow volume's top: S(p) =
// max(Z, S)(p⁺) - drop, with p⁺ the point one mesh step toward the sun
// (interpolated linearly between the two vertices of the previous line)
// and drop the step's length times tan(elevation). The vertex's lit
// fraction falls from 1 to 0 as S(p) rises from Z(p) to Z(p) + drop, which
// softens shadow edges over about one mesh cell. The sweep is serial (a
// few ms at 512²); everything else runs over rows on sim/parallel's
// workers, and the mesh is bit-identical for any GOMAXPROCS.
func BuildMesh3D(dst *Mesh3D, s *engine.Snapshot, o Options3D) *Mesh3D {
	checkSnapshot(s)
	o = o.sanitized()
	m := dst
	if m == nil {
		m = new(Mesh3D)
	}
	mw, mh := min(s.W, o.MaxMesh), min(s.H, o.MaxMesh)
	n := mw * mh
	m.W, m.H = mw, mh
	m.DX = float64(s.W) * s.Cell / float64(mw)
	m.DY = float64(s.H) * s.Cell / float64(mh)
	m.Exaggeration, m.Step, m.Wireframe = o.Exaggeration, s.Step, o.Wireframe
	m.Z = sim.Resize(m.Z, n)
	m.Color = sim.Resize(m.Color, n)
	m.hgt, m.wet, m.depth = sim.Resize(m.hgt, n), sim.Resize(m.wet, n), sim.Resize(m.depth, n)
	m.rad, m.rarea, m.upl = sim.Resize(m.rad, n), sim.Resize(m.rarea, n), sim.Resize(m.upl, n)
	m.rowLo, m.rowHi = sim.Resize(m.rowLo, mh), sim.Resize(m.rowHi, mh)
	m.rowULo, m.rowUHi = sim.Resize(m.rowULo, mh), sim.Resize(m.rowUHi, mh)
	m.riverCols = sim.Resize(m.riverCols, mh)
	m.xs, m.ys = blockBounds(m.xs, s.W, mw), blockBounds(m.ys, s.H, mh)

	b := &meshBuild{m: m, s: s, o: o,
		water:  o.Lakes && s.Water != nil,
		rivers: o.Rivers && s.Area != nil,
		uplift: o.UpliftAlpha > 0 && s.Uplift != nil,
	}
	rows := max(1, meshBlockVerts/mw)
	parallel.Blocks(mh, rows, func(_, j0, j1 int) {
		acc := meshAccPool.Get().(*meshAcc)
		for j := j0; j < j1; j++ {
			b.aggregate(j, acc)
		}
		meshAccPool.Put(acc)
	})

	// Ranges: exact in any order.
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	ulo, uhi := lo, hi
	for j := range mh {
		lo, hi = min(lo, m.rowLo[j]), max(hi, m.rowHi[j])
		ulo, uhi = min(ulo, m.rowULo[j]), max(uhi, m.rowUHi[j])
	}
	if lo > hi {
		lo, hi = 0, 0
	}
	if ulo > uhi {
		ulo, uhi = 0, 0
	}
	m.TintMinM, m.TintMaxM = o.TintMinM, o.TintMaxM
	if m.TintMinM == 0 && m.TintMaxM == 0 {
		m.TintMinM, m.TintMaxM = float64(lo), float64(hi)
	}

	if o.Shadows && o.SunElevationDeg < 89.9 {
		m.shadow = sim.Resize(m.shadow, n)
		m.castShadows(o.SunAzimuthDeg, o.SunElevationDeg)
	} else {
		m.shadow = m.shadow[:0]
	}

	b.prepareColour(float64(ulo), float64(uhi))
	parallel.Blocks(mh, rows, func(_, j0, j1 int) {
		buf := meshRowPool.Get().(*meshRowBuf)
		for j := j0; j < j1; j++ {
			b.colour(j, buf)
		}
		meshRowPool.Put(buf)
	})
	return m
}

// blockBounds sets dst to the n+1 bounds ⌊k·cells/n⌋ of n blocks of cells.
func blockBounds(dst []int, cells, n int) []int {
	dst = sim.Resize(dst, n+1)
	for k := range dst {
		dst[k] = k * cells / n
	}
	return dst
}

// meshBuild holds what every row of one BuildMesh3D needs.
type meshBuild struct {
	m *Mesh3D
	s *engine.Snapshot
	o Options3D

	water, rivers, uplift bool

	// Colour pass.
	lx, ly, lz      float64
	amb             float64
	tintLo, tintInv float64
	upScale, upOff  float64 // uplift u is at t = u·upScale + upOff of upLUT
	upLUT           lut
	reach           int
	dist            []float32 // dist[dy*(reach+1)+dx]
	logThr          float64
	rockPal         []rgb // layer colours when colouring by rock
}

// aggregate computes row j's vertices from their blocks of cells.
func (b *meshBuild) aggregate(j int, acc *meshAcc) {
	m, s := b.m, b.s
	if m.W == s.W && m.H == s.H {
		b.aggregate1(j)
		return
	}
	w, mw := s.W, m.W
	acc.reset(mw)
	y0, y1 := m.ys[j], m.ys[j+1]
	xs := m.xs
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for y := y0; y < y1; y++ {
		row := s.Height[y*w : y*w+w]
		for i := range mw {
			var sum float64
			var c int32
			for _, h := range row[xs[i]:xs[i+1]] {
				if h-h != 0 { // NaN or ±Inf: left out
					continue
				}
				sum += float64(h)
				c++
				// Plain comparisons: h is not NaN, and the builtins' NaN
				// care costs a third of the loop.
				if h < lo {
					lo = h
				}
				if h > hi {
					hi = h
				}
			}
			acc.sumH[i] += sum
			acc.cnt[i] += c
		}
	}
	m.rowLo[j], m.rowHi[j] = lo, hi

	if b.water {
		for y := y0; y < y1; y++ {
			row := s.Height[y*w : y*w+w]
			wrow := s.Water[y*w : y*w+w]
			for i := range mw {
				var sum float64
				var c int32
				for x := xs[i]; x < xs[i+1]; x++ {
					if d := wrow[x]; d > 0 && d-d == 0 && row[x]-row[x] == 0 {
						sum += float64(d)
						c++
					}
				}
				acc.sumD[i] += sum
				acc.nWet[i] += c
			}
		}
	}
	if b.rivers {
		for y := y0; y < y1; y++ {
			arow := s.Area[y*w : y*w+w]
			var wrow []float32
			if b.water {
				wrow = s.Water[y*w : y*w+w]
			}
			for i := range mw {
				a := acc.amax[i]
				for x := xs[i]; x < xs[i+1]; x++ {
					if wrow != nil && wrow[x] > 0 {
						continue
					}
					if v := arow[x]; v > a { // NaN never is
						a = v
					}
				}
				acc.amax[i] = a
			}
		}
	}
	ulo, uhi := float32(math.Inf(1)), float32(math.Inf(-1))
	if b.uplift {
		for y := y0; y < y1; y++ {
			urow := s.Uplift[y*w : y*w+w]
			for i := range mw {
				var sum float64
				for _, u := range urow[xs[i]:xs[i+1]] {
					if u-u != 0 {
						continue
					}
					sum += float64(u)
					if u < ulo {
						ulo = u
					}
					if u > uhi {
						uhi = u
					}
				}
				acc.sumU[i] += sum
			}
		}
	}
	m.rowULo[j], m.rowUHi[j] = ulo, uhi

	ex := b.o.Exaggeration
	thr := b.o.RiverThresholdM2
	maxW := b.o.RiverMaxWidth
	rc := m.riverCols[j][:0]
	base := j * mw
	for i := range mw {
		k := base + i
		cells := float64((xs[i+1] - xs[i]) * (y1 - y0))
		var h, surf float64
		if c := acc.cnt[i]; c > 0 {
			h = acc.sumH[i] / float64(c)
			surf = (acc.sumH[i] + acc.sumD[i]) / float64(c)
		}
		m.hgt[k] = float32(h)
		m.Z[k] = float32(surf * ex)
		m.wet[k], m.depth[k] = 0, 0
		if nw := acc.nWet[i]; nw > 0 {
			m.wet[k] = float32(float64(nw) / cells)
			m.depth[k] = float32(acc.sumD[i] / float64(nw))
		}
		m.rad[k] = 0
		if b.rivers {
			if a := float64(acc.amax[i]); a >= thr && !math.IsInf(a, 1) {
				width := 1 + riverPxPerDecade*math.Log10(a/thr)
				m.rad[k] = float32(min(width, maxW) / 2)
				m.rarea[k] = float32(a)
				rc = append(rc, int32(i))
			}
		}
		if b.uplift {
			m.upl[k] = float32(acc.sumU[i] / cells)
		}
	}
	m.riverCols[j] = rc
}

// aggregate1 is aggregate for a mesh of one vertex per cell.
func (b *meshBuild) aggregate1(j int) {
	m, s := b.m, b.s
	w := m.W
	row := j * w
	hs := s.Height[row : row+w]
	z, hg := m.Z[row:row+w], m.hgt[row:row+w]
	wet, depth, rad := m.wet[row:row+w], m.depth[row:row+w], m.rad[row:row+w]
	ex := float32(b.o.Exaggeration)
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for i, h := range hs {
		if h-h != 0 { // NaN or ±Inf: left out
			h = 0
		} else {
			lo, hi = min(lo, h), max(hi, h)
		}
		hg[i] = h
		z[i] = h * ex
	}
	m.rowLo[j], m.rowHi[j] = lo, hi
	clear(wet)
	clear(depth)
	clear(rad)
	var ws []float32
	if b.water {
		ws = s.Water[row : row+w]
		for i, d := range ws {
			if d > 0 && d-d == 0 && hs[i]-hs[i] == 0 {
				wet[i], depth[i] = 1, d
				z[i] = float32((float64(hs[i]) + float64(d)) * b.o.Exaggeration)
			}
		}
	}
	rc := m.riverCols[j][:0]
	if b.rivers {
		thr, maxW := b.o.RiverThresholdM2, b.o.RiverMaxWidth
		rarea := m.rarea[row : row+w]
		for i, a := range s.Area[row : row+w] {
			if !(float64(a) >= thr) || math.IsInf(float64(a), 1) || (ws != nil && ws[i] > 0) {
				continue
			}
			width := 1 + riverPxPerDecade*math.Log10(float64(a)/thr)
			rad[i] = float32(min(width, maxW) / 2)
			rarea[i] = a
			rc = append(rc, int32(i))
		}
	}
	m.riverCols[j] = rc
	ulo, uhi := float32(math.Inf(1)), float32(math.Inf(-1))
	if b.uplift {
		upl := m.upl[row : row+w]
		for i, u := range s.Uplift[row : row+w] {
			if u-u != 0 {
				u = 0
			} else {
				ulo, uhi = min(ulo, u), max(uhi, u)
			}
			upl[i] = u
		}
	}
	m.rowULo[j], m.rowUHi[j] = ulo, uhi
}

// castShadows sets m.shadow to each vertex's lit fraction for a sun at
// azimuth az and elevation el (degrees, el < 90).
func (m *Mesh3D) castShadows(azDeg, elDeg float64) {
	az, el := azDeg*math.Pi/180, elDeg*math.Pi/180
	// Toward the sun in index units (x east, y south), the larger
	// component made ±1: one step crosses one line of the major axis.
	a, b := math.Sin(az)/m.DX, -math.Cos(az)/m.DY
	var nl, np, strideL, strideP int
	var dl, t float64
	if math.Abs(a) >= math.Abs(b) { // lines are columns
		nl, np, strideL, strideP = m.W, m.H, 1, m.W
		dl, t = a, b/math.Abs(a)
	} else { // lines are rows
		nl, np, strideL, strideP = m.H, m.W, m.W, 1
		dl, t = b, a/math.Abs(b)
	}
	stepA, stepB := a/math.Max(math.Abs(a), math.Abs(b)), b/math.Max(math.Abs(a), math.Abs(b))
	drop := math.Hypot(stepA*m.DX, stepB*m.DY) * math.Tan(el)
	inv := 1 / drop

	// Lines from the sun's side: the sun is toward +line when dl > 0. The
	// point one step toward the sun from p is at p + t on the previous
	// line: between p + ft and p + ft + 1, at fraction fr.
	l, dStep := 0, 1
	if dl > 0 {
		l, dStep = nl-1, -1
	}
	ft := int(math.Floor(t))
	fr := t - float64(ft)
	prev, cur := make([]float64, np), make([]float64, np)
	for p := range np {
		k := l*strideL + p*strideP
		m.shadow[k] = 1
		prev[p] = float64(m.Z[k])
	}
	// Interior positions read both neighbours in range.
	pa, pb := max(0, -ft), min(np, np-1-ft)
	for range nl - 1 {
		l += dStep
		base := l * strideL
		edge := func(p int) {
			u0 := prev[min(max(p+ft, 0), np-1)]
			u1 := prev[min(max(p+ft+1, 0), np-1)]
			sh := u0 + (u1-u0)*fr - drop
			k := base + p*strideP
			z := float64(m.Z[k])
			m.shadow[k] = float32(min(max(1-(sh-z)*inv, 0), 1))
			cur[p] = max(z, sh)
		}
		for p := 0; p < min(pa, np); p++ {
			edge(p)
		}
		if pa < pb {
			z, shd := m.Z, m.shadow
			src := prev[pa+ft : pb+ft+1]
			for p := pa; p < pb; p++ {
				u0, u1 := src[p-pa], src[p-pa+1]
				sh := u0 + (u1-u0)*fr - drop
				k := base + p*strideP
				zz := float64(z[k])
				shd[k] = float32(min(max(1-(sh-zz)*inv, 0), 1))
				cur[p] = max(zz, sh)
			}
		}
		for p := max(pb, pa, 0); p < np; p++ {
			edge(p)
		}
		prev, cur = cur, prev
	}
}

// meshRowBuf holds one mesh row's river coverage.
type meshRowBuf struct {
	cov, area []float32
}

var meshRowPool = sync.Pool{New: func() any { return new(meshRowBuf) }}

// prepareColour sets the colour pass's constants; ulo, uhi is the uplift
// range.
func (b *meshBuild) prepareColour(ulo, uhi float64) {
	o, m := b.o, b.m
	az, el := o.SunAzimuthDeg*math.Pi/180, o.SunElevationDeg*math.Pi/180
	b.lx = math.Sin(az) * math.Cos(el)
	b.ly = -math.Cos(az) * math.Cos(el)
	b.lz = math.Sin(el)
	b.amb = o.Ambient
	b.rockPal = nil
	if o.Color == ColorRock && b.s.Geology != nil && len(b.s.Rock) == b.s.W*b.s.H {
		for _, c := range RockPalette(b.s) {
			b.rockPal = append(b.rockPal, rgb{float32(c.R) / 255, float32(c.G) / 255, float32(c.B) / 255})
		}
	}
	b.tintLo = m.TintMinM
	if m.TintMaxM > m.TintMinM {
		b.tintInv = 1 / (m.TintMaxM - m.TintMinM)
	}
	if b.uplift {
		if ulo < 0 {
			b.upLUT, b.upScale, b.upOff = divergingLUT, 0.5/max(-ulo, uhi), 0.5
		} else {
			b.upLUT = upliftLUT
			if uhi > 0 {
				b.upScale = 1 / uhi
			}
		}
	}
	if b.rivers {
		b.logThr = math.Log10(o.RiverThresholdM2)
		b.reach = int(math.Ceil(o.RiverMaxWidth/2+0.5)) - 1
		n := b.reach + 1
		b.dist = make([]float32, n*n)
		for dy := range n {
			for dx := range n {
				b.dist[dy*n+dx] = float32(math.Hypot(float64(dx), float64(dy)))
			}
		}
	}
}

// colour sets the colours of row j.
func (b *meshBuild) colour(j int, buf *meshRowBuf) {
	m := b.m
	w, h := m.W, m.H
	row := j * w
	var cov, carea []float32
	if b.rivers {
		if cap(buf.cov) < w {
			buf.cov, buf.area = make([]float32, w), make([]float32, w)
		}
		cov, carea = buf.cov[:w], buf.area[:w]
		clear(cov)
		b.gatherRivers(j, cov, carea)
	}
	// Rows above and below for the gradients, one-sided on the edges.
	jn, js, fy := j, j, 1.0
	if j > 0 {
		jn = j - 1
	}
	if j < h-1 {
		js = j + 1
	}
	if js-jn > 0 {
		fy = 1 / (float64(js-jn) * m.DY)
	} else {
		fy = 0
	}
	z, hg := m.Z, m.hgt
	amb, dif := b.amb, 1-b.amb
	slope := b.o.Color == ColorSlope
	for i := range w {
		k := row + i
		ie, iw := min(i+1, w-1), max(i-1, 0)
		fx := 0.0
		if ie > iw {
			fx = 1 / (float64(ie-iw) * m.DX)
		}
		gx := (float64(z[row+ie]) - float64(z[row+iw])) * fx
		gy := (float64(z[js*w+i]) - float64(z[jn*w+i])) * fy
		sh := (b.lz - gx*b.lx - gy*b.ly) / math.Sqrt(1+gx*gx+gy*gy)
		if !(sh > 0) {
			sh = 0
		}
		if len(m.shadow) > 0 {
			sh *= float64(m.shadow[k])
		}
		light := float32(amb + dif*sh)

		var c rgb
		if b.rockPal != nil {
			cx, cy := i, j
			if m.W != b.s.W || m.H != b.s.H {
				cx, cy = (m.xs[i]+m.xs[i+1])/2, (m.ys[j]+m.ys[j+1])/2
			}
			c = b.rockPal[min(int(b.s.Rock[cy*b.s.W+cx]), len(b.rockPal)-1)]
		} else if slope {
			tx := (float64(hg[row+ie]) - float64(hg[row+iw])) * fx
			ty := (float64(hg[js*w+i]) - float64(hg[jn*w+i])) * fy
			c = slopeLUT.at(math.Atan(math.Sqrt(tx*tx+ty*ty)) * 180 / math.Pi / slopeMaxDeg)
		} else {
			c = tintLUT.at((float64(hg[k]) - b.tintLo) * b.tintInv)
		}
		if cov != nil && cov[i] > 0 {
			t := (math.Log10(float64(carea[i])) - b.logThr) / riverDecadesToDeep
			rc := mix(riverLight, riverColour, float32(min(max(t, 0), 1)))
			c = mix(c, rc, min(cov[i], 1))
		}
		if wf := m.wet[k]; wf > 0 {
			d := m.depth[k]
			c = mix(c, mix(lakeShallow, lakeDeep, d/(d+lakeDepthM)), wf)
		}
		if b.uplift {
			c = mix(c, b.upLUT.at(float64(m.upl[k])*b.upScale+b.upOff), float32(b.o.UpliftAlpha))
		}
		m.Color[k] = [4]float32{c[0] * light, c[1] * light, c[2] * light, 1}
	}
}

// gatherRivers sets cov[i] to the largest coverage of vertex (i, j) by the
// river discs within reach, and area[i] to the drainage area of the disc
// that gives it (the larger on a tie). A maximum does not depend on the
// order of the discs: rows build in parallel with identical results.
func (b *meshBuild) gatherRivers(j int, cov, area []float32) {
	m := b.m
	w, n := m.W, b.reach+1
	for jj := max(0, j-b.reach); jj <= min(m.H-1, j+b.reach); jj++ {
		cols := m.riverCols[jj]
		if len(cols) == 0 {
			continue
		}
		dy := jj - j
		if dy < 0 {
			dy = -dy
		}
		dist := b.dist[dy*n : dy*n+n]
		rad, rarea := m.rad[jj*w:jj*w+w], m.rarea[jj*w:jj*w+w]
		for _, c := range cols {
			xs := int(c)
			rho := rad[xs] + 0.5
			a := rarea[xs]
			span := min(b.reach, int(rho))
			for x := max(0, xs-span); x <= min(w-1, xs+span); x++ {
				dx := x - xs
				if dx < 0 {
					dx = -dx
				}
				if cv := rho - dist[dx]; cv > cov[x] || (cv == cov[x] && cv > 0 && a > area[x]) {
					cov[x], area[x] = cv, a
				}
			}
		}
	}
}
