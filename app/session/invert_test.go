package session

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/app/scene"
	"orogen/sim"
	"orogen/sim/invert"
	"orogen/sim/simtest"
)

// TestImportDEM: a DEM becomes the base layer of the Uplift Tree holding
// its inverted uplift (invert.Uplift with the document's parameters,
// over umax), in one undoable edit the engine receives; a DEM of another
// extent is imported with a warning; a broken or missing file is refused
// with the document untouched.
func TestImportDEM(t *testing.T) {
	s, _, log := open(t, 32)
	sc := s.Doc().Scene()
	cell := sc.DomainM / 32
	dem := &sim.Field{W: 32, H: 32, Cell: cell, Data: simtest.Rough(32, 32, 400, 3)}
	dir := t.TempDir()
	path := filepath.Join(dir, "dem.tif")
	if err := rasterio.Write(path, dem); err != nil {
		t.Fatal(err)
	}
	before := slices.Clone(s.Doc().Uplift().Data)
	if err := s.ImportDEM(path); err != nil {
		t.Fatal(err)
	}
	p, err := sc.EngineParams()
	if err != nil {
		t.Fatal(err)
	}
	want, err := invert.Uplift(dem, invert.Options{Params: p})
	if err != nil {
		t.Fatal(err)
	}
	// The base layer holds u/umax and the tree sums it with the (empty)
	// paint layer, times umax: float32 round trip, 1e-6 relative.
	got := s.Doc().Uplift().Data
	for i, w := range want.Uplift.Data {
		if math.Abs(float64(got[i]-w)) > 1e-6*math.Abs(float64(w))+1e-12 {
			t.Fatalf("uplift of cell %d: %g; want the inversion's %g", i, got[i], w)
		}
	}
	if f := settle(t, s); !slices.Equal(f.Snap.Uplift, got) {
		t.Fatal("the engine's uplift is not the imported one")
	}
	if label, ok, err := s.Undo(); err != nil || !ok || !strings.Contains(label, "DEM") {
		t.Fatalf("undo: %q %v %v; want the DEM import undone", label, ok, err)
	}
	if !slices.Equal(s.Doc().Uplift().Data, before) {
		t.Fatal("undo did not restore the uplift")
	}
	for _, l := range *log {
		if strings.Contains(l, "spans") {
			t.Errorf("log %q: a DEM of the project's extent got a warning", l)
		}
	}

	// Another extent: imported, with a warning naming both.
	wide := dem.Clone()
	wide.Cell = 2 * cell
	wp := filepath.Join(dir, "wide.tif")
	if err := rasterio.Write(wp, wide); err != nil {
		t.Fatal(err)
	}
	if err := s.ImportDEM(wp); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(*log, func(l string) bool { return strings.Contains(l, "the DEM spans") }) {
		t.Errorf("no warning about the extent in %q", *log)
	}

	// A broken file, a missing one: refused, nothing changed. (NaN heights
	// never get this far: rasterio refuses them, and invert's own tests
	// cover NaN.)
	bp := filepath.Join(dir, "broken.tif")
	if err := os.WriteFile(bp, []byte("II*\x00 truncated"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed := s.Doc().Changed()
	for _, p := range []string{bp, filepath.Join(dir, "missing.tif")} {
		if err := s.ImportDEM(p); err == nil {
			t.Errorf("ImportDEM(%s) succeeded", filepath.Base(p))
		}
	}
	if s.Doc().Changed() != changed {
		t.Fatal("a refused import changed the document")
	}
}

// TestConstraints: a point constraint added to a running document is an
// undoable edit the engine follows: the summit comes to the target as the
// session adjusts the uplift; the constraint is saved with the project
// and opened again; a point outside the map is refused.
func TestConstraints(t *testing.T) {
	s, _, _ := open(t, 48)
	sc := s.Doc().Scene()
	W := sc.DomainM
	f := steps(t, s, 300)
	// The highest cell, and a target 20 % below it.
	top := 0
	for i, h := range f.Snap.Height {
		if h > f.Snap.Height[top] {
			top = i
		}
	}
	cell := W / 48
	x, y := (float64(top%48)+0.5)*cell, (float64(top/48)+0.5)*cell
	h0 := float64(f.Snap.Height[top])
	want := 0.8 * h0
	if err := s.AddConstraint(scene.NewPoint(x, y, want)); err != nil {
		t.Fatal(err)
	}
	for range 30 {
		steps(t, s, 50)
	}
	st := s.Constraints()
	if len(st) != 1 || st[0].Kind != "point" || st[0].Target != want {
		t.Fatalf("constraints %+v; want the point at %g m", st, want)
	}
	t.Logf("summit %.0f m, target %.0f m: now %.0f m, off by %.1f m", h0, want, st[0].Current, st[0].Error)
	if st[0].Error > 0.02*h0 {
		t.Errorf("the summit is off its target by %.1f m after 1500 steps; want <= 2 %% of %.0f m", st[0].Error, h0)
	}
	// Saved with the project, opened again, with a three-vertex curve
	// whose middle height was edited (the map's handles: vertex added,
	// height set).
	curve := [][]float64{{cell, cell, 100}, {5 * cell, 2 * cell, 250}, {9 * cell, cell, 120}}
	if err := s.AddConstraint(scene.Constraint{Curve: curve}); err != nil {
		t.Fatal(err)
	}
	c := s.Doc().Scene().Constraints[1].Clone()
	c.Curve[1][2] = 300
	if err := s.SetConstraint(1, c, ""); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "c"+ProjectExt)
	if err := s.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	if err := s.Open(p); err != nil {
		t.Fatal(err)
	}
	if got := s.Doc().Scene().Constraints; len(got) != 2 || *got[0].HeightM != want || len(got[1].Curve) != 3 || got[1].Curve[1][2] != 300 {
		t.Fatalf("after open: constraints %+v; want the point and the curve with 300 m in the middle", got)
	}
	if err := s.DeleteConstraint(1); err != nil {
		t.Fatal(err)
	}
	if err := s.AddConstraint(scene.NewPoint(-5, y, 100)); err == nil || !strings.Contains(err.Error(), "outside the map") {
		t.Errorf("a point outside the map: %v; want an error", err)
	}
	if err := s.DeleteConstraint(0); err != nil {
		t.Fatal(err)
	}
	if len(s.Doc().Scene().Constraints) != 0 {
		t.Fatal("delete left the constraint")
	}
	if _, _, err := s.Undo(); err != nil || len(s.Doc().Scene().Constraints) != 1 {
		t.Fatalf("undo of the delete: %v, %d constraints; want the point back", err, len(s.Doc().Scene().Constraints))
	}
}

// TestBlendWith: blending with a preset wraps the tree in a Mix whose
// second child reads a new layer holding the preset's uplift over umax; west
// of the gradient the uplift is the document's, east of it the preset's;
// one undo restores the document.
func TestBlendWith(t *testing.T) {
	s, _, _ := open(t, 32)
	before := slices.Clone(s.Doc().Uplift().Data)
	if err := s.BlendWith("cone", 0.25, 0.75); err != nil {
		t.Fatal(err)
	}
	sc := s.Doc().Scene()
	other, err := scene.Load("cone")
	if err != nil {
		t.Fatal(err)
	}
	cone, err := other.UpliftField("", 32, 32, sc.DomainM/32, other.Uplift.UmaxMPerYr)
	if err != nil {
		t.Fatal(err)
	}
	u := s.Doc().Uplift().Data
	// Cells west of 25 % (x < 8) are the document's, east of 75 % the
	// cone's (float32 rounding through the layer: 1e-6 relative).
	for y := 0; y < 32; y++ {
		for _, c := range []struct {
			x    int
			want []float32
		}{{2, before}, {30, cone.Data}} {
			i := y*32 + c.x
			if math.Abs(float64(u[i]-c.want[i])) > 1e-6*math.Abs(float64(c.want[i]))+1e-12 {
				t.Fatalf("cell (%d, %d): uplift %g; want %g", c.x, y, u[i], c.want[i])
			}
		}
	}
	root, _ := s.Doc().Tree().Node(s.Doc().Tree().Root())
	if root.Shape.Type() != "mix" || len(root.Children) != 2 {
		t.Fatalf("root %s with %d children; want a mix of two", root.Shape.Type(), len(root.Children))
	}
	if _, _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Doc().Uplift().Data, before) {
		t.Fatal("undo did not restore the uplift")
	}
	for _, c := range []struct {
		path   string
		x0, x1 float64
		want   string
	}{{"cone", 0.8, 0.2, "gradient"}, {"nosuchpreset", 0.2, 0.8, "nosuchpreset"}} {
		if err := s.BlendWith(c.path, c.x0, c.x1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("BlendWith(%s, %g, %g): %v; want an error naming %q", c.path, c.x0, c.x1, err, c.want)
		}
	}
}

