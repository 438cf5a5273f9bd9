package run

import (
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/sim/geology"
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
