package viewer

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"orogen/sim/engine"
	"slices"
	"testing"
	"unsafe"
)

// heights returns a w×h snapshot with 100 m cells and heights f(x, y).
func heights(w, h int, f func(x, y int) float32) *engine.Snapshot {
	s := &engine.Snapshot{W: w, H: h, Cell: 100, Height: make([]float32, w*h)}
	for y := range h {
		for x := range w {
			s.Height[y*w+x] = f(x, y)
		}
	}
	return s
}

// towerScene is a 96×96 plane at 0 m with a tower 1500 m tall on cells
// (47..48, 47..48): its top is the quad between those four cell centres,
// at (4750..4850, 4750..4850), and the plane reaches 4.8 km beyond it on
// every side, enough for a ray at 20° through the tower's upper half to
// reach the ground behind it.
func towerScene() *engine.Snapshot {
	return heights(96, 96, func(x, y int) float32 {
		if x >= 47 && x <= 48 && y >= 47 && y <= 48 {
			return 1500
		}
		return 0
	})
}

// wallScene is a 96×96 plane at 0 m with a wall 1500 m tall on columns
// 47..48, rows 20..75: a ridge along y centred on x = 4800 m, with 4.8 km
// of plane on either side.
func wallScene() *engine.Snapshot {
	return heights(96, 96, func(x, y int) float32 {
		if x >= 47 && x <= 48 && y >= 20 && y <= 75 {
			return 1500
		}
		return 0
	})
}

var (
	red   = [4]float32{1, 0, 0, 1}
	green = [4]float32{0, 1, 0, 1}
)

// paint is the test hook on a mesh's colours: vertices above the ground
// red, the ground green, unlit, so a pixel's red share tells how high on an
// occluder it is.
func paint(m *Mesh3D) {
	for k, z := range m.Z {
		m.Color[k] = green
		if z > 1 {
			m.Color[k] = red
		}
	}
}

// reversed returns d with its triangles in the opposite order: the wrong
// order, from near to far.
func reversed(d *DrawList) *DrawList {
	out := &DrawList{W: d.W, H: d.H, Camera: d.Camera}
	for k := len(d.Chunks) - 1; k >= 0; k-- {
		c := d.Chunks[k]
		idx := make([]uint16, 0, len(c.Indices))
		for t := len(c.Indices) - 3; t >= 0; t -= 3 {
			idx = append(idx, c.Indices[t:t+3]...)
		}
		out.Chunks = append(out.Chunks, Chunk{Vertices: c.Vertices, Indices: idx})
	}
	return out
}

// occluderCase is a camera on a scene and the pixels to check: where the
// occluder must be seen (red over green), and where the ground in front of
// it must stay pure ground.
type occluderCase struct {
	name  string
	s     *engine.Snapshot
	cam   Camera
	cover [][3]float64 // world points inside the occluder
	front [][3]float64 // ground points between the eye and the occluder
}

func occluderCases() []occluderCase {
	var cs []occluderCase
	for _, yaw := range []float64{0, 37, 90, 145, 180, 230, 270, 315} {
		s := towerScene()
		cam := FitCamera(s, 1, yaw, 20)
		cam.TargetX, cam.TargetY, cam.TargetZ = 4800, 4800, 500
		cam = cam.Zoom(1.5)
		sy, cy := math.Sincos(yaw * math.Pi / 180)
		// Points on the tower's axis at 60% and 80% of its height (the
		// near wall there is mostly red); ground toward the eye, (sin yaw,
		// -cos yaw), 600 m and 900 m away.
		cs = append(cs, occluderCase{
			name: "tower", s: s, cam: cam,
			cover: [][3]float64{{4800, 4800, 900}, {4800, 4800, 1200}},
			front: [][3]float64{{4800 + 600*sy, 4800 - 600*cy, 0}, {4800 + 900*sy + 200*cy, 4800 - 900*cy + 200*sy, 0}},
		})
	}
	for _, yaw := range []float64{60, 90, 120, 240, 270, 300} {
		s := wallScene()
		cam := FitCamera(s, 1, yaw, 20)
		sy, cy := math.Sincos(yaw * math.Pi / 180)
		cs = append(cs, occluderCase{
			name: "wall", s: s, cam: cam,
			cover: [][3]float64{{4800, 4700, 900}, {4800, 3800, 1000}, {4800, 5600, 1200}}, // 60% to 80% up
			front: [][3]float64{{4800 + 800*sy, 4700 - 800*cy, 0}},
		})
	}
	return cs
}

