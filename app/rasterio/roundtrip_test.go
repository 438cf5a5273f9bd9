package rasterio

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"orogen/sim"
)

func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name     string
		w, h     int
		encoding string
		exact    bool // float TIFF stores float32 as is
	}{
		{"h.png", 37, 23, EncodingPNG16, false},
		{"h.PNG", 1, 1, EncodingPNG16, false},
		{"h.r16", 37, 23, EncodingR16, false},
		{"h.R16", 5, 64, EncodingR16, false},
		{"h.tif", 37, 23, EncodingTIFF, true},
		{"h.tiff", 1, 1, EncodingTIFF, true},
		{"h.tif", 3000, 30, EncodingTIFF, true}, // 6 strips of 5 rows
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.name)
			f := testField(tc.w, tc.h, uint64(tc.w*tc.h))
			f.Cell = 12.5
			if err := Write(path, f); err != nil {
				t.Fatal(err)
			}
			lo, hi := f.MinMax()
			b, err := os.ReadFile(path + ".json")
			if err != nil {
				t.Fatal(err)
			}
			m, err := DecodeMeta(b)
			if err != nil {
				t.Fatal(err)
			}
			want := Meta{Width: tc.w, Height: tc.h, CellSize: 12.5, Min: float64(lo), Max: float64(hi), Encoding: tc.encoding}
			if *m != want {
				t.Errorf("sidecar: got %+v; want %+v", *m, want)
			}
			if got := dirNames(t, dir); len(got) != 2 {
				t.Errorf("directory holds %q; want the raster and its sidecar", got)
			}

			g, err := ReadHeights(path)
			if err != nil {
				t.Fatal(err)
			}
			if g.W != f.W || g.H != f.H || g.Cell != f.Cell {
				t.Fatalf("got %d×%d cell %g; want %d×%d cell %g", g.W, g.H, g.Cell, f.W, f.H, f.Cell)
			}
			// 16-bit codes are (max-min)/65535 apart, so rounding to the
			// nearest code is off by at most half of that; the heights then
			// round to float32, off by at most half an ulp, under
			// 2^-23·max|h|.
			tol := (float64(hi)-float64(lo))/65535/2 + math.Max(math.Abs(float64(lo)), math.Abs(float64(hi)))*0x1p-23
			for i, v := range f.Data {
				got := g.Data[i]
				if tc.exact {
					if math.Float32bits(got) != math.Float32bits(v) {
						t.Fatalf("cell %d: got %v; want %v bit for bit", i, got, v)
					}
				} else if math.Abs(float64(got)-float64(v)) > tol {
					t.Fatalf("cell %d: got %v; want %v ± %g", i, got, v, tol)
				}
			}
		})
	}
}

func TestRoundTripExtremes(t *testing.T) {
	// The lowest and highest cells map to codes 0 and 65535 and must come
	// back exactly: min + 0 and min + 1·(max-min) are exact in float64.
	f := testField(16, 9, 3)
	lo, hi := f.MinMax()
	for _, name := range []string{"e.png", "e.r16"} {
		path := filepath.Join(t.TempDir(), name)
		if err := Write(path, f); err != nil {
			t.Fatal(err)
		}
		g, err := ReadHeights(path)
		if err != nil {
			t.Fatal(err)
		}
		glo, ghi := g.MinMax()
		if glo != lo || ghi != hi {
			t.Errorf("%s: got range [%v, %v]; want [%v, %v]", name, glo, ghi, lo, hi)
		}
	}
}

