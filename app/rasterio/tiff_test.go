package rasterio

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/sim"
)

func TestDecodeTIFFBigEndian(t *testing.T) {
	// 3 wide, 5 high, float32, big-endian, 2 rows per strip (strips of 2, 2
	// and 1 rows), StripOffsets as SHORT and StripByteCounts as LONG.
	want := []float32{
		-12.5, 0, 1e-3,
		3.4e38, 1, 2,
		3, 4, 5,
		6, 7, 8,
		-9, 10, float32(math.Pi),
	}
	var px []byte
	for _, v := range want {
		px = binary.BigEndian.AppendUint32(px, math.Float32bits(v))
	}
	rowBytes := uint32(4 * 3)
	b := buildTIFF(true, px, floatTIFFTags(3, 5,
		short(tagStripOffsets, tiffPixelBase, tiffPixelBase+2*rowBytes, tiffPixelBase+4*rowBytes),
		long(tagRowsPerStrip, 2),
		long(tagStripByteCounts, 2*rowBytes, 2*rowBytes, rowBytes),
	))
	f, err := DecodeTIFF(b)
	if err != nil {
		t.Fatal(err)
	}
	if f.W != 3 || f.H != 5 || f.Cell != 0 {
		t.Fatalf("got %d×%d cell %g; want 3×5 cell 0", f.W, f.H, f.Cell)
	}
	for i, v := range want {
		if math.Float32bits(f.Data[i]) != math.Float32bits(v) {
			t.Errorf("cell %d: got %v; want %v", i, f.Data[i], v)
		}
	}
}

func TestDecodeTIFFIntegers(t *testing.T) {
	for _, tc := range []struct {
		name string
		big  bool
		bits uint32
		px   []byte
		want []float32
	}{
		{"8-bit", false, 8, []byte{0, 7, 200, 255}, []float32{0, 7, 200, 255}},
		{"16-bit II", false, 16, []byte{0x34, 0x12, 0, 0, 0xff, 0xff, 1, 0}, []float32{0x1234, 0, 65535, 1}},
		{"16-bit MM", true, 16, []byte{0x12, 0x34, 0, 0, 0xff, 0xff, 0, 1}, []float32{0x1234, 0, 65535, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// No RowsPerStrip (one strip) and no StripByteCounts: both optional here.
			tags := []tiffTag{
				short(tagImageWidth, 2), short(tagImageLength, 2), short(tagBitsPerSample, tc.bits),
				short(tagPhotometric, 1), long(tagStripOffsets, tiffPixelBase),
			}
			f, err := DecodeTIFF(buildTIFF(tc.big, tc.px, tags))
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range tc.want {
				if f.Data[i] != v {
					t.Errorf("cell %d: got %v; want %v", i, f.Data[i], v)
				}
			}
		})
	}
}

func TestDecodeTIFFMatchesWriter(t *testing.T) {
	// The hand-built little-endian file and the writer's file decode alike.
	f := testField(4, 3, 9)
	var px []byte
	for _, v := range f.Data {
		px = binary.LittleEndian.AppendUint32(px, math.Float32bits(v))
	}
	a, err := DecodeTIFF(buildTIFF(false, px, floatTIFFTags(4, 3)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := DecodeTIFF(encodeField(t, ".tif", f))
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range f.Data {
		if a.Data[i] != v || b.Data[i] != v {
			t.Fatalf("cell %d: got %v (hand-built), %v (writer); want %v", i, a.Data[i], b.Data[i], v)
		}
	}
}

func TestDecodeTIFFUnsupported(t *testing.T) {
	px := make([]byte, 4*2*2)
	for _, tc := range []struct {
		name  string
		b     []byte
		words []string
	}{
		{"lzw", buildTIFF(false, px, floatTIFFTags(2, 2, short(tagCompression, 5))), []string{"compression 5", "LZW"}},
		{"deflate", buildTIFF(true, px, floatTIFFTags(2, 2, short(tagCompression, 8))), []string{"compression 8", "Deflate"}},
		{"tiled", buildTIFF(false, px, floatTIFFTags(2, 2, short(tagTileWidth, 16))), []string{"tiled"}},
		{"rgb", buildTIFF(false, px, floatTIFFTags(2, 2, short(tagSamplesPerPixel, 3))), []string{"3 samples per pixel"}},
		{"predictor", buildTIFF(false, px, floatTIFFTags(2, 2, short(tagPredictor, 3))), []string{"predictor 3"}},
		{"float64", buildTIFF(false, px, floatTIFFTags(2, 2, short(tagBitsPerSample, 64))), []string{"64-bit float"}},
		{"int16", buildTIFF(false, px, floatTIFFTags(2, 2, short(tagBitsPerSample, 16), short(tagSampleFormat, 2))), []string{"16-bit signed integer"}},
		{"uint32", buildTIFF(false, px, floatTIFFTags(2, 2, short(tagSampleFormat, 1))), []string{"32-bit unsigned integer"}},
		{"palette", buildTIFF(false, px, floatTIFFTags(2, 2, short(tagPhotometric, 3))), []string{"photometric interpretation 3"}},
		{"bigtiff", []byte("II\x2b\x00\x08\x00\x00\x00"), []string{"BigTIFF"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeTIFF(tc.b)
			if err == nil {
				t.Fatal("got no error")
			}
			for _, w := range append(tc.words, "not supported", tiffRemedy) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got error %q; want it to contain %q", err, w)
				}
			}
		})
	}
}