// checkOccluder renders d and returns the failures of c's checks.
func checkOccluder(c occluderCase, d *DrawList) []string {
	const w, h = 320, 240
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	RasterizeDrawList(img, d)
	var bad []string
	for _, p := range c.cover {
		x, y, ok := c.cam.Project(p[0], p[1], p[2], w, h)
		if !ok || x < 0 || y < 0 || x >= w || y >= h {
			bad = append(bad, fmt.Sprintf("occluder point %v off screen", p))
			continue
		}
		px := img.RGBAAt(int(x), int(y))
		if !(px.R > px.G) {
			bad = append(bad, fmt.Sprintf("behind the %s at %v: got %v; want the occluder (red over green)", c.name, p, px))
		}
	}
	for _, p := range c.front {
		x, y, ok := c.cam.Project(p[0], p[1], p[2], w, h)
		if !ok || x < 0 || y < 0 || x >= w || y >= h {
			bad = append(bad, fmt.Sprintf("ground point %v off screen", p))
			continue
		}
		if px := img.RGBAAt(int(x), int(y)); px.R != 0 || px.G != 255 {
			bad = append(bad, fmt.Sprintf("ground in front of the %s at %v: got %v; want pure green", c.name, p, px))
		}
	}
	return bad
}

// TestOccludersHideWhatIsBehindThem renders a tower and a wall on a plane
// from several sides: pixels of the occluder (whose rays go on to the
// plane behind it) show the occluder, and ground in front of it stays
// ground. The same checks on the reversed list (near to far) must fail.
func TestOccludersHideWhatIsBehindThem(t *testing.T) {
	for _, c := range occluderCases() {
		m := BuildMesh3D(nil, c.s, DefaultOptions3D())
		paint(m)
		d := m.Project(nil, c.cam, 320, 240)
		if bad := checkOccluder(c, d); len(bad) > 0 {
			t.Errorf("%s from yaw %g: %v", c.name, c.cam.Yaw, bad)
		}
		if bad := checkOccluder(c, reversed(d)); len(bad) == 0 {
			t.Errorf("%s from yaw %g: the reversed order passes the occlusion checks; want it to fail", c.name, c.cam.Yaw)
		}
	}
}

// tri is a triangle of a draw list: screen and world positions of its
// vertices.
type tri struct {
	s [3][2]float64
	w [3][3]float64
}

func triangles(d *DrawList) []tri {
	var ts []tri
	for _, c := range d.Chunks {
		for k := 0; k+2 < len(c.Indices); k += 3 {
			var t tri
			for n := range 3 {
				v := c.Vertices[c.Indices[k+n]]
				t.s[n] = [2]float64{float64(v.DstX), float64(v.DstY)}
				t.w[n] = [3]float64{float64(v.Custom0), float64(v.Custom1), float64(v.Custom2)}
			}
			ts = append(ts, t)
		}
	}
	return ts
}

// idList returns a list of ts, each triangle flat in a colour that encodes
// its number + 1.
func idList(ts []tri) *DrawList {
	d := &DrawList{}
	const per = MaxChunkVertices / 3
	for k0 := 0; k0 < len(ts); k0 += per {
		var c Chunk
		for k := k0; k < min(len(ts), k0+per); k++ {
			id := k + 1
			col := [4]float32{float32(id&255) / 255, float32(id>>8&255) / 255, float32(id>>16&255) / 255, 1}
			for n := range 3 {
				c.Indices = append(c.Indices, uint16(len(c.Vertices)))
				c.Vertices = append(c.Vertices, Vertex3D{
					DstX: float32(ts[k].s[n][0]), DstY: float32(ts[k].s[n][1]),
					ColorR: col[0], ColorG: col[1], ColorB: col[2], ColorA: col[3]})
			}
		}
		d.Chunks = append(d.Chunks, c)
	}
	return d
}

