package geology

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// randomSpec returns a stack of 1 to 30 layers and a chain of 1 to 5
// deformations, some leaning, all invertible.
func randomSpec(r *rand.Rand) Spec {
	s := Spec{Base: -500 + 200*r.Float64()}
	names := []string{"Clay", "Quartzite", "Limestone", "River sand", "Granite"}
	for range 1 + r.IntN(4) {
		g := Group{Repeat: 1 + r.IntN(5)}
		for range 1 + r.IntN(3) {
			g.Layers = append(g.Layers, Layer{Thickness: 5 + 100*r.Float64(), Rock: names[r.IntN(len(names))]})
		}
		s.Stack = append(s.Stack, g)
	}
	for range 1 + r.IntN(5) {
		d := Deformation{Azimuth: 360 * r.Float64(), Offset: 2000 * r.Float64()}
		if r.IntN(2) == 0 {
			d.Lean = -40 + 80*r.Float64()
		}
		sl := math.Abs(math.Sin(d.Lean * math.Pi / 180))
		switch r.IntN(4) {
		case 0:
			d.Kind, d.Wavelength = Fold, 500+3000*r.Float64()
			// Keep sin(lean)·A·2π/L ≤ 0.8.
			d.Amplitude = (r.Float64()*2 - 1) * math.Min(400, 0.8*d.Wavelength/(2*math.Pi)/math.Max(sl, 1e-9))
			d.Phase = 360 * r.Float64()
		case 1:
			d.Kind, d.Steps, d.Spacing = Fault, 1+r.IntN(4), 100+300*r.Float64()
			d.Throw = -200 + 400*r.Float64()
			d.Width = d.Spacing * r.Float64()
			if d.Lean != 0 {
				d.Width = math.Max(d.Width, 1.5*sl*math.Abs(d.Throw)/float64(d.Steps))
				if d.Steps > 1 && d.Width > d.Spacing {
					d.Spacing = d.Width
				}
			}
		case 2:
			d.Kind, d.Dip = Tilt, -20+40*r.Float64()
		default:
			d.Kind = Profile
			sp := -1000.0
			for range 2 + r.IntN(6) {
				d.Points = append(d.Points, [2]float64{sp, -100 + 200*r.Float64()})
				sp += 400 + 500*r.Float64()
			}
			if d.Lean != 0 {
				d.Lean = math.Copysign(10, d.Lean) // slopes ≤ 200/400: 1 − 0.17·0.5 > 0
			}
		}
		s.Deformations = append(s.Deformations, d)
	}
	return s
}

func TestInverseUndoesForward(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for c := range 300 {
		s := randomSpec(r)
		m, err := s.Compile()
		if err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		lo, hi := m.Bounds(0)
		_, top := m.Bounds(m.NumLayers() - 1)
		_ = hi
		for range 200 {
			x, y := 5000*r.Float64(), 5000*r.Float64()
			z := lo - 50 + (top-lo+100)*r.Float64()
			want := m.LayerOf(z)
			b0, b1 := m.Bounds(want)
			if z-b0 < 1e-6 || b1-z < 1e-6 {
				continue // on a boundary: rounding may pick either layer
			}
			x1, y1, z1 := m.Deform(x, y, z)
			x0, y0, z0 := m.Undeform(x1, y1, z1)
			// Tolerance: the Newton solve stops within 1e-12 relative;
			// coordinates are ≤ 1e4 m, so 1e-6 m is far above rounding.
			if math.Abs(x0-x) > 1e-6 || math.Abs(y0-y) > 1e-6 || math.Abs(z0-z) > 1e-6 {
				t.Fatalf("case %d: (%g %g %g) → (%g %g %g) → (%g %g %g); want the start", c, x, y, z, x1, y1, z1, x0, y0, z0)
			}
			if got := m.LayerAt(x1, y1, z1); got != want {
				t.Fatalf("case %d: layer at deformed point %d; want %d", c, got, want)
			}
		}
	}
}

