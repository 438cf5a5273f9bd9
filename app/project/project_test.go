package project_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"orogen/app/project"
	"orogen/app/project/projecttest"
	"orogen/app/scene"
	"orogen/sim"
	"orogen/uplifttree"
)

// sameProject fails unless a and b hold the same scene (compared through
// its JSON, tree included), bit-identical layers and equal views.
func sameProject(t *testing.T, a, b *project.Project) {
	t.Helper()
	sa, err := scene.Marshal(a.Scene)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := scene.Marshal(b.Scene)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sa, sb) {
		t.Errorf("scenes differ:\ngot  %.300s\nwant %.300s", sb, sa)
	}
	if len(a.Layers) != len(b.Layers) {
		t.Errorf("got %d layers; want %d", len(b.Layers), len(a.Layers))
	}
	for name, la := range a.Layers {
		lb, ok := b.Layers[name]
		if !ok {
			t.Errorf("layer %q missing", name)
			continue
		}
		if la.W != lb.W || la.H != lb.H {
			t.Errorf("layer %q: got %d×%d; want %d×%d", name, lb.W, lb.H, la.W, la.H)
			continue
		}
		for i := range la.Data {
			if math.Float32bits(la.Data[i]) != math.Float32bits(lb.Data[i]) {
				t.Errorf("layer %q cell %d: got %v (%#x); want %v (%#x)", name, i, lb.Data[i], math.Float32bits(lb.Data[i]), la.Data[i], math.Float32bits(la.Data[i]))
				break
			}
		}
	}
	if !reflect.DeepEqual(a.View, b.View) {
		t.Errorf("views differ:\ngot  %+v\nwant %+v", b.View, a.View)
	}
}

func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for i, size := range [][2]int{{3, 3}, {300, 200}, {257, 513}} {
		p := projecttest.Project(r, size[0], size[1], 150)
		if n := p.Scene.Uplift.Tree.Len(); n < 60 {
			t.Fatalf("random tree has %d nodes; want a large one", n)
		}
		types := map[string]bool{}
		for _, id := range p.Scene.Uplift.Tree.IDs() {
			n, _ := p.Scene.Uplift.Tree.Node(id)
			types[n.Shape.Type()] = true
		}
		if i > 0 && len(types) < 15 {
			t.Errorf("random tree uses %d node types; want most of %d", len(types), len(uplifttree.AllTypes()))
		}
		b, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		q, err := project.Parse(b, "")
		if err != nil {
			t.Fatal(err)
		}
		sameProject(t, p, q)
		b2, err := q.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b, b2) {
			t.Errorf("%v: a second Marshal gives other bytes", size)
		}
	}
}

func TestSaveLoad(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	p := projecttest.Project(r, 64, 48, 40)
	dir := t.TempDir()
	path := filepath.Join(dir, "a"+project.Ext)
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	q, err := project.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	sameProject(t, p, q)
	// Saving again over it gives the same bytes.
	b1, _ := os.ReadFile(path)
	if err := q.Save(path); err != nil {
		t.Fatal(err)
	}
	b2, _ := os.ReadFile(path)
	if !bytes.Equal(b1, b2) {
		t.Error("saving a loaded project changed the file")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("directory holds %d files after saves; want 1 (no temporaries)", len(ents))
	}
	// A failed save (a NaN) leaves the file alone.
	p.Layers["paint"].Data[7] = float32(math.NaN())
	err = p.Save(path)
	if err == nil || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("saving a NaN layer: got %v; want an error naming NaN", err)
	}
	b3, _ := os.ReadFile(path)
	if !bytes.Equal(b1, b3) {
		t.Error("a failed save changed the file")
	}
	if _, err := project.Load(filepath.Join(dir, "missing.orogen.json")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("Load of a missing file: got %v", err)
	}
}

func TestClone(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	p := projecttest.Project(r, 16, 16, 20)
	c := p.Clone()
	sameProject(t, p, c)
	c.Layers["paint"].Data[0] = 42
	c.View.Extra["x"] = "y"
	if _, err := c.Scene.Uplift.Tree.Add(c.Scene.Uplift.Tree.Root(), -1, &uplifttree.Disc{Radius: 1, Value: 1}); err != nil {
		t.Fatal(err)
	}
	if p.Layers["paint"].Data[0] == 42 || p.View.Extra["x"] == "y" || p.Scene.Uplift.Tree.Len() == c.Scene.Uplift.Tree.Len() {
		t.Error("changing a clone changed the original")
	}
}

// minimal returns a small valid project file with the given layer JSON and
// extra top-level text inserted.
func minimal(layers, extra string) string {
	return `{"version": 1,
 "scene": {"version": 1, "width": 4, "height": 3, "uplift": {"tree": {"version": 1, "root": 1, "nodes": [
   {"id": 1, "type": "sum", "children": [2]},
   {"id": 2, "type": "raster", "layer": "paint", "rect": [0, 0, 4, 3]}]}}},
 "layers": {` + layers + `}` + extra + `}`
}

