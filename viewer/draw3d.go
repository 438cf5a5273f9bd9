package viewer

import (
	"math"

	"orogen/sim"
	"orogen/sim/parallel"
)

// Vertex3D is one vertex of a draw list. It has exactly ebiten.Vertex's
// memory layout (12 float32: DstX, DstY, SrcX, SrcY, ColorR, ColorG,
// ColorB, ColorA, Custom0 ... Custom3), so the UI can reinterpret a
// []Vertex3D as []ebiten.Vertex without copying. DstX, DstY are screen
// pixels; SrcX = SrcY = 0.5, the centre of the 1×1 white source image the
// UI draws with; the colour is straight alpha in [0, 1]. Custom0 ...
// Custom2 hold the vertex's world position (metres, z exaggerated) and
// Custom3 its depth in front of the eye (metres), for a shader that wants
// them (fog, contour lines); DrawTriangles ignores them.
type Vertex3D struct {
	DstX, DstY, SrcX, SrcY             float32
	ColorR, ColorG, ColorB, ColorA     float32
	Custom0, Custom1, Custom2, Custom3 float32
}

// MaxChunkVertices is the most vertices one Chunk holds: every index fits
// in a uint16, as Ebiten v2.8's DrawTriangles takes them.
const MaxChunkVertices = 65535

// Chunk is a piece of a draw list: triangles (three indices each into
// Vertices) to be drawn in order.
type Chunk struct {
	Vertices []Vertex3D
	Indices  []uint16
}

// DrawList is a mesh projected for one camera and screen: triangles in
// back-to-front order (painter's algorithm), split into chunks of at most
// MaxChunkVertices vertices drawn in order. Drawing the chunks one after
// another with straight-alpha blending, and no depth buffer, gives the
// correctly hidden surface (see the package doc).
//
// Project reuses a DrawList's buffers: the chunks of one Project are valid
// until the next Project into the same list.
type DrawList struct {
	Chunks []Chunk
	W, H   int    // the screen it was projected for, pixels
	Camera Camera // the camera, with its fields brought into range

	// Per mesh vertex: screen position and depth; per mesh column and row:
	// world x and y.
	pv     []projected
	wx, wy []float32
	jobs   []drawJob
}

// Triangles returns the number of triangles in the list.
func (d *DrawList) Triangles() int {
	n := 0
	for _, c := range d.Chunks {
		n += len(c.Indices) / 3
	}
	return n
}

// projected is a mesh vertex on the screen: position (pixels) and depth
// in front of the eye (metres).
type projected struct{ x, y, z float32 }

// Constants of Project.
const (
	// quadsPerJob is about how many quads one parallel job of Project
	// emits (its chunks are its own).
	quadsPerJob = 8192
	// maxQuadVertices is the most vertices one quad adds to a chunk: 4
	// shared, 8 from clipping its two triangles at the near plane, 16 for
	// its four wireframe edges.
	maxQuadVertices = 28
	// wireHalfWidth is half the wireframe lines' width, pixels.
	wireHalfWidth = 0.5
)

// wireColour is the wireframe's colour, straight alpha.
var wireColour = [4]float32{0.05, 0.05, 0.07, 0.6}

// rect is a rectangle of quads [i0, i1) × [j0, j1) drawn row by row, rows
// in direction dj and quads in each row in direction di (+1: increasing
// index), far ones first.
type rect struct{ i0, i1, j0, j1, di, dj int }

// drawJob emits rows [r0, r1) (counted in the rect's drawing order) of one
// rect into chunks of its own.
type drawJob struct {
	r      rect
	r0, r1 int
	chunks []Chunk
	n      int // chunks in use
	// The chunk being filled.
	vs  []Vertex3D
	idx []uint16
	// Indices in the current chunk of the vertices of the two vertex rows
	// slotRow[k], by column - r.i0 (-1: not emitted yet).
	slot    [2][]int32
	slotRow [2]int
}

