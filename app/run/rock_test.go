package run

import (
	"context"
	"encoding/json"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/sim/geology"
	"orogen/sim/roudier"
)

// TestGeologyPresetsWriteRockAndAlluvium runs each geology preset small
// and checks the rock mask against its legend and the engine's model.
func TestGeologyPresetsWriteRockAndAlluvium(t *testing.T) {
	for _, c := range []struct{ name, engine string }{{"strata", ""}, {"cuesta", ""}, {"folded-uplift", ""}, {"strata", "graph"}} {
		name := c.name
		dir := t.TempDir()
		o := Options{Scene: name, Engine: c.engine, Size: 48, Steps: 30,
			OutRock: filepath.Join(dir, "rock.png"), OutAlluvium: filepath.Join(dir, "alluvium.tif")}
		job, err := Prepare(o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := job.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(o.OutRock)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		g, ok := img.(*image.Gray)
		if !ok || g.Rect.Dx() != 48 || g.Rect.Dy() != 48 {
			t.Fatalf("%s: rock mask %T %v; want 48×48 8-bit grey", name, img, img.Bounds())
		}
		var leg RockLegend
		b, err := os.ReadFile(rasterio.SidecarPath(o.OutRock))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &leg); err != nil {
			t.Fatal(err)
		}
		m, err := leg.Geology.Compile()
		if err != nil {
			t.Fatalf("%s: the legend's geology: %v", name, err)
		}
		if len(leg.Layers) != m.NumLayers()+1 || leg.Layers[m.NumLayers()].Rock != geology.Alluvium.Name {
			t.Fatalf("%s: legend of %d entries for %d layers + alluvium", name, len(leg.Layers), m.NumLayers())
		}
		s := job.Engine.Snapshot()
		seen := map[uint8]bool{}
		for i, v := range g.Pix {
			if v != s.Rock[i] {
				t.Fatalf("%s: cell %d: mask %d; engine %d", name, i, v, s.Rock[i])
			}
			if int(v) > m.NumLayers() {
				t.Fatalf("%s: cell %d: index %d beyond the legend", name, i, v)
			}
			seen[v] = true
		}
		if len(seen) < 3 {
			t.Errorf("%s: only %d layers exposed after 30 steps; want the strata to crop out", name, len(seen))
		}
		a, err := rasterio.ReadHeights(o.OutAlluvium)
		if err != nil {
			t.Fatal(err)
		}
		if lo, _ := a.MinMax(); lo < 0 {
			t.Fatalf("%s: negative alluvium %g", name, lo)
		}
	}
}

func TestGeologyOptionErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"stack":[{"layers":[{"thickness":-5,"rock":"Clay"}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.json")
	if err := os.WriteFile(good, []byte(`{"stack":[{"repeat":5,"layers":[{"thickness":50,"rock":"Clay"},{"thickness":20,"rock":"Granite"}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Scene: "cone", Size: 16, Geology: bad}, "thickness -5"},
		{Options{Scene: "cone", Size: 16, Geology: filepath.Join(dir, "none.json")}, "--geology"},
		{Options{Scene: "cone", Size: 16, OutRock: filepath.Join(dir, "r.png")}, "need a geology"},
		{Options{Scene: "cone", Size: 16, Geology: good, OutRock: filepath.Join(dir, "r.tif")}, ".png"},
	} {
		_, err := Prepare(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v; want an error containing %q", c.o, err, c.want)
		}
	}
	job, err := Prepare(Options{Scene: "cone", Size: 16, Steps: 2, Geology: good})
	if err != nil {
		t.Fatal(err)
	}
	if job.Scene.Geology == nil || job.Engine.Snapshot().Geology == nil {
		t.Fatal("--geology did not reach the engine")
	}
}

// readRock reads a rock mask and its legend back.
func readRock(t *testing.T, path string) (*image.Gray, RockLegend) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	g, ok := img.(*image.Gray)
	if !ok {
		t.Fatalf("rock mask %T; want 8-bit grey", img)
	}
	var leg RockLegend
	b, err := os.ReadFile(rasterio.SidecarPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &leg); err != nil {
		t.Fatal(err)
	}
	return g, leg
}

// TestRoudierRockWithoutGeology: on Roudier's engine without a geology,
// --out-rock maps the engine's own strata (the layer it erodes at each
// cell, ExposedStrata) with a legend of the strata's layers, their
// repeat and the alluvium, and --out-alluvium writes the engine's
// alluvium; on the grid engine without a geology both are still refused.
func TestRoudierRockWithoutGeology(t *testing.T) {
	dir := t.TempDir()
	o := Options{Scene: "cone", Engine: "roudier", Size: 48, Steps: 40,
		OutRock: filepath.Join(dir, "rock.png"), OutAlluvium: filepath.Join(dir, "alluvium.tif")}
	job, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	e := job.Engine.(*roudier.Engine)
	st := e.Strata()
	if st == nil || job.Engine.Snapshot().Geology != nil {
		t.Fatal("want Roudier's engine on its default strata, without a geology")
	}
	g, leg := readRock(t, o.OutRock)
	if g.Rect.Dx() != 48 || g.Rect.Dy() != 48 || leg.Width != 48 || leg.Height != 48 {
		t.Fatalf("mask %v, legend %d×%d; want 48×48", g.Rect, leg.Width, leg.Height)
	}
	if leg.Geology != nil || leg.RepeatM != st.Period() || len(leg.Layers) != len(st.Layers)+1 {
		t.Fatalf("legend: geology %v, repeat %g m, %d layers; want none, %g m, %d", leg.Geology != nil, leg.RepeatM, len(leg.Layers), st.Period(), len(st.Layers)+1)
	}
	for k, l := range st.Layers {
		if got := leg.Layers[k]; got.Rock != l.Rock.Name || got.Kd != l.Rock.Kd || got.TopM == nil || *got.TopM-*got.BottomM != l.Thickness {
			t.Errorf("legend layer %d: %+v; want %s, %g m thick", k, got, l.Rock.Name, l.Thickness)
		}
	}
	if a := leg.Layers[len(st.Layers)]; a.Rock != geology.Alluvium.Name || a.TopM != nil {
		t.Errorf("last legend entry %+v; want the alluvium", a)
	}
	want := e.ExposedStrata()
	seen := map[uint8]bool{}
	for i, v := range g.Pix {
		if v != want[i] {
			t.Fatalf("cell %d: mask %d; engine %d", i, v, want[i])
		}
		seen[v] = true
	}
	if len(seen) < 2 {
		t.Errorf("one index %v on the whole map; want the strata to crop out", seen)
	}
	a, err := rasterio.ReadHeights(o.OutAlluvium)
	if err != nil {
		t.Fatal(err)
	}
	// The alluvium is written as float32: the engine's float64
	// thickness to float32 rounding.
	for i, v := range e.Alluvium() {
		if a.Data[i] != float32(v) {
			t.Fatalf("alluvium cell %d: file %g; engine %g", i, a.Data[i], v)
		}
	}
	_, err = Prepare(Options{Scene: "cone", Size: 16, OutAlluvium: filepath.Join(dir, "a.tif")})
	if err == nil || !strings.Contains(err.Error(), "need a geology") {
		t.Errorf("grid engine without a geology, --out-alluvium: got %v; want an error", err)
	}
}

// TestRockAndAlluviumExportSize: with --export-size the rock mask and the
// alluvium follow the export size like the other rasters: read back, the
// rock mask is the export size, its legend gives that size and the
// exported pixel (corner to corner), and every pixel is the index of the
// nearest cell of the simulation's mask; the alluvium is the export size
// and stays within the simulation's range (app/export's resampler clamps
// to its taps). --tiles with --out-rock is refused before the run.
func TestRockAndAlluviumExportSize(t *testing.T) {
	dir := t.TempDir()
	const n, out = 48, 33
	o := Options{Scene: "folded", Size: n, Steps: 30, ExportSize: out,
		OutRock: filepath.Join(dir, "rock.png"), OutAlluvium: filepath.Join(dir, "alluvium.tif")}
	job, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := job.Engine.Snapshot()
	g, leg := readRock(t, o.OutRock)
	if g.Rect.Dx() != out || g.Rect.Dy() != out || leg.Width != out || leg.Height != out {
		t.Fatalf("mask %v, legend %d×%d; want %d×%d", g.Rect, leg.Width, leg.Height, out, out)
	}
	if want := s.Cell * (n - 1) / (out - 1); math.Abs(leg.CellM-want) > 1e-12*want {
		t.Errorf("legend cell %g m; want %g (corner to corner)", leg.CellM, want)
	}
	for y := range out {
		for x := range out {
			// Output pixel o samples cell round(o·(n−1)/(out−1)).
			sx, sy := int(math.Round(float64(x)*(n-1)/(out-1))), int(math.Round(float64(y)*(n-1)/(out-1)))
			if got, want := g.Pix[y*out+x], s.Rock[sy*n+sx]; got != want {
				t.Fatalf("pixel (%d, %d): %d; cell (%d, %d) is %d", x, y, got, sx, sy, want)
			}
		}
	}
	a, err := rasterio.ReadHeights(o.OutAlluvium)
	if err != nil {
		t.Fatal(err)
	}
	if a.W != out || a.H != out {
		t.Fatalf("alluvium %d×%d; want %d×%d", a.W, a.H, out, out)
	}
	lo, hi := s.Field(s.Alluvium).MinMax()
	if alo, ahi := a.MinMax(); alo < lo || ahi > hi || !(ahi > 0) {
		t.Errorf("exported alluvium in [%g, %g] m; want some within the simulation's [%g, %g]", alo, ahi, lo, hi)
	}
	o.Tiles = "2x2"
	o.ExportSize = 33
	if _, err := Prepare(o); err == nil || !strings.Contains(err.Error(), "not tiled") {
		t.Errorf("--tiles with --out-rock: got %v; want an error saying the mask is not tiled", err)
	}
}

// TestNearestIndices: the same size gives the source; corners map to
// corners; doubling a grid (2n−1 pixels, corner to corner) repeats each
// index on its own pixel and picks a neighbour between.
func TestNearestIndices(t *testing.T) {
	src := []uint8{0, 1, 2, 3, 4, 5} // 3×2
	if got := NearestIndices(src, 3, 2, 3, 2); &got[0] != &src[0] {
		t.Error("same size: want the source")
	}
	got := NearestIndices(src, 3, 2, 5, 3)
	want := []uint8{
		0, 1, 1, 2, 2, // x·2/4 rounded half away from zero: 0, 0.5→1, 1, 1.5→2, 2
		3, 4, 4, 5, 5, // y = 0.5 rounds to row 1
		3, 4, 4, 5, 5,
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("5×3 from 3×2: %v; want %v", got, want)
		}
	}
	if got := NearestIndices(src, 3, 2, 2, 2); got[0] != 0 || got[1] != 2 || got[2] != 3 || got[3] != 5 {
		t.Errorf("2×2 from 3×2: %v; want the corners 0 2 3 5", got)
	}
}
