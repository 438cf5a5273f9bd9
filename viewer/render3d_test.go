package viewer

import (
	"image"
	"math"
	"orogen/sim/engine"
	"path/filepath"
	"testing"
)

func newRGBA(w, h int) *image.RGBA { return image.NewRGBA(image.Rect(0, 0, w, h)) }

// ridge returns a 96×64 snapshot, 100 m cells, from formulas: a ridge
// 1200 m high running east-west through the middle, cut by side valleys
// every 16 cells that carry rivers down to the north and south edges, the
// drainage area on each valley axis growing with the distance from the
// crest.
func ridge() *engine.Snapshot {
	const w, h, cell = 96, 64, 100.0
	s := &engine.Snapshot{W: w, H: h, Cell: cell, Height: make([]float32, w*h), Area: make([]float32, w*h)}
	for y := range h {
		for x := range w {
			d := math.Abs(float64(y) - 31.5) // from the crest, cells
			ph := float64(x%16) - 7.5        // from the valley axis, cells
			valley := math.Exp(-ph*ph/8) * min(1, d/6)
			z := 1200*math.Exp(-d*d/(2*14*14)) - 250*valley + 30*math.Sin(float64(x)/5)
			s.Height[y*w+x] = float32(z)
			s.Area[y*w+x] = cell * cell
			if x%16 == 7 && d > 3 {
				s.Area[y*w+x] = float32(cell * cell * 40 * (d - 3) * (d - 3))
			}
		}
	}
	return s
}

// TestRender3DGolden compares 160×120 software renders with the images in
// testdata/: the synthetic cone with its lake and rivers, the ridge with
// rivers in slope colours and cast shadows, and a coarse wireframe with
// the uplift. Tolerance ±3 per channel: colours go through float32 lights
// and ramps and one rounding per blend, and a compiler that fuses
// multiply-adds (arm64) moves a vertex by far less than the 1/256-pixel
// snap, but can flip a pixel centre lying exactly on an edge to the
// neighbouring triangle, whose Gouraud colour differs by a step or two
// (±3); a changed picture differs by far more.
func TestRender3DGolden(t *testing.T) {
	cases := []struct {
		name string
		s    *engine.Snapshot
		yaw  float64
		edit func(*Options3D)
	}{
		{"cone3d", synthetic(), 200, func(o *Options3D) { o.RiverThresholdM2 = 1e6 }},
		{"ridge3d", ridge(), 150, func(o *Options3D) {
			o.RiverThresholdM2, o.Color, o.Shadows, o.SunElevationDeg, o.Exaggeration = 2e5, ColorSlope, true, 20, 1.5
		}},
		{"wire3d", synthetic(), 30, func(o *Options3D) {
			o.MaxMesh, o.Wireframe, o.UpliftAlpha, o.Exaggeration, o.Lakes = 16, true, 0.5, 2, false
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions3D()
			tc.edit(&o)
			if err := o.Validate(); err != nil {
				t.Fatal(err)
			}
			cam := FitCameraAspect(tc.s, o.Exaggeration, tc.yaw, 35, 160.0/120)
			got := Render3D(newRGBA(160, 120), tc.s, cam, o)
			path := filepath.Join("testdata", tc.name+".png")
			if *update {
				writePNG(t, path, got)
				return
			}
			want := readPNG(t, path)
			if ok, p, c := sameColors(got, want, 3); !ok {
				bad := filepath.Join("testdata", tc.name+"-bad.png")
				writePNG(t, bad, got)
				t.Fatalf("pixel %v: got %v; want %v (±3); the render is in %s", p, c[0], c[1], bad)
			}
		})
	}
}

// TestRasterizerCoversEachPixelOnce fills a fan of triangles around a
// shared vertex, and a grid of quads with shared edges, with a
// half-transparent colour over black: a pixel covered twice would come
// out darker or brighter than one covered once, a crack black.
func TestRasterizerCoversEachPixelOnce(t *testing.T) {
	const n = 64
	var c Chunk
	col := [4]float32{1, 1, 1, 0.5}
	add := func(x, y float32) uint16 {
		c.Vertices = append(c.Vertices, Vertex3D{DstX: x, DstY: y, SrcX: 0.5, SrcY: 0.5, ColorR: col[0], ColorG: col[1], ColorB: col[2], ColorA: col[3]})
		return uint16(len(c.Vertices) - 1)
	}
	// A grid of 7×7 quads with jittered interior vertices, pixel centres
	// on some edges (x = 8.5 exactly), and a fan around (32.5, 32.5).
	pts := make([][]uint16, 8)
	for j := range 8 {
		pts[j] = make([]uint16, 8)
		for i := range 8 {
			x, y := float32(i*8)+0.5, float32(j*8)+0.5
			if i > 0 && i < 7 && j > 0 && j < 7 && (i+j)%2 == 0 {
				x += float32(i%3) * 0.37
				y -= float32(j%2) * 1.13
			}
			pts[j][i] = add(x, y)
		}
	}
	for j := range 7 {
		for i := range 7 {
			a, b, cc, d := pts[j][i], pts[j][i+1], pts[j+1][i], pts[j+1][i+1]
			c.Indices = append(c.Indices, a, b, d, a, d, cc)
		}
	}
	img := newRGBA(n, n)
	RasterizeDrawList(img, &DrawList{Chunks: []Chunk{c}})
	// Inside the grid's outline (x, y in [1, 56]) every pixel is 50% white
	// over black.
	for y := 1; y < 56; y++ {
		for x := 1; x < 56; x++ {
			if p := img.RGBAAt(x, y); p.R != 128 || p.A != 128 {
				t.Fatalf("pixel (%d, %d): got %v; want one blend of 50%% white (128, alpha 128)", x, y, p)
			}
		}
	}
}

// TestRender3DSky: a camera looking at nothing shows the sky, pale at the
// horizon and bluer above it.
func TestRender3DSky(t *testing.T) {
	s := rough(8, 8, 10, 1)
	cam := Camera{TargetX: -1e5, TargetY: -1e5, Yaw: 225, Pitch: 5, Distance: 1000, FovDeg: 40}
	img := Render3D(newRGBA(40, 100), s, cam, DefaultOptions3D())
	top, mid := img.RGBAAt(20, 0), img.RGBAAt(20, 45)
	if !(top.B > top.R && top.R < mid.R) {
		t.Errorf("sky: top %v, near the horizon %v; want bluer at the top", top, mid)
	}
	if p := img.RGBAAt(20, 99); p.A != 255 || p == top {
		t.Errorf("below the horizon: %v; want opaque haze", p)
	}
}