// projector is what every job of one Project reads.
type projector struct {
	m      *Mesh3D
	d      *DrawList
	f      frame
	eu, ev float64 // the eye over the mesh, in vertex index units
	ci, cj int     // the quad under the eye (clamped to [-1, quads])
	sw, sh float32 // screen size
	wire   bool
}

// Project projects m for camera cam on a screenW × screenH screen into dst,
// reusing its buffers, and returns it (dst may be nil).
//
// Every vertex is projected once (in parallel over rows). The quads are
// then emitted in an order in which no quad can hide one drawn before it
// (the package doc proves it): the four quadrants around the quad under
// the eye, each row by row from the far side, then the four half-rows and
// half-columns through it from their far ends, then that quad. Within a
// quad, of the two triangles split along the (i, j)-(i+1, j+1) diagonal,
// the one on the far side of the diagonal from the eye goes first. Rows
// share their vertices within a chunk; the emission is split into jobs of
// about 8192 quads (bands of a rectangle's rows) that run in parallel,
// each into its own chunks, concatenated in order, so the list is the same
// for any GOMAXPROCS. Quads wholly off screen are left out; triangles
// crossing the near plane are clipped to it, and those wholly behind it
// left out. With Wireframe, each mesh edge is emitted as a thin quad right
// after the later of the two quads it borders.
func (m *Mesh3D) Project(dst *DrawList, cam Camera, screenW, screenH int) *DrawList {
	if dst == nil {
		dst = new(DrawList)
	}
	cam = cam.sane()
	dst.Chunks = dst.Chunks[:0]
	dst.W, dst.H, dst.Camera = screenW, screenH, cam
	if screenW <= 0 || screenH <= 0 || m.W < 2 || m.H < 2 || len(m.Z) != m.W*m.H {
		return dst
	}
	p := &projector{m: m, d: dst, f: cam.frame(float64(screenW), float64(screenH)),
		sw: float32(screenW), sh: float32(screenH), wire: m.Wireframe}
	n := m.W * m.H
	dst.pv = sim.Resize(dst.pv, n)
	dst.wx, dst.wy = sim.Resize(dst.wx, m.W), sim.Resize(dst.wy, m.H)
	for i := range dst.wx {
		dst.wx[i] = float32((float64(i) + 0.5) * m.DX)
	}
	for j := range dst.wy {
		dst.wy[j] = float32((float64(j) + 0.5) * m.DY)
	}
	parallel.Blocks(m.H, max(1, meshBlockVerts/m.W), func(_, j0, j1 int) {
		f := &p.f
		for j := j0; j < j1; j++ {
			y := (float64(j) + 0.5) * m.DY
			for i := range m.W {
				k := j*m.W + i
				sx, sy, d := f.project((float64(i)+0.5)*m.DX, y, float64(m.Z[k]))
				dst.pv[k] = projected{float32(sx), float32(sy), float32(d)}
			}
		}
	})

	// The quad under the eye: quad (i, j) spans [i, i+1] × [j, j+1] in
	// vertex index units. An eye off the mesh counts as just off it, which
	// gives the same order.
	qw, qh := m.W-1, m.H-1
	p.eu, p.ev = p.f.ex/m.DX-0.5, p.f.ey/m.DY-0.5
	p.ci = int(math.Floor(min(max(p.eu, -1), float64(qw))))
	p.cj = int(math.Floor(min(max(p.ev, -1), float64(qh))))
	ci, cj := p.ci, p.cj
	rects := [...]rect{
		// The quadrants, far rows and far quads first.
		{ci + 1, qw, cj + 1, qh, -1, -1},
		{0, ci, cj + 1, qh, 1, -1},
		{0, ci, 0, cj, 1, 1},
		{ci + 1, qw, 0, cj, -1, 1},
		// The half-columns and half-rows through the eye's quad.
		{ci, ci + 1, cj + 1, qh, 1, -1},
		{ci, ci + 1, 0, cj, 1, 1},
		{ci + 1, qw, cj, cj + 1, -1, 1},
		{0, ci, cj, cj + 1, 1, 1},
		// The eye's quad.
		{ci, ci + 1, cj, cj + 1, 1, 1},
	}
	nj := 0
	for _, r := range rects {
		r.i0, r.i1 = max(r.i0, 0), min(r.i1, qw)
		r.j0, r.j1 = max(r.j0, 0), min(r.j1, qh)
		if r.i0 >= r.i1 || r.j0 >= r.j1 {
			continue
		}
		band := max(1, quadsPerJob/(r.i1-r.i0))
		for r0 := 0; r0 < r.j1-r.j0; r0 += band {
			if nj == len(dst.jobs) {
				dst.jobs = append(dst.jobs, drawJob{})
			}
			jb := &dst.jobs[nj]
			jb.r, jb.r0, jb.r1 = r, r0, min(r0+band, r.j1-r.j0)
			nj++
		}
	}
	jobs := dst.jobs[:nj]
	parallel.Blocks(len(jobs), 1, func(b, _, _ int) { p.run(&jobs[b]) })
	for k := range jobs {
		for _, c := range jobs[k].chunks[:jobs[k].n] {
			if len(c.Indices) > 0 {
				dst.Chunks = append(dst.Chunks, c)
			}
		}
	}
	return dst
}

