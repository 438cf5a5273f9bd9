package session

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"orogen/app/engines"
	"orogen/app/rasterio"
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
	p, err := engines.Params(sc)
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
