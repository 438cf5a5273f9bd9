package export

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
)

func readMeta(t *testing.T, path string) *rasterio.Meta {
	t.Helper()
	b, err := os.ReadFile(rasterio.SidecarPath(path))
	if err != nil {
		t.Fatal(err)
	}
	m, err := rasterio.DecodeMeta(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestUnrealScales(t *testing.T) {
	dir := t.TempDir()
	src := noise(100, 100, 4)
	tgt, _ := LookupTarget("unreal")
	path := filepath.Join(dir, "h.png")
	p, err := Spec{Target: tgt, W: 505, Heightmap: true, Kind: "heightmap"}.Check(path, src.W, src.H)
	if err != nil {
		t.Fatal(err)
	}
	files, em, err := p.Write(path, src)
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v, err %v", files, err)
	}
	m := readMeta(t, path)
	if m.Width != 505 || m.Engine == nil || *m.Engine != *em || m.Kind != "heightmap" {
		t.Fatalf("sidecar %+v engine %+v; want 505² with the engine scales %+v", m, m.Engine, em)
	}
	// Unreal maps q to LocationZ + (q-32768)·ScaleZ/128 cm; that must be
	// the sidecar's Min + q/65535·(Max-Min) m. Tolerance 1e-9 relative:
	// float64 rounding.
	for _, q := range []float64{0, 1234, 32768, 65535} {
		got := em.OffsetZ + (q-32768)*em.ScaleZ/128
		want := 100 * (m.Min + q/65535*(m.Max-m.Min))
		if math.Abs(got-want) > 1e-9*math.Abs(want)+1e-9 {
			t.Errorf("q=%g: Unreal height %g cm; want %g", q, got, want)
		}
	}
	// XY: 99 cells of 30 m over 504 quads.
	if want := 100 * 30 * 99.0 / 504; math.Abs(em.ScaleX-want) > 1e-9 || em.ScaleY != em.ScaleX {
		t.Errorf("scale X %g Y %g; want %g cm", em.ScaleX, em.ScaleY, want)
	}
	if d := Describe(em, 505); !strings.Contains(d, "63 quads/section, 2×2 sections/component, 4×4 components") {
		t.Errorf("Describe: %s", d)
	}
	g, err := rasterio.ReadHeights(path)
	if err != nil || g.W != 505 {
		t.Fatalf("read back: %v", err)
	}
}

func TestTargetRefusals(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		target, file string
		size         int
		tiles        string
		want         string
	}{
		{"unreal", "h.png", 500, "", "unreal does not take a size of 500: want one of 127, 253, 505"},
		{"unreal", "h.png", 0, "", "unreal needs a size"},
		{"unreal", "h.tif", 505, "", `unreal does not read ".tif" files`},
		{"unity", "h.png", 513, "", `unity does not read ".png"`},
		{"unity", "h.raw", 512, "", "unity does not take a size of 512"},
		{"godot", "h.png", 513, "", `godot does not read ".png"`},
		{"unreal", "h.png", 1009, "5x5", "does not split into 5x5 tiles"}, {"unreal", "h.png", 1009, "3x3", "each of the 3x3 tiles of 1009×1009 is 337×337"},
		{"generic", "h.png", 1, "", "want 2 to"},
		{"generic", "no/h.png", 9, "", "no"},
	} {
		tgt, err := LookupTarget(c.target)
		if err != nil {
			t.Fatal(err)
		}
		rows, cols, err := ParseTiles(c.tiles)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Spec{Target: tgt, W: c.size, Rows: rows, Cols: cols, Heightmap: true}.Check(filepath.Join(dir, c.file), 64, 64)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s %d %s: got %v; want an error containing %q", c.target, c.file, c.size, c.tiles, err, c.want)
		}
	}
	if _, err := LookupTarget("cryengine"); err == nil || !strings.Contains(err.Error(), "unreal, unity, godot, generic") {
		t.Errorf("unknown target: %v", err)
	}
	for _, s := range []string{"2", "0x2", "2x", "ax2", "65x1"} {
		if _, _, err := ParseTiles(s); err == nil {
			t.Errorf("ParseTiles(%q): no error", s)
		}
	}
}

