package viewer

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"orogen/sim/engine"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// synthetic returns a 64×64 snapshot, 100 m cells, built from formulas: a
// cone 1500 m high with four radial valleys (east, south, west, north), a
// pit on the north-east flank holding a lake up to a flat level, drainage
// area growing as the square of the distance from the peak along the
// valleys (one cell elsewhere), and a Gaussian dome of uplift.
func synthetic() *engine.Snapshot {
	const n, cell = 64, 100.0
	s := &engine.Snapshot{W: n, H: n, Cell: cell,
		Height: make([]float32, n*n), Area: make([]float32, n*n), Water: make([]float32, n*n),
		Uplift: make([]float32, n*n)}
	const c = n / 2 // the peak sits on a cell, so the valley axes are cells
	const pitX, pitY, pitR, pitDepth = 46.0, 17.0, 6.0, 120.0
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			i := y*n + x
			dx, dy := float64(x)-c, float64(y)-c
			r := math.Hypot(dx, dy)
			theta := math.Atan2(dy, dx)
			valley := math.Pow(math.Abs(math.Cos(2*theta)), 16)
			h := 1500 - 40*r - 150*valley*min(1, r/8)
			q := (float64(x)-pitX)*(float64(x)-pitX) + (float64(y)-pitY)*(float64(y)-pitY)
			if q < pitR*pitR {
				t := 1 - q/(pitR*pitR)
				h -= pitDepth * t * t
			}
			s.Height[i] = float32(h)
			s.Area[i] = float32(cell * cell)
			// On a valley axis (within half a cell of it) the area is the
			// sector upstream: A = cell² (1 + 0.8 (r/cell)²).
			if min(math.Abs(dx), math.Abs(dy)) < 0.5 {
				s.Area[i] = float32(cell * cell * (1 + 0.8*r*r))
			}
			s.Uplift[i] = float32(5e-4 * math.Exp(-r*r/(2*15*15)))
		}
	}
	// The lake: level 60 m below the terrain at the pit's centre plus the
	// pit's depth, i.e. water 60 m deep at the centre.
	level := float64(s.Height[int(pitY)*n+int(pitX)]) + 60
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			i := y*n + x
			q := (float64(x)-pitX)*(float64(x)-pitX) + (float64(y)-pitY)*(float64(y)-pitY)
			if q < pitR*pitR {
				s.Water[i] = float32(max(0, level-float64(s.Height[i])))
			}
		}
	}
	return s
}

// sameColors reports whether a and b differ by at most delta in every
// channel of every pixel, and the first pixel that does not.
func sameColors(a, b *image.RGBA, delta int) (bool, image.Point, [2]color.RGBA) {
	if a.Rect.Size() != b.Rect.Size() {
		return false, image.Point{-1, -1}, [2]color.RGBA{}
	}
	for y := 0; y < a.Rect.Dy(); y++ {
		for x := 0; x < a.Rect.Dx(); x++ {
			ca := a.RGBAAt(a.Rect.Min.X+x, a.Rect.Min.Y+y)
			cb := b.RGBAAt(b.Rect.Min.X+x, b.Rect.Min.Y+y)
			for _, d := range []int{int(ca.R) - int(cb.R), int(ca.G) - int(cb.G), int(ca.B) - int(cb.B), int(ca.A) - int(cb.A)} {
				if d > delta || d < -delta {
					return false, image.Point{x, y}, [2]color.RGBA{ca, cb}
				}
			}
		}
	}
	return true, image.Point{}, [2]color.RGBA{}
}