// Hand-built: layers 10 m thick from 0, a fold of amplitude 15 m and
// wavelength 400 m along x, then a 25 m fault at x = 1000 along x.
func TestHandFoldAndFault(t *testing.T) {
	s := Spec{Stack: []Group{{Repeat: 20, Layers: []Layer{{Thickness: 10, Rock: "Clay"}}}},
		Deformations: []Deformation{
			{Kind: Fold, Wavelength: 400, Amplitude: 15},
			{Kind: Fault, Offset: 1000, Throw: 25, Steps: 1},
		}}
	m, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		x, z float64
		want int
	}{
		// x = 100: fold crest +15, no fault: z0 = z − 15.
		{100, 52, 3}, {100, 64, 4}, {100, 14, 0},
		// x = 300: trough −15: z0 = z + 15.
		{300, 52, 6}, {300, -10, 0},
		// x = 1100: sin(2π·1100/400) = sin(5.5π) = −1 → −15, fault +25: z0 = z − 10.
		{1100, 52, 4}, {1100, 80, 7},
		// x = 900: sin(4.5π) = 1 → +15, before the fault: z0 = z − 15.
		{900, 52, 3},
		// Above the top (200 m): the top layer.
		{100, 500, 19},
	} {
		if got := m.LayerAt(c.x, 77, c.z); got != c.want {
			t.Errorf("layer at x %g z %g: got %d; want %d", c.x, c.z, got, c.want)
		}
	}
}

// A leaning fold: the undone point of a hand-built case.
func TestLeaningTilt(t *testing.T) {
	// Tilt of 45° along x with a slip leaning 30°: f(s) = s, the point
	// (x, z) moves to (x + s/2, z + s·cos30°). The point at x' = 300 came
	// from s with s + s/2 = 300: s = 200.
	m, err := Spec{Stack: []Group{{Layers: []Layer{{Thickness: 1, Rock: "Clay"}}}},
		Deformations: []Deformation{{Kind: Tilt, Dip: 45, Lean: 30}}}.Compile()
	if err != nil {
		t.Fatal(err)
	}
	x, _, z := m.Undeform(300, 0, 0)
	if math.Abs(x-200) > 1e-9 || math.Abs(z+200*math.Cos(math.Pi/6)) > 1e-9 {
		t.Errorf("undeform: x %g z %g; want 200, %g", x, z, -200*math.Cos(math.Pi/6))
	}
}

func TestMapMatchesModel(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for c := range 20 {
		m, err := randomSpec(r).Compile()
		if err != nil {
			t.Fatal(err)
		}
		const w, h, cell = 64, 48, 30.0
		g := m.Map(w, h, cell)
		hs := make([]float32, w*h)
		lo, _ := m.Bounds(0)
		_, top := m.Bounds(m.NumLayers() - 1)
		for i := range hs {
			hs[i] = float32(lo - 100 + (top-lo+200)*r.Float64())
		}
		got := g.Exposed(make([]uint8, w*h), hs, nil)
		for i, l := range got {
			x, y := (float64(i%w)+0.5)*cell, (float64(i/w)+0.5)*cell
			_, _, z0 := m.Undeform(x, y, float64(hs[i]))
			want := m.LayerOf(z0)
			if int(l) != want {
				// Undeform subtracts the profiles one by one, the map all
				// at once: they may differ by rounding, so only within a
				// micrometre of a boundary.
				b0, b1 := m.Bounds(want)
				if z0-b0 > 1e-6 && b1-z0 > 1e-6 {
					t.Fatalf("case %d cell %d: map says layer %d; model %d (z0 %g in [%g, %g))", c, i, l, want, z0, b0, b1)
				}
			}
		}
	}
}

func TestExposedAlluviumAndDeterminism(t *testing.T) {
	m, err := randomSpec(rand.New(rand.NewPCG(5, 6))).Compile()
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 300, 200
	g := m.Map(w, h, 10)
	hs, al := make([]float32, w*h), make([]float32, w*h)
	for i := range hs {
		hs[i] = float32(i%w) * 2
		if i%7 == 0 {
			al[i] = 1
		}
	}
	prev := runtime.GOMAXPROCS(1)
	one := g.Exposed(make([]uint8, w*h), hs, al)
	runtime.GOMAXPROCS(4)
	four := g.Exposed(make([]uint8, w*h), hs, al)
	runtime.GOMAXPROCS(prev)
	if !slices.Equal(one, four) {
		t.Fatal("Exposed differs between GOMAXPROCS 1 and 4")
	}
	for i := range one {
		if (i%7 == 0) != (int(one[i]) == m.NumLayers()) {
			t.Fatalf("cell %d: index %d; alluvium %g", i, one[i], al[i])
		}
	}
}

