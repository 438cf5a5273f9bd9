package rasterio

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"
)

// mangle returns copies of b cut in half, with a byte flipped in the
// middle, and with its last byte dropped: seeds near valid inputs.
func mangle(b []byte) [][]byte {
	flipped := bytes.Clone(b)
	flipped[len(b)/2] ^= 0xa5
	return [][]byte{bytes.Clone(b[:len(b)/2]), flipped, bytes.Clone(b[:len(b)-1])}
}

func FuzzDecodePNG(f *testing.F) {
	var seeds [][]byte
	for _, fl := range []struct{ w, h int }{{1, 1}, {7, 3}, {16, 16}} {
		seeds = append(seeds, encodeField(f, ".png", testField(fl.w, fl.h, 1)))
	}
	gray := image.NewGray(image.Rect(0, 0, 3, 2))
	copy(gray.Pix, []byte{0, 50, 100, 150, 200, 250})
	rgba := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	rgba.Set(1, 0, color.NRGBA{200, 30, 10, 100})
	pal := image.NewPaletted(image.Rect(0, 0, 3, 1), color.Palette{color.Black, color.White})
	pal.SetColorIndex(1, 0, 1)
	for _, img := range []image.Image{gray, rgba, pal} {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, buf.Bytes())
	}
	for _, s := range seeds {
		f.Add(s)
		for _, m := range mangle(s) {
			f.Add(m)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		w, h, data, bits, err := DecodePNG(bytes.NewReader(b))
		if err != nil {
			return
		}
		if w < 1 || h < 1 || w > MaxSide || h > MaxSide || len(data) != w*h {
			t.Fatalf("got %d×%d with %d values", w, h, len(data))
		}
		if bits != 1 && bits != 2 && bits != 4 && bits != 8 && bits != 16 {
			t.Fatalf("got bit depth %d", bits)
		}
		for i, v := range data {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("value %d is %v, outside [0, 1]", i, v)
			}
		}
	})
}

func FuzzDecodeR16(f *testing.F) {
	for _, fl := range []struct{ w, h int }{{1, 1}, {7, 3}, {4, 4}} {
		b := encodeField(f, ".r16", testField(fl.w, fl.h, 1))
		f.Add(b, fl.w, fl.h)
		f.Add(b, fl.h, fl.w+1)
		for _, m := range mangle(b) {
			f.Add(m, fl.w, fl.h)
		}
	}
	f.Add([]byte{}, 0, 0)
	f.Add([]byte{1, 2}, -1, -2)
	f.Add([]byte{1, 2}, math.MaxInt, 2)
	f.Add([]byte{1, 2}, 1<<32, 1<<32)
	f.Fuzz(func(t *testing.T, b []byte, w, h int) {
		data, err := DecodeR16(b, w, h)
		if err != nil {
			return
		}
		if len(data) != w*h || len(b) != 2*w*h {
			t.Fatalf("%d bytes as %d×%d: got %d values", len(b), w, h, len(data))
		}
		for i, v := range data {
			if v != float32(binary.LittleEndian.Uint16(b[2*i:])) {
				t.Fatalf("value %d: got %v", i, v)
			}
		}
	})
}

func FuzzDecodeTIFF(f *testing.F) {
	var seeds [][]byte
	for _, fl := range []struct{ w, h int }{{1, 1}, {7, 3}, {3000, 12}} {
		seeds = append(seeds, encodeField(f, ".tif", testField(fl.w, fl.h, 1)))
	}
	px := make([]byte, 4*3*5)
	for i := range px {
		px[i] = byte(i * 37)
	}
	seeds = append(seeds,
		buildTIFF(true, px, floatTIFFTags(3, 5,
			short(tagStripOffsets, tiffPixelBase, tiffPixelBase+24, tiffPixelBase+48),
			long(tagRowsPerStrip, 2), short(tagStripByteCounts, 24, 24, 12))),
		buildTIFF(false, px[:6], []tiffTag{short(tagImageWidth, 3), short(tagImageLength, 2),
			short(tagBitsPerSample, 8), long(tagStripOffsets, tiffPixelBase)}),
		buildTIFF(true, px[:12], []tiffTag{short(tagImageWidth, 2), short(tagImageLength, 3),
			short(tagBitsPerSample, 16), long(tagStripOffsets, tiffPixelBase), long(tagRowsPerStrip, 1)}),
		buildTIFF(false, px, floatTIFFTags(3, 5, short(tagCompression, 5))),
		buildTIFF(false, px, floatTIFFTags(3, 5, short(tagTileWidth, 16))),
	)
	for _, s := range seeds {
		f.Add(s)
		for _, m := range mangle(s) {
			f.Add(m)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fl, err := DecodeTIFF(b)
		if err != nil {
			return
		}
		if fl.W < 1 || fl.H < 1 || fl.W > MaxSide || fl.H > MaxSide || len(fl.Data) != fl.W*fl.H {
			t.Fatalf("got %d×%d with %d values", fl.W, fl.H, len(fl.Data))
		}
		if len(fl.Data) > len(b) {
			t.Fatalf("%d values from %d bytes", len(fl.Data), len(b))
		}
	})
}

func FuzzDecodeMeta(f *testing.F) {
	for _, m := range []Meta{
		{Width: 512, Height: 256, CellSize: 30, Min: -12.5, Max: 2310, Encoding: EncodingPNG16},
		{Width: 1, Height: 1, CellSize: 0.001, Min: 0, Max: 0, Encoding: EncodingR16},
		{Width: MaxSide, Height: 3, CellSize: 1e4, Min: -1e30, Max: 1e30, Encoding: EncodingTIFF},
	} {
		b := m.encode()
		f.Add(b)
		for _, x := range mangle(b) {
			f.Add(x)
		}
	}
	f.Add([]byte(`{"width":2,"height":2,"cell_size_m":1,"min_m":0,"max_m":1,"encoding":"r16","x":1}`))
	f.Add([]byte(`{"width":2,"height":2,"cell_size_m":1,"min_m":0,"max_m":1e400,"encoding":"r16"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMeta(b)
		if err != nil {
			return
		}
		if err := m.check(); err != nil {
			t.Fatalf("accepted a sidecar that breaks a rule: %v", err)
		}
		// What was accepted writes back and reads back the same.
		m2, err := DecodeMeta(m.encode())
		if err != nil || *m2 != *m {
			t.Fatalf("re-encoded %+v: got %+v, %v", *m, m2, err)
		}
	})
}
