package rasterio

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"orogen/sim"
)

// gdalInfo is the part of `gdalinfo -json -mm` the tests check.
type gdalInfo struct {
	Size         [2]int    `json:"size"`
	GeoTransform []float64 `json:"geoTransform"`
	Bands        []struct {
		Type        string   `json:"type"`
		ComputedMin float64  `json:"computedMin"`
		ComputedMax float64  `json:"computedMax"`
		Offset      *float64 `json:"offset"`
		Scale       *float64 `json:"scale"`
	} `json:"bands"`
}

// gdalinfo runs gdalinfo (GDAL, gdal-bin) on path, or skips the test with
// a message when it is not installed.
func gdalinfo(t *testing.T, path string) *gdalInfo {
	t.Helper()
	bin, err := exec.LookPath("gdalinfo")
	if err != nil {
		t.Skip("gdalinfo not found: install gdal-bin (scripts/deps.sh does) to check the files with GDAL")
	}
	out, err := exec.Command(bin, "-json", "-mm", path).Output()
	if err != nil {
		t.Fatalf("gdalinfo %s: %v", path, err)
	}
	var g gdalInfo
	if err := json.Unmarshal(out, &g); err != nil {
		t.Fatalf("gdalinfo %s: %v\n%s", path, err, out)
	}
	if len(g.Bands) != 1 {
		t.Fatalf("gdalinfo %s: %d bands; want 1", path, len(g.Bands))
	}
	return &g
}