func TestCompileErrors(t *testing.T) {
	ok := func() Spec {
		return Spec{Stack: []Group{{Layers: []Layer{{Thickness: 10, Rock: "Clay"}}}}}
	}
	for _, c := range []struct {
		name string
		edit func(*Spec)
		want string
	}{
		{"negative thickness", func(s *Spec) { s.Stack[0].Layers[0].Thickness = -3 }, "thickness -3"},
		{"zero thickness", func(s *Spec) { s.Stack[0].Layers[0].Thickness = 0 }, "thickness 0"},
		{"NaN coefficient", func(s *Spec) {
			s.Rocks = []RockSpec{{Name: "X", Kd: math.NaN(), Color: "#000000"}}
			s.Stack[0].Layers[0].Rock = "X"
		}, "kd NaN"},
		{"coefficient above 1", func(s *Spec) { s.Rocks = []RockSpec{{Name: "X", Kf: 2, Color: "#000000"}} }, "kf 2"},
		{"bad colour", func(s *Spec) { s.Rocks = []RockSpec{{Name: "X", Color: "red"}} }, "#rrggbb"},
		{"empty stack", func(s *Spec) { s.Stack = nil }, "stack is empty"},
		{"empty group", func(s *Spec) { s.Stack[0].Layers = nil }, "no layers"},
		{"unknown rock", func(s *Spec) { s.Stack[0].Layers[0].Rock = "Cheese" }, "unknown rock"},
		{"too many layers", func(s *Spec) { s.Stack[0].Repeat = 300 }, "exceed 254"},
		{"NaN fold", func(s *Spec) {
			s.Deformations = []Deformation{{Kind: Fold, Wavelength: 100, Amplitude: math.NaN()}}
		}, "NaN"},
		{"fold over itself", func(s *Spec) {
			s.Deformations = []Deformation{{Kind: Fold, Wavelength: 100, Amplitude: 50, Lean: 45}}
		}, "folds the layers over themselves"},
		{"leaning vertical fault", func(s *Spec) {
			s.Deformations = []Deformation{{Kind: Fault, Throw: 10, Steps: 1, Lean: 20}}
		}, "ramp width"},
		{"leaning steep profile", func(s *Spec) {
			s.Deformations = []Deformation{{Kind: Profile, Lean: -50, Points: [][2]float64{{0, 0}, {10, 100}}}}
		}, "folds the layers over themselves"},
		{"profile out of order", func(s *Spec) {
			s.Deformations = []Deformation{{Kind: Profile, Points: [][2]float64{{0, 0}, {0, 1}}}}
		}, "must exceed"},
		{"unknown kind", func(s *Spec) { s.Deformations = []Deformation{{Kind: "twist"}} }, "unknown kind"},
		{"lean too far", func(s *Spec) { s.Deformations = []Deformation{{Kind: Tilt, Lean: 80}} }, "lean 80"},
		{"vertical tilt", func(s *Spec) { s.Deformations = []Deformation{{Kind: Tilt, Dip: 90}} }, "dip 90"},
		{"overlapping ramps", func(s *Spec) {
			s.Deformations = []Deformation{{Kind: Fault, Throw: 10, Steps: 3, Spacing: 5, Width: 10}}
		}, "overlap"},
	} {
		s := ok()
		c.edit(&s)
		_, err := s.Compile()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got error %v; want one containing %q", c.name, err, c.want)
		}
	}
	if _, err := ok().Compile(); err != nil {
		t.Errorf("valid spec: %v", err)
	}
}

func TestJSONRoundTripAndErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 50 {
		s := randomSpec(r)
		s.Rocks = []RockSpec{{Name: "Sandstone", Kd: 0.4, Kf: 0.6, Ke: 0.2, Color: "#c0a070"}}
		s.Stack[0].Layers[0].Rock = "sandstone"
		m, err := s.Compile()
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Parse(b)
		if err != nil {
			t.Fatalf("parse of marshalled %s: %v", b, err)
		}
		b2, _ := json.Marshal(m2)
		if string(b) != string(b2) {
			t.Fatalf("round trip differs:\n%s\n%s", b, b2)
		}
		if m2.Rock(0).Name != "Sandstone" || m2.Rock(0).Color.R != 0xc0 {
			t.Fatalf("custom rock lost: %+v", m2.Rock(0))
		}
	}
	for _, c := range []struct{ in, want string }{
		{`{"stack":[{"layers":[{"thickness":-1,"rock":"Clay"}]}]}`, "thickness -1"},
		{`{"stack":[]}`, "stack is empty"},
		{`{}`, "stack is empty"},
		{`{"stack":[{"layers":[{"thickness":1,"rock":"Clay"}]}],"rocks":[{"name":"X","kd":NaN}]}`, "syntax error"},
		{`{"stack":[{"layers":[{"thickness":1,"rock":"Clay"}]}],"colour":1}`, "unknown field"},
		{`{"stack":[{"layers":[{"thickness":"1","rock":"Clay"}]}]}`, "thickness"},
		{`{"stack":[{"layers":[{"thickness":1,"rock":"Clay"}]}]} {}`, "trailing"},
	} {
		_, err := Parse([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want an error containing %q", c.in, err, c.want)
		}
	}
}