// run emits one job's quads.
func (p *projector) run(jb *drawJob) {
	r := jb.r
	cols := r.i1 - r.i0 + 1
	for k := range jb.slot {
		jb.slot[k] = sim.Resize(jb.slot[k], cols)
		jb.slotRow[k] = -1
	}
	jb.n = 0
	jb.vs, jb.idx = nil, nil
	jb.newChunk()
	for pos := jb.r0; pos < jb.r1; pos++ {
		j := r.j0 + pos
		if r.dj < 0 {
			j = r.j1 - 1 - pos
		}
		jb.useRows(j, j+1)
		if r.di > 0 {
			for i := r.i0; i < r.i1; i++ {
				p.quad(jb, i, j)
			}
		} else {
			for i := r.i1 - 1; i >= r.i0; i-- {
				p.quad(jb, i, j)
			}
		}
	}
	jb.flush()
}

// newChunk starts a new chunk, reusing an old one's buffers.
func (jb *drawJob) newChunk() {
	if jb.n > 0 {
		jb.flush()
	}
	if jb.n == len(jb.chunks) {
		jb.chunks = append(jb.chunks, Chunk{})
	}
	c := &jb.chunks[jb.n]
	jb.n++
	jb.vs, jb.idx = c.Vertices[:0], c.Indices[:0]
	for k := range jb.slot {
		for x := range jb.slot[k] {
			jb.slot[k][x] = -1
		}
	}
}

// flush stores the chunk being filled.
func (jb *drawJob) flush() {
	c := &jb.chunks[jb.n-1]
	c.Vertices, c.Indices = jb.vs, jb.idx
}

// useRows makes the slots hold vertex rows a and b, keeping one that
// already does (the row shared with the previous quad row).
func (jb *drawJob) useRows(a, b int) {
	for _, r := range [2]int{a, b} {
		if jb.slotRow[0] == r || jb.slotRow[1] == r {
			continue
		}
		k := 0
		if jb.slotRow[0] == a || jb.slotRow[0] == b {
			k = 1
		}
		jb.slotRow[k] = r
		for x := range jb.slot[k] {
			jb.slot[k][x] = -1
		}
	}
}