func readPNG(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test ./viewer -run Golden -update to create it)", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	out := image.NewRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			out.Set(x, y, img.At(x, y))
		}
	}
	return out
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReliefGolden compares renders of the synthetic terrain with the
// images in testdata/. Tolerance: ±2 per channel. The picture is computed
// in float64/float32 and rounded once per channel; a compiler that fuses
// multiply-adds (arm64, ppc64) or a libm difference moves a value by far
// less than one 1/255 step, so a correct render is within ±1, and ±2
// leaves room for a rounding on each of two mixes.
func TestReliefGolden(t *testing.T) {
	s := synthetic()
	base := DefaultOptions()
	base.RiverThresholdM2 = 1e6 // rivers from 100 cells, about 11 cells from the peak
	cases := []struct {
		name string
		edit func(*Options)
	}{
		{"relief", func(*Options) {}},
		{"uplift", func(o *Options) { o.Overlay, o.OverlayAlpha = OverlayUplift, 0.6 }},
		{"slope", func(o *Options) { o.Overlay, o.OverlayAlpha, o.Exaggeration = OverlaySlope, 0.5, 2 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			tc.edit(&o)
			if err := o.Validate(); err != nil {
				t.Fatal(err)
			}
			got := Relief(nil, s, o)
			path := filepath.Join("testdata", tc.name+".png")
			if *update {
				writePNG(t, path, got)
				return
			}
			want := readPNG(t, path)
			if ok, p, c := sameColors(got, want, 2); !ok {
				bad := filepath.Join("testdata", tc.name+"-bad.png")
				writePNG(t, bad, got)
				t.Fatalf("pixel %v: got %v; want %v (±2); the render is in %s", p, c[0], c[1], bad)
			}
		})
	}
}

// plain returns a w×h snapshot of the given heights with 100 m cells and
// no other field.
func plain(w, h int, hgt []float32) *engine.Snapshot {
	return &engine.Snapshot{W: w, H: h, Cell: 100, Height: hgt}
}

// plane returns heights rising by gx and gy metres per metre east and south.
func plane(w, h int, cell, gx, gy float64) []float32 {
	d := make([]float32, w*h)
	for y := range h {
		for x := range w {
			d[y*w+x] = float32(1000 + gx*cell*float64(x-w/2) + gy*cell*float64(y-h/2))
		}
	}
	return d
}

// TestHillshadeFacesLight checks the Lambertian shading against its
// formula on planes: a 45° plane facing the 45° north-west light gets the
// full light (factor 1: the tint itself), a flat one sin 45°, one facing
// away only the ambient term. Tolerance ±1 per channel: one rounding.
func TestHillshadeFacesLight(t *testing.T) {
	o := DefaultOptions()
	o.Rivers, o.Lakes = false, false
	o.TintMinM, o.TintMaxM = 0, 2000 // the centre, at 1000 m, is mid-ramp
	tint := tintLUT.at(0.5)
	// The steepest ascent of a plane facing the light points away from it,
	// south-east, with slope tan 45° = 1: gx = gy = 1/√2.
	g := 1 / math.Sqrt2
	cases := []struct {
		name   string
		gx, gy float64
		light  float64 // expected light factor
	}{
		{"facing the light", g, g, 1},
		{"flat", 0, 0, 0.3 + 0.7*math.Sin(math.Pi/4)},
		{"facing away", -g, -g, 0.3},
	}
	prev := 2.0
	for _, tc := range cases {
		s := plain(9, 9, plane(9, 9, 100, tc.gx, tc.gy))
		img := Relief(nil, s, o)
		got := img.RGBAAt(4, 4)
		want := [3]float64{float64(tint[0]) * tc.light, float64(tint[1]) * tc.light, float64(tint[2]) * tc.light}
		for c, v := range []uint8{got.R, got.G, got.B} {
			if d := float64(v) - want[c]*255; math.Abs(d) > 1 {
				t.Errorf("%s: channel %d got %d; want %.1f (±1)", tc.name, c, v, want[c]*255)
			}
		}
		if tc.light >= prev {
			t.Errorf("cases must go from bright to dark")
		}
		prev = tc.light
	}
	// Exaggeration steepens a gentle slope facing away: darker.
	s := plain(9, 9, plane(9, 9, 100, -0.1, -0.1))
	o2 := o
	o2.Exaggeration = 10
	a, b := Relief(nil, s, o).RGBAAt(4, 4), Relief(nil, s, o2).RGBAAt(4, 4)
	if int(b.R)+int(b.G)+int(b.B) >= int(a.R)+int(a.G)+int(a.B) {
		t.Errorf("exaggeration 10 on a slope facing away: got %v; want darker than %v", b, a)
	}
}