func TestVegetation(t *testing.T) {
	for _, c := range []struct {
		slope, z float64
		bed      bool
		want     float64
	}{
		{10, 0, false, 0.4}, {30, 0, false, 0.4}, {45, 0, false, 0.2}, {60, 0, false, 0},
		{10, 3000, false, 0}, {10, 0, true, 0}, {75, 0, false, 0},
	} {
		if got := Vegetation(0.4, c.slope, c.z, 3000, c.bed); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("slope %g z %g bed %v: got %g; want %g", c.slope, c.z, c.bed, got, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"base":-100,"stack":[{"repeat":10,"layers":[{"name":"cap","thickness":20,"rock":"Quartzite"},{"thickness":30,"rock":"Clay"}]}],"deformations":[{"kind":"fold","azimuth":30,"wavelength":2000,"amplitude":80,"lean":10},{"kind":"fault","offset":500,"throw":60,"steps":2,"spacing":300,"width":50}]}`))
	f.Add([]byte(`{"stack":[{"layers":[{"thickness":1,"rock":"x"}]}],"rocks":[{"name":"x","kd":0.5,"kf":0.5,"ke":0.5,"color":"#123456"}],"deformations":[{"kind":"profile","points":[[0,0],[100,50],[300,-20]]},{"kind":"tilt","dip":5}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		// Whatever parses must answer every query with a valid layer,
		// round-trip, and undo its own deformation.
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("re-parse of %s: %v", out, err)
		}
		for _, p := range [][3]float64{{0, 0, 0}, {123, 456, 78}, {-1e4, 3e3, -500}} {
			l := m.LayerAt(p[0], p[1], p[2])
			if l < 0 || l >= m.NumLayers() {
				t.Fatalf("layer %d out of [0, %d)", l, m.NumLayers())
			}
		}
		g := m.Map(4, 3, 25)
		g.Exposed(make([]uint8, 12), make([]float32, 12), nil)
	})
}

// benchSpec is the benchmark geology: 20 layers, 4 deformations.
func benchSpec() Spec {
	return Spec{Base: -400, Stack: []Group{{Repeat: 10, Layers: []Layer{{Thickness: 25, Rock: "Quartzite"}, {Thickness: 40, Rock: "Clay"}}}},
		Deformations: []Deformation{
			{Kind: Fold, Azimuth: 20, Wavelength: 8000, Amplitude: 120},
			{Kind: Fold, Azimuth: 110, Wavelength: 3000, Amplitude: 40, Lean: 15},
			{Kind: Fault, Azimuth: 60, Offset: 6000, Throw: 80, Steps: 3, Spacing: 400, Width: 20},
			{Kind: Tilt, Azimuth: 0, Dip: 3},
		}}
}

// BenchmarkExposed times Map.Exposed on a smooth terrain crossing every
// layer (what engines see: neighbouring cells mostly share a layer);
// BenchmarkExposedNoise on uniform random heights, the worst case for
// branch prediction.
func BenchmarkExposed(b *testing.B) {
	for _, n := range []int{256, 512, 1024, 2048} {
		b.Run(itoa(n), func(b *testing.B) { benchmarkExposed(b, n, false) })
	}
}

func BenchmarkExposedNoise(b *testing.B) {
	b.Run("1024", func(b *testing.B) { benchmarkExposed(b, 1024, true) })
}

func itoa(n int) string { return strconv.Itoa(n) }

func benchmarkExposed(b *testing.B, n int, noise bool) {
	m, err := benchSpec().Compile()
	if err != nil {
		b.Fatal(err)
	}
	g := m.Map(n, n, 20480/float64(n))
	r := rand.New(rand.NewPCG(1, 1))
	hs := make([]float32, n*n)
	for i := range hs {
		if noise {
			hs[i] = float32(900 * r.Float64())
			continue
		}
		// Ridges and valleys a few kilometres apart, 0 to 900 m.
		x, y := float64(i%n)/float64(n)*20, float64(i/n)/float64(n)*20
		hs[i] = float32(450 + 300*math.Sin(x)*math.Cos(0.7*y) + 150*math.Sin(2.3*x+1.7*y))
	}
	dst := make([]uint8, n*n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		g.Exposed(dst, hs, nil)
	}
}

