package export

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
)

func TestWeights255(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	var px [4]uint8
	for range 100000 {
		n := 1 + r.IntN(4)
		w := make([]float64, n)
		for i := range w {
			if r.IntN(3) > 0 {
				w[i] = r.Float64() * math.Pow(10, float64(r.IntN(8)-4))
			}
		}
		weights255(&px, w)
		sum := 0
		for _, v := range px {
			sum += int(v)
		}
		if sum != 255 {
			t.Fatalf("weights %v → %v: sum %d; want 255", w, px, sum)
		}
		for i, v := range w {
			// Largest remainder: each byte within 1 of its exact share.
			if s := sumOf(w); s > 0 && math.Abs(float64(px[i])-255*v/s) >= 1 {
				t.Fatalf("weights %v → %v: layer %d off by ≥ 1", w, px, i)
			}
		}
	}
}

func sumOf(w []float64) float64 {
	s := 0.0
	for _, v := range w {
		s += v
	}
	return s
}

// synthetic returns 40×10 inputs in four 10-column regions: steep low
// ground, gentle low ground, a gentle valley floor where much water
// gathers, and gentle high ground.
func synthetic() *Inputs {
	w, h := 40, 10
	in := &Inputs{W: w, H: h, Cell: 10}
	for _, p := range []*[]float32{&in.Height, &in.HeightFrac, &in.Slope, &in.Curvature, &in.Flow, &in.Water, &in.dx, &in.dy} {
		*p = make([]float32, w*h)
	}
	for y := range h {
		for x := range w {
			i := y*w + x
			switch x / 10 {
			case 0:
				in.HeightFrac[i], in.Slope[i], in.Flow[i] = 0.3, 55, 0.05
			case 1:
				in.HeightFrac[i], in.Slope[i], in.Flow[i] = 0.2, 8, 0.1
			case 2:
				in.HeightFrac[i], in.Slope[i], in.Flow[i] = 0.05, 2, 0.8
			case 3:
				in.HeightFrac[i], in.Slope[i], in.Flow[i] = 0.95, 12, 0.05
			}
			in.Height[i] = 1000 * in.HeightFrac[i]
		}
	}
	return in
}

func TestSplatDefaultRules(t *testing.T) {
	// The default rules on the synthetic regions: rock, grass, sediment,
	// snow win each region's middle column, and every pixel sums to 255.
	in := synthetic()
	dir := t.TempDir()
	path := filepath.Join(dir, "splat.png")
	p, err := Spec{Kind: "splat"}.Check(path, in.W, in.H)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.WriteSplat(path, in, DefaultRules()); err != nil {
		t.Fatal(err)
	}
	img, m, err := rasterio.ReadRGBA(path)
	if err != nil {
		t.Fatal(err)
	}
	if m == nil || m.Encoding != rasterio.EncodingRGBA8 || m.Kind != "splat:rock,grass,sediment,snow" {
		t.Fatalf("sidecar %+v", m)
	}
	for i := 0; i < len(img.Pix); i += 4 {
		if s := int(img.Pix[i]) + int(img.Pix[i+1]) + int(img.Pix[i+2]) + int(img.Pix[i+3]); s != 255 {
			t.Fatalf("pixel %d: %v sums to %d; want 255", i/4, img.Pix[i:i+4], s)
		}
	}
	for region, want := range []int{0, 1, 2, 3} {
		x, y := region*10+5, 5
		px := img.Pix[img.PixOffset(x, y):][:4]
		best := 0
		for c := range 4 {
			if px[c] > px[best] {
				best = c
			}
		}
		if best != want {
			t.Errorf("region %d (%d,%d): weights %v; want layer %d to win", region, x, y, px, want)
		}
	}
}

func TestSplatRockHook(t *testing.T) {
	// Exposed rock from geology (the hook): on a 33° slope of low ground
	// rock and grass share the pixel while slope alone decides; with Rock
	// 0 (geology on, no bedrock exposed) grass takes it all.
	in := synthetic()
	for i := range in.Slope {
		in.Slope[i] = 33
	}
	dir := t.TempDir()
	for _, rock := range []bool{false, true} {
		if rock {
			in.Rock = make([]float32, in.W*in.H)
		}
		path := filepath.Join(dir, "s.png")
		p, _ := Spec{Kind: "splat"}.Check(path, in.W, in.H)
		if _, err := p.WriteSplat(path, in, DefaultRules()); err != nil {
			t.Fatal(err)
		}
		img, _, _ := rasterio.ReadRGBA(path)
		px := img.Pix[img.PixOffset(15, 5):][:4]
		if rock && (px[0] != 0 || px[1] != 255) {
			t.Errorf("33° with no exposed rock: weights %v; want grass alone", px)
		}
		if !rock && (px[0] == 0 || px[1] == 0) {
			t.Errorf("33° without geology: weights %v; want rock and grass", px)
		}
	}
}

