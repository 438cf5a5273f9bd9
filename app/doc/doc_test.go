package doc_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"math"
	"math/rand/v2"
	"orogen/sim/graph"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"orogen/app/doc"
	"orogen/app/project"
	"orogen/app/project/projecttest"
	"orogen/app/scene"
	"orogen/brushes"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/uplifttree"
)

// smoothField returns a w×h layer of values in [0, 1] that vary smoothly.
func smoothField(r *rand.Rand, w, h int) *sim.Field {
	f := sim.NewField(w, h, 1)
	fx, fy, ph := r.Float64()*0.3, r.Float64()*0.3, r.Float64()*6
	for y := range h {
		for x := range w {
			f.Data[y*w+x] = float32(0.5 + 0.5*math.Sin(fx*float64(x)+fy*float64(y)+ph))
		}
	}
	return f
}

// testDoc returns a document of a random w×h project whose tree reads
// smooth layers "paint", "base" and "ridge 2".
func testDoc(t testing.TB, seed uint64, w, h int) *doc.Doc {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	p := projecttest.Project(r, w, h, 25)
	for name := range p.Layers {
		p.Layers[name] = smoothField(r, w, h)
	}
	d, err := doc.New(p)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// snapshot is everything undo must restore: the project's bytes (scene,
// tree, layers the tree reads), every layer's and base's bytes, and the
// uplift's and value's bytes.
type snapshot struct {
	proj   []byte
	layers map[string][]uint32
	uplift []uint32
	value  []uint32
}

func bits(v []float32) []uint32 {
	b := make([]uint32, len(v))
	for i, x := range v {
		b[i] = math.Float32bits(x)
	}
	return b
}

func snap(t testing.TB, d *doc.Doc) snapshot {
	t.Helper()
	b, err := d.Project().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := snapshot{proj: b, layers: map[string][]uint32{}, uplift: bits(d.Uplift().Data), value: bits(d.Value().Data)}
	for _, name := range d.LayerNames() {
		l := d.Layer(name)
		s.layers[name] = bits(l.Field.Data)
		if l.Base != nil {
			s.layers[name+" (base)"] = bits(l.Base.Data)
		}
	}
	return s
}

func (s snapshot) diff(o snapshot) string {
	switch {
	case !bytes.Equal(s.proj, o.proj):
		return "project bytes differ"
	case !slices.Equal(s.uplift, o.uplift):
		return "uplift differs"
	case !slices.Equal(s.value, o.value):
		return "tree value differs"
	case !slices.Equal(slices.Sorted(maps.Keys(s.layers)), slices.Sorted(maps.Keys(o.layers))):
		return fmt.Sprintf("layers %v, want %v", slices.Sorted(maps.Keys(o.layers)), slices.Sorted(maps.Keys(s.layers)))
	}
	for k, v := range s.layers {
		if !slices.Equal(v, o.layers[k]) {
			return "layer " + k + " differs"
		}
	}
	return ""
}

// checkFull fails unless the document's uplift is, byte for byte, a full
// rasterization of its tree times umax.
func checkFull(t testing.TB, d *doc.Doc, step string) {
	t.Helper()
	f := sim.NewField(d.Uplift().W, d.Uplift().H, d.Cell())
	d.Tree().Rasterize(f, d.World(), nil)
	u := float32(d.Scene().Uplift.UmaxMPerYr)
	for i, v := range f.Data {
		if got, want := math.Float32bits(d.Uplift().Data[i]), math.Float32bits(v*u); got != want {
			t.Fatalf("%s: cell (%d, %d): got uplift %g; want %g (a full rasterization)", step, i%f.W, i/f.W, d.Uplift().Data[i], v*u)
		}
	}
}

func TestFromScenePresets(t *testing.T) {
	for _, tc := range []struct {
		preset string
		exact  bool
		layers []string
	}{
		// An image preset's uplift goes through a Raster node, which
		// samples the layer bilinearly at cell centres that land on its
		// cells up to a few ulps of the coordinate: float32 rounding.
		{"default", false, []string{"base", "paint"}},
		// A tree preset's uplift gains a zero paint layer under a Sum:
		// v + 0 = v exactly.
		{"collision", true, []string{"paint"}},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			sc, err := scene.Load(tc.preset)
			if err != nil {
				t.Fatal(err)
			}
			d, err := doc.FromScene(sc)
			if err != nil {
				t.Fatal(err)
			}
			if got := d.LayerNames(); !slices.Equal(got, tc.layers) {
				t.Errorf("layers %q; want %q", got, tc.layers)
			}
			if d.PaintLayer() != "paint" {
				t.Errorf("PaintLayer() = %q; want paint", d.PaintLayer())
			}
			if root, _ := d.Tree().Node(d.Tree().Root()); root.Shape.Type() != uplifttree.TypeSum {
				t.Errorf("root is a %s; want a sum", root.Shape.Type())
			}
			if d.Dirty() {
				t.Error("a new document is dirty")
			}
			cell := sc.DomainM / float64(max(sc.Width, sc.Height))
			want, err := sc.UpliftField("", sc.Width, sc.Height, cell, sc.Uplift.UmaxMPerYr)
			if err != nil {
				t.Fatal(err)
			}
			got := d.Uplift()
			if got.W != want.W || got.H != want.H {
				t.Fatalf("uplift %d×%d; want %d×%d", got.W, got.H, want.W, want.H)
			}
			for i := range want.Data {
				g, w := got.Data[i], want.Data[i]
				if tc.exact && math.Float32bits(g) != math.Float32bits(w) || math.Abs(float64(g-w)) > 1e-6*math.Abs(float64(w)) {
					t.Fatalf("cell %d: got %g m/yr; want %g (the run command's)", i, g, w)
				}
			}
			checkFull(t, d, "new")
		})
	}
}