// rayDepth returns the distance along the ray from the eye through screen
// point (x, y), in units of the view depth, to the plane of t.
func rayDepth(f *frame, t *tri, x, y float64) float64 {
	a, b := (x-f.cx)/f.focal, -(y-f.cy)/f.focal
	d := [3]float64{f.fx + a*f.rx + b*f.ux, f.fy + a*f.ry + b*f.uy, f.fz + b*f.uz}
	e1 := [3]float64{t.w[1][0] - t.w[0][0], t.w[1][1] - t.w[0][1], t.w[1][2] - t.w[0][2]}
	e2 := [3]float64{t.w[2][0] - t.w[0][0], t.w[2][1] - t.w[0][1], t.w[2][2] - t.w[0][2]}
	n := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
	den := n[0]*d[0] + n[1]*d[1] + n[2]*d[2]
	num := n[0]*(t.w[0][0]-f.ex) + n[1]*(t.w[0][1]-f.ey) + n[2]*(t.w[0][2]-f.ez)
	if den == 0 {
		return math.Inf(1)
	}
	return num / den
}

// inside reports whether (x, y) is at least margin pixels inside the
// screen triangle t.
func inside(t *tri, x, y, margin float64) bool {
	area := (t.s[1][0]-t.s[0][0])*(t.s[2][1]-t.s[0][1]) - (t.s[1][1]-t.s[0][1])*(t.s[2][0]-t.s[0][0])
	if area == 0 {
		return false
	}
	for n := range 3 {
		a, b := t.s[n], t.s[(n+1)%3]
		ex, ey := b[0]-a[0], b[1]-a[1]
		l := math.Hypot(ex, ey)
		e := (ex*(y-a[1]) - ey*(x-a[0])) / l
		if area < 0 {
			e = -e
		}
		if !(e >= margin) {
			return false
		}
	}
	return true
}

// visibilityErrors renders ts in list order and compares every pixel with
// a depth buffer computed from the geometry: the triangle a pixel shows
// must not lie behind a triangle that covers the pixel centre by a margin
// of 0.01 px (so rounding of shared edges does not count). It returns the
// number of pixels checked and of pixels wrong.
func visibilityErrors(cam Camera, w, h int, ts []tri) (checked, wrong int) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	RasterizeDrawList(img, idList(ts))
	f := cam.sane().frame(float64(w), float64(h))
	depth := make([]float64, w*h)
	for k := range depth {
		depth[k] = math.Inf(1)
	}
	for k := range ts {
		t := &ts[k]
		x0 := max(0, int(math.Floor(min(t.s[0][0], t.s[1][0], t.s[2][0]))))
		x1 := min(w-1, int(math.Ceil(max(t.s[0][0], t.s[1][0], t.s[2][0]))))
		y0 := max(0, int(math.Floor(min(t.s[0][1], t.s[1][1], t.s[2][1]))))
		y1 := min(h-1, int(math.Ceil(max(t.s[0][1], t.s[1][1], t.s[2][1]))))
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				if inside(t, float64(x)+0.5, float64(y)+0.5, 0.01) {
					depth[y*w+x] = min(depth[y*w+x], rayDepth(&f, t, float64(x)+0.5, float64(y)+0.5))
				}
			}
		}
	}
	for y := range h {
		for x := range w {
			p := img.RGBAAt(x, y)
			id := int(p.R) | int(p.G)<<8 | int(p.B)<<16
			if id == 0 || math.IsInf(depth[y*w+x], 1) {
				continue
			}
			checked++
			// Depths agree to float32 rounding of the world positions:
			// 1e-4 relative is a hundred times that.
			got := rayDepth(&f, &ts[id-1], float64(x)+0.5, float64(y)+0.5)
			if got > depth[y*w+x]*(1+1e-4)+1e-3 {
				wrong++
			}
		}
	}
	return checked, wrong
}

// rough returns a w×h terrain of random bumps up to amp metres.
func rough(w, h int, amp float64, seed uint64) *engine.Snapshot {
	r := rand.New(rand.NewPCG(seed, seed))
	return heights(w, h, func(int, int) float32 { return float32(r.Float64() * amp) })
}

