package viewer

import (
	"math"
	"math/rand/v2"
	"orogen/sim/engine"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestDecimationKeepsHeightsInTheirBlocks builds the mesh of a 2048² grid
// (and of a 1000×700 one, whose blocks are uneven) at MaxMesh 512: the
// mesh is 512 per side (700 → 512), every vertex's height lies within its
// block's minimum and maximum, and the blocks tile the grid.
func TestDecimationKeepsHeightsInTheirBlocks(t *testing.T) {
	for _, sz := range [][2]int{{2048, 2048}, {1000, 700}} {
		w, h := sz[0], sz[1]
		r := rand.New(rand.NewPCG(7, 7))
		s := heights(w, h, func(x, y int) float32 {
			return float32(1000*math.Sin(float64(x)/37)*math.Cos(float64(y)/23) + 200*r.Float64())
		})
		o := DefaultOptions3D()
		o.Exaggeration = 2
		m := BuildMesh3D(nil, s, o)
		if m.W != 512 || m.H != 512 {
			t.Fatalf("%d×%d at MaxMesh 512: mesh %d×%d; want 512×512", w, h, m.W, m.H)
		}
		if want := float64(w) * s.Cell / 512; m.DX != want {
			t.Errorf("%d×%d: DX = %g; want %g", w, h, m.DX, want)
		}
		covered := 0
		for j := range m.H {
			y0, y1 := j*h/m.H, (j+1)*h/m.H
			for i := range m.W {
				x0, x1 := i*w/m.W, (i+1)*w/m.W
				lo, hi := math.Inf(1), math.Inf(-1)
				for y := y0; y < y1; y++ {
					for x := x0; x < x1; x++ {
						v := float64(s.Height[y*w+x])
						lo, hi = min(lo, v), max(hi, v)
					}
				}
				covered += (x1 - x0) * (y1 - y0)
				// The mean of float32 heights in float64, rounded
				// once to float32 after × 2: 1e-6 relative.
				z := float64(m.Z[j*m.W+i]) / 2
				if z < lo-1e-6*math.Abs(lo) || z > hi+1e-6*math.Abs(hi) {
					t.Fatalf("%d×%d: vertex (%d, %d) at %g m; want within its block's [%g, %g]", w, h, i, j, z, lo, hi)
				}
			}
		}
		if covered != w*h {
			t.Errorf("%d×%d: blocks cover %d cells; want %d", w, h, covered, w*h)
		}
	}
}

func TestMeshOfASmallGridHasOneVertexPerCell(t *testing.T) {
	s := rough(40, 30, 500, 3)
	o := DefaultOptions3D()
	o.Exaggeration = 3
	m := BuildMesh3D(nil, s, o)
	if m.W != 40 || m.H != 30 || m.DX != 100 || m.DY != 100 {
		t.Fatalf("mesh %d×%d, spacing %g×%g; want 40×30, 100 m", m.W, m.H, m.DX, m.DY)
	}
	for k, h := range s.Height {
		if m.Z[k] != h*3 {
			t.Fatalf("vertex %d: Z = %g; want 3 × %g", k, m.Z[k], h)
		}
	}
	x, y, z := m.Pos(2, 5)
	if x != 250 || y != 550 || z != float64(s.Height[5*40+2])*3 {
		t.Errorf("Pos(2, 5) = (%g, %g, %g); want the cell centre (250, 550) at 3 × its height", x, y, z)
	}
	if m.TintMinM != minOf(s.Height) || m.TintMaxM != maxOf(s.Height) {
		t.Errorf("tint range [%g, %g]; want the heights' range", m.TintMinM, m.TintMaxM)
	}
}

func minOf(v []float32) float64 { return float64(slices.Min(v)) }
func maxOf(v []float32) float64 { return float64(slices.Max(v)) }

// TestLakesAreFlatAtTheirSpillLevel: the synthetic terrain's lake has its
// water at one level; its vertices sit at that level, blue, and without
// lakes they are back on the terrain.
func TestLakesAreFlatAtTheirSpillLevel(t *testing.T) {
	s := synthetic()
	level := float64(s.Height[17*64+46]) + float64(s.Water[17*64+46])
	m := BuildMesh3D(nil, s, DefaultOptions3D())
	wet := 0
	for k, d := range s.Water {
		if d <= 0 {
			continue
		}
		wet++
		// h + d in float32 is the level to float32 rounding (1e-4 m at
		// 1.2 km).
		if math.Abs(float64(m.Z[k])-level) > 1e-3 {
			t.Errorf("lake vertex %d at %g m; want the level %g m", k, m.Z[k], level)
		}
		if c := m.Color[k]; !(c[2] > c[0] && c[2] > c[1]) {
			t.Errorf("lake vertex %d: colour %v; want blue", k, c)
		}
	}
	if wet < 50 {
		t.Fatalf("%d wet cells; want the synthetic lake (≥ 50)", wet)
	}
	o := DefaultOptions3D()
	o.Lakes = false
	m = BuildMesh3D(m, s, o)
	for k, d := range s.Water {
		if d > 0 && m.Z[k] != s.Height[k] {
			t.Fatalf("lakes off: vertex %d at %g m; want the terrain %g m", k, m.Z[k], s.Height[k])
		}
	}
}

// riverScene is a flat 40×60 plane with a river along column 20 whose
// drainage area grows from the threshold (row 10) to 10⁴ times it (row
// 59); 1 cell elsewhere.
func riverScene(thr float64) *engine.Snapshot {
	s := heights(40, 60, func(int, int) float32 { return 100 })
	s.Area = make([]float32, 40*60)
	for y := range 60 {
		for x := range 40 {
			s.Area[y*40+x] = 1e4
			if x == 20 && y >= 10 {
				s.Area[y*40+x] = float32(thr * math.Pow(10, 4*float64(y-10)/49))
			}
		}
	}
	return s
}

func TestRiversTintAndWidenWithArea(t *testing.T) {
	const thr = 1e6
	s := riverScene(thr)
	o := DefaultOptions3D()
	o.RiverThresholdM2 = thr
	m := BuildMesh3D(nil, s, o)
	plainColour := m.Color[5*40+5]
	tinted := func(k int) bool { return m.Color[k] != plainColour }
	prev := 0
	for y := range 60 {
		n := 0
		for x := range 40 {
			if tinted(y*40 + x) {
				n++
			}
		}
		if y < 10 && n != 0 {
			t.Errorf("row %d (no river): %d tinted vertices; want 0", y, n)
		}
		if y >= 10 && n < prev {
			t.Errorf("row %d: %d tinted vertices, fewer than upstream (%d); want widening downstream", y, n, prev)
		}
		prev = n
	}
	// At the threshold one vertex wide; 10⁴ × the threshold would be
	// 1 + 1.5·4 = 7 wide, capped at RiverMaxWidth 4: a disc of radius 2
	// covers ±2 vertices.
	count := func(y int) (n int) {
		for x := range 40 {
			if tinted(y*40 + x) {
				n++
			}
		}
		return n
	}
	if got := count(10); got != 1 {
		t.Errorf("row 10 (threshold): %d tinted vertices; want 1", got)
	}
	if got := count(59); got != 5 {
		t.Errorf("row 59 (10⁴ × threshold): %d tinted vertices; want 5 (a disc 4 wide, edges partly covered)", got)
	}
	// Deeper blue downstream: the river's centre vertex gets darker in
	// red and green.
	up, down := m.Color[12*40+20], m.Color[59*40+20]
	if !(down[0] < up[0] && down[1] < up[1]) {
		t.Errorf("river colour at rows 12 and 59: %v, %v; want deeper blue downstream", up, down)
	}
	o.Rivers = false
	m = BuildMesh3D(m, s, o)
	for k := range m.Color {
		if m.Color[k] != plainColour {
			t.Fatalf("rivers off: vertex %d is %v; want the plain %v", k, m.Color[k], plainColour)
		}
	}
}

// TestShadowsFallBehindAWall: the sun low in the east behind the wall
// scene's ridge (1500 m tall, top at x = 4750 ... 4850 m) casts a shadow
// 1500 / tan 30° = 2598 m long over the plane to the west.
func TestShadowsFallBehindAWall(t *testing.T) {
	s := wallScene()
	o := DefaultOptions3D()
	o.Shadows, o.SunAzimuthDeg, o.SunElevationDeg = true, 90, 30
	m := BuildMesh3D(nil, s, o)
	lit := func(i, j int) float32 { return m.shadow[j*m.W+i] }
	// The shadow's end: x = 4750 - 2598 = 2152 m, between vertices 21
	// (2150 m) and 22; the soft edge spans one cell.
	for _, j := range []int{20, 48, 75} {
		for i := 23; i <= 45; i++ {
			if lit(i, j) != 0 {
				t.Errorf("row %d, vertex %d (x = %d m): lit %g; want 0 in the wall's shadow", j, i, i*100+50, lit(i, j))
			}
		}
		for i := 0; i <= 20; i++ {
			if lit(i, j) != 1 {
				t.Errorf("row %d, vertex %d (x = %d m): lit %g; want 1 beyond the shadow", j, i, i*100+50, lit(i, j))
			}
		}
		for i := 49; i < m.W; i++ {
			if lit(i, j) != 1 {
				t.Errorf("row %d, vertex %d: lit %g; want 1 on the sunny side", j, i, lit(i, j))
			}
		}
	}
	// Rows past the wall's ends are in the sun, and the shadowed ground
	// gets the ambient light only.
	for _, j := range []int{5, 90} {
		for i := range m.W {
			if lit(i, j) != 1 {
				t.Fatalf("row %d (past the wall), vertex %d: lit %g; want 1", j, i, lit(i, j))
			}
		}
	}
	inSun, inShade := m.Color[48*m.W+10], m.Color[48*m.W+30]
	// Flat ground: light = ambient + (1 - ambient) sin 30° in the sun,
	// ambient in the shade.
	ratio := inShade[1] / inSun[1]
	if want := 0.3 / (0.3 + 0.7*0.5); math.Abs(float64(ratio)-want) > 1e-5 {
		t.Errorf("shade / sun brightness: got %g; want %g", ratio, want)
	}
	o.Shadows = false
	m = BuildMesh3D(m, s, o)
	if m.Color[48*m.W+30] != inSun {
		t.Errorf("shadows off: shaded vertex is %v; want the sunny %v", m.Color[48*m.W+30], inSun)
	}
}

// TestShadowsAlongADiagonal: a tower with the sun in the north-east casts
// its shadow south-west: a vertex on that diagonal within the shadow is
// dark, one beyond it lit, one off to the side lit.
func TestShadowsAlongADiagonal(t *testing.T) {
	s := towerScene() // 1500 m on cells 47..48
	o := DefaultOptions3D()
	o.Shadows, o.SunAzimuthDeg, o.SunElevationDeg = true, 45, 45
	m := BuildMesh3D(nil, s, o)
	lit := func(i, j int) float32 { return m.shadow[j*m.W+i] }
	// Shadow length 1500 m = 15 cells, so about 10.6 cells along each
	// axis from the tower's south-west corner (47, 48).
	for _, d := range []int{2, 5, 9} {
		if got := lit(47-d, 48+d); got != 0 {
			t.Errorf("(%d, %d), %d cells down the shadow: lit %g; want 0", 47-d, 48+d, d, got)
		}
	}
	for _, p := range [][2]int{{47 - 13, 48 + 13}, {47 - 5, 48 - 5}, {60, 60}, {47 + 5, 48 + 5}} {
		if got := lit(p[0], p[1]); got != 1 {
			t.Errorf("(%d, %d), out of the shadow: lit %g; want 1", p[0], p[1], got)
		}
	}
}

// TestLightAndColours checks a vertex's colour against the formulas on
// tilted planes: the height ramp or the slope ramp times Ambient + (1 -
// Ambient)·max(0, n·sun), and the uplift blended over it.
func TestLightAndColours(t *testing.T) {
	const g = 0.64940759319751 // tan 33°: the plane rises 64.9 m per 100 m cell eastward
	s := heights(20, 20, func(x, _ int) float32 { return float32(g * 100 * float64(x)) })
	s.Uplift = make([]float32, 400)
	for k := range s.Uplift {
		s.Uplift[k] = float32(k%20) * 1e-4
	}
	type want func(o Options3D, k int) rgb
	light := func(o Options3D) float64 {
		az, el := o.SunAzimuthDeg*math.Pi/180, o.SunElevationDeg*math.Pi/180
		lx, lz := math.Sin(az)*math.Cos(el), math.Sin(el)
		ndl := (lz - g*o.Exaggeration*lx) / math.Sqrt(1+g*g*o.Exaggeration*o.Exaggeration)
		return o.Ambient + (1-o.Ambient)*max(ndl, 0)
	}
	height := func(o Options3D, k int) rgb { return tintLUT.at(float64(s.Height[k]) / float64(s.Height[19])) }
	cases := []struct {
		name string
		edit func(*Options3D)
		c    want
	}{
		{"sun in the west", func(o *Options3D) { o.SunAzimuthDeg = 270 }, height},
		{"sun in the east", func(o *Options3D) { o.SunAzimuthDeg = 90 }, height},
		{"exaggerated, low sun", func(o *Options3D) { o.SunAzimuthDeg, o.SunElevationDeg, o.Exaggeration = 100, 10, 3 }, height},
		{"slope", func(o *Options3D) { o.Color = ColorSlope }, func(Options3D, int) rgb { return slopeLUT.at(33.0 / 60) }},
		{"uplift", func(o *Options3D) { o.UpliftAlpha = 1 }, func(_ Options3D, k int) rgb {
			return upliftLUT.at(float64(s.Uplift[k]) / 19e-4)
		}},
	}
	for _, tc := range cases {
		o := DefaultOptions3D()
		tc.edit(&o)
		m := BuildMesh3D(nil, s, o)
		for _, k := range []int{5*20 + 3, 10*20 + 10, 15*20 + 16} {
			want := tc.c(o, k)
			l := light(o)
			got := m.Color[k]
			// float32 colours and LUT rounding of the positions (the
			// LUTs are indexed the same way here): 1e-5.
			for c := range 3 {
				if math.Abs(float64(got[c])-float64(want[c])*l) > 1e-5 {
					t.Errorf("%s, vertex %d: colour %v; want %v × light %g", tc.name, k, got, want, l)
					break
				}
			}
		}
	}
	// Facing the sun is brighter than facing away.
	o := DefaultOptions3D()
	o.SunAzimuthDeg = 270
	west := BuildMesh3D(nil, s, o).Color[210]
	o.SunAzimuthDeg = 90
	east := BuildMesh3D(nil, s, o).Color[210]
	if !(west[1] > east[1]) {
		t.Errorf("a slope facing west: %v under a western sun, %v under an eastern; want brighter facing the sun", west, east)
	}
}

// TestMeshSameForAnyGOMAXPROCS builds, projects and rasterizes a seeded
// engine's terrain with everything on, whole and decimated to uneven
// blocks, at GOMAXPROCS 1 and 2, and demands identical bytes.
func TestMeshSameForAnyGOMAXPROCS(t *testing.T) {
	s := terrain(t, 256)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, maxMesh := range []int{512, 100} {
		o := DefaultOptions3D()
		o.Shadows, o.Wireframe, o.UpliftAlpha, o.MaxMesh = true, true, 0.4, maxMesh
		cam := FitCameraAspect(s, 2, 200, 30, 4.0/3).Zoom(1.5)
		var ms [2]*Mesh3D
		var ds [2]*DrawList
		var imgs [2][]byte
		for k, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			ms[k] = BuildMesh3D(nil, s, o)
			ds[k] = ms[k].Project(nil, cam, 320, 240)
			imgs[k] = Render3D(newRGBA(320, 240), s, cam, o).Pix
		}
		if !slices.Equal(ms[0].Z, ms[1].Z) || !slices.Equal(ms[0].Color, ms[1].Color) {
			t.Errorf("MaxMesh %d: Mismatch concurrent: meshes differ for GOMAXPROCS 1 and 2", maxMesh)
		}
		if len(ds[0].Chunks) != len(ds[1].Chunks) {
			t.Fatalf("MaxMesh %d: Mismatch concurrent: %d and %d chunks", maxMesh, len(ds[0].Chunks), len(ds[1].Chunks))
		}
		for c := range ds[0].Chunks {
			if !slices.Equal(ds[0].Chunks[c].Vertices, ds[1].Chunks[c].Vertices) || !slices.Equal(ds[0].Chunks[c].Indices, ds[1].Chunks[c].Indices) {
				t.Errorf("MaxMesh %d: Mismatch concurrent: chunk %d differs", maxMesh, c)
			}
		}
		if !slices.Equal(imgs[0], imgs[1]) {
			t.Errorf("MaxMesh %d: Mismatch concurrent: pictures differ", maxMesh)
		}
	}
}