// TestTreeWithoutRaster checks that a tree whose root is a sum gets the
// paint layer as its last child, without a wrapper.
func TestTreeWithoutRaster(t *testing.T) {
	sc := scene.Default()
	sc.Width, sc.Height = 32, 24
	tr := uplifttree.New()
	tr.Add(tr.Root(), -1, &uplifttree.Disc{Center: uplifttree.Point{X: 20000, Y: 20000}, Radius: 9000, Value: 1})
	sc.Uplift.Tree = tr
	d, err := doc.FromScene(sc)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := d.Tree().Node(d.Tree().Root())
	if root.ID != tr.Root() || len(root.Children) != 2 {
		t.Errorf("root %d with %d children; want the scene's sum with the disc and the paint raster", root.ID, len(root.Children))
	}
	if tr.Len() != 2 {
		t.Error("FromScene changed the scene's tree")
	}
}

func TestUndoRedoExact(t *testing.T) {
	d := testDoc(t, 1, 80, 60)
	dir := t.TempDir()
	img := filepath.Join(dir, "up.png")
	writePNG(t, img, 50, 40)
	paint := d.PaintLayer()
	root := d.Tree().Root()
	var disc uplifttree.ID
	actions := []struct {
		name string
		do   func() error
	}{
		{"raise stroke", func() error {
			if err := d.BeginStroke(paint, brushes.Default(brushes.Raise), 10, 10); err != nil {
				return err
			}
			d.StrokeTo(50, 30)
			d.StrokeTo(80, 60)
			d.EndStroke()
			return nil
		}},
		{"smooth stroke", func() error {
			b := brushes.Default(brushes.Smooth)
			b.Radius = 12
			if err := d.BeginStroke(paint, b, 40, 40); err != nil {
				return err
			}
			d.StrokeTo(20, 60)
			d.EndStroke()
			return nil
		}},
		{"add disc", func() (err error) {
			disc, err = d.AddNode(root, 0, &uplifttree.Disc{Center: uplifttree.Point{X: 1000, Y: 1000}, Radius: 3000, Value: 0.7})
			return err
		}},
		{"set radius", func() error { return d.SetNodeParam(disc, "radius", 5000.0) }},
		{"wrap", func() (err error) {
			_, err = d.WrapNode(disc, &uplifttree.Transform{Frame: uplifttree.Frame{Translate: uplifttree.Point{X: 500}, Rotate: 10, Scale: uplifttree.Point{X: 1, Y: 1}}})
			return err
		}},
		{"add raster of a new layer", func() error {
			_, err := d.AddNode(root, -1, &uplifttree.Raster{Layer: "new", Rect: d.World(), Value: 1})
			return err
		}},
		{"paint the new layer", func() error {
			if err := d.BeginStroke("new", brushes.Default(brushes.Raise), 30, 30); err != nil {
				return err
			}
			d.EndStroke()
			return nil
		}},
		{"move", func() error { return d.MoveNode(d.Tree().Parent(disc), root, -1) }},
		{"remove", func() error { return d.RemoveNode(d.Tree().Parent(disc)) }},
		{"params", func() error {
			p := d.Scene().Params
			p.K *= 2
			p.Talus = scene.Talus{Mode: "off"}
			return d.SetParams(p, "")
		}},
		{"umax", func() error { return d.SetUmax(d.Scene().Uplift.UmaxMPerYr*3, "") }},
		{"settings", func() error {
			s := d.Settings()
			s.Seed, s.Engine = 99, graph.Kind
			return d.SetSettings(s, "")
		}},
		{"import", func() error { return d.ImportUpliftImage(img) }},
		{"import again", func() error { return d.ImportUpliftImage(img) }},
	}
	for _, a := range actions {
		before := snap(t, d)
		if err := a.do(); err != nil {
			t.Fatalf("%s: %v", a.name, err)
		}
		after := snap(t, d)
		if before.diff(after) == "" && a.name != "import again" {
			t.Fatalf("%s changed nothing", a.name)
		}
		checkFull(t, d, a.name)
		if _, ok, err := d.Undo(); !ok || err != nil {
			t.Fatalf("%s: undo: %v %v", a.name, ok, err)
		}
		if s := before.diff(snap(t, d)); s != "" {
			t.Fatalf("undo of %s: %s", a.name, s)
		}
		checkFull(t, d, a.name+" undone")
		if _, ok, err := d.Redo(); !ok || err != nil {
			t.Fatalf("%s: redo: %v %v", a.name, ok, err)
		}
		if s := after.diff(snap(t, d)); s != "" {
			t.Fatalf("redo of %s: %s", a.name, s)
		}
		checkFull(t, d, a.name+" redone")
	}
	// Undo everything, then redo everything.
	var states []snapshot
	for {
		states = append(states, snap(t, d))
		if _, ok, err := d.Undo(); err != nil {
			t.Fatal(err)
		} else if !ok {
			break
		}
	}
	if d.Dirty() {
		t.Error("undoing everything left the document dirty")
	}
	for i := len(states) - 2; i >= 0; i-- {
		if _, ok, err := d.Redo(); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if s := states[i].diff(snap(t, d)); s != "" {
			t.Fatalf("redo %d: %s", i, s)
		}
	}
}