func layerJSON(t *testing.T, w, h int, vals []float32) string {
	b, err := json.Marshal(map[string]any{"width": w, "height": h, "encoding": project.Encoding,
		"data": project.EncodeLayerData(&sim.Field{W: w, H: h, Data: vals})})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// patch returns the layer JSON l with key set to v (nil: removed).
func patch(t *testing.T, l, key string, v any) string {
	var m map[string]any
	if err := json.Unmarshal([]byte(l), &m); err != nil {
		t.Fatal(err)
	}
	if v == nil {
		delete(m, key)
	} else {
		m[key] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseErrors(t *testing.T) {
	good := layerJSON(t, 4, 3, make([]float32, 12))
	if _, err := project.Parse([]byte(minimal(`"paint": `+good, "")), ""); err != nil {
		t.Fatalf("the minimal project does not parse: %v", err)
	}
	nan := make([]float32, 12)
	nan[5] = float32(math.NaN())
	inf := make([]float32, 12)
	inf[11] = float32(math.Inf(-1))
	short := layerJSON(t, 4, 2, make([]float32, 8))
	long := layerJSON(t, 4, 4, make([]float32, 16))
	var data string
	json.Unmarshal([]byte(patch(t, good, "width", nil)), &struct{ Data *string }{&data})
	layer := func(l string) string { return minimal(`"paint": `+l, "") }
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"not json", `{"version": 1,`, []string{"project"}},
		{"no version", `{"scene": {}}`, []string{"no \"version\""}},
		{"bad version", `{"version": 2}`, []string{"version 2", "reads version 1"}},
		{"unknown key", minimal(`"paint": `+good, `, "colour": 1`), []string{"colour"}},
		{"no scene", `{"version": 1}`, []string{"no \"scene\""}},
		{"scene without version", `{"version": 1, "scene": {"width": 4}}`, []string{"scene", "version"}},
		{"bad scene", strings.Replace(layer(good), `"width": 4`, `"width": 1`, 1), []string{"width = 1"}},
		{"unknown scene key", strings.Replace(layer(good), `"width": 4`, `"width": 4, "wdith": 4`, 1), []string{"wdith"}},
		{"missing layer", minimal(``, ""), []string{"layer \"paint\"", "does not hold"}},
		{"wrong size", layer(layerJSON(t, 3, 4, make([]float32, 12))), []string{"3×4", "4×3"}},
		{"unknown layer key", layer(patch(t, good, "depth", 1)), []string{"depth"}},
		{"NaN", layer(patch(t, good, "data", project.EncodeLayerData(&sim.Field{W: 12, H: 1, Data: nan}))), []string{"NaN", "(1, 1)"}},
		{"infinity", layer(patch(t, good, "data", project.EncodeLayerData(&sim.Field{W: 12, H: 1, Data: inf}))), []string{"-Inf", "(3, 2)"}},
		{"bad encoding", layer(patch(t, good, "encoding", "png16")), []string{"png16"}},
		{"bad base64", layer(patch(t, good, "data", "!!"+data)), []string{"base64"}},
		{"not zlib", layer(patch(t, good, "data", "AAAA")), []string{"zlib"}},
		{"short data", layer(patch(t, short, "height", 3)), []string{"holds 32 bytes", "want 48"}},
		{"long data", layer(patch(t, long, "height", 3)), []string{"want 48"}},
		{"stray bytes", layer(patch(t, good, "data", project.EncodeLayerData(&sim.Field{W: 12, H: 1, Data: make([]float32, 12)})+"AAAA")), []string{"base64"}},
		{"no data", layer(patch(t, good, "data", nil)), []string{"no \"data\""}},
		{"bad layer name", minimal(`"paint": `+good+`, "": `+good, ""), []string{"layer name"}},
		{"unknown view key", minimal(`"paint": `+good, `, "view": {"zoom": 2, "zooom": 3}`), []string{"zooom"}},
		{"bad view", minimal(`"paint": `+good, `, "view": {"zoom": -1}`), []string{"view.zoom"}},
		{"bad mode", minimal(`"paint": `+good, `, "view": {"mode": "4d"}`), []string{"view.mode"}},
		{"bad brush", minimal(`"paint": `+good, `, "view": {"brush": {"kind": "spray"}}`), []string{"spray"}},
		{"bad brush radius", minimal(`"paint": `+good, `, "view": {"brush": {"radius": 0}}`), []string{"radius"}},
		{"trailing text", layer(good) + "}", []string{"after the JSON"}},
		{"missing image", `{"version": 1, "scene": {"version": 1, "width": 4, "height": 3, "uplift": {"image": "nowhere.png"}}}`, []string{"nowhere.png"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := project.Parse([]byte(tc.doc), t.TempDir())
			if err == nil {
				t.Fatalf("got no error; want one containing %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %q; want it to contain %q", err, w)
				}
			}
		})
	}
}