func BenchmarkMap1024(b *testing.B) {
	m, err := benchSpec().Compile()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		m.Map(1024, 1024, 20)
	}
}

// TestMapBelow: walking down from any height with Below visits the layers
// of the cell in order, each bottom strictly below the height asked, the
// layer lying just under it, and at a contact the lower layer; Bottom
// gives the same contacts.
func TestMapBelow(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for c := range 10 {
		m, err := randomSpec(r).Compile()
		if err != nil {
			t.Fatal(err)
		}
		const w, h, cell = 16, 12, 40.0
		g := m.Map(w, h, cell)
		_, top := m.Bounds(m.NumLayers() - 1)
		for i := 0; i < w*h; i += 7 {
			z := top + 500 + g.Displacement(i)
			prev := m.NumLayers()
			for steps := 0; ; steps++ {
				l, b := g.Below(i, z)
				if !(b < z) || l >= prev || steps > m.NumLayers() {
					t.Fatalf("case %d cell %d: Below(%g) = layer %d, bottom %g after layer %d", c, i, z, l, b, prev)
				}
				if lz := g.LayerAt(i, z-1e-3*min(1, z-b)); lz != l && z-b > 1e-6 {
					t.Fatalf("case %d cell %d: Below(%g) = layer %d; the layer just under it is %d", c, i, z, l, lz)
				}
				if bb := g.Bottom(i, l); bb != b {
					t.Fatalf("case %d cell %d: Bottom(%d) = %g; Below said %g", c, i, l, bb, b)
				}
				if l == 0 {
					if !math.IsInf(b, -1) {
						t.Fatalf("case %d cell %d: the bottom layer ends at %g; want −Inf", c, i, b)
					}
					break
				}
				if lb, _ := g.Below(i, b); lb != l-1 {
					t.Fatalf("case %d cell %d: at the contact %g Below gives layer %d; want the lower one, %d", c, i, b, lb, l-1)
				}
				prev, z = l, b
			}
		}
	}
}

// TestMapAbove: walking up from below the stack with Above visits the
// layers of the cell in order, each top strictly above the height asked,
// the layer lying just over it, and at a contact the upper layer; Top
// gives the same contacts, and Below's bottoms are the same heights.
func TestMapAbove(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for c := range 10 {
		m, err := randomSpec(r).Compile()
		if err != nil {
			t.Fatal(err)
		}
		const w, h, cell = 16, 12, 40.0
		g := m.Map(w, h, cell)
		bottom, _ := m.Bounds(0)
		for i := 0; i < w*h; i += 7 {
			z := bottom - 500 + g.Displacement(i)
			prev := -1
			for steps := 0; ; steps++ {
				l, tp := g.Above(i, z)
				if !(tp > z) || l <= prev || steps > m.NumLayers() {
					t.Fatalf("case %d cell %d: Above(%g) = layer %d, top %g after layer %d", c, i, z, l, tp, prev)
				}
				if lz := g.LayerAt(i, z+1e-3*min(1, tp-z)); lz != l && tp-z > 1e-6 {
					t.Fatalf("case %d cell %d: Above(%g) = layer %d; the layer just over it is %d", c, i, z, l, lz)
				}
				if tt := g.Top(i, l); tt != tp {
					t.Fatalf("case %d cell %d: Top(%d) = %g; Above said %g", c, i, l, tt, tp)
				}
				if l == m.NumLayers()-1 {
					if !math.IsInf(tp, 1) {
						t.Fatalf("case %d cell %d: the top layer ends at %g; want +Inf", c, i, tp)
					}
					break
				}
				if la, _ := g.Above(i, tp); la != l+1 {
					t.Fatalf("case %d cell %d: at the contact %g Above gives layer %d; want the upper one, %d", c, i, tp, la, l+1)
				}
				if bb := g.Bottom(i, l+1); bb != tp {
					t.Fatalf("case %d cell %d: Bottom(%d) = %g; Above's top of layer %d is %g", c, i, l+1, bb, l, tp)
				}
				prev, z = l, tp
			}
		}
	}
}