func TestConstantField(t *testing.T) {
	f := sim.NewField(4, 3, 10)
	for i := range f.Data {
		f.Data[i] = 812.25
	}
	for _, name := range []string{"c.png", "c.r16", "c.tif"} {
		path := filepath.Join(t.TempDir(), name)
		if err := Write(path, f); err != nil {
			t.Fatal(err)
		}
		u, err := ReadNormalized(path)
		if err != nil {
			t.Fatal(err)
		}
		want := float32(0) // a constant field stores code 0
		if name == "c.tif" {
			want = 812.25
		}
		g, err := ReadHeights(path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range f.Data {
			if u.Data[i] != want || g.Data[i] != 812.25 {
				t.Fatalf("%s cell %d: got normalized %v, height %v; want %v, 812.25", name, i, u.Data[i], g.Data[i], want)
			}
		}
	}
}

// writePNG encodes img into dir/name and returns the path.
func writePNG(t *testing.T, dir, name string, img image.Image) string {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return writeFile(t, dir, name, buf.Bytes())
}

func TestReadNormalizedPNG(t *testing.T) {
	gray8 := image.NewGray(image.Rect(0, 0, 4, 1))
	copy(gray8.Pix, []byte{0, 1, 128, 255})
	gray16 := image.NewGray16(image.Rect(0, 0, 3, 1))
	copy(gray16.Pix, []byte{0, 0, 0x80, 0x01, 0xff, 0xff})
	colours := []color.Color{
		color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 255, 0, 255},
		color.NRGBA{10, 20, 200, 255}, color.NRGBA{255, 255, 255, 128},
	}
	rgba := image.NewNRGBA(image.Rect(0, 0, 4, 1))
	pal := image.NewPaletted(image.Rect(0, 0, 4, 1), colours)
	rgba64 := image.NewNRGBA64(image.Rect(0, 0, 4, 1))
	for x, c := range colours {
		rgba.Set(x, 0, c)
		pal.SetColorIndex(x, 0, uint8(x))
		rgba64.Set(x, 0, c)
	}
	// Colour models other than gray go through color.Gray16Model, which
	// weights 16-bit premultiplied R, G, B by 0.299, 0.587, 0.114.
	lum := make([]float32, len(colours))
	for i, c := range colours {
		lum[i] = float32(float64(color.Gray16Model.Convert(c).(color.Gray16).Y) / 65535)
	}
	for _, tc := range []struct {
		name string
		img  image.Image
		bits int
		want []float32
	}{
		{"gray8", gray8, 8, []float32{0, float32(1.0 / 255), float32(128.0 / 255), 1}},
		{"gray16", gray16, 16, []float32{0, float32(0x8001 / 65535.0), 1}},
		{"rgb", rgba, 8, lum},     // opaque NRGBA except one: encodes as RGBA
		{"paletted", pal, 2, lum}, // 4 colours: image/png writes 2-bit indices
		{"rgba64", rgba64, 16, lum},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writePNG(t, t.TempDir(), "u.png", tc.img)
			f, err := ReadNormalized(path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			w, h, data, bits, err := DecodePNG(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if w != len(tc.want) || h != 1 || bits != tc.bits || f.W != w || f.H != 1 || f.Cell != 0 {
				t.Fatalf("got %d×%d, %d bits, field %d×%d cell %g; want %d×1, %d bits, cell 0",
					w, h, bits, f.W, f.H, f.Cell, len(tc.want), tc.bits)
			}
			for i, want := range tc.want {
				// Exact: both sides divide the same integer in float64 and
				// round once to float32.
				if f.Data[i] != want || data[i] != want {
					t.Errorf("pixel %d: got %v (ReadNormalized), %v (DecodePNG); want %v", i, f.Data[i], data[i], want)
				}
			}
		})
	}
}