// TestRiversWhereAreaExceedsThreshold draws rivers 1 px wide (RiverMaxPx
// 1) on a flat map with random areas, some exactly at the threshold, and
// demands river colour exactly where area >= threshold and the river-free
// render elsewhere.
func TestRiversWhereAreaExceedsThreshold(t *testing.T) {
	const w, h, thr = 37, 23, 1e7
	rng := rand.New(rand.NewPCG(1, 2))
	s := plain(w, h, make([]float32, w*h))
	s.Area = make([]float32, w*h)
	for i := range s.Area {
		switch rng.IntN(4) {
		case 0:
			s.Area[i] = thr
		case 1:
			s.Area[i] = float32(thr * (1 + 100*rng.Float64()))
		case 2:
			s.Area[i] = math.Nextafter32(thr, 0)
		default:
			s.Area[i] = float32(thr * rng.Float64())
		}
	}
	o := DefaultOptions()
	o.RiverThresholdM2, o.RiverMaxPx, o.Lakes = thr, 1, false
	got := Relief(nil, s, o)
	o.Rivers = false
	dry := Relief(nil, s, o)
	b := func(v float32) uint8 { return uint8(v*255 + 0.5) }
	river := color.RGBA{b(riverColour[0]), b(riverColour[1]), b(riverColour[2]), 255}
	for y := range h {
		for x := range w {
			want := dry.RGBAAt(x, y)
			if float64(s.Area[y*w+x]) >= thr {
				want = river
			}
			if c := got.RGBAAt(x, y); c != want {
				t.Fatalf("pixel (%d, %d), area %g: got %v; want %v", x, y, s.Area[y*w+x], c, want)
			}
		}
	}
}

// TestRiverWidthGrowsWithArea counts the pixels one isolated river cell
// touches: 1 at the threshold, the 3×3 block at width 3 (radius 1.5
// reaches the diagonal neighbours at √2 < 2), the 21 pixels within 2.5 at
// the 4 px cap.
func TestRiverWidthGrowsWithArea(t *testing.T) {
	const n, thr = 11, 1e7
	o := DefaultOptions()
	o.Lakes = false
	for _, tc := range []struct {
		decades float64 // log10(area / threshold)
		want    int
	}{
		{0, 1},
		{2 / riverPxPerDecade, 9},
		{3, 21},
		{10, 21},
	} {
		s := plain(n, n, make([]float32, n*n))
		s.Area = make([]float32, n*n)
		s.Area[5*n+5] = float32(thr * math.Pow(10, tc.decades) * 1.0001)
		got := Relief(nil, s, o)
		dry := Relief(nil, plain(n, n, make([]float32, n*n)), o)
		count := 0
		for i := 0; i < len(got.Pix); i += 4 {
			if !bytes.Equal(got.Pix[i:i+4], dry.Pix[i:i+4]) {
				count++
			}
		}
		if count != tc.want {
			t.Errorf("area 10^%.2f × threshold: got %d river pixels; want %d", tc.decades, count, tc.want)
		}
	}
}

// TestLakesBlueAndDarkerWithDepth checks that lake pixels are
// blue-dominant over every tint (heights spanning the whole ramp, lit and
// shaded) and that deeper water is darker.
func TestLakesBlueAndDarkerWithDepth(t *testing.T) {
	const w, h = 64, 16
	rng := rand.New(rand.NewPCG(3, 4))
	hgt := make([]float32, w*h)
	water := make([]float32, w*h)
	for y := range h {
		for x := range w {
			hgt[y*w+x] = float32(x*100) + float32(rng.Float64()*300)
			water[y*w+x] = float32(math.Pow(10, -2+5*rng.Float64()))
		}
	}
	s := plain(w, h, hgt)
	s.Water = water
	img := Relief(nil, s, DefaultOptions())
	for y := range h {
		for x := range w {
			c := img.RGBAAt(x, y)
			if !(c.B > c.R && c.B > c.G) {
				t.Fatalf("lake pixel (%d, %d), depth %g m: got %v; want blue above red and green", x, y, water[y*w+x], c)
			}
		}
	}
	// Flat ground, depths 0.1 m ... 1 km along a row.
	depths := []float32{0.1, 1, 10, 100, 1000}
	s = plain(len(depths), 1, make([]float32, len(depths)))
	s.Water = depths
	img = Relief(nil, s, DefaultOptions())
	prev := 3 * 256
	for x, d := range depths {
		c := img.RGBAAt(x, 0)
		if sum := int(c.R) + int(c.G) + int(c.B); sum >= prev {
			t.Errorf("depth %g m: got brightness %d; want below %d (the shallower one)", d, sum, prev)
		} else {
			prev = sum
		}
	}
}