func TestTilesReassemble(t *testing.T) {
	// Tiles of an export, put back together, are the untiled export bit
	// for bit (float TIFF and 16-bit R16); neighbours share their edge.
	src := noise(50, 40, 5)
	for _, ext := range []string{".tif", ".r16"} {
		dir := t.TempDir()
		whole := filepath.Join(dir, "whole"+ext)
		p, err := Spec{W: 61, H: 41, Kind: "heightmap", Heightmap: true}.Check(whole, src.W, src.H)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.Write(whole, src); err != nil {
			t.Fatal(err)
		}
		want, err := rasterio.ReadHeights(whole)
		if err != nil {
			t.Fatal(err)
		}
		tiled := filepath.Join(dir, "t"+ext)
		p, err = Spec{W: 61, H: 41, Rows: 2, Cols: 3, Kind: "heightmap", Heightmap: true}.Check(tiled, src.W, src.H)
		if err != nil {
			t.Fatal(err)
		}
		files, _, err := p.Write(tiled, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != 6 || filepath.Base(files[5]) != "t_x2_y1"+ext {
			t.Fatalf("files %v; want 6 ending t_x2_y1%s", files, ext)
		}
		for _, f := range files {
			m := readMeta(t, f)
			tl := m.Tile
			if tl == nil || m.Width != 21 || m.Height != 21 {
				t.Fatalf("%s: sidecar %+v; want a 21×21 tile", f, m)
			}
			g, err := rasterio.ReadHeights(f)
			if err != nil {
				t.Fatal(err)
			}
			for y := range g.H {
				for x := range g.W {
					a, b := g.Data[y*g.W+x], want.Data[(tl.Y0+y)*61+tl.X0+x]
					if math.Float32bits(a) != math.Float32bits(b) {
						t.Fatalf("%s pixel %d,%d: %v; untiled export has %v", f, x, y, a, b)
					}
				}
			}
			if lo, hi := src.MinMax(); m.Min != float64(lo) || m.Max != float64(hi) {
				t.Fatalf("%s: sidecar range [%g, %g]; want the source's [%g, %g], shared by every tile", f, m.Min, m.Max, lo, hi)
			}
		}
		// Shared edges: the last column of x0_y0 is the first of x1_y0.
		a, _ := rasterio.ReadHeights(TilePath(tiled, 0, 0))
		b, _ := rasterio.ReadHeights(TilePath(tiled, 1, 0))
		c, _ := rasterio.ReadHeights(TilePath(tiled, 0, 1))
		for i := range 21 {
			if a.Data[i*21+20] != b.Data[i*21] {
				t.Fatalf("%s: row %d: x0 right edge %v, x1 left edge %v", ext, i, a.Data[i*21+20], b.Data[i*21])
			}
			if a.Data[20*21+i] != c.Data[i] {
				t.Fatalf("%s: column %d: y0 bottom edge %v, y1 top edge %v", ext, i, a.Data[20*21+i], c.Data[i])
			}
		}
	}
}

// TestTargetsWithGDAL opens each target's heightmap with gdalinfo: size,
// pixel size (R16 through its VRT), and the range in metres against the
// sidecar.
func TestTargetsWithGDAL(t *testing.T) {
	bin, err := exec.LookPath("gdalinfo")
	if err != nil {
		t.Skip("gdalinfo not found: install gdal-bin (scripts/deps.sh does) to check exports with GDAL")
	}
	src := noise(64, 64, 6)
	dir := t.TempDir()
	for _, c := range []struct {
		target, file, open string
		size               int
	}{
		{"unreal", "u.r16", "u.r16.vrt", 127},
		{"unity", "y.raw", "y.raw.vrt", 129},
		{"godot", "g.r16", "g.r16.vrt", 65},
		{"generic", "t.tif", "t.tif", 100},
	} {
		tgt, _ := LookupTarget(c.target)
		path := filepath.Join(dir, c.file)
		p, err := Spec{Target: tgt, W: c.size, Heightmap: true, VRT: rasterio.IsRaw(c.file)}.Check(path, 64, 64)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.Write(path, src); err != nil {
			t.Fatal(err)
		}
		m := readMeta(t, path)
		out, err := exec.Command(bin, "-json", "-mm", filepath.Join(dir, c.open)).Output()
		if err != nil {
			t.Fatalf("gdalinfo %s: %v", c.open, err)
		}
		var g struct {
			Size         [2]int    `json:"size"`
			GeoTransform []float64 `json:"geoTransform"`
			Bands        []struct {
				Min    float64  `json:"computedMin"`
				Max    float64  `json:"computedMax"`
				Offset *float64 `json:"offset"`
				Scale  *float64 `json:"scale"`
			} `json:"bands"`
		}
		if err := json.Unmarshal(out, &g); err != nil || len(g.Bands) != 1 || len(g.GeoTransform) != 6 {
			t.Fatalf("gdalinfo %s: %v\n%s", c.open, err, out)
		}
		cell := 30 * 63 / float64(c.size-1)
		if g.Size != [2]int{c.size, c.size} || math.Abs(g.GeoTransform[1]-cell) > 1e-9 || math.Abs(math.Abs(g.GeoTransform[5])-cell) > 1e-9 { // Unity's RAW is south-up: +cell
			t.Errorf("%s: GDAL size %v geotransform %v; want %d² pixels of %g m", c.open, g.Size, g.GeoTransform, c.size, cell)
		}
		lo, hi := g.Bands[0].Min, g.Bands[0].Max
		if s := g.Bands[0].Scale; s != nil {
			lo, hi = lo**s+*g.Bands[0].Offset, hi**s+*g.Bands[0].Offset
		}
		// gdalinfo -json prints 3 decimals. The export's extremes lie
		// within the sidecar's range (the source's), not on it.
		if lo < m.Min-1e-3 || hi > m.Max+1e-3 || hi-lo < 0.9*(m.Max-m.Min) {
			t.Errorf("%s: GDAL range [%g, %g]; sidecar [%g, %g]", c.open, lo, hi, m.Min, m.Max)
		}
	}
}

func TestGenericKeepsShape(t *testing.T) {
	// A 101×51 grid exported generic at 201: 201×101, square cells of
	// half the size; Unreal at 127: square, X and Y scales differ.
	p, err := Spec{W: 201}.Check(filepath.Join(t.TempDir(), "h.tif"), 101, 51)
	if err != nil || p.W != 201 || p.H != 101 {
		t.Fatalf("generic: %+v, %v; want 201×101", p, err)
	}
	r := NewResampler(noise(101, 51, 1), p.W, p.H)
	if r.CellX != r.CellY || r.CellX != 15 {
		t.Errorf("cells %g × %g; want 15 × 15", r.CellX, r.CellY)
	}
	tgt, _ := LookupTarget("unreal")
	p, err = Spec{Target: tgt, W: 127, Heightmap: true}.Check(filepath.Join(t.TempDir(), "h.png"), 101, 51)
	if err != nil || p.W != 127 || p.H != 127 {
		t.Fatalf("unreal: %+v, %v; want 127×127", p, err)
	}
}

// TestTilesWithGDAL: each tile, as GeoTIFF and as R16 through its VRT,
// sits at its place in the whole export in GDAL's eyes.
func TestTilesWithGDAL(t *testing.T) {
	bin, err := exec.LookPath("gdalinfo")
	if err != nil {
		t.Skip("gdalinfo not found: install gdal-bin (scripts/deps.sh does) to check exports with GDAL")
	}
	src := noise(40, 40, 8)
	for _, ext := range []string{".tif", ".r16"} {
		dir := t.TempDir()
		path := filepath.Join(dir, "h"+ext)
		p, err := Spec{W: 41, Rows: 2, Cols: 2, VRT: ext == ".r16", Heightmap: true}.Check(path, 40, 40)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.Write(path, src); err != nil {
			t.Fatal(err)
		}
		cell := 30 * 39 / 40.0
		for _, tc := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
			f := TilePath(path, tc[0], tc[1])
			if ext == ".r16" {
				f += ".vrt"
			}
			out, err := exec.Command(bin, "-json", f).Output()
			if err != nil {
				t.Fatalf("gdalinfo %s: %v", f, err)
			}
			var g struct {
				Size         [2]int    `json:"size"`
				GeoTransform []float64 `json:"geoTransform"`
			}
			if err := json.Unmarshal(out, &g); err != nil || len(g.GeoTransform) != 6 {
				t.Fatalf("gdalinfo %s: %v", f, err)
			}
			x0, y0 := float64(20*tc[0])*cell, float64(41-20*tc[1])*cell
			if g.Size != [2]int{21, 21} || math.Abs(g.GeoTransform[0]-x0) > 1e-9 || math.Abs(g.GeoTransform[3]-y0) > 1e-9 {
				t.Errorf("%s: size %v geotransform %v; want 21² at (%g, %g)", filepath.Base(f), g.Size, g.GeoTransform, x0, y0)
			}
		}
	}
}