func TestDecodeTIFFCorrupt(t *testing.T) {
	px := make([]byte, 4*2*2)
	for _, tc := range []struct {
		name string
		b    []byte
		word string
	}{
		{"not tiff", []byte("GIF89a\x00\x00\x00"), "not a TIFF"},
		{"version", []byte("II\x2a\x01\x08\x00\x00\x00"), "version"},
		{"ifd outside", []byte("II\x2a\x00\xff\x00\x00\x00"), "image directory"},
		{"zero width", buildTIFF(false, px, floatTIFFTags(2, 2, short(tagImageWidth, 0))), "0×2"},
		{"huge", buildTIFF(false, px, floatTIFFTags(2, 2, long(tagImageWidth, 40000))), "40000×2"},
		{"strip count", buildTIFF(false, px, floatTIFFTags(2, 2, long(tagRowsPerStrip, 1))), "strip offsets"},
		{"short strip", buildTIFF(false, px, floatTIFFTags(2, 2, long(tagStripByteCounts, 3))), "strip 0 holds 3 bytes"},
		{"rational offsets", buildTIFF(false, px, floatTIFFTags(2, 2, tiffTag{tagStripOffsets, typeRational, []uint32{8, 1}})), "field type 5"},
		{"pixels past end", buildTIFF(false, px, floatTIFFTags(2, 2, long(tagStripOffsets, 1000))), "truncated"},
		{"header", []byte("II*\x00"), "truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeTIFF(tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.word) {
				t.Fatalf("got error %v; want one containing %q", err, tc.word)
			}
		})
	}
}

func TestDecodeTIFFTruncated(t *testing.T) {
	// Every proper prefix of a valid file fails, saying it is truncated.
	b := encodeField(t, ".tif", testField(7, 5, 1))
	for n := range len(b) {
		_, err := DecodeTIFF(b[:n])
		if err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Fatalf("prefix of %d bytes: got error %v; want one saying truncated", n, err)
		}
	}
}

// Subnormal heights (1e-45 m where an engine meant 0) are written as 0 by
// the float TIFF and the OBJ writers; normal ones as they are.
func TestWritersFlushSubnormals(t *testing.T) {
	dir := t.TempDir()
	f := sim.NewField(3, 3, 10)
	sub := math.Float32frombits(1)
	f.Data = []float32{sub, -sub, 0x1p-126, 5, 0, 1e-30, -7, sub * 3, 2}
	path := filepath.Join(dir, "h.tif")
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	g, err := ReadHeights(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []float32{0, 0, 0x1p-126, 5, 0, 1e-30, -7, 0, 2}
	for i, v := range g.Data {
		if v != want[i] {
			t.Errorf("cell %d: read %g; want %g", i, v, want[i])
		}
	}
	obj := filepath.Join(dir, "h.obj")
	if err := Write(obj, f); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "e-45") {
		t.Error("the OBJ holds a subnormal height")
	}
}