// TestReliefSameForAnyGOMAXPROCS renders a seeded engine's terrain with
// everything on at GOMAXPROCS 1 and 2 and demands identical bytes.
func TestReliefSameForAnyGOMAXPROCS(t *testing.T) {
	s := terrain(t, 256)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, ov := range []Overlay{OverlayNone, OverlayUplift, OverlayDrainage, OverlaySlope} {
		o := DefaultOptions()
		o.Overlay = ov
		runtime.GOMAXPROCS(1)
		one := Relief(nil, s, o)
		runtime.GOMAXPROCS(2)
		two := Relief(nil, s, o)
		if !bytes.Equal(one.Pix, two.Pix) {
			t.Errorf("overlay %v: Mismatch concurrent: GOMAXPROCS 1 and 2 differ", ov)
		}
	}
}

// TestReliefShowsRiversAndLakesOnEngineTerrain checks that the engine's
// terrain has the rivers and lakes the other tests take for granted.
func TestReliefShowsRiversAndLakesOnEngineTerrain(t *testing.T) {
	s := terrain(t, 256)
	o := DefaultOptions()
	with := Relief(nil, s, o)
	o.Rivers, o.Lakes = false, false
	without := Relief(nil, s, o)
	changed := 0
	for i := 0; i < len(with.Pix); i += 4 {
		if !bytes.Equal(with.Pix[i:i+4], without.Pix[i:i+4]) {
			changed++
		}
	}
	// A few percent of a drained landscape is river or lake; all of it or
	// none would mean a broken threshold.
	if frac := float64(changed) / float64(s.W*s.H); frac < 0.01 || frac > 0.6 {
		t.Errorf("rivers and lakes cover %.3f of the map; want between 0.01 and 0.6", frac)
	}
}

// TestOverlayAlphaZero: an overlay at alpha 0 draws nothing.
func TestOverlayAlphaZero(t *testing.T) {
	s := synthetic()
	o := DefaultOptions()
	none := Relief(nil, s, o)
	for _, ov := range []Overlay{OverlayUplift, OverlayDrainage, OverlaySlope} {
		o.Overlay, o.OverlayAlpha = ov, 0
		if got := Relief(nil, s, o); !bytes.Equal(got.Pix, none.Pix) {
			t.Errorf("overlay %v at alpha 0: got a different picture; want the plain relief", ov)
		}
		o.OverlayAlpha = 0.5
		if got := Relief(nil, s, o); bytes.Equal(got.Pix, none.Pix) {
			t.Errorf("overlay %v at alpha 0.5: got the plain relief; want an overlay", ov)
		}
	}
	// No uplift: the uplift overlay draws nothing.
	s.Uplift = nil
	o.Overlay = OverlayUplift
	if got := Relief(nil, s, o); !bytes.Equal(got.Pix, none.Pix) {
		t.Errorf("uplift overlay without uplift: got a different picture; want the plain relief")
	}
}