// TestPainterMatchesDepthBuffer is the general check of the drawing order:
// for scenes with occluders, a random rough terrain (steep folds facing
// every way) and cameras all around, near and far, with the eye over the
// grid and outside it, every pixel shows the nearest surface, as a depth
// buffer computed from the world positions says. The reversed order must
// show many wrong pixels.
func TestPainterMatchesDepthBuffer(t *testing.T) {
	const w, h = 160, 120
	scenes := []struct {
		name string
		s    *engine.Snapshot
		mesh int
	}{
		{"tower", towerScene(), 96},
		{"wall", wallScene(), 96},
		{"rough", rough(20, 15, 800, 1), 24},
		{"cone", synthetic(), 24}, // decimated
	}
	for _, sc := range scenes {
		o := DefaultOptions3D()
		o.MaxMesh = sc.mesh
		m := BuildMesh3D(nil, sc.s, o)
		var cams []Camera
		for yaw := 10.0; yaw < 360; yaw += 75 {
			for _, pitch := range []float64{8, 30, 70} {
				c := FitCamera(sc.s, 1, yaw, pitch)
				cams = append(cams, c, c.Zoom(4), c.Zoom(20))
			}
		}
		total := 0
		for _, c := range cams {
			d := m.Project(nil, c, w, h)
			ts := triangles(d)
			checked, wrong := visibilityErrors(d.Camera, w, h, ts)
			if wrong > 0 {
				t.Errorf("%s, yaw %.0f pitch %.0f distance %.0f m: %d of %d pixels show a hidden triangle; want 0",
					sc.name, c.Yaw, c.Pitch, c.Distance, wrong, checked)
			}
			total += checked
		}
		// Some close cameras are inside a mountain, where the rays see
		// little (the underside of the surface, drawn right too).
		if total < len(cams)*w*h/4 {
			t.Errorf("%s: %d pixels checked over %d cameras; want a quarter of the pixels", sc.name, total, len(cams))
		}
		// The wrong order fails visibly on the occluders.
		if sc.name == "tower" || sc.name == "wall" || sc.name == "rough" {
			d := m.Project(nil, FitCamera(sc.s, 1, 200, 20).Zoom(3), w, h)
			ts := triangles(d)
			slices.Reverse(ts)
			checked, wrong := visibilityErrors(d.Camera, w, h, ts)
			t.Logf("%s reversed: %d of %d pixels wrong", sc.name, wrong, checked)
			if wrong < 20 {
				t.Errorf("%s reversed: %d of %d pixels wrong; want at least 20", sc.name, wrong, checked)
			}
		}
	}
}

// TestOrderRespectsEveryPossibleOcclusion checks the order itself on a
// 12×9 mesh: quad q' can hide quad q only if q' lies in the box between the
// eye's quad and q (inclusive), so every such q' must come after q.
func TestOrderRespectsEveryPossibleOcclusion(t *testing.T) {
	s := rough(12, 9, 300, 2)
	m := BuildMesh3D(nil, s, DefaultOptions3D())
	qw, qh := m.W-1, m.H-1
	r := rand.New(rand.NewPCG(6, 6))
	for k := range 300 {
		c := Camera{
			TargetX: r.Float64()*1600 - 200, TargetY: r.Float64()*1300 - 200, TargetZ: r.Float64() * 300,
			Yaw: r.Float64() * 360, Pitch: 5 + r.Float64()*84, Distance: math.Pow(10, 1+r.Float64()*3), FovDeg: 60,
		}
		if k%10 == 0 { // the eye exactly over the line between quad columns 4 and 5
			c.Yaw, c.TargetX = 0, 550
		}
		d := m.Project(nil, c, 4000, 3000)
		pos := make([]int, qw*qh)
		for k := range pos {
			pos[k] = -1
		}
		for n, tr := range triangles(d) {
			cx := (tr.w[0][0] + tr.w[1][0] + tr.w[2][0]) / 3
			cy := (tr.w[0][1] + tr.w[1][1] + tr.w[2][1]) / 3
			i := min(max(int(math.Floor(cx/m.DX-0.5)), 0), qw-1)
			j := min(max(int(math.Floor(cy/m.DY-0.5)), 0), qh-1)
			if pos[j*qw+i] < 0 {
				pos[j*qw+i] = n
			}
		}
		ex, ey, _ := c.Eye()
		ci := int(math.Floor(min(max(ex/m.DX-0.5, -1), float64(qw))))
		cj := int(math.Floor(min(max(ey/m.DY-0.5, -1), float64(qh))))
		between := func(a, lo, hi int) bool { return a >= min(lo, hi) && a <= max(lo, hi) }
		for j := range qh {
			for i := range qw {
				p := pos[j*qw+i]
				if p < 0 {
					continue
				}
				for jj := range qh {
					for ii := range qw {
						pp := pos[jj*qw+ii]
						if pp < 0 || (ii == i && jj == j) || !between(ii, ci, i) || !between(jj, cj, j) {
							continue
						}
						if pp < p {
							t.Fatalf("camera %+v (eye quad %d, %d): quad (%d, %d), which can hide (%d, %d), is drawn before it", c, ci, cj, ii, jj, i, j)
						}
					}
				}
			}
		}
	}
}

