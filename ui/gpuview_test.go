package ui

import (
	_ "embed"
	"fmt"
	"image"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/sim/engine"
	"orogen/sim/grid"
	"orogen/sim/simtest"
	"orogen/ui/picture"
	"orogen/viewer"
)

// TestShadersCompile compiles the Kage programs of the views (the surface
// in both modes, under every overlay, with its features on and off), so a
// syntax slip fails here and not only in a window.
func TestShadersCompile(t *testing.T) {
	needShaderDisplay(t)
	srcs := map[string]string{"drainage": riversKage, "discs": discsKage, "gather": strings.Replace(gatherKage, "N = LOOPN", "N = 4", 1), "mesh": meshKage, "sky": skyKage}
	for mode := range 2 {
		for ov := range 6 {
			for _, f := range []int{0, 5, 10, 15} {
				k := surfKey{mode: mode, ovKind: ov, rivers: f & 1, lakes: f >> 1 & 1, rock: f >> 2 & 1, shadows: f >> 3 & 1, upTint: f >> 3 & 1}
				srcs[fmt.Sprintf("surface %+v", k)] = k.source()
			}
		}
	}
	for name, src := range srcs {
		if _, err := ebiten.NewShader([]byte(src)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// needShaderDisplay skips without a display (Ebiten needs one as soon as
// it loads), unless OROGEN_WINDOW_TEST=1 demands it.
func needShaderDisplay(t testing.TB) {
	t.Helper()
	if os.Getenv("DISPLAY") != "" {
		return
	}
	if os.Getenv("OROGEN_WINDOW_TEST") == "1" {
		t.Fatal("OROGEN_WINDOW_TEST=1 but DISPLAY is empty: run under xvfb-run (make test does)")
	}
	t.Skip("no display; `make test` runs this under Xvfb")
}

// testTerrain is a seeded n×n grid engine's snapshot after a few steps on
// a rough start (lakes) under a cone of uplift (rivers), 50 km across.
func testTerrain(t testing.TB, n int) *engine.Snapshot {
	cell := 50000.0 / float64(n)
	up := simtest.Cone(n, n, cell, 5e-4, 5e-4/25000)
	for i := range up {
		up[i] = max(up[i], 0)
	}
	e, err := grid.New(grid.Config{W: n, H: n, Cell: cell, Up: up, Init: simtest.Rough(n, n, 800, 1), Seed: 1, Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		e.Step()
	}
	return e.Snapshot()
}

// onGPU runs f once inside Ebiten's game loop (drawing and reading pixels
// need it) in a small hidden window.
func onGPU(t testing.TB, f func() error) {
	t.Helper()
	g := &oneShot{f: f}
	ebiten.SetWindowSize(64, 64)
	if err := ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{InitUnfocused: true}); err != nil && err != ebiten.Termination {
		t.Fatal(err)
	}
	if g.err != nil {
		t.Fatal(g.err)
	}
}

type oneShot struct {
	f   func() error
	err error
}

func (g *oneShot) Update() error {
	g.err = g.f()
	return ebiten.Termination
}
func (g *oneShot) Draw(*ebiten.Image)         {}
func (g *oneShot) Layout(int, int) (int, int) { return 64, 64 }

// pixelDiff compares two pictures of one size: the largest difference of
// any channel, and the share of pixels differing by more than tol.
func pixelDiff(a, b []byte, tol int) (maxd int, over float64) {
	n := 0
	for i := 0; i+3 < len(a); i += 4 {
		bad := false
		for c := range 3 {
			d := int(a[i+c]) - int(b[i+c])
			if d < 0 {
				d = -d
			}
			maxd = max(maxd, d)
			bad = bad || d > tol
		}
		if bad {
			n++
		}
	}
	return maxd, float64(n) / float64(len(a)/4)
}

// TestShaderViewsMatchSoftware draws the 2D relief and the 3D surface of
// one snapshot with the shaders and compares them with viewer's software
// pictures: the relief with viewer.Relief under every overlay, rivers and
// lakes on and off; the 3D surface with BuildMesh3D's vertex colours on a
// mesh of one vertex per cell. Tolerance: at most 1 % of the pixels differ
// by more than 2 levels of 255 in any channel, none by more than 4 in 2D
// (float rounding on the GPU against viewer's integer shading) and 32 in
// 3D (where river discs overlap, the shaders colour the river by the
// deepest of them, BuildMesh3D by the one covering most); measured on
// llvmpipe: 2D at most 1 level apart, 3D 21 at most on 0.5 % of the
// pixels.
func TestShaderViewsMatchSoftware(t *testing.T) {
	needShaderDisplay(t)
	s := testTerrain(t, 96)
	cases := []struct {
		name string
		set  func(*viewer.Options)
	}{
		{"default", func(*viewer.Options) {}},
		{"no rivers, no lakes", func(o *viewer.Options) { o.Rivers, o.Lakes = false, false }},
		{"wide rivers", func(o *viewer.Options) { o.RiverMaxPx, o.RiverThresholdM2 = 9, 2e6 }},
		{"light", func(o *viewer.Options) {
			o.LightAzimuthDeg, o.LightAltitudeDeg, o.Ambient, o.Exaggeration = 100, 20, 0.1, 3
		}},
	}
	for ov := viewer.OverlayUplift; ov <= viewer.OverlayStreams; ov++ {
		cases = append(cases, struct {
			name string
			set  func(*viewer.Options)
		}{"overlay " + ov.String(), func(o *viewer.Options) { o.Overlay, o.OverlayAlpha = ov, 0.6 }})
	}
	s3 := []struct {
		name string
		set  func(*viewer.Options3D)
	}{
		{"3D default", func(*viewer.Options3D) {}},
		{"3D slope, uplift tint, exaggerated", func(o *viewer.Options3D) {
			o.Color, o.UpliftAlpha, o.Exaggeration, o.RiverMaxWidth = viewer.ColorSlope, 0.4, 2.5, 7
		}},
	}
	onGPU(t, func() error {
		g := newGPUView()
		if g.err != nil {
			return g.err
		}
		got := make([]byte, 4*s.W*s.H)
		for _, c := range cases {
			o := viewer.DefaultOptions()
			c.set(&o)
			img, err := g.reliefImage(s, nil, o, nil, 1)
			if err != nil {
				return err
			}
			img.ReadPixels(got)
			want := viewer.Relief(nil, s, o)
			maxd, over := pixelDiff(got, want.Pix, 2)
			t.Logf("%s: largest difference %d, %.3f %% over 2", c.name, maxd, 100*over)
			if over > 0.01 || maxd > 4 {
				t.Errorf("%s: the shaders' relief differs from viewer.Relief: largest difference %d, %.2f %% of the pixels by more than 2", c.name, maxd, 100*over)
			}
		}
		// A zoomed-out relief (step 2) shows the centre cell of each 2×2
		// block, shaded over the blocks: viewer.Relief of the grid of those
		// cells, cell size doubled, away from the border.
		o := viewer.DefaultOptions()
		o.Rivers, o.Lakes, o.TintMinM, o.TintMaxM = false, false, -500, 3000
		img, err := g.reliefImage(s, nil, o, nil, 2)
		if err != nil {
			return err
		}
		half := s.W / 2
		if b := img.Bounds(); b.Dx() != half || b.Dy() != half {
			return fmt.Errorf("step 2: a %v picture of a %d² grid", b, s.W)
		}
		got2 := make([]byte, 4*half*half)
		img.ReadPixels(got2)
		c2 := *s
		c2.W, c2.H, c2.Cell = half, half, 2*s.Cell
		c2.Height = make([]float32, half*half)
		c2.Area, c2.Water, c2.Uplift, c2.Receivers, c2.Sediment, c2.Hardness = nil, nil, nil, nil, nil, nil
		for j := range half {
			for i := range half {
				c2.Height[j*half+i] = s.Height[(2*j+1)*s.W+2*i+1]
			}
		}
		want2 := viewer.Relief(nil, &c2, o)
		worst := 0
		for j := 1; j < half-1; j++ {
			for i := 1; i < half-1; i++ {
				for ch := range 3 {
					k := 4*(j*half+i) + ch
					worst = max(worst, abs(int(got2[k])-int(want2.Pix[k])))
				}
			}
		}
		t.Logf("step 2: largest difference %d inside the border", worst)
		if worst > 2 {
			t.Errorf("step 2: the zoomed-out relief differs from the relief of the blocks' centre cells by %d", worst)
		}
		for _, c := range s3 {
			o := viewer.DefaultOptions3D()
			o.MaxMesh = max(s.W, s.H)
			c.set(&o)
			img, err := g.surface3DImage(s, nil, o, viewer.DefaultOptions())
			if err != nil {
				return err
			}
			img.ReadPixels(got)
			m := viewer.BuildMesh3D(nil, s, o)
			want := make([]byte, len(got))
			for k, col := range m.Color {
				for ch := range 3 {
					want[4*k+ch] = uint8(min(max(col[ch]*255+0.5, 0), 255))
				}
			}
			maxd, over := pixelDiff(got, want, 2)
			t.Logf("%s: largest difference %d, %.3f %% over 2", c.name, maxd, 100*over)
			if over > 0.01 || maxd > 32 {
				t.Errorf("%s: the shaders' 3D surface differs from BuildMesh3D's colours: largest difference %d, %.2f %% of the pixels by more than 2", c.name, maxd, 100*over)
			}
		}
		if err := checkGatheredDiscs(t, g, s); err != nil {
			return err
		}
		if err := checkWarm(s); err != nil {
			t.Error(err)
		}
		if err := checkFieldPairs(t, g, s); err != nil {
			return err
		}
		g.forget()
		return reliefBands(t, g, s)
	})
}

// checkWarm: after warm, the 2D relief and the 3D surface of s with the
// same options compile no program of their own (a new view's first frame
// compiled one: 85 ms of the swap on an H200). Run inside
// TestShaderViewsMatchSoftware's game.
func checkWarm(s *engine.Snapshot) error {
	g := newGPUView()
	if g.err != nil {
		return g.err
	}
	g.gather = true
	o, o3 := viewer.DefaultOptions(), viewer.DefaultOptions3D()
	surf0, gath0 := len(g.surf), len(g.gathers)
	if err := g.warm(s, o, o3, 1); err != nil {
		return err
	}
	surf, gath := len(g.surf), len(g.gathers)
	if surf == surf0 || gath == gath0 {
		return fmt.Errorf("warm compiled %d surface and %d gather programs; want the views' own", surf-surf0, gath-gath0)
	}
	if _, err := g.reliefImage(s, nil, o, nil, 1); err != nil {
		return err
	}
	if _, err := g.surface3DImage(s, nil, o3, o); err != nil {
		return err
	}
	if len(g.surf) != surf || len(g.gathers) != gath {
		return fmt.Errorf("after warm the views compiled %d surface and %d gather programs more; want none", len(g.surf)-surf, len(g.gathers)-gath)
	}
	return nil
}

// reliefBands, run in TestShaderViewsMatchSoftware's game loop (Ebiten
// runs one per test process), then terrainBands: a frame without a new snapshot (or new options)
// redraws nothing, the relief is blitted; a redraw for a new snapshot
// alone drawn in bands over frames (reliefJob) is, byte for byte, the
// picture drawn at once, the old picture showing until it is whole; the
// 3D surface is drawn once per snapshot too. Cases: rivers and lakes at
// a pixel a cell, and the drainage overlay (the river image's drainage
// pass) zoomed out to a pixel per 2×2 cells.
//
// g is TestShaderViewsMatchSoftware's view (its programs compiled: a new
// one compiles them again, about 0.3 s on llvmpipe); its pictures are
// forgotten before each case.
func reliefBands(t *testing.T, g *gpuView, s1 *engine.Snapshot) error {
	s2 := *s1
	s2.Height = slices.Clone(s1.Height)
	for k := range s2.Height {
		s2.Height[k] += float32(k%97) * 0.5
	}
	read := func(img *ebiten.Image) []byte {
		b := make([]byte, 4*img.Bounds().Dx()*img.Bounds().Dy())
		img.ReadPixels(b)
		return b
	}
	drain := viewer.DefaultOptions()
	drain.Overlay, drain.OverlayAlpha = viewer.OverlayDrainage, 0.6
	// The fields of a new snapshot go up in bands of 7 rows (loadSome),
	// as a 4096² snapshot's do in bands of 16 MB.
	defer func(b int) { uploadBudget = b }(uploadBudget)
	uploadBudget = 4 * s1.W * 3 * 7
	fieldFrames := ceilDiv(s1.H, 7)
	for _, c := range []struct {
		name        string
		o           viewer.Options
		step, bands int
	}{{"rivers and lakes", viewer.DefaultOptions(), 1, 5}, {"drainage, step 2", drain, 2, 3}} {
		g.forget()
		img, err := g.reliefImage(s1, nil, c.o, nil, c.step)
		if err != nil {
			return err
		}
		old := read(img)
		passes, draws := g.passes, g.draws
		for range 3 {
			if _, err := g.reliefImage(s1, nil, c.o, nil, c.step); err != nil {
				return err
			}
		}
		if g.passes != passes || g.draws != draws {
			t.Errorf("%s: 3 frames without a new snapshot drew %d passes, %d pictures; want 0", c.name, g.passes-passes, g.draws-draws)
		}
		g.newFrame()
		g.startRelief(&s2, nil, c.o, nil, c.step, c.bands)
		frames, bands := 0, 0
		for done := false; !done; frames++ {
			g.newFrame()
			p0, u0 := g.passes, g.f2.uploads
			drew := false
			if drew, done, err = g.advanceRelief(); err != nil {
				return err
			}
			if g.passes != p0 && g.f2.uploads != u0 {
				t.Errorf("%s: frame %d uploaded %d textures and drew %d passes; want one or the other (an 8 MB band and a pass took 25 ms on an H200)", c.name, frames, g.f2.uploads-u0, g.passes-p0)
			}
			bands += g.passes - p0
			if !done && g.reliefK.snap != s1 {
				t.Fatalf("%s: the relief changed before the new one was whole", c.name)
			}
			if !drew {
				runtime.Gosched() // the goroutine's figures and discs are on their way
			}
		}
		if bands != c.bands || g.job != nil || g.reliefK.snap != &s2 || g.draws != draws+1 {
			t.Errorf("%s: %d bands, job %v, relief of s2 %v, pictures %d; want %d bands, no job, s2, one picture", c.name, bands, g.job != nil, g.reliefK.snap == &s2, g.draws-draws, c.bands)
		}
		// startRelief uploads the first band of rows, the frames after
		// it the others, one each, then the picture's bands.
		if frames < fieldFrames-1+c.bands {
			t.Errorf("%s: %d frames; want the fields' %d bands of rows (the first with the start) before the picture's %d", c.name, frames, fieldFrames, c.bands)
		}
		t.Logf("%s: a new snapshot's relief in %d frames, %d bands", c.name, frames, bands)
		banded := read(g.relief)
		if slices.Equal(banded, old) {
			t.Errorf("%s: the new snapshot's relief is the old one's", c.name)
		}
		g.forget() // the same snapshot drawn again, at once, from scratch
		whole, err := g.reliefImage(&s2, nil, c.o, nil, c.step)
		if err != nil {
			return err
		}
		if want := read(whole); !slices.Equal(banded, want) {
			maxd, over := pixelDiff(banded, want, 0)
			t.Errorf("%s: the relief drawn in bands differs from the relief drawn at once: largest difference %d, %.2f %% of the pixels", c.name, maxd, 100*over)
		}
		passes = g.passes
		if _, err := g.reliefImage(&s2, nil, c.o, nil, c.step); err != nil || g.passes != passes {
			t.Errorf("%s: the finished relief was drawn again (%d passes, %v)", c.name, g.passes-passes, err)
		}
		o3 := viewer.DefaultOptions3D()
		for range 2 {
			if _, err := g.surface3DImage(&s2, nil, o3, c.o); err != nil {
				return err
			}
		}
		if g.passes != passes+1 {
			t.Errorf("%s: the 3D surface of one snapshot took %d passes; want 1", c.name, g.passes-passes)
		}
	}
	return terrainBands(t, g, s1, &s2)
}

// terrainBands: the 3D view drawn for a new snapshot alone over frames
// (terrainJob: bands of the surface, then the sky and the chunks) is, byte
// for byte, the picture drawn at once.
func terrainBands(t *testing.T, g *gpuView, s1, s2 *engine.Snapshot) error {
	const cw, ch = 160, 120
	o3 := viewer.DefaultOptions3D()
	o2 := viewer.DefaultOptions()
	cam := viewer.FitCameraAspect(s1, 1, viewer.DefaultYawDeg, viewer.DefaultPitchDeg, float64(cw)/ch)
	mesh := viewer.BuildMesh3D(nil, s2, picture.GeometryOnly(o3))
	read := func(img *ebiten.Image) []byte {
		b := make([]byte, 4*img.Bounds().Dx()*img.Bounds().Dy())
		img.ReadPixels(b)
		return b
	}
	g.forget()
	if _, err := g.surface3DImage(s1, nil, o3, o2); err != nil {
		return err
	}
	d := mesh.Project(nil, cam, cw, ch)
	if err := g.startTerrain(d, s2, nil, o3, o2, 4); err != nil {
		return err
	}
	canvas := newDataImage(cw, ch)
	frames := 0
	for ; g.tjob != nil && frames < 100; frames++ {
		g.newFrame()
		p0, u0 := g.passes, g.f2.uploads+g.f3.uploads
		if _, _, err := g.advanceTerrain(canvas); err != nil {
			return err
		}
		if u := g.f2.uploads + g.f3.uploads - u0; u != 0 && g.passes != p0 {
			t.Errorf("3D: frame %d uploaded %d textures and drew %d passes; want one or the other", frames, u, g.passes-p0)
		}
	}
	job := g.surf3K
	g.forget() // the same snapshot drawn again, at once, from scratch
	surf, err := g.surface3DImage(s2, nil, o3, o2)
	if err != nil {
		return err
	}
	whole := newDataImage(cw, ch)
	g.drawTerrain(whole, mesh.Project(nil, cam, cw, ch), surf, s2)
	got, want := read(canvas), read(whole)
	t.Logf("3D: a new snapshot's picture in %d frames (%d chunks)", frames, len(d.Chunks))
	if g.tjob != nil || job.snap != s2 || frames < 5 {
		t.Errorf("3D: job left %v, surface of s2 %v, %d frames; want none, s2, at least 5 (4 bands and the chunks)", g.tjob != nil, job.snap == s2, frames)
	}
	if !slices.Equal(got, want) {
		maxd, over := pixelDiff(got, want, 0)
		t.Errorf("3D: the picture drawn over frames differs from the one drawn at once: largest difference %d, %.2f %% of the pixels", maxd, 100*over)
	}
	return splitBands(t, g, s1, s2)
}

// splitBands: the split view's two jobs at once, the 2D relief of one new
// snapshot and the 3D picture of another (whose fields go up into the 3D
// view's own set), advanced in either order each frame: no frame both
// uploads a band, for either view, and draws a pass, for either (on an
// H200 such a frame took 44 ms), and both pictures finish.
func splitBands(t *testing.T, g *gpuView, s1, s2 *engine.Snapshot) error {
	const cw, ch = 160, 120
	s3 := *s1
	s3.Height = slices.Clone(s1.Height)
	for k := range s3.Height {
		s3.Height[k] += float32(k%89) * 0.25
	}
	o2, o3 := viewer.DefaultOptions(), viewer.DefaultOptions3D()
	cam := viewer.FitCameraAspect(s1, 1, viewer.DefaultYawDeg, viewer.DefaultPitchDeg, float64(cw)/ch)
	d := viewer.BuildMesh3D(nil, &s3, picture.GeometryOnly(o3)).Project(nil, cam, cw, ch)
	canvas := newDataImage(cw, ch)
	for _, first3D := range []bool{true, false} {
		g.forget()
		if _, err := g.reliefImage(s1, nil, o2, nil, 1); err != nil {
			return err
		}
		if _, err := g.surface3DImage(s1, nil, o3, o2); err != nil {
			return err
		}
		g.newFrame()
		g.startRelief(s2, nil, o2, nil, 1, 3)
		if err := g.startTerrain(d, &s3, nil, o3, o2, 3); err != nil {
			return err
		}
		advance3D := func() error {
			if g.tjob == nil {
				return nil
			}
			_, _, err := g.advanceTerrain(canvas)
			return err
		}
		advance2D := func() error {
			if g.job == nil {
				return nil
			}
			_, _, err := g.advanceRelief()
			return err
		}
		steps := []func() error{advance2D, advance3D}
		if first3D {
			steps[0], steps[1] = advance3D, advance2D
		}
		frames := 0
		for ; (g.job != nil || g.tjob != nil) && frames < 1000; frames++ {
			g.newFrame()
			p0, u0 := g.passes, g.f2.uploads+g.f3.uploads
			for _, step := range steps {
				if err := step(); err != nil {
					return err
				}
			}
			if u := g.f2.uploads + g.f3.uploads - u0; u != 0 && g.passes != p0 {
				t.Errorf("split, 3D first %v: frame %d uploaded %d textures and drew %d passes; want one or the other", first3D, frames, u, g.passes-p0)
			}
			runtime.Gosched() // the relief's figures and discs are on their way
		}
		if g.job != nil || g.tjob != nil || g.reliefK.snap != s2 || g.surf3K.snap != &s3 {
			t.Errorf("split, 3D first %v: after %d frames relief job %v, 3D job %v, relief of s2 %v, surface of s3 %v; want no jobs, s2 and s3", first3D, frames, g.job != nil, g.tjob != nil, g.reliefK.snap == s2, g.surf3K.snap == &s3)
		}
		t.Logf("split, 3D first %v: both pictures in %d frames", first3D, frames)
	}
	return nil
}

// forget drops the pictures' keys and any job, so the next pictures are
// drawn anew (the fields and the compiled programs stay).
func (g *gpuView) forget() {
	g.reliefK, g.surf3K, g.job, g.tjob = reliefKey{}, surf3Key{}, nil, nil
	g.f2.drop()
	g.f3.drop()
	g.f2.riversOf, g.f3.riversOf, g.rivLOf, g.discsOf = riversKey{}, riversKey{}, riversKey{}, discsKey{}
	g.f2.bytesOf, g.f3.bytesOf = bytesKey{}, bytesKey{}
}

//go:embed shaders/raymarch.kage
var raymarchKage string

// TestShaderTiming logs how long llvmpipe (or the card) takes to draw a
// 1024² relief (OROGEN_SHADER_TIMING=1; no assertion: speed goes in the
// report).
func TestShaderTiming(t *testing.T) {
	if os.Getenv("OROGEN_SHADER_TIMING") == "" {
		t.Skip("OROGEN_SHADER_TIMING=1 logs the shaders' times")
	}
	needShaderDisplay(t)
	n, _ := strconv.Atoi(os.Getenv("OROGEN_SHADER_N"))
	if n == 0 {
		n = 1024
	}
	s := testTerrain(t, n)
	onGPU(t, func() error {
		g := newGPUView()
		if g.err != nil {
			return g.err
		}
		px := make([]byte, 4)
		sync := func(img *ebiten.Image) { img.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image).ReadPixels(px) }
		for range 3 {
			t0 := time.Now()
			g.f2.drop()
			g.f2.load(s)
			sync(g.f2.water)
			t1 := time.Now()
			o := viewer.DefaultOptions()
			o.Rivers = os.Getenv("OROGEN_SHADER_RIVERS") != "0"
			o.Lakes = os.Getenv("OROGEN_SHADER_LAKES") != "0"
			p := viewer.ReliefParams(s, o)
			t2 := time.Now()
			g.f2.riversOf = riversKey{}
			riv, err := g.riverPass(&g.f2, s, &p, 1, s.H)
			if err != nil {
				return err
			}
			sync(riv)
			t3 := time.Now()
			if g.relief == nil {
				g.relief = newDataImage(s.W, s.H)
			}
			if err := g.drawSurface(g.relief, &g.f2, s, &p, 0, nil, 1, 0, s.H); err != nil {
				return err
			}
			sync(g.relief)
			t.Logf("upload %v, params %v, river pass %v, surface %v", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), time.Since(t3))
		}
		for i := range 3 {
			t0, c0 := time.Now(), cpuTime()
			o := viewer.DefaultOptions()
			o.Ambient = 0.3 + 0.01*float64(i)
			img, err := g.reliefImage(s, nil, o, nil, 1)
			if err != nil {
				return err
			}
			img.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image).ReadPixels(px)
			t.Logf("relief %d² #%d: %v (CPU %v)", n, i, time.Since(t0), cpuTime()-c0)
		}
		// The 3D drawing: the mesh of 128², 256² and 512² vertices drawn
		// back to front by mesh.kage, against a ray march (raymarch.kage).
		const cw, ch = 900, 650
		o3 := viewer.DefaultOptions3D()
		surf, err := g.surface3DImage(s, nil, o3, viewer.DefaultOptions())
		if err != nil {
			return err
		}
		cam := viewer.FitCameraAspect(s, 1, viewer.DefaultYawDeg, viewer.DefaultPitchDeg, float64(cw)/ch)
		canvas := newDataImage(cw, ch)
		for _, n := range []int{128, 256, 384, 512} {
			o := o3
			o.MaxMesh = n
			m := viewer.BuildMesh3D(nil, s, picture.GeometryOnly(o))
			d := m.Project(nil, cam, cw, ch)
			for range 2 {
				t0, c0 := time.Now(), cpuTime()
				g.drawTerrain(canvas, d, surf, s)
				sync(canvas)
				t.Logf("3D mesh %d² (%d triangles) on a %d×%d canvas: %v (CPU %v)", n, d.Triangles(), cw, ch, time.Since(t0), cpuTime()-c0)
			}
		}
		rm, err := ebiten.NewShader([]byte(raymarchKage))
		if err != nil {
			return err
		}
		c := cam
		ex, ey, ez := c.Eye()
		yaw, pitch := c.Yaw*math.Pi/180, c.Pitch*math.Pi/180
		sy, cy := math.Sincos(yaw)
		sp, cp := math.Sincos(pitch)
		hi := 0.0
		for _, h := range s.Height {
			hi = max(hi, float64(h))
		}
		u := map[string]any{
			"Size": []float32{float32(s.W), float32(s.H)}, "Cell": float32(s.Cell), "Ex": float32(1),
			"Eye":   []float32{float32(ex), float32(ey), float32(ez)},
			"Fwd":   []float32{float32(-sy * cp), float32(cy * cp), float32(-sp)},
			"Right": []float32{float32(-cy), float32(-sy), 0},
			"Up":    []float32{float32(-sy * sp), float32(cy * sp), float32(cp)},
			"Focal": float32(ch / 2 / math.Tan(c.FovDeg*math.Pi/360)), "Centre": []float32{cw / 2, ch / 2},
			"ZMax": float32(hi),
		}
		vs := []ebiten.Vertex{{DstX: 0, DstY: 0}, {DstX: cw, DstY: 0}, {DstX: 0, DstY: ch}, {DstX: cw, DstY: ch}}
		for i := range vs {
			vs[i].SrcX, vs[i].SrcY = vs[i].DstX*float32(s.W)/cw, vs[i].DstY*float32(s.H)/ch
		}
		for range 2 {
			t0 := time.Now()
			canvas.DrawTrianglesShader(vs, []uint16{0, 1, 2, 1, 3, 2}, rm, &ebiten.DrawTrianglesShaderOptions{
				Images: [4]*ebiten.Image{g.f2.hgt, surf}, Uniforms: u, Blend: ebiten.BlendCopy})
			sync(canvas)
			t.Logf("3D ray march (128 steps, 4 halvings) on a %d×%d canvas: %v", cw, ch, time.Since(t0))
		}
		if p := os.Getenv("OROGEN_SHADER_PNG"); p != "" {
			img := image.NewRGBA(image.Rect(0, 0, cw, ch))
			canvas.ReadPixels(img.Pix)
			_ = os.WriteFile(p, encodePNG(img), 0o644)
		}
		for i := range 2 {
			t0, c0 := time.Now(), cpuTime()
			o := viewer.DefaultOptions3D()
			o.Ambient = 0.3 + 0.01*float64(i)
			img, err := g.surface3DImage(s, nil, o, viewer.DefaultOptions())
			if err != nil {
				return err
			}
			img.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image).ReadPixels(px)
			t.Logf("3D surface %d² #%d: %v (CPU %v)", n, i, time.Since(t0), cpuTime()-c0)
		}
		return nil
	})
}