// TestBlendWithProject: a project blends in like a preset: its tree over
// its layers gives the uplift east of the gradient (here the cone preset
// saved as a project). A broken project file is refused, named.
func TestBlendWithProject(t *testing.T) {
	s, _, _ := open(t, 32)
	before := slices.Clone(s.Doc().Uplift().Data)
	cone, err := LoadScene("cone", 32)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "cone"+ProjectExt)
	if err := cone.Project().Save(path); err != nil {
		t.Fatal(err)
	}
	if err := s.BlendWith(path, 0.25, 0.75); err != nil {
		t.Fatal(err)
	}
	// The cone's uplift over this document's umax, through a layer: the
	// same m/yr back (float32 rounding, 1e-6 relative).
	want := cone.Uplift().Data
	u := s.Doc().Uplift().Data
	for y := 0; y < 32; y++ {
		for _, c := range []struct {
			x    int
			want []float32
		}{{2, before}, {30, want}} {
			i := y*32 + c.x
			if math.Abs(float64(u[i]-c.want[i])) > 1e-6*math.Abs(float64(c.want[i]))+1e-12 {
				t.Fatalf("cell (%d, %d): uplift %g; want %g", c.x, y, u[i], c.want[i])
			}
		}
	}
	bad := filepath.Join(dir, "bad"+ProjectExt)
	if err := os.WriteFile(bad, []byte(`{"version": 1, "scene": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.BlendWith(bad, 0.25, 0.75); err == nil || !strings.Contains(err.Error(), "project") {
		t.Errorf("BlendWith(a broken project): %v; want an error naming the project", err)
	}
}

// TestBlendWithMask: through a mask, west half 0 and east half 1 (a PNG
// of 16×16, resampled to the 32×32 grid), the west keeps this terrain and
// the east takes the cone's uplift, the Mix reads the mask as its third
// child, and undo takes both layers away. A mask of other proportions or
// an unreadable one is refused, named.
func TestBlendWithMask(t *testing.T) {
	s, _, _ := open(t, 32)
	before := slices.Clone(s.Doc().Uplift().Data)
	dir := t.TempDir()
	mask := sim.NewField(16, 16, 1)
	for i := range mask.Data {
		if i%16 >= 8 {
			mask.Data[i] = 1
		}
	}
	mp := filepath.Join(dir, "mask.png")
	if err := rasterio.Write(mp, mask); err != nil {
		t.Fatal(err)
	}
	if err := s.BlendWithMask("cone", mp); err != nil {
		t.Fatal(err)
	}
	other, err := scene.Load("cone")
	if err != nil {
		t.Fatal(err)
	}
	sc := s.Doc().Scene()
	cone, err := other.UpliftField("", 32, 32, sc.DomainM/32, other.Uplift.UmaxMPerYr)
	if err != nil {
		t.Fatal(err)
	}
	u := s.Doc().Uplift().Data
	// Cells 0..13 and 18..31 lie where the resampled mask is exactly 0
	// or 1 (the bilinear ramp spans the middle cells); float32 rounding
	// through the layer: 1e-6 relative.
	for y := 0; y < 32; y++ {
		for _, c := range []struct {
			x    int
			want []float32
		}{{2, before}, {13, before}, {18, cone.Data}, {30, cone.Data}} {
			i := y*32 + c.x
			if math.Abs(float64(u[i]-c.want[i])) > 1e-6*math.Abs(float64(c.want[i]))+1e-12 {
				t.Fatalf("cell (%d, %d): uplift %g; want %g", c.x, y, u[i], c.want[i])
			}
		}
	}
	root, _ := s.Doc().Tree().Node(s.Doc().Tree().Root())
	if root.Shape.Type() != "mix" || len(root.Children) != 3 {
		t.Fatalf("root %s with %d children; want a mix of three (the mask last)", root.Shape.Type(), len(root.Children))
	}
	if _, _, err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Doc().Uplift().Data, before) {
		t.Fatal("undo did not restore the uplift")
	}
	wide := sim.NewField(16, 8, 1)
	wp := filepath.Join(dir, "wide.png")
	if err := rasterio.Write(wp, wide); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ mask, want string }{{wp, "wide.png is 16×8"}, {filepath.Join(dir, "none.png"), "none.png"}} {
		if err := s.BlendWithMask("cone", c.mask); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("BlendWithMask(cone, %s): %v; want an error naming %q", c.mask, err, c.want)
		}
	}
}