// vertex returns the index of mesh vertex (i, j) in the current chunk,
// emitting it if needed.
func (p *projector) vertex(jb *drawJob, i, j int) uint16 {
	s := jb.slot[0]
	if jb.slotRow[1] == j {
		s = jb.slot[1]
	}
	x := i - jb.r.i0
	if v := s[x]; v >= 0 {
		return uint16(v)
	}
	m, d := p.m, p.d
	k := j*m.W + i
	c := &m.Color[k]
	q := &d.pv[k]
	n := len(jb.vs)
	jb.vs = append(jb.vs, Vertex3D{
		DstX: q.x, DstY: q.y, SrcX: 0.5, SrcY: 0.5,
		ColorR: c[0], ColorG: c[1], ColorB: c[2], ColorA: c[3],
		Custom0: d.wx[i], Custom1: d.wy[j], Custom2: m.Z[k], Custom3: q.z,
	})
	s[x] = int32(n)
	return uint16(n)
}

// quad emits quad (i, j): its two triangles, far one first, and with the
// wireframe the edges it draws.
func (p *projector) quad(jb *drawJob, i, j int) {
	m, d := p.m, p.d
	w := m.W
	k00 := j*w + i
	k10, k01, k11 := k00+1, k00+w, k00+w+1
	near := float32(p.f.near)
	// !(z >= near) is also true for NaN.
	q00, q10, q01, q11 := &d.pv[k00], &d.pv[k10], &d.pv[k01], &d.pv[k11]
	behind := 0
	if !(q00.z >= near) {
		behind++
	}
	if !(q10.z >= near) {
		behind++
	}
	if !(q01.z >= near) {
		behind++
	}
	if !(q11.z >= near) {
		behind++
	}
	if behind == 4 {
		return
	}
	if behind == 0 {
		// Plain comparisons: the min and max builtins' NaN care costs.
		if q00.x < 0 && q10.x < 0 && q01.x < 0 && q11.x < 0 ||
			q00.x > p.sw && q10.x > p.sw && q01.x > p.sw && q11.x > p.sw ||
			q00.y < 0 && q10.y < 0 && q01.y < 0 && q11.y < 0 ||
			q00.y > p.sh && q10.y > p.sh && q01.y > p.sh && q11.y > p.sh {
			return
		}
	}
	if len(jb.vs)+maxQuadVertices > MaxChunkVertices {
		jb.newChunk()
	}
	// Eye on the side of triangle A = (i,j) (i+1,j) (i+1,j+1) of the
	// diagonal: B = (i,j) (i+1,j+1) (i,j+1) first, then A.
	aNear := p.eu-float64(i) > p.ev-float64(j)
	if behind == 0 {
		a00, a10 := p.vertex(jb, i, j), p.vertex(jb, i+1, j)
		a01, a11 := p.vertex(jb, i, j+1), p.vertex(jb, i+1, j+1)
		if aNear {
			jb.idx = append(jb.idx, a00, a11, a01, a00, a10, a11)
		} else {
			jb.idx = append(jb.idx, a00, a10, a11, a00, a11, a01)
		}
	} else {
		tA, tB := [3]int{k00, k10, k11}, [3]int{k00, k11, k01}
		if aNear {
			tA, tB = tB, tA
		}
		p.clipped(jb, tA)
		p.clipped(jb, tB)
	}
	if p.wire {
		p.edges(jb, i, j)
	}
}