func TestFlowMap(t *testing.T) {
	// Every cell of the ramp drains west: R = 0 (east component -1), G =
	// 128 (none south), except the outlets of column 0: 128, 128.
	s := ramp()
	in := InputsOf(s)
	dir := t.TempDir()
	path := filepath.Join(dir, "flow.png")
	p, err := Spec{Kind: "flow"}.Check(path, s.W, s.H)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.WriteFlow(path, in); err != nil {
		t.Fatal(err)
	}
	img, _, _ := rasterio.ReadRGBA(path)
	for y := range s.H {
		for x := range s.W {
			px := img.Pix[img.PixOffset(x, y):][:4]
			want := []uint8{0, 128, 0, 255}
			if x == 0 || (x == 1 && y == 1) { // outlets; the lake cell (water at 5)
				want = []uint8{128, 128, 0, 255}
			}
			if string(px) != string(want) {
				t.Errorf("%d,%d: %v; want %v", x, y, px, want)
			}
		}
	}
}

func TestInputs(t *testing.T) {
	// A plane rising 1 m per 10 m cell eastward: slope atan(0.1) in
	// degrees everywhere (one-sided differences at the borders are exact
	// on a plane), curvature 0 inside. Tolerance 1e-4°: float32.
	s := ramp()
	for i := range s.Height {
		s.Height[i] = float32(i%s.W) * 10 // 10 m per 100 m cell
	}
	in := InputsOf(s)
	want := math.Atan(0.1) * 180 / math.Pi
	for i, v := range in.Slope {
		if math.Abs(float64(v)-want) > 1e-4 {
			t.Fatalf("slope[%d] = %v; want %v", i, v, want)
		}
	}
	for y := range s.H {
		for x := 1; x < s.W-1; x++ {
			if c := in.Curvature[y*s.W+x]; math.Abs(float64(c)) > 1e-6 {
				t.Fatalf("curvature at %d,%d: %v; want 0", x, y, c)
			}
		}
	}
	if in.Rock != nil || in.Sediment != nil {
		t.Error("rock or sediment without geology or hydraulics")
	}
}

func TestRulesErrors(t *testing.T) {
	for _, c := range []struct{ json, want string }{
		{`{"layers": []}`, "0 layers"},
		{`{"layers": [{"name":"a","weight":1},{"name":"b","weight":1},{"name":"c","weight":1},{"name":"d","weight":1},{"name":"e","weight":1}]}`, "5 layers"},
		{`{"layers": [{"name":"","weight":1}]}`, "layer 1 has no name"},
		{`{"layers": [{"name":"a","weight":1},{"name":"a","weight":1}]}`, "used twice"},
		{`{"layers": [{"name":"a","weight":-1}]}`, "weight -1"},
		{`{"layers": [{"name":"a","weight":1,"ramps":[{"input":"slop","from":1,"to":2}]}]}`, `unknown input "slop"`},
		{`{"layers": [{"name":"a","weight":1,"ramps":[{"input":"slope","from":2,"to":2}]}]}`, "both 2"},
		{`{"layers": [{"name":"a","weight":1,"colour":"red"}]}`, "colour"},
		{`{"layers": [{"name":"a","weight":1}]} x`, "after"},
	} {
		_, err := ParseRules([]byte(c.json))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want an error containing %q", c.json, err, c.want)
		}
	}
	b, _ := json.Marshal(DefaultRules())
	if _, err := ParseRules(b); err != nil {
		t.Errorf("default rules do not parse back: %v", err)
	}
}