// TestGDAL writes one field as .tif, .png and .r16 with its .vrt, and
// checks each with GDAL: size, pixel size and origin (GeoTIFF tags and
// VRT), and the value range against the sidecar. The 16-bit formats hold
// 0..65535 (the VRT's offset and scale map them to metres: checked to
// within one 16-bit step of the range).
func TestGDAL(t *testing.T) {
	dir := t.TempDir()
	f := testField(37, 23, 7)
	f.Cell = 12.5
	lo, hi := f.MinMax()
	for _, name := range []string{"h.tif", "h.png", "h.r16"} {
		path := filepath.Join(dir, name)
		if err := WriteWith(path, f, Options{VRT: name == "h.r16"}); err != nil {
			t.Fatal(err)
		}
	}
	// Every format has its own sidecar.
	for _, name := range []string{"h.tif.json", "h.png.json", "h.r16.json", "h.r16.vrt"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("missing %s: %v", name, err)
		}
	}
	step := float64(hi-lo) / 65535
	for _, tc := range []struct {
		file     string
		geo      bool // has a geotransform
		min, max float64
		tol      float64
	}{
		{"h.tif", true, float64(lo), float64(hi), 1e-3}, // gdalinfo -json prints 3 decimals
		{"h.png", false, 0, 65535, 0},
		{"h.r16.vrt", true, float64(lo), float64(hi), 1e-3},
	} {
		path := filepath.Join(dir, tc.file)
		g := gdalinfo(t, path)
		if g.Size != [2]int{37, 23} {
			t.Errorf("%s: GDAL size %v; want [37 23]", tc.file, g.Size)
		}
		if tc.geo {
			want := []float64{0, 12.5, 0, 23 * 12.5, 0, -12.5}
			if len(g.GeoTransform) != 6 {
				t.Errorf("%s: no geotransform", tc.file)
			} else {
				for i := range want {
					if g.GeoTransform[i] != want[i] {
						t.Errorf("%s: geotransform %v; want %v", tc.file, g.GeoTransform, want)
						break
					}
				}
			}
		}
		b := g.Bands[0]
		bmin, bmax := b.ComputedMin, b.ComputedMax
		if b.Scale != nil {
			bmin = bmin**b.Scale + *b.Offset
			bmax = bmax**b.Scale + *b.Offset
		}
		// The VRT maps 0 and 65535 back to lo and hi exactly up to
		// float64 rounding of Offset + q·Scale; the tolerance is
		// gdalinfo's printed precision.
		if math.Abs(bmin-tc.min) > tc.tol || math.Abs(bmax-tc.max) > tc.tol {
			t.Errorf("%s: GDAL range [%g, %g]; want [%g, %g] ± %g", tc.file, bmin, bmax, tc.min, tc.max, tc.tol)
		}
	}
	// Our readers: the TIFF bit for bit, with the cell size even without
	// the sidecar; the 16-bit files to within half a step.
	g, err := ReadHeights(filepath.Join(dir, "h.tif"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Data {
		if g.Data[i] != f.Data[i] {
			t.Fatalf("tif cell %d: %v; want %v", i, g.Data[i], f.Data[i])
		}
	}
	for _, name := range []string{"h.png", "h.r16"} {
		g, err := ReadHeights(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Data {
			// Half a step of quantization, plus float32 rounding of metres.
			if d := math.Abs(float64(g.Data[i] - f.Data[i])); d > step/2+1e-3 {
				t.Fatalf("%s cell %d: %v; want %v ± %g", name, i, g.Data[i], f.Data[i], step/2)
			}
		}
	}
}

// TestLegacySidecar reads a .png whose sidecar has the name releases
// before the export profiles wrote (h.json), and prefers h.png.json when
// both exist.
func TestLegacySidecar(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "h.png")
	f := sim.NewField(3, 1, 5)
	copy(f.Data, []float32{100, 200, 300})
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(SidecarPath(path), LegacySidecarPath(path)); err != nil {
		t.Fatal(err)
	}
	g, err := ReadHeights(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Data[0] != 100 || g.Data[2] != 300 || g.Cell != 5 {
		t.Errorf("legacy sidecar: got %v cell %g; want [100 200 300] cell 5", g.Data, g.Cell)
	}
	// A new sidecar wins over the legacy one.
	writeFile(t, dir, "h.png.json", []byte(`{"width":3,"height":1,"cell_size_m":7,"min_m":0,"max_m":2,"encoding":"png16"}`))
	if g, err = ReadHeights(path); err != nil || g.Cell != 7 || g.Data[2] != 2 {
		t.Errorf("both sidecars: got %v cell %g err %v; want the new one's (max 2, cell 7)", g.Data, g.Cell, err)
	}
}

// TestSidecarsDoNotCollide writes one name in every raster format: each
// keeps its own sidecar with its own encoding.
func TestSidecarsDoNotCollide(t *testing.T) {
	dir := t.TempDir()
	f := testField(5, 4, 3)
	for _, ext := range []string{".png", ".r16", ".tif"} {
		if err := Write(filepath.Join(dir, "h"+ext), f); err != nil {
			t.Fatal(err)
		}
	}
	for ext, enc := range map[string]string{".png": EncodingPNG16, ".r16": EncodingR16, ".tif": EncodingTIFF} {
		b, err := os.ReadFile(filepath.Join(dir, "h"+ext+".json"))
		if err != nil {
			t.Fatal(err)
		}
		m, err := DecodeMeta(b)
		if err != nil || m.Encoding != enc {
			t.Errorf("h%s.json: %+v, %v; want encoding %s", ext, m, err, enc)
		}
	}
}

// TestGeoTIFFCellSize: a GeoTIFF's pixel size is its cell size when GDAL
// wrote it in a projected system in metres (the two real DEMs in
// app/cli/testdata, UTM at 90 m), and no cell size when it is in degrees
// or in feet, so the caller asks for --cell instead of taking degrees or
// feet for metres.
func TestGeoTIFFCellSize(t *testing.T) {
	for _, name := range []string{"jacksboro.tif", "bigtujunga.tif"} {
		f, err := ReadHeights(filepath.Join("..", "cli", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if f.Cell != 90 {
			t.Errorf("%s: cell %g m; want 90 (its UTM pixel size)", name, f.Cell)
		}
	}
	bin, err := exec.LookPath("gdal_translate")
	if err != nil {
		t.Skip("gdal_translate not found: install gdal-bin (scripts/deps.sh does)")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "src.tif")
	f := testField(16, 12, 3)
	f.Cell = 30
	if err := Write(src, f); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want float64
	}{
		{"utm.tif", []string{"-a_srs", "EPSG:32633", "-a_ullr", "500000", "4000360", "500480", "4000000"}, 30},
		{"degrees.tif", []string{"-a_srs", "EPSG:4326", "-a_ullr", "10", "45.0036", "10.0048", "45"}, 0},
		{"feet.tif", []string{"-a_srs", "EPSG:2227", "-a_ullr", "6000000", "2000360", "6000480", "2000000"}, 0},
	} {
		out := filepath.Join(dir, c.name)
		args := append(append([]string{"-q", "-of", "GTiff"}, c.args...), src, out)
		if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("gdal_translate %v: %v\n%s", args, err, b)
		}
		g, err := ReadHeights(out)
		if err != nil {
			t.Fatal(err)
		}
		if g.Cell != c.want {
			t.Errorf("%s: cell %g; want %g", c.name, g.Cell, c.want)
		}
	}
}