func writePNG(t testing.TB, path string, w, h int) {
	img := image.NewGray16(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.SetGray16(x, y, color.Gray16{Y: uint16(x * y * 30)})
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImportIntoTreeScene(t *testing.T) {
	sc, err := scene.Load("collision")
	if err != nil {
		t.Fatal(err)
	}
	sc.Width, sc.Height = 64, 64
	d, err := doc.FromScene(sc)
	if err != nil {
		t.Fatal(err)
	}
	img := filepath.Join(t.TempDir(), "up.png")
	writePNG(t, img, 20, 20)
	before := snap(t, d)
	if err := d.ImportUpliftImage(img); err != nil {
		t.Fatal(err)
	}
	if got := d.LayerNames(); !slices.Equal(got, []string{"base", "paint"}) {
		t.Errorf("layers %q; want base and paint", got)
	}
	if d.Layer("base").Base == nil {
		t.Error("an imported layer has no base to erase to")
	}
	checkFull(t, d, "import")
	if label, _, _ := d.Undo(); label != "Import uplift image" {
		t.Errorf("undo label %q", label)
	}
	if s := before.diff(snap(t, d)); s != "" {
		t.Fatal(s)
	}
	if d.Layer("base") != nil {
		t.Error("undo of the import left the layer")
	}
	if err := d.ImportUpliftImage(filepath.Join(t.TempDir(), "none.png")); err == nil || !strings.Contains(err.Error(), "none.png") {
		t.Errorf("import of a missing file: got %v", err)
	}
	if s := before.diff(snap(t, d)); s != "" {
		t.Fatal("a failed import changed the document: ", s)
	}
}

func TestDirty(t *testing.T) {
	d := testDoc(t, 2, 40, 30)
	stroke := func() {
		d.BeginStroke(d.PaintLayer(), brushes.Default(brushes.Raise), 10, 10)
		d.StrokeTo(30, 20)
		d.EndStroke()
	}
	check := func(step string, want bool) {
		t.Helper()
		if d.Dirty() != want {
			t.Errorf("%s: Dirty() = %v; want %v", step, !want, want)
		}
	}
	check("new", false)
	d.BeginStroke(d.PaintLayer(), brushes.Default(brushes.Raise), 10, 10)
	check("during a stroke", true)
	d.EndStroke()
	check("stroke", true)
	d.Undo()
	check("undo", false)
	d.Redo()
	check("redo", true)
	d.MarkSaved()
	check("saved", false)
	d.Undo()
	check("undo past the save", true)
	d.Redo()
	check("redo to the save", false)
	// A background save: the state is taken with the project, edits go
	// on, the save completes.
	s := d.State()
	p := d.Project()
	stroke()
	if err := p.Save(filepath.Join(t.TempDir(), "p.orogen.json")); err != nil {
		t.Fatal(err)
	}
	d.MarkSavedState(s)
	check("edited during a background save", true)
	d.Undo()
	check("undone to the background save", false)
	// A new edit after undo drops the redo history: the saved state
	// cannot come back.
	d.Undo()
	stroke()
	d.MarkSaved()
	d.Undo()
	stroke()
	check("new edit instead of the saved one", true)
	c := d.Changed()
	d.SetParams(d.Scene().Params, "")
	if d.Changed() != c {
		t.Error("setting the same parameters counted as a change")
	}
	p2 := d.Scene().Params
	p2.M = 0.4
	d.SetParams(p2, "")
	if d.Changed() == c {
		t.Error("Changed did not move for a parameter change")
	}
}

func TestMerge(t *testing.T) {
	d := testDoc(t, 3, 40, 30)
	p0 := d.Scene().Params
	u0 := d.Scene().Uplift.UmaxMPerYr
	n0, _ := d.UndoLen()
	p := p0
	for i := range 10 {
		p.K = p0.K * float64(i+2)
		if err := d.SetParams(p, "k"); err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := d.UndoLen(); n != n0+1 {
		t.Fatalf("10 slider moves made %d entries; want 1", n-n0)
	}
	if label, _ := d.CanUndo(); label != "Set k" {
		t.Errorf("label %q; want Set k", label)
	}
	// Another key starts another entry; so does the same key after
	// EndGesture.
	for i := range 5 {
		d.SetUmax(u0*float64(i+2), "umax")
	}
	d.EndGesture()
	d.SetUmax(u0/2, "umax")
	if n, _ := d.UndoLen(); n != n0+3 {
		t.Fatalf("got %d entries; want 3", n-n0)
	}
	checkFull(t, d, "umax")
	d.Undo()
	if got := d.Scene().Uplift.UmaxMPerYr; got != u0*6 {
		t.Errorf("undo of the second umax gesture: umax %g; want %g", got, u0*6)
	}
	d.Undo()
	if got := d.Scene().Uplift.UmaxMPerYr; got != u0 {
		t.Errorf("umax %g; want %g", got, u0)
	}
	checkFull(t, d, "umax undone")
	d.Undo()
	if d.Scene().Params != p0 {
		t.Errorf("params %+v; want %+v", d.Scene().Params, p0)
	}
	if d.Dirty() {
		t.Error("undoing the merged entries left the document dirty")
	}
	// Merging a change of a node's parameter while it is dragged.
	id, err := d.AddNode(d.Tree().Root(), -1, &uplifttree.Disc{Center: uplifttree.Point{X: 100, Y: 100}, Radius: 400, Value: 1})
	if err != nil {
		t.Fatal(err)
	}
	before := snap(t, d)
	n1, _ := d.UndoLen()
	for i := range 20 {
		if err := d.SetNodeParamMerge(id, "center", uplifttree.Point{X: 100 + 50*float64(i), Y: 100}, "drag"); err != nil {
			t.Fatal(err)
		}
		checkFull(t, d, "drag")
	}
	d.EndGesture()
	if n, _ := d.UndoLen(); n != n1+1 {
		t.Fatalf("dragging made %d entries; want 1", n-n1)
	}
	d.Undo()
	if s := before.diff(snap(t, d)); s != "" {
		t.Fatal(s)
	}
	// A merge key never merges across a stroke.
	d.SetParams(p, "k")
	d.BeginStroke(d.PaintLayer(), brushes.Default(brushes.Raise), 5, 5)
	d.EndStroke()
	p.K = 1e-6
	d.SetParams(p, "k")
	if label, _ := d.CanUndo(); label != "Set k" {
		t.Errorf("got %q on top; want Set k", label)
	}
	d.Undo()
	if label, _ := d.CanUndo(); label != "Raise stroke" {
		t.Errorf("got %q under it; want the stroke", label)
	}
}

// TestRandomEdits checks after every step of random sequences of strokes,
// tree edits, parameter changes, undos and redos that the uplift, kept up
// to date by dirty rectangles, is byte for byte a full rasterization.
func TestRandomEdits(t *testing.T) {
	steps, seeds := 300, uint64(3)
	if testing.Short() {
		steps, seeds = 50, 2 // the race detector makes each step ten times slower
	}
	for seed := range seeds {
		d := testDoc(t, 10+seed, 70+int(seed)*13, 50+int(seed)*7)
		r := rand.New(rand.NewPCG(seed, 99))
		w, h := float64(d.Uplift().W), float64(d.Uplift().H)
		for step := range steps {
			ids := d.Tree().IDs()
			id := ids[r.IntN(len(ids))]
			what := ""
			switch k := r.IntN(12); {
			case k < 3:
				names := d.LayerNames()
				if len(names) == 0 {
					continue
				}
				b := brushes.Default(brushes.Kind(r.IntN(7)))
				b.Radius = 1 + 10*r.Float64()
				b.Strength = r.Float64()
				what = fmt.Sprintf("%v stroke", b.Kind)
				if err := d.BeginStroke(names[r.IntN(len(names))], b, w*r.Float64(), h*r.Float64()); err != nil {
					t.Fatal(err)
				}
				for range r.IntN(4) {
					d.StrokeTo(w*r.Float64()*1.2-5, h*r.Float64()*1.2-5)
					checkFull(t, d, fmt.Sprintf("seed %d step %d: %s, during", seed, step, what))
				}
				if r.IntN(5) > 0 {
					d.EndStroke()
				}
			case k < 5:
				what = "undo"
				if _, _, err := d.Undo(); err != nil {
					t.Fatal(err)
				}
			case k < 6:
				what = "redo"
				if _, _, err := d.Redo(); err != nil {
					t.Fatal(err)
				}
			case k < 7:
				what = "add"
				c := d.World()
				d.AddNode(id, -1, &uplifttree.Disc{Center: uplifttree.Point{X: c.X1 * r.Float64(), Y: c.Y1 * r.Float64()}, Radius: c.X1 * 0.2 * r.Float64(), Value: r.Float64()})
			case k < 8:
				what = "remove"
				d.RemoveNode(id)
			case k < 9:
				what = "move"
				d.MoveNode(id, ids[r.IntN(len(ids))], r.IntN(3)-1)
			case k < 10:
				what = "wrap"
				d.WrapNode(id, &uplifttree.Transform{Frame: uplifttree.Frame{Translate: uplifttree.Point{X: 300 * r.NormFloat64(), Y: 300 * r.NormFloat64()}, Scale: uplifttree.Point{X: 1, Y: 1}}})
			case k < 11:
				n, _ := d.Tree().Node(id)
				ps := uplifttree.Params(n.Shape.Type())
				if len(ps) == 0 {
					continue
				}
				pi := ps[r.IntN(len(ps))]
				what = "set " + pi.Name
				v, _ := d.Tree().Param(id, pi.Name)
				switch x := v.(type) {
				case float64:
					v = x*(0.5+r.Float64()) + 0.01
				case uplifttree.Point:
					v = uplifttree.Point{X: x.X + 200*r.NormFloat64(), Y: x.Y + 200*r.NormFloat64()}
				case uplifttree.Rect:
					v = uplifttree.Rect{X0: x.X0 + 100, Y0: x.Y0, X1: x.X1 + 100, Y1: x.Y1}
				}
				d.SetNodeParamMerge(id, pi.Name, v, []string{"", "a"}[r.IntN(2)])
			default:
				what = "umax"
				d.SetUmax(d.Scene().Uplift.UmaxMPerYr*(0.5+r.Float64()), []string{"", "u"}[r.IntN(2)])
				if r.IntN(2) == 0 {
					d.EndGesture()
				}
			}
			checkFull(t, d, fmt.Sprintf("seed %d step %d: %s", seed, step, what))
		}
		// Everything undone is the start again, clean.
		for {
			_, ok, err := d.Undo()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
		}
		if d.Dirty() {
			t.Errorf("seed %d: undoing everything left the document dirty", seed)
		}
		checkFull(t, d, "all undone")
	}
}

func TestMemoryBound(t *testing.T) {
	d := testDoc(t, 4, 200, 150)
	b := brushes.Default(brushes.Raise)
	b.Radius = 20
	stroke := func(i int) {
		y := float64(30 + i%2) // the same tiles every time
		if err := d.BeginStroke(d.PaintLayer(), b, 5, y); err != nil {
			t.Fatal(err)
		}
		d.StrokeTo(195, y)
		d.EndStroke()
	}
	stroke(0)
	one := d.UndoBytes()
	if one < 4*brushes.TileSize*brushes.TileSize {
		t.Fatalf("a stroke across the layer keeps %d bytes; want at least a tile's", one)
	}
	limit := 3*one + one/2
	d.SetUndoLimit(limit)
	var states []snapshot
	for i := 1; i < 10; i++ {
		states = append(states, snap(t, d))
		stroke(i)
		if d.UndoBytes() > limit {
			t.Fatalf("stroke %d: history holds %d bytes; limit %d", i, d.UndoBytes(), limit)
		}
	}
	n, _ := d.UndoLen()
	if n != 3 {
		t.Errorf("history holds %d strokes; want the newest 3", n)
	}
	for range n {
		d.Undo()
	}
	if _, ok := d.CanUndo(); ok {
		t.Error("can undo past the dropped entries")
	}
	if s := states[len(states)-n].diff(snap(t, d)); s != "" {
		t.Errorf("after undoing all that is kept: %s", s)
	}
	if !d.Dirty() {
		t.Error("the saved state was dropped from the history, yet the document is clean")
	}
	// A single entry above the limit is kept.
	d.SetUndoLimit(1)
	stroke(0)
	if n, _ := d.UndoLen(); n != 1 {
		t.Errorf("history holds %d entries at a tiny limit; want the newest", n)
	}
}

func TestBadInput(t *testing.T) {
	d := testDoc(t, 5, 40, 30)
	before := snap(t, d)
	ver := d.UpliftVersion()
	bad := brushes.Default(brushes.Raise)
	bad.Radius = -1
	var typedNil *uplifttree.Disc
	p := d.Scene().Params
	p.K = -1
	p2 := d.Scene().Params
	p2.Edges = scene.Edges{North: "closed", South: "closed", East: "closed", West: "closed"}
	s := d.Settings()
	s.Engine = engine.Kind("voxel")
	root, _ := d.Tree().Node(d.Tree().Root())
	child := root.Children[0]
	errs := []struct {
		name string
		err  error
		want string
	}{
		{"unknown layer", d.BeginStroke("nope", brushes.Default(brushes.Raise), 1, 1), "nope"},
		{"bad brush", d.BeginStroke(d.PaintLayer(), bad, 1, 1), "radius"},
		{"NaN start", d.BeginStroke(d.PaintLayer(), brushes.Default(brushes.Raise), math.NaN(), 1), "NaN"},
		{"nil shape", func() error { _, err := d.AddNode(d.Tree().Root(), -1, nil); return err }(), "no shape"},
		{"typed nil shape", func() error { _, err := d.AddNode(d.Tree().Root(), -1, typedNil); return err }(), "no shape"},
		{"no such parent", func() error { _, err := d.AddNode(9999, -1, &uplifttree.Sum{}); return err }(), "9999"},
		{"remove root", d.RemoveNode(d.Tree().Root()), "root"},
		{"remove missing", d.RemoveNode(12345), "12345"},
		{"move under itself", d.MoveNode(child, child, 0), "under itself"},
		{"unknown param", d.SetNodeParam(d.Tree().Root(), "colour", 1.0), "colour"},
		{"bad k", d.SetParams(p, "k"), "params.k"},
		{"all edges closed", d.SetParams(p2, ""), "closed"},
		{"NaN umax", d.SetUmax(math.NaN(), ""), "umax"},
		{"bad engine", d.SetSettings(s, ""), `unknown engine "voxel"`},
		{"missing image", d.ImportUpliftImage("/nonexistent/x.png"), "x.png"},
		{"bad view", d.SetView(project.View{}), "view.mode"},
	}
	for _, e := range errs {
		if e.err == nil || !strings.Contains(e.err.Error(), e.want) {
			t.Errorf("%s: got %v; want an error containing %q", e.name, e.err, e.want)
		}
	}
	// Bad points in a stroke are ignored.
	d.BeginStroke(d.PaintLayer(), brushes.Default(brushes.Raise), -1000, -1000)
	d.StrokeTo(math.NaN(), 3)
	d.StrokeTo(math.Inf(1), 3)
	d.StrokeTo(1e300, 3)
	d.EndStroke()
	d.EndStroke()
	d.StrokeTo(3, 3)
	if s := before.diff(snap(t, d)); s != "" {
		t.Errorf("bad input changed the document: %s", s)
	}
	if d.UpliftVersion() != ver {
		t.Error("bad input changed the uplift version")
	}
	if d.Dirty() {
		t.Error("bad input made the document dirty")
	}
	if _, ok, err := d.Undo(); ok || err != nil {
		t.Errorf("undo with nothing done: %v %v", ok, err)
	}
	if _, ok, err := d.Redo(); ok || err != nil {
		t.Errorf("redo with nothing undone: %v %v", ok, err)
	}
	if _, err := doc.New(&project.Project{}); err == nil {
		t.Error("New without a scene: no error")
	}
	pr := d.Project()
	pr.Layers["paint"] = sim.NewField(3, 3, 1)
	if _, err := doc.New(pr); err == nil || !strings.Contains(err.Error(), "3×3") {
		t.Errorf("New with a layer of the wrong size: got %v", err)
	}
}

// TestProjectRoundTrip saves a document's project, loads it into a new
// document and checks that both give the same uplift.
func TestProjectRoundTrip(t *testing.T) {
	d := testDoc(t, 6, 64, 48)
	d.BeginStroke(d.PaintLayer(), brushes.Default(brushes.Noise), 20, 20)
	d.StrokeTo(40, 30)
	d.EndStroke()
	v := d.View()
	v.Zoom, v.Mode = 3, "3d"
	if err := d.SetView(v); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.orogen.json")
	if err := d.Project().Save(path); err != nil {
		t.Fatal(err)
	}
	p, err := project.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := doc.New(p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(bits(d.Uplift().Data), bits(e.Uplift().Data)) {
		t.Error("the reloaded document's uplift differs")
	}
	if e.View().Zoom != 3 || e.View().Mode != "3d" {
		t.Errorf("view not kept: %+v", e.View())
	}
}

// TestProjectWhileEditing saves projects on another goroutine while the
// document goes on changing (run with -race).
func TestProjectWhileEditing(t *testing.T) {
	d := testDoc(t, 7, 64, 48)
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 4 {
		p := d.Project()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := p.Save(filepath.Join(dir, fmt.Sprintf("%d.orogen.json", i))); err != nil {
				t.Error(err)
			}
		}()
		d.BeginStroke(d.PaintLayer(), brushes.Default(brushes.Raise), float64(10*i), 10)
		d.StrokeTo(60, 40)
		d.EndStroke()
		d.AddNode(d.Tree().Root(), -1, &uplifttree.Disc{Center: uplifttree.Point{X: 1000, Y: 1000}, Radius: 500, Value: 1})
		d.Undo()
	}
	wg.Wait()
}

func BenchmarkStroke(b *testing.B) {
	for _, n := range []int{256, 1024} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			sc, err := scene.Load("default")
			if err != nil {
				b.Fatal(err)
			}
			sc.Width, sc.Height = n, n
			d, err := doc.FromScene(sc)
			if err != nil {
				b.Fatal(err)
			}
			br := brushes.Default(brushes.Raise)
			br.Radius = float64(n) / 32
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				x := float64(n) * float64(i%7+1) / 9
				d.BeginStroke("paint", br, x, 0)
				for y := 0; y < n; y += 4 {
					d.StrokeTo(x, float64(y))
				}
				d.EndStroke()
			}
		})
	}
}