func TestOptions3DValidate(t *testing.T) {
	if err := DefaultOptions3D().Validate(); err != nil {
		t.Fatalf("DefaultOptions3D: %v", err)
	}
	cases := []struct {
		edit func(*Options3D)
		want string
	}{
		{func(o *Options3D) { o.SunAzimuthDeg = math.NaN() }, "SunAzimuthDeg"},
		{func(o *Options3D) { o.SunElevationDeg = 0 }, "SunElevationDeg"},
		{func(o *Options3D) { o.SunElevationDeg = 91 }, "SunElevationDeg"},
		{func(o *Options3D) { o.Ambient = -0.1 }, "Ambient"},
		{func(o *Options3D) { o.Color = 7 }, "Color"},
		{func(o *Options3D) { o.Exaggeration = 0 }, "Exaggeration"},
		{func(o *Options3D) { o.TintMinM, o.TintMaxM = 5, 5 }, "TintMinM"},
		{func(o *Options3D) { o.TintMaxM = math.Inf(1) }, "TintMaxM"},
		{func(o *Options3D) { o.UpliftAlpha = 1.5 }, "UpliftAlpha"},
		{func(o *Options3D) { o.RiverThresholdM2 = 0 }, "RiverThresholdM2"},
		{func(o *Options3D) { o.RiverMaxWidth = 0.5 }, "RiverMaxWidth"},
		{func(o *Options3D) { o.MaxMesh = 1 }, "MaxMesh"},
		{func(o *Options3D) { o.MaxMesh = 4096 }, "MaxMesh"},
	}
	for _, tc := range cases {
		o := DefaultOptions3D()
		tc.edit(&o)
		err := o.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "viewer: ") {
			t.Errorf("Validate: got %v; want an error naming %s", err, tc.want)
		}
		// A bad field renders as its default; the others stay.
		if got := o.sanitized(); got.Validate() != nil {
			t.Errorf("sanitized(%+v) = %+v: still invalid", o, got)
		}
	}
	o := DefaultOptions3D()
	o.Ambient, o.Exaggeration, o.Shadows = 7, 3, true
	if got := o.sanitized(); got.Ambient != 0.3 || got.Exaggeration != 3 || !got.Shadows {
		t.Errorf("sanitized: got %+v; want Ambient back to 0.3, Exaggeration 3 and Shadows kept", got)
	}
}