func TestUnitySouthUp(t *testing.T) {
	// Unity's RAW holds the rows south first: its first row is the
	// generic export's last; the reader turns it back, bit for bit.
	src := noise(40, 40, 9)
	dir := t.TempDir()
	uni, _ := LookupTarget("unity")
	u := filepath.Join(dir, "u.raw")
	p, err := Spec{Target: uni, W: 65, Heightmap: true, VRT: true}.Check(u, 40, 40)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Write(u, src); err != nil {
		t.Fatal(err)
	}
	g := filepath.Join(dir, "g.r16")
	p, _ = Spec{W: 65, Heightmap: true}.Check(g, 40, 40)
	if _, _, err := p.Write(g, src); err != nil {
		t.Fatal(err)
	}
	ub, _ := os.ReadFile(u)
	gb, _ := os.ReadFile(g)
	if string(ub[:130]) != string(gb[len(gb)-130:]) {
		t.Error("the RAW's first row is not the north-up file's last")
	}
	if m := readMeta(t, u); !m.SouthUp {
		t.Error("sidecar does not say south_up")
	}
	a, err := rasterio.ReadHeights(u)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := rasterio.ReadHeights(g)
	for i := range a.Data {
		if a.Data[i] != b.Data[i] {
			t.Fatalf("cell %d read back %v; north-up file %v", i, a.Data[i], b.Data[i])
		}
	}
	// GDAL places it south-up: a positive pixel height from the origin.
	if bin, err := exec.LookPath("gdalinfo"); err == nil {
		out, err := exec.Command(bin, "-json", u+".vrt").Output()
		if err != nil {
			t.Fatal(err)
		}
		var gi struct {
			GeoTransform []float64 `json:"geoTransform"`
		}
		json.Unmarshal(out, &gi)
		if len(gi.GeoTransform) != 6 || gi.GeoTransform[3] != 0 || !(gi.GeoTransform[5] > 0) {
			t.Errorf("VRT geotransform %v; want origin y 0 and a positive pixel height", gi.GeoTransform)
		}
	}
}