// writePNG16 writes a w×h 16-bit gray image whose pixel (x, y) is v(x, y).
func writePNG16(t *testing.T, path string, w, h int, v func(x, y int) uint16) {
	img := image.NewGray16(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetGray16(x, y, color.Gray16{Y: v(x, y)})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEmbedImage saves a scene whose uplift is an image elsewhere and
// checks that the project no longer needs the image and gives the uplift
// the run command computes from the scene.
func TestEmbedImage(t *testing.T) {
	src := t.TempDir()
	writePNG16(t, filepath.Join(src, "up.png"), 40, 30, func(x, y int) uint16 { return uint16((x*1500 + y*700) % 65536) })
	writePNG16(t, filepath.Join(src, "layer.png"), 20, 20, func(x, y int) uint16 { return uint16(x * y * 100) })
	doc := `{"version": 1, "width": 80, "height": 60, "domain_m": 8000, "init": {"image": "init.tif"},
	  "uplift": {"image": "up.png", "umax_m_per_yr": 0.001}}`
	if err := os.WriteFile(filepath.Join(src, "s.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := scene.Load(filepath.Join(src, "s.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := sc.UpliftField("", 80, 60, 100, 0.001)
	if err != nil {
		t.Fatal(err)
	}
	p := &project.Project{Scene: sc, View: project.DefaultView()}
	dst := filepath.Join(t.TempDir(), "moved", "p"+project.Ext)
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := p.Save(dst); err != nil {
		t.Fatal(err)
	}
	if p.Scene.Uplift.Image != "up.png" || p.Layers != nil {
		t.Error("Save changed the project it saved")
	}
	os.RemoveAll(filepath.Join(src, "up.png"))
	q, err := project.Load(dst)
	if err != nil {
		t.Fatal(err)
	}
	if q.Scene.Uplift.Image != "" || q.Scene.Uplift.Tree == nil {
		t.Fatalf("loaded uplift: image %q, tree %v; want tree form", q.Scene.Uplift.Image, q.Scene.Uplift.Tree)
	}
	if got := q.Scene.Uplift.Tree.LayerNames(); !reflect.DeepEqual(got, []string{"base", "paint"}) {
		t.Errorf("tree reads layers %q; want base and paint", got)
	}
	if got, want := q.Scene.Init.Image, filepath.Join(src, "init.tif"); got != want {
		t.Errorf("initial heights: got %q; want %q (absolute, as the project lies elsewhere)", got, want)
	}
	f := sim.NewField(80, 60, project.Cell(q.Scene))
	q.Scene.Uplift.Tree.Rasterize(f, project.World(q.Scene), uplifttree.LayerMap(q.Layers))
	for i, v := range f.Data {
		got := v * float32(q.Scene.Uplift.UmaxMPerYr)
		// Raster nodes sample the layer bilinearly at the cell centres,
		// which land on the layer's cells up to a few ulps of the
		// coordinate: the uplift matches to float32 rounding.
		if d := math.Abs(float64(got - want.Data[i])); d > 1e-6*float64(want.Data[i])+1e-12 {
			t.Fatalf("cell %d: got %g m/yr; want %g (the run command's)", i, got, want.Data[i])
		}
	}

	// A tree scene whose layers are files; initial heights beside the
	// project are written relative to it.
	doc = `{"version": 1, "width": 10, "height": 10, "init": {"image": "init.tif"}, "uplift": {"tree": {"version": 1, "root": 1, "nodes": [
	   {"id": 1, "type": "raster", "layer": "l", "rect": [0, 0, 50000, 50000]}]}, "layers": {"l": "layer.png"}}}`
	os.WriteFile(filepath.Join(src, "t.json"), []byte(doc), 0o644)
	sc, err = scene.Load(filepath.Join(src, "t.json"))
	if err != nil {
		t.Fatal(err)
	}
	p = &project.Project{Scene: sc, View: project.DefaultView()}
	dst = filepath.Join(src, "sub", "t"+project.Ext)
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := p.Save(dst); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(dst)
	absInit, _ := json.Marshal(filepath.Join(src, "init.tif")) // JSON-escaped: Windows paths hold backslashes
	if !bytes.Contains(b, append([]byte(`"image": `), absInit...)) {
		t.Errorf("initial heights outside the project's directory should be absolute:\n%.600s", b)
	}
	dst = filepath.Join(src, "t"+project.Ext)
	if err := p.Save(dst); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(dst)
	if !bytes.Contains(b, []byte(`"image": "init.tif"`)) {
		t.Errorf("initial heights beside the project should be relative:\n%.600s", b)
	}
	q, err = project.Load(dst)
	if err != nil {
		t.Fatal(err)
	}
	if l := q.Layers["l"]; l == nil || l.W != 10 || l.H != 10 || l.Data[99] == 0 {
		t.Errorf("layer file not embedded: %v", q.Layers)
	}
	if q.Scene.Init.Image != filepath.Join(src, "init.tif") {
		t.Errorf("loaded initial heights %q; want them resolved against the project", q.Scene.Init.Image)
	}
}

func TestFromPreset(t *testing.T) {
	sc, err := scene.Load("default")
	if err != nil {
		t.Fatal(err)
	}
	p, err := project.FromScene(sc)
	if err != nil {
		t.Fatal(err)
	}
	if p.Layers["base"] == nil || p.Layers["paint"] == nil {
		t.Fatalf("layers %v; want base and paint", p.Layers)
	}
	lo, hi := p.Layers["base"].MinMax()
	if lo < 0 || hi > 1 || hi == 0 {
		t.Errorf("base layer spans [%g, %g]; want normalized uplift", lo, hi)
	}
	if _, err := p.Marshal(); err != nil {
		t.Error(err)
	}
}

func TestBrushSettings(t *testing.T) {
	v := project.DefaultView()
	b, err := v.Brush.Brush()
	if err != nil {
		t.Fatal(err)
	}
	if got := project.SettingsOf(b); got != v.Brush {
		t.Errorf("got %+v; want %+v", got, v.Brush)
	}
}

// FuzzParse feeds Parse mangled projects: it must never panic, and what it
// accepts must marshal and parse back to the same bytes.
func FuzzParse(f *testing.F) {
	r := rand.New(rand.NewPCG(4, 4))
	p := projecttest.Project(r, 5, 4, 12)
	b, err := p.Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(minimal(``, "")))
	f.Add([]byte(`{"version": 1, "scene": {"version": 1, "width": 3, "height": 3, "uplift": {"image": "x.png"}}}`))
	f.Add([]byte(`{"version": 1, "scene": {"version": 1, "width": 3, "height": 3, "uplift": {"tree": {"version": 1, "root": 1, "nodes": [{"id": 1, "type": "sum"}]}}}, "view": {"mode": "3d"}}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := project.Parse(b, dir)
		if err != nil {
			return
		}
		out, err := p.Marshal()
		if err != nil {
			t.Fatalf("Parse accepted what Marshal refuses: %v", err)
		}
		q, err := project.Parse(out, dir)
		if err != nil {
			t.Fatalf("Parse refuses what Marshal wrote: %v\n%s", err, out)
		}
		out2, err := q.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("Marshal after Parse changed:\n%s\n%s", out, out2)
		}
	})
}

// TestTerrain: the terrain the engine starts from (a kept hydraulic pass,
// imported heights) is saved and read back bit for bit, cloned, and
// refused with a message naming it when it does not fit the grid or is
// not finite.
func TestTerrain(t *testing.T) {
	vals := []float32{0, 1.5, -2, 3e3, 1e-3, 7, 8, 9, 10, 11, 12, 4000.25}
	ok := minimal(`"paint": `+layerJSON(t, 4, 3, make([]float32, 12)), `, "terrain": `+layerJSON(t, 4, 3, vals))
	p, err := project.Parse([]byte(ok), "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Terrain == nil || !slices.Equal(p.Terrain.Data, vals) {
		t.Fatalf("terrain read as %v; want %v", p.Terrain, vals)
	}
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	q, err := project.Parse(b, "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.Terrain.Data, vals) {
		t.Fatalf("after a round trip the terrain is %v", q.Terrain.Data)
	}
	c := q.Clone()
	c.Terrain.Data[0] = 99
	if q.Terrain.Data[0] != 0 {
		t.Fatal("Clone shares the terrain")
	}
	nan := slices.Clone(vals)
	nan[3] = float32(math.NaN())
	for _, bad := range []struct{ doc, want string }{
		{minimal(`"paint": `+layerJSON(t, 4, 3, make([]float32, 12)), `, "terrain": `+layerJSON(t, 4, 2, vals[:8])), `layer "terrain"`},
		{minimal(`"paint": `+layerJSON(t, 4, 3, make([]float32, 12)), `, "terrain": `+layerJSON(t, 4, 3, nan)), `layer "terrain"`},
	} {
		if _, err := project.Parse([]byte(bad.doc), ""); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("bad terrain: %v; want an error naming %s", err, bad.want)
		}
	}
	q.Terrain = sim.NewField(5, 3, 1)
	if err := q.Validate(); err == nil {
		t.Error("a terrain of the wrong size validated")
	}
}