func TestReadHeights8BitPNG(t *testing.T) {
	// An 8-bit PNG with a sidecar maps pixel/255 onto [min, max].
	dir := t.TempDir()
	img := image.NewGray(image.Rect(0, 0, 3, 1))
	copy(img.Pix, []byte{0, 51, 255})
	path := writePNG(t, dir, "h8.png", img)
	writeFile(t, dir, "h8.json", []byte(`{"width":3,"height":1,"cell_size_m":5,"min_m":100,"max_m":610,"encoding":"png16"}`))
	f, err := ReadHeights(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{100, 202, 610} // 100 + 51/255·510 = 202
	for i := range want {
		if f.Data[i] != want[i] {
			t.Errorf("pixel %d: got %v; want %v", i, f.Data[i], want[i])
		}
	}
	if f.Cell != 5 {
		t.Errorf("cell: got %g; want 5", f.Cell)
	}
}

func TestReadNormalizedR16(t *testing.T) {
	raw := []byte{0, 0, 0xff, 0xff, 0x01, 0x80, 0x34, 0x12}
	want := []float32{0, 1, float32(0x8001 / 65535.0), float32(0x1234 / 65535.0)}
	t.Run("square without sidecar", func(t *testing.T) {
		f, err := ReadNormalized(writeFile(t, t.TempDir(), "u.r16", raw))
		if err != nil {
			t.Fatal(err)
		}
		if f.W != 2 || f.H != 2 || f.Cell != 0 {
			t.Fatalf("got %d×%d cell %g; want 2×2 cell 0", f.W, f.H, f.Cell)
		}
		for i := range want {
			if f.Data[i] != want[i] {
				t.Errorf("cell %d: got %v; want %v", i, f.Data[i], want[i])
			}
		}
	})
	t.Run("sidecar 4×1", func(t *testing.T) {
		dir := t.TempDir()
		path := writeFile(t, dir, "u.r16", raw)
		writeFile(t, dir, "u.json", []byte(`{"width":4,"height":1,"cell_size_m":90,"min_m":0,"max_m":1,"encoding":"r16"}`))
		f, err := ReadNormalized(path)
		if err != nil {
			t.Fatal(err)
		}
		if f.W != 4 || f.H != 1 || f.Cell != 90 {
			t.Fatalf("got %d×%d cell %g; want 4×1 cell 90", f.W, f.H, f.Cell)
		}
		for i := range want {
			if f.Data[i] != want[i] {
				t.Errorf("cell %d: got %v; want %v", i, f.Data[i], want[i])
			}
		}
	})
}

func TestReadNormalizedTIFF(t *testing.T) {
	// TIFF uplift is m/yr as stored: no scaling, even with a sidecar.
	f := sim.NewField(3, 2, 50)
	copy(f.Data, []float32{0, 0.001, 0.0025, -0.0005, 1e-4, 2})
	dir := t.TempDir()
	path := filepath.Join(dir, "u.tif")
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	g, err := ReadNormalized(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Cell != 50 {
		t.Errorf("cell: got %g; want 50 from the sidecar", g.Cell)
	}
	for i, v := range f.Data {
		if g.Data[i] != v {
			t.Errorf("cell %d: got %v; want %v", i, g.Data[i], v)
		}
	}
	// Without the sidecar the cell size comes from the GeoTIFF tags.
	os.Remove(SidecarPath(path))
	if g, err = ReadHeights(path); err != nil || g.Cell != 50 {
		t.Errorf("without sidecar: got cell %v, error %v; want 50 (ModelPixelScale), nil", g.Cell, err)
	}
}

func TestOverwrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "h.tif")
	for seed := range uint64(2) {
		f := testField(8, 8, seed)
		if err := Write(path, f); err != nil {
			t.Fatal(err)
		}
		g, err := ReadHeights(path)
		if err != nil {
			t.Fatal(err)
		}
		if g.Data[5] != f.Data[5] {
			t.Fatalf("write %d: got %v; want %v", seed, g.Data[5], f.Data[5])
		}
	}
	if got := dirNames(t, dir); len(got) != 2 {
		t.Errorf("directory holds %q; want h.tif.json and h.tif", got)
	}
}

func TestPNGWriterBlocks(t *testing.T) {
	// A 16-bit PNG of many deflate blocks and several IDAT chunks: the
	// same bytes with GOMAXPROCS 1 and 2, and image/png reads back every
	// value.
	f := testField(1200, 500, 9) // noise: ~1.2 MB deflated, two IDAT chunks
	lo, hi := f.MinMax()
	var outs [2][]byte
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for i, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		var buf bytes.Buffer
		if err := encodePNG(&buf, f, lo, hi); err != nil {
			t.Fatal(err)
		}
		outs[i] = buf.Bytes()
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("PNG bytes differ between GOMAXPROCS 1 and 2")
	}
	img, err := png.Decode(bytes.NewReader(outs[0]))
	if err != nil {
		t.Fatal(err)
	}
	g := img.(*image.Gray16)
	for y := range f.H {
		for x := range f.W {
			if got, want := g.Gray16At(x, y).Y, quantize(f.Data[y*f.W+x], lo, hi); got != want {
				t.Fatalf("pixel %d,%d: %d; want %d", x, y, got, want)
			}
		}
	}
}