// TestReliefOddShapesAndValues renders degenerate snapshots: they must not
// panic, fill every pixel opaque, and reuse dst when it fits.
func TestReliefOddShapesAndValues(t *testing.T) {
	huge := []float32{3e38, -3e38, 0, 1e30, -1e30, 3e38}
	cases := []struct {
		name string
		s    *engine.Snapshot
	}{
		{"1×1", plain(1, 1, []float32{42})},
		{"1×N", plain(1, 6, []float32{0, 10, 20, 10, 0, 5})},
		{"N×1", plain(6, 1, []float32{0, 10, 20, 10, 0, 5})},
		{"flat", plain(5, 4, make([]float32, 20))},
		{"huge", plain(3, 2, huge)},
		{"huge with all fields", func() *engine.Snapshot {
			s := plain(3, 2, huge)
			s.Area, s.Water, s.Uplift = huge, []float32{0, 3e38, 1, 0, 0, 0}, huge
			return s
		}()},
	}
	for _, tc := range cases {
		for _, ov := range []Overlay{OverlayNone, OverlayUplift, OverlayDrainage, OverlaySlope} {
			o := DefaultOptions()
			o.Overlay = ov
			img := Relief(nil, tc.s, o)
			if img.Rect != image.Rect(0, 0, tc.s.W, tc.s.H) {
				t.Fatalf("%s: got bounds %v; want %d×%d", tc.name, img.Rect, tc.s.W, tc.s.H)
			}
			for i := 3; i < len(img.Pix); i += 4 {
				if img.Pix[i] != 255 {
					t.Fatalf("%s overlay %v: pixel %d has alpha %d; want 255", tc.name, ov, i/4, img.Pix[i])
				}
			}
		}
	}
	// dst of the right size (any origin) is reused and gets the same picture.
	s := synthetic()
	fresh := Relief(nil, s, DefaultOptions())
	dst := image.NewRGBA(image.Rect(10, 20, 74, 84))
	if got := Relief(dst, s, DefaultOptions()); got != dst {
		t.Fatal("Relief allocated although dst had the right size")
	}
	for y := range 64 {
		if !bytes.Equal(dst.Pix[y*dst.Stride:y*dst.Stride+64*4], fresh.Pix[y*fresh.Stride:y*fresh.Stride+64*4]) {
			t.Fatalf("row %d differs when drawn into a reused dst with origin (10, 20)", y)
		}
	}
	if got := Relief(image.NewRGBA(image.Rect(0, 0, 3, 3)), s, DefaultOptions()); got.Rect.Dx() != 64 {
		t.Fatalf("dst of the wrong size: got bounds %v; want a new 64×64 image", got.Rect)
	}
}

func TestReliefMisusePanics(t *testing.T) {
	cases := []struct {
		name string
		s    *engine.Snapshot
	}{
		{"nil", nil},
		{"short height", plain(3, 3, make([]float32, 8))},
		{"zero size", plain(0, 3, nil)},
		{"bad cell", &engine.Snapshot{W: 1, H: 1, Cell: 0, Height: []float32{0}}},
		{"short area", func() *engine.Snapshot { s := plain(2, 2, make([]float32, 4)); s.Area = []float32{}; return s }()},
		{"long water", func() *engine.Snapshot { s := plain(2, 2, make([]float32, 4)); s.Water = make([]float32, 5); return s }()},
	}
	for _, tc := range cases {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.HasPrefix(msg, "viewer: ") {
					t.Errorf("%s: got panic %v; want one starting \"viewer: \"", tc.name, r)
				}
			}()
			Relief(nil, tc.s, DefaultOptions())
		}()
	}
}

// TestBadOptionsRenderAsDefaults: a NaN slider shows the default picture.
func TestBadOptionsRenderAsDefaults(t *testing.T) {
	s := synthetic()
	want := Relief(nil, s, DefaultOptions())
	o := DefaultOptions()
	o.LightAzimuthDeg, o.Exaggeration, o.TintMinM, o.RiverThresholdM2 = math.NaN(), -1, 5, math.Inf(1)
	if got := Relief(nil, s, o); !bytes.Equal(got.Pix, want.Pix) {
		t.Error("bad options: got a picture different from the defaults'")
	}
}

func TestOptionsValidate(t *testing.T) {
	if err := DefaultOptions().Validate(); err != nil {
		t.Fatalf("DefaultOptions: got %v; want valid", err)
	}
	nan := math.NaN()
	cases := []struct {
		field string
		edit  func(*Options)
	}{
		{"LightAzimuthDeg", func(o *Options) { o.LightAzimuthDeg = nan }},
		{"LightAzimuthDeg", func(o *Options) { o.LightAzimuthDeg = 1e9 }},
		{"LightAltitudeDeg", func(o *Options) { o.LightAltitudeDeg = 0 }},
		{"LightAltitudeDeg", func(o *Options) { o.LightAltitudeDeg = 91 }},
		{"Ambient", func(o *Options) { o.Ambient = -0.1 }},
		{"Exaggeration", func(o *Options) { o.Exaggeration = 0 }},
		{"Exaggeration", func(o *Options) { o.Exaggeration = math.Inf(1) }},
		{"TintMinM", func(o *Options) { o.TintMinM = nan }},
		{"TintMaxM", func(o *Options) { o.TintMaxM = 1e300 }},
		{"TintMinM", func(o *Options) { o.TintMinM, o.TintMaxM = 100, 100 }},
		{"RiverThresholdM2", func(o *Options) { o.RiverThresholdM2 = 0 }},
		{"RiverMaxPx", func(o *Options) { o.RiverMaxPx = 0.5 }},
		{"Overlay", func(o *Options) { o.Overlay = 9 }},
		{"OverlayAlpha", func(o *Options) { o.OverlayAlpha = 1.5 }},
	}
	for _, tc := range cases {
		o := DefaultOptions()
		tc.edit(&o)
		err := o.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%+v: got %v; want an error naming %s", o, err, tc.field)
		}
	}
	if err := (Options{}).Validate(); err == nil {
		t.Error("zero Options: got valid; want an error (start from DefaultOptions)")
	}
}