func FuzzParseRules(f *testing.F) {
	b, _ := json.Marshal(DefaultRules())
	f.Add(b)
	f.Add([]byte(`{"layers":[{"name":"a","weight":1,"ramps":[{"input":"slope","from":1e308,"to":-1e308}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRules(b)
		if err != nil {
			return
		}
		// Whatever parses validates, marshals and parses again the same,
		// and gives weights summing to 255.
		if err := r.Validate(); err != nil {
			t.Fatalf("parsed rules fail Validate: %v", err)
		}
		b2, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		r2, err := ParseRules(b2)
		if err != nil {
			t.Fatalf("re-parse: %v", err)
		}
		if len(r2.Layers) != len(r.Layers) {
			t.Fatal("re-parse changed the layers")
		}
		w := make([]float64, len(r.Layers))
		for i, l := range r.Layers {
			w[i] = l.Weight
		}
		var px [4]uint8
		weights255(&px, w)
		if int(px[0])+int(px[1])+int(px[2])+int(px[3]) != 255 {
			t.Fatalf("weights %v → %v", w, px)
		}
	})
}

// TestSplatWithGDAL opens a splat map with gdalinfo: four 8-bit bands of
// the export's size.
func TestSplatWithGDAL(t *testing.T) {
	bin, err := exec.LookPath("gdalinfo")
	if err != nil {
		t.Skip("gdalinfo not found: install gdal-bin (scripts/deps.sh does) to check exports with GDAL")
	}
	in := synthetic()
	path := filepath.Join(t.TempDir(), "splat.png")
	p, err := Spec{Kind: "splat", W: 79, H: 19}.Check(path, in.W, in.H)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.WriteSplat(path, in, DefaultRules()); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-json", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Size  [2]int `json:"size"`
		Bands []struct {
			Type string `json:"type"`
		} `json:"bands"`
	}
	if err := json.Unmarshal(out, &g); err != nil {
		t.Fatal(err)
	}
	if g.Size != [2]int{79, 19} || len(g.Bands) != 4 || g.Bands[0].Type != "Byte" {
		t.Errorf("GDAL: size %v, %d bands of %v; want 79×19, 4 Byte bands", g.Size, len(g.Bands), g.Bands)
	}
}

func TestFlowInput(t *testing.T) {
	// The ramp's column 0 drains the whole 4-cell row: 4 cells of 3·4,
	// ln 4 / ln 12. With the water budget, discharge Q over the rain on
	// a cell counts the same cells. Tolerance 1e-6: float32.
	s := ramp()
	want := math.Log(4) / math.Log(12)
	if got := InputsOf(s).Flow[0]; math.Abs(float64(got)-want) > 1e-6 {
		t.Errorf("flow from area: %v; want %v", got, want)
	}
	s.Param.Rain = 0.5
	s.Discharge = make([]float32, len(s.Area))
	for i, a := range s.Area {
		s.Discharge[i] = 0.5 * a / 2 // half the rain lost on the way
	}
	want = math.Log(2) / math.Log(12)
	if got := InputsOf(s).Flow[0]; math.Abs(float64(got)-want) > 1e-6 {
		t.Errorf("flow from discharge: %v; want %v", got, want)
	}
}

// TestInputsFromGeology: with a geology's alluvium in the snapshot, the
// rock input is 1 on bare bedrock, 0 under RockFadeM or more of alluvium
// and linear between, and the sediment input is the alluvium (the
// hydraulic engine's sediment wins when both exist); without one, both
// are nil.
func TestInputsFromGeology(t *testing.T) {
	s := ramp()
	if in := InputsOf(s); in.Rock != nil || in.Sediment != nil {
		t.Fatalf("no geology: rock %v sediment %v; want nil", in.Rock != nil, in.Sediment != nil)
	}
	s.Alluvium = make([]float32, s.W*s.H)
	s.Alluvium[1], s.Alluvium[2], s.Alluvium[3] = 0.25, 1, 3
	in := InputsOf(s)
	want := map[int]float32{0: 1, 1: 0.75, 2: 0, 3: 0}
	for i, w := range want {
		if in.Rock[i] != w {
			t.Errorf("cell %d under %g m of alluvium: rock %g; want %g", i, s.Alluvium[i], in.Rock[i], w)
		}
	}
	if &in.Sediment[0] != &s.Alluvium[0] {
		t.Error("sediment input is not the alluvium")
	}
	s.Sediment = make([]float32, s.W*s.H)
	if in := InputsOf(s); &in.Sediment[0] != &s.Sediment[0] {
		t.Error("with the hydraulic engine's sediment: the sediment input is not it")
	}
}
