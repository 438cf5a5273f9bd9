package rasterio

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"orogen/sim"
)

// testField returns a w×h field of 30 m cells with seeded random heights in
// [-120, 2480) m, so that negative values and a wide range are exercised.
func testField(w, h int, seed uint64) *sim.Field {
	r := rand.New(rand.NewPCG(seed, 1))
	f := sim.NewField(w, h, 30)
	for i := range f.Data {
		f.Data[i] = float32(-120 + 2600*r.Float64())
	}
	return f
}

// encoded returns what enc writes for f.
func encoded(t testing.TB, enc func(w *bytes.Buffer) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := enc(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// encodeField returns f in the format of ext, as Write would store it.
func encodeField(t testing.TB, ext string, f *sim.Field) []byte {
	lo, hi := f.MinMax()
	enc := map[string]func(w *bytes.Buffer) error{
		".png": func(w *bytes.Buffer) error { return encodePNG(w, f, lo, hi) },
		".r16": func(w *bytes.Buffer) error { return encodeR16(w, f, lo, hi) },
		".tif": func(w *bytes.Buffer) error { return encodeTIFF(w, f, lo, hi) },
		".obj": func(w *bytes.Buffer) error { return encodeOBJ(w, f, lo, hi) },
	}[ext]
	return encoded(t, enc)
}

// writeFile writes b to name in dir and returns its path.
func writeFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// dirNames returns the sorted names in dir.
func dirNames(t testing.TB, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

// tiffTag is one entry for buildTIFF: a SHORT or LONG tag with its values.
type tiffTag struct {
	tag, typ uint16
	vals     []uint32
}

// tiffPixelBase is where buildTIFF puts the pixel bytes: right after the
// 8-byte header.
const tiffPixelBase = 8

// buildTIFF assembles a TIFF by hand, independently of encodeTIFF: header,
// the pixel bytes at tiffPixelBase, then the IFD (tags sorted) and the
// values that do not fit in their entries. Strip offsets in tags must
// already include tiffPixelBase.
func buildTIFF(bigEndian bool, pixels []byte, tags []tiffTag) []byte {
	var bo interface {
		binary.ByteOrder
		binary.AppendByteOrder
	} = binary.LittleEndian
	b := []byte("II\x00\x00\x00\x00\x00\x00")
	if bigEndian {
		bo = binary.BigEndian
		copy(b, "MM")
	}
	bo.PutUint16(b[2:], 42)
	b = append(b, pixels...)
	if len(b)%2 == 1 {
		b = append(b, 0) // IFDs start on a word boundary
	}
	ifd := len(b)
	bo.PutUint32(b[4:], uint32(ifd))
	tags = slices.Clone(tags)
	sort.Slice(tags, func(i, j int) bool { return tags[i].tag < tags[j].tag })
	extra := ifd + 2 + 12*len(tags) + 4
	var ext []byte
	b = bo.AppendUint16(b, uint16(len(tags)))
	for _, tg := range tags {
		b = bo.AppendUint16(b, tg.tag)
		b = bo.AppendUint16(b, tg.typ)
		b = bo.AppendUint32(b, uint32(len(tg.vals)))
		var vb []byte
		for _, v := range tg.vals {
			if tg.typ == typeShort {
				vb = bo.AppendUint16(vb, uint16(v))
			} else {
				vb = bo.AppendUint32(vb, v)
			}
		}
		if len(vb) <= 4 {
			b = append(b, vb...)
			b = append(b, make([]byte, 4-len(vb))...)
		} else {
			b = bo.AppendUint32(b, uint32(extra+len(ext)))
			ext = append(ext, vb...)
		}
	}
	b = bo.AppendUint32(b, 0)
	return append(b, ext...)
}

// short and long make tiffTags.
func short(tag uint16, v ...uint32) tiffTag { return tiffTag{tag, typeShort, v} }
func long(tag uint16, v ...uint32) tiffTag  { return tiffTag{tag, typeLong, v} }

// floatTIFFTags returns the tags of a w×h single-strip float32 TIFF whose
// pixels sit at tiffPixelBase, with extra tags replacing same-numbered ones.
func floatTIFFTags(w, h int, extra ...tiffTag) []tiffTag {
	tags := []tiffTag{
		long(tagImageWidth, uint32(w)), long(tagImageLength, uint32(h)),
		short(tagBitsPerSample, 32), short(tagCompression, 1), short(tagPhotometric, 1),
		long(tagStripOffsets, tiffPixelBase), short(tagSamplesPerPixel, 1),
		long(tagRowsPerStrip, uint32(h)), long(tagStripByteCounts, uint32(4*w*h)),
		short(tagSampleFormat, 3),
	}
	for _, e := range extra {
		tags = slices.DeleteFunc(tags, func(t tiffTag) bool { return t.tag == e.tag })
		tags = append(tags, e)
	}
	return tags
}