func TestParseOverlay(t *testing.T) {
	for _, ov := range []Overlay{OverlayNone, OverlayUplift, OverlayDrainage, OverlaySlope} {
		got, err := ParseOverlay(strings.ToUpper(ov.String()))
		if err != nil || got != ov {
			t.Errorf("ParseOverlay(%q): got %v, %v; want %v", ov.String(), got, err, ov)
		}
	}
	if got, err := ParseOverlay(""); got != OverlayNone || err != nil {
		t.Errorf(`ParseOverlay(""): got %v, %v; want none`, got, err)
	}
	if _, err := ParseOverlay("geology"); err == nil || !strings.Contains(err.Error(), "drainage") {
		t.Errorf(`ParseOverlay("geology"): got %v; want an error listing the overlays`, err)
	}
	if got := Overlay(9).String(); got != "Overlay(9)" {
		t.Errorf("Overlay(9).String(): got %q; want %q", got, "Overlay(9)")
	}
}

func ExampleRelief() {
	s := synthetic()
	img := Relief(nil, s, DefaultOptions())
	fmt.Println(img.Bounds())
	// Output: (0,0)-(64,64)
}

// TestRiverCoverageMatchesBruteForce compares the gathered rivers with
// the definition, evaluated over every pair of pixel and river cell: a
// pixel takes min(1, max over river cells of ρ - d + 0.5) of the river
// colour, ρ the cell's radius and d the distance. Exact: both sides blend
// the same float32 coverage into the same bytes.
func TestRiverCoverageMatchesBruteForce(t *testing.T) {
	const w, h, thr = 41, 29, 1e7
	rng := rand.New(rand.NewPCG(11, 12))
	s := plain(w, h, make([]float32, w*h))
	for i := range s.Height {
		s.Height[i] = float32(rng.Float64() * 50)
	}
	s.Area = make([]float32, w*h)
	for i := range s.Area {
		if rng.IntN(12) == 0 {
			s.Area[i] = float32(thr * math.Pow(10, 3*rng.Float64()))
		}
	}
	for _, maxPx := range []float64{1, 2.5, 4, 7} {
		o := DefaultOptions()
		o.Lakes, o.RiverThresholdM2, o.RiverMaxPx = false, thr, maxPx
		got := Relief(nil, s, o)
		o.Rivers = false
		want := Relief(nil, s, o)
		for y := range h {
			for x := range w {
				var cov float32
				for j, a := range s.Area {
					if float64(a) < thr {
						continue
					}
					width := 1 + riverPxPerDecade*float32(math.Log10(float64(a)/thr))
					rad := min(width, float32(maxPx)) / 2
					d := float32(math.Hypot(float64(j%w-x), float64(j/w-y)))
					cov = max(cov, rad+0.5-d)
				}
				if cov > 0 {
					blend(want.Pix[want.PixOffset(x, y):], riverColour, min(cov, 1))
				}
			}
		}
		if !bytes.Equal(got.Pix, want.Pix) {
			for i := range got.Pix {
				if got.Pix[i] != want.Pix[i] {
					t.Fatalf("RiverMaxPx %g: pixel (%d, %d): got %v; want %v", maxPx, i/4%w, i/4/w, got.Pix[i&^3:i&^3+4], want.Pix[i&^3:i&^3+4])
				}
			}
		}
	}
}