// TestGPUPace: frames that draw a picture, or a band of one, cost their
// extra over the plain ones; a picture costs the extras of its frames,
// whole or in bands; the interval between redraws for a new snapshot is
// twice that; a picture is split into bands of about a plain frame, at
// most 4 (one on a card); auto's timed pictures leave out the first two (they
// compile the programs) and keep the least of the others.
func TestGPUPace(t *testing.T) {
	var p gpuPace
	if p.bands() != 4 {
		t.Errorf("bands before any picture: %d; want 4", p.bands())
	}
	now := time.Unix(1000, 0)
	frame := func(d time.Duration, drew, finished bool) {
		p.frame(now)
		p.drew, p.finished = drew, finished
		now = now.Add(d)
	}
	near := func(what string, got, want time.Duration) {
		if got < want-2*time.Millisecond || got > want+2*time.Millisecond {
			t.Errorf("%s %v; want %v", what, got, want)
		}
	}
	sec := func(v float64) time.Duration { return time.Duration(v * float64(time.Second)) }
	const plain, extra = 20 * time.Millisecond, 150 * time.Millisecond
	for range 40 {
		frame(plain, false, false)
	}
	for range 30 {
		frame(plain+extra, true, true)
		for range 5 {
			frame(plain, false, false)
		}
	}
	frame(plain, false, false)
	near("whole pictures: extra", sec(p.extra), extra)
	near("whole pictures: picture", sec(p.work), extra)
	near("whole pictures: interval", p.interval(), 2*extra)
	if b := p.bands(); b != 4 {
		t.Errorf("bands for a picture of %v and frames of %v: %d; want 4 (the most)", extra, plain, b)
	}
	if b := (&gpuPace{plain: 0.05, work: 0.12, most: 16}).bands(); b != 3 {
		t.Errorf("bands on a card for a picture of 120 ms and frames of 50 ms: %d; want 3", b)
	}
	if b := (&gpuPace{plain: 0.02, work: 0.15, most: 16}).bands(); b != 8 {
		t.Errorf("bands on a card for a picture of 150 ms and frames of 20 ms: %d; want 8", b)
	}
	if b := (&gpuPace{plain: 0.05, work: 0.12}).bands(); b != 3 {
		t.Errorf("bands for a picture of 120 ms and frames of 50 ms: %d; want 3", b)
	}
	// The same pictures in 5 bands of a fifth each: a frame adds a fifth,
	// a picture as much as before.
	for range 30 {
		for k := range 5 {
			frame(plain+extra/5, true, k == 4)
		}
		for range 5 {
			frame(plain, false, false)
		}
	}
	frame(plain, false, false)
	near("bands: extra", sec(p.extra), extra/5)
	near("bands: picture", sec(p.work), extra)
	near("bands: interval", p.interval(), 2*extra)
	// A card: every frame takes 1/60 s give or take 3 ms, whether it draws
	// a picture or not. The jitter is no work: the interval stays near
	// zero (clipping the shorter frames counted it as 1.2 ms a frame).
	var jit gpuPace
	now = time.Unix(2000, 0)
	for i := range 600 {
		jit.frame(now)
		jit.drew, jit.finished = i%2 == 0, i%2 == 0
		d := time.Second / 60
		if i%4 < 2 {
			d += 3 * time.Millisecond
		} else {
			d -= 3 * time.Millisecond
		}
		now = now.Add(d)
	}
	if iv := jit.interval(); iv > 2*time.Millisecond {
		t.Errorf("a card's jittering frames: interval %v; want about 0", iv)
	}
	card := gpuPace{plain: 1.0 / 60, work: 0.001}
	if b := card.bands(); b != 1 {
		t.Errorf("a card's millisecond picture: %d bands; want 1", b)
	}
	for _, c := range []struct {
		name  string
		times []time.Duration
		slow  bool
	}{
		{"software OpenGL", []time.Duration{900, 700, 160, 150, 400, 155}, true},
		{"graphics card", []time.Duration{400, 300, 2, 90, 1, 3}, false},
	} {
		var q gpuPace
		for _, d := range c.times {
			q.sample(d * time.Millisecond)
		}
		least := time.Duration(q.least * float64(time.Second))
		if q.samples != autoAfter || (least > slowShaderPicture) != c.slow {
			t.Errorf("%s: %d samples, least %v: slow %v, want %v", c.name, q.samples, least, least > slowShaderPicture, c.slow)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestShaderMesh: the shaders' mesh has about a vertex per 4 pixels of the
// canvas, never more than the user's MaxMesh, never fewer than 64 a side.
func TestShaderMesh(t *testing.T) {
	for _, c := range []struct{ max, w, h, want int }{
		{512, 900, 650, 382}, // sqrt(900·650/4) = 382.4
		{256, 900, 650, 256},
		{512, 1800, 1300, 512},
		{512, 40, 30, 64},
		{32, 40, 30, 32},
	} {
		o := viewer.DefaultOptions3D()
		o.MaxMesh = c.max
		if got := shaderMesh(o, c.w, c.h).MaxMesh; got != c.want {
			t.Errorf("shaderMesh(MaxMesh %d, %d×%d) = %d; want %d", c.max, c.w, c.h, got, c.want)
		}
	}
}