func TestParseColorMode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ColorMode
		ok   bool
	}{{"height", ColorHeight, true}, {" Slope ", ColorSlope, true}, {"", ColorHeight, true}, {"rainbow", ColorHeight, false}} {
		got, err := ParseColorMode(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParseColorMode(%q) = %v, %v; want %v, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
	for i, n := range ColorModeNames() {
		if ColorMode(i).String() != n {
			t.Errorf("ColorMode(%d).String() = %q; want %q", i, ColorMode(i).String(), n)
		}
	}
	if got := ColorMode(9).String(); got != "ColorMode(9)" {
		t.Errorf("ColorMode(9).String() = %q", got)
	}
}

// TestMeshOddInputs: a snapshot of one cell has no quads, NaN heights do
// not reach the vertices, and misuse panics.
func TestMeshOddInputs(t *testing.T) {
	one := heights(1, 1, func(int, int) float32 { return 5 })
	m := BuildMesh3D(nil, one, DefaultOptions3D())
	if d := m.Project(nil, Camera{Pitch: 30, Distance: 100}, 64, 64); len(d.Chunks) != 0 {
		t.Errorf("1×1 snapshot: %d chunks; want none", len(d.Chunks))
	}
	s := rough(10, 10, 100, 4)
	s.Height[33], s.Height[34] = float32(math.NaN()), float32(math.Inf(1))
	m = BuildMesh3D(nil, s, DefaultOptions3D())
	for k, z := range m.Z {
		if math.IsNaN(float64(z)) || math.IsInf(float64(z), 0) {
			t.Fatalf("vertex %d: Z = %g; want finite", k, z)
		}
		for _, c := range m.Color[k] {
			if !(c >= 0 && c <= 1) {
				t.Fatalf("vertex %d: colour %v; want in [0, 1]", k, m.Color[k])
			}
		}
	}
	for name, f := range map[string]func(){
		"nil snapshot":   func() { BuildMesh3D(nil, nil, DefaultOptions3D()) },
		"short Water":    func() { s := rough(4, 4, 1, 1); s.Water = make([]float32, 3); BuildMesh3D(nil, s, DefaultOptions3D()) },
		"nil Render3D":   func() { Render3D(nil, rough(4, 4, 1, 1), Camera{}, DefaultOptions3D()) },
		"empty Render3D": func() { Render3D(newRGBA(0, 0), rough(4, 4, 1, 1), Camera{}, DefaultOptions3D()) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "viewer: ") {
					t.Errorf("%s: got panic %v; want one starting \"viewer: \"", name, r)
				}
			}()
			f()
		}()
	}
}

func TestHeightAt(t *testing.T) {
	// A plane z = 2x + 3y on 100 m cells: bilinear interpolation is exact
	// inside, and the outer vertices' heights hold beyond.
	s := heights(10, 8, func(x, y int) float32 { return float32(2*(float64(x)+0.5)*100 + 3*(float64(y)+0.5)*100) })
	m := BuildMesh3D(nil, s, DefaultOptions3D())
	for _, tc := range []struct{ x, y, want float64 }{
		{50, 50, 250},
		{333, 512, 2*333 + 3*512},
		{950, 750, 2*950 + 3*750},
		{-500, 50, 250},
		{5000, 5000, 2*950 + 3*750},
	} {
		// float32 heights: 1e-3 m.
		if got := m.HeightAt(tc.x, tc.y); math.Abs(got-tc.want) > 1e-3 {
			t.Errorf("HeightAt(%g, %g) = %g; want %g", tc.x, tc.y, got, tc.want)
		}
	}
	if got := (&Mesh3D{}).HeightAt(1, 1); got != 0 {
		t.Errorf("empty mesh: HeightAt = %g; want 0", got)
	}
}