// TestTerrainEdit: SetTerrain resamples the heights to the grid, the
// engine spec starts from them, the project carries them, and undo and
// redo swap them (issue 30: a kept hydraulic pass survives a save).
func TestTerrainEdit(t *testing.T) {
	d := testDoc(t, 3, 24, 16)
	if d.Terrain() != nil {
		t.Fatal("a new document has a terrain")
	}
	f := sim.NewField(48, 32, 1)
	for i := range f.Data {
		f.Data[i] = float32(i % 48)
	}
	v := d.TerrainVersion()
	if err := d.SetTerrain(f, "import heights"); err != nil {
		t.Fatal(err)
	}
	if d.TerrainVersion() == v || d.Terrain().W != 24 || d.Terrain().H != 16 || !d.Dirty() {
		t.Fatalf("after SetTerrain: version %d→%d, %d×%d, dirty %v", v, d.TerrainVersion(), d.Terrain().W, d.Terrain().H, d.Dirty())
	}
	spec, err := d.EngineSpec()
	if err != nil {
		t.Fatal(err)
	}
	if spec.Init == nil || !slices.Equal(spec.Init, d.Terrain().Data) {
		t.Fatal("the engine does not start from the terrain")
	}
	if p := d.Project(); p.Terrain == nil || !slices.Equal(p.Terrain.Data, d.Terrain().Data) {
		t.Fatal("the project does not hold the terrain")
	}
	if label, ok, err := d.Undo(); !ok || err != nil || label != "import heights" || d.Terrain() != nil {
		t.Fatalf("undo: %q %v %v, terrain %v", label, ok, err, d.Terrain() != nil)
	}
	if _, ok, err := d.Redo(); !ok || err != nil || d.Terrain() == nil {
		t.Fatal("redo did not bring the terrain back")
	}
	bad := sim.NewField(2, 2, 1)
	bad.Data[1] = float32(math.Inf(1))
	if err := d.SetTerrain(bad, "x"); err == nil {
		t.Fatal("a terrain of infinite heights was taken")
	}
}