func TestVertex3DHasEbitenVertexLayout(t *testing.T) {
	var v Vertex3D
	if got := unsafe.Sizeof(v); got != 48 {
		t.Fatalf("unsafe.Sizeof(Vertex3D{}) = %d; want 48 (12 float32)", got)
	}
	offs := []uintptr{
		unsafe.Offsetof(v.DstX), unsafe.Offsetof(v.DstY), unsafe.Offsetof(v.SrcX), unsafe.Offsetof(v.SrcY),
		unsafe.Offsetof(v.ColorR), unsafe.Offsetof(v.ColorG), unsafe.Offsetof(v.ColorB), unsafe.Offsetof(v.ColorA),
		unsafe.Offsetof(v.Custom0), unsafe.Offsetof(v.Custom1), unsafe.Offsetof(v.Custom2), unsafe.Offsetof(v.Custom3),
	}
	for k, o := range offs {
		if o != uintptr(4*k) {
			t.Errorf("field %d at offset %d; want %d", k, o, 4*k)
		}
	}
}

// checkChunks reports the first chunk that breaks Ebiten's limits.
func checkChunks(t *testing.T, d *DrawList) {
	t.Helper()
	for k, c := range d.Chunks {
		if len(c.Vertices) > MaxChunkVertices || len(c.Indices)%3 != 0 || len(c.Indices) == 0 {
			t.Fatalf("chunk %d: %d vertices, %d indices; want at most %d vertices and a positive multiple of 3 indices",
				k, len(c.Vertices), len(c.Indices), MaxChunkVertices)
		}
		for _, i := range c.Indices {
			if int(i) >= len(c.Vertices) {
				t.Fatalf("chunk %d: index %d of %d vertices", k, i, len(c.Vertices))
			}
		}
		for _, v := range c.Vertices {
			if v.SrcX != 0.5 || v.SrcY != 0.5 || math.IsNaN(float64(v.DstX)) || math.IsNaN(float64(v.DstY)) ||
				!(v.ColorA >= 0 && v.ColorA <= 1) {
				t.Fatalf("chunk %d: bad vertex %+v", k, v)
			}
		}
	}
}

// TestDrawListChunks projects a 512² mesh whole, with the wireframe, and
// from close up (quads crossing the near plane): the chunks respect the
// 16-bit indices, every quad of the whole view is there, and clipped
// vertices are in front of the near plane.
func TestDrawListChunks(t *testing.T) {
	s := terrain(t, 512)
	o := DefaultOptions3D()
	m := BuildMesh3D(nil, s, o)
	cam := FitCameraAspect(s, 1, DefaultYawDeg, DefaultPitchDeg, 1280.0/720)
	d := m.Project(nil, cam, 1280, 720)
	checkChunks(t, d)
	if got, want := d.Triangles(), 2*511*511; got != want {
		t.Errorf("whole view: %d triangles; want %d (2 per quad, all on screen)", got, want)
	}
	if len(d.Chunks) < 5 {
		t.Errorf("whole view: %d chunks; want the mesh split (≥ 5)", len(d.Chunks))
	}
	o.Wireframe = true
	m = BuildMesh3D(m, s, o)
	checkChunks(t, m.Project(d, cam, 1280, 720))

	// Close up, the eye inside the terrain's box.
	close := cam.Zoom(200)
	close.Pitch = 10
	d = m.Project(d, close, 640, 480)
	checkChunks(t, d)
	near := float32(close.Near())
	for _, c := range d.Chunks {
		for _, v := range c.Vertices {
			if v.Custom3 < near*(1-1e-5) {
				t.Fatalf("vertex at depth %g; want in front of the near plane at %g", v.Custom3, near)
			}
		}
	}
	if d.Triangles() == 0 {
		t.Error("close up: no triangles")
	}
}