// clipped emits the part of the triangle of mesh vertices t in front of the
// near plane.
func (p *projector) clipped(jb *drawJob, t [3]int) {
	type pt struct {
		wx, wy, wz float64 // world
		vx, vy, vz float64 // view
		c          [4]float32
	}
	m := p.m
	var in [3]pt
	for n, k := range t {
		i, j := k%m.W, k/m.W
		x, y, z := m.Pos(i, j)
		vx, vy, vz := p.f.view(x, y, z)
		in[n] = pt{x, y, z, vx, vy, vz, m.Color[k]}
	}
	near := p.f.near
	var out [4]pt
	no := 0
	for n := range in {
		a, b := in[n], in[(n+1)%3]
		if a.vz >= near {
			out[no] = a
			no++
		}
		if (a.vz >= near) != (b.vz >= near) {
			s := (near - a.vz) / (b.vz - a.vz)
			l := func(u, v float64) float64 { return u + (v-u)*s }
			q := pt{l(a.wx, b.wx), l(a.wy, b.wy), l(a.wz, b.wz), l(a.vx, b.vx), l(a.vy, b.vy), near, [4]float32{}}
			for c := range q.c {
				q.c[c] = float32(l(float64(a.c[c]), float64(b.c[c])))
			}
			out[no] = q
			no++
		}
	}
	if no < 3 {
		return
	}
	first := uint16(len(jb.vs))
	for _, q := range out[:no] {
		k := p.f.focal / q.vz
		jb.vs = append(jb.vs, Vertex3D{
			DstX: float32(p.f.cx + q.vx*k), DstY: float32(p.f.cy - q.vy*k), SrcX: 0.5, SrcY: 0.5,
			ColorR: q.c[0], ColorG: q.c[1], ColorB: q.c[2], ColorA: q.c[3],
			Custom0: float32(q.wx), Custom1: float32(q.wy), Custom2: float32(q.wz), Custom3: float32(q.vz),
		})
	}
	for n := 1; n+1 < no; n++ {
		jb.idx = append(jb.idx, first, first+uint16(n), first+uint16(n+1))
	}
}

// edges emits the wireframe edges of quad (i, j) that it draws: those on
// the mesh's border and those shared with a quad drawn before it. Of two
// adjacent quads the later is the one nearer the eye's quad in Manhattan
// distance (they differ by exactly 1), so every edge is drawn once, after
// both its quads.
func (p *projector) edges(jb *drawJob, i, j int) {
	m := p.m
	qw, qh := m.W-1, m.H-1
	dist := func(i, j int) int { return abs(i-p.ci) + abs(j-p.cj) }
	dq := dist(i, j)
	earlier := func(ni, nj int) bool {
		return ni < 0 || nj < 0 || ni >= qw || nj >= qh || dist(ni, nj) > dq
	}
	w := m.W
	k00 := j*w + i
	if earlier(i, j-1) {
		p.line(jb, k00, k00+1)
	}
	if earlier(i+1, j) {
		p.line(jb, k00+1, k00+w+1)
	}
	if earlier(i, j+1) {
		p.line(jb, k00+w, k00+w+1)
	}
	if earlier(i-1, j) {
		p.line(jb, k00, k00+w)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// line emits the segment between mesh vertices a and b as a thin quad, if
// both are in front of the near plane.
func (p *projector) line(jb *drawJob, a, b int) {
	d := p.d
	near := float32(p.f.near)
	if !(d.pv[a].z >= near && d.pv[b].z >= near) {
		return
	}
	x0, y0, x1, y1 := d.pv[a].x, d.pv[a].y, d.pv[b].x, d.pv[b].y
	dx, dy := x1-x0, y1-y0
	l := float32(math.Sqrt(float64(dx*dx + dy*dy)))
	if !(l > 1e-3) {
		return
	}
	nx, ny := -dy/l*wireHalfWidth, dx/l*wireHalfWidth
	m := p.m
	first := uint16(len(jb.vs))
	c := wireColour
	for _, v := range [4]struct {
		k      int
		x, y   float32
		sx, sy float32
	}{{a, x0, y0, 1, 1}, {a, x0, y0, -1, -1}, {b, x1, y1, -1, -1}, {b, x1, y1, 1, 1}} {
		i, j := v.k%m.W, v.k/m.W
		jb.vs = append(jb.vs, Vertex3D{
			DstX: v.x + v.sx*nx, DstY: v.y + v.sy*ny, SrcX: 0.5, SrcY: 0.5,
			ColorR: c[0], ColorG: c[1], ColorB: c[2], ColorA: c[3],
			Custom0: d.wx[i], Custom1: d.wy[j], Custom2: m.Z[v.k], Custom3: d.pv[v.k].z,
		})
	}
	jb.idx = append(jb.idx, first, first+1, first+2, first, first+2, first+3)
}
