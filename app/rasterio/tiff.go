package rasterio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"orogen/sim"
)

// TIFF tags this package writes or inspects (TIFF 6.0, section 8 and
// appendix A).
const (
	tagImageWidth      = 256
	tagImageLength     = 257
	tagBitsPerSample   = 258
	tagCompression     = 259
	tagPhotometric     = 262
	tagStripOffsets    = 273
	tagSamplesPerPixel = 277
	tagRowsPerStrip    = 278
	tagStripByteCounts = 279
	tagXResolution     = 282
	tagYResolution     = 283
	tagPlanarConfig    = 284
	tagResolutionUnit  = 296
	tagPredictor       = 317
	tagTileWidth       = 322
	tagTileLength      = 323
	tagTileOffsets     = 324
	tagTileByteCounts  = 325
	tagSampleFormat    = 339
	// GeoTIFF 1.0 (OGC 19-008r4): the cell size, the model coordinates of
	// a raster point, and the GeoKey directory.
	tagModelPixelScale = 33550
	tagModelTiepoint   = 33922
	tagGeoKeyDirectory = 34735
)

// TIFF field types.
const (
	typeShort    = 3
	typeLong     = 4
	typeRational = 5
	typeDouble   = 12
)

// tiffStripBytes is the strip size the writer aims at (TIFF 6.0 suggests
// about 8 KiB; larger strips read faster and no reader limits them).
const tiffStripBytes = 64 << 10

// tiffRemedy ends every "not supported" error of the TIFF reader.
const tiffRemedy = "re-save as uncompressed 32-bit float TIFF"

// tiffLayout returns the rows per strip, strip count and offset of the
// pixel data of a w×h float32 TIFF as encodeTIFF writes it, and the file
// size.
func tiffLayout(w, h int) (rps, strips, dataOff int, size int64) {
	rps = max(1, min(h, tiffStripBytes/(4*w)))
	strips = (h + rps - 1) / rps
	dataOff = tiffHeaderSize
	if strips > 1 {
		dataOff += 8 * strips // StripOffsets and StripByteCounts arrays
	}
	return rps, strips, dataOff, int64(dataOff) + 4*int64(w)*int64(h)
}

// tiffEntries is how many IFD entries encodeTIFF writes; tiffHeaderSize
// covers the header, the IFD and what follows it: the two resolution
// rationals, ModelPixelScale (3 doubles), ModelTiepoint (6 doubles) and
// the GeoKey directory (8 shorts).
const (
	tiffEntries    = 17
	tiffIFDEnd     = 8 + 2 + 12*tiffEntries + 4
	tiffScaleAt    = tiffIFDEnd + 16
	tiffTieAt      = tiffScaleAt + 24
	tiffKeysAt     = tiffTieAt + 48
	tiffHeaderSize = tiffKeysAt + 16
)

// encodeTIFF writes f as a little-endian, uncompressed, single-sample 32-bit
// float TIFF in strips. lo and hi are unused: values are stored as they
// are, except subnormal ones, stored as 0 (sim.Flush).
//
// It is a GeoTIFF without a projection: ModelPixelScale is (Cell, Cell,
// 0) and ModelTiepoint puts the north-west corner of the raster at model
// (0, H·Cell), so the terrain covers [0, W·Cell] × [0, H·Cell] metres with
// its south-west corner at the model origin, north up; the GeoKey
// directory says only that a pixel is an area (GTRasterTypeGeoKey =
// RasterPixelIsArea). GIS tools read the pixel size and extent from it.
func encodeTIFF(w io.Writer, f *sim.Field, _, _ float32) error {
	return encodeTIFFAt(w, f, 0, float64(f.H)*f.Cell)
}

// encodeTIFFAt is encodeTIFF with the north-west corner at model (ox, oy)
// (a tile of a larger export sits at its place in the whole).
func encodeTIFFAt(w io.Writer, f *sim.Field, ox, oy float64) error {
	rps, strips, dataOff, size := tiffLayout(f.W, f.H)
	if size > math.MaxUint32 {
		return fmt.Errorf("a %d×%d float TIFF needs %d bytes, over the format's 4 GiB: export .png or .r16", f.W, f.H, size)
	}
	le := binary.LittleEndian
	rowBytes := uint32(4 * f.W)
	hdr := make([]byte, 0, dataOff)
	hdr = append(hdr, 'I', 'I')
	hdr = le.AppendUint16(hdr, 42)
	hdr = le.AppendUint32(hdr, 8) // the IFD follows the header
	hdr = le.AppendUint16(hdr, tiffEntries)
	entry := func(tag, typ uint16, count, value uint32) {
		hdr = le.AppendUint16(hdr, tag)
		hdr = le.AppendUint16(hdr, typ)
		hdr = le.AppendUint32(hdr, count)
		if typ == typeShort && count == 1 {
			hdr = le.AppendUint16(hdr, uint16(value)) // left-justified in the 4-byte field
			hdr = le.AppendUint16(hdr, 0)
		} else {
			hdr = le.AppendUint32(hdr, value)
		}
	}
	// Entries in ascending tag order, as TIFF requires. One strip keeps its
	// offset and byte count in the entry; more point at arrays after the
	// resolutions.
	arrays := uint32(tiffHeaderSize)
	entry(tagImageWidth, typeLong, 1, uint32(f.W))
	entry(tagImageLength, typeLong, 1, uint32(f.H))
	entry(tagBitsPerSample, typeShort, 1, 32)
	entry(tagCompression, typeShort, 1, 1)
	entry(tagPhotometric, typeShort, 1, 1) // BlackIsZero
	if strips == 1 {
		entry(tagStripOffsets, typeLong, 1, uint32(dataOff))
	} else {
		entry(tagStripOffsets, typeLong, uint32(strips), arrays)
	}
	entry(tagSamplesPerPixel, typeShort, 1, 1)
	entry(tagRowsPerStrip, typeLong, 1, uint32(rps))
	if strips == 1 {
		entry(tagStripByteCounts, typeLong, 1, rowBytes*uint32(f.H))
	} else {
		entry(tagStripByteCounts, typeLong, uint32(strips), arrays+4*uint32(strips))
	}
	entry(tagXResolution, typeRational, 1, tiffIFDEnd)
	entry(tagYResolution, typeRational, 1, tiffIFDEnd+8)
	entry(tagPlanarConfig, typeShort, 1, 1)
	entry(tagResolutionUnit, typeShort, 1, 1) // no absolute unit
	entry(tagSampleFormat, typeShort, 1, 3)   // IEEE float
	entry(tagModelPixelScale, typeDouble, 3, tiffScaleAt)
	entry(tagModelTiepoint, typeDouble, 6, tiffTieAt)
	entry(tagGeoKeyDirectory, typeShort, 8, tiffKeysAt)
	hdr = le.AppendUint32(hdr, 0) // no further IFD
	for range 4 {
		hdr = le.AppendUint32(hdr, 1) // X and Y resolution 1/1
	}
	for _, v := range []float64{f.Cell, f.Cell, 0, 0, 0, 0, ox, oy, 0} {
		hdr = le.AppendUint64(hdr, math.Float64bits(v))
	}
	// GeoKey directory: version 1.1.0, one key: GTRasterTypeGeoKey (1025)
	// = RasterPixelIsArea (1), stored in the directory itself.
	for _, v := range []uint16{1, 1, 0, 1, 1025, 0, 1, 1} {
		hdr = le.AppendUint16(hdr, v)
	}
	if strips > 1 {
		for i := range strips {
			hdr = le.AppendUint32(hdr, uint32(dataOff)+uint32(i*rps)*rowBytes)
		}
		for i := range strips {
			hdr = le.AppendUint32(hdr, uint32(min(rps, f.H-i*rps))*rowBytes)
		}
	}
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	buf := make([]byte, 0, rowBytes)
	for y := 0; y < f.H; y++ {
		buf = buf[:0]
		for _, v := range f.Data[y*f.W : (y+1)*f.W] {
			buf = le.AppendUint32(buf, math.Float32bits(sim.Flush(v))) // no subnormal heights: 0 is meant
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// DecodeTIFF decodes the first image of a TIFF file. It reads single-sample
// images in strips without compression or predictor, in either byte order:
// 32-bit IEEE float (SampleFormat 3), 16-bit and 8-bit unsigned integers.
// Values are returned as stored (no scaling). Cell is the GeoTIFF
// ModelPixelScale when the file has one with equal, positive and finite X
// and Y scales and no model type (no projection, as Write makes them), else
// 0: a plain TIFF carries no cell size, and a projected or geographic one
// may count in degrees or feet, which the caller must decide. Anything else (compression, tiles, several samples per
// pixel, other sample types) is an error naming what is unsupported.
func DecodeTIFF(b []byte) (*sim.Field, error) {
	f, err := decodeTIFF(b)
	if err != nil {
		return nil, fmt.Errorf("rasterio: tiff: %w", err)
	}
	return f, nil
}

// tiffEntry is one IFD entry; at is the offset of its 4-byte value field.
type tiffEntry struct {
	typ   uint16
	count uint32
	at    int64
}

// tiffFile is a TIFF's bytes, byte order and first IFD.
type tiffFile struct {
	b   []byte
	bo  binary.ByteOrder
	ifd map[uint16]tiffEntry
}

// tiffTagNames names the tags that appear in error messages.
var tiffTagNames = map[uint16]string{
	tagImageWidth: "ImageWidth", tagImageLength: "ImageLength", tagBitsPerSample: "BitsPerSample",
	tagCompression: "Compression", tagPhotometric: "PhotometricInterpretation",
	tagStripOffsets: "StripOffsets", tagSamplesPerPixel: "SamplesPerPixel",
	tagRowsPerStrip: "RowsPerStrip", tagStripByteCounts: "StripByteCounts",
	tagPredictor: "Predictor", tagSampleFormat: "SampleFormat",
}

// values returns the values of a SHORT or LONG tag, or nil if it is absent.
func (t *tiffFile) values(tag uint16) ([]uint32, error) {
	e, ok := t.ifd[tag]
	if !ok {
		return nil, nil
	}
	name := tiffTagNames[tag]
	var size int64
	switch e.typ {
	case typeShort:
		size = 2
	case typeLong:
		size = 4
	default:
		return nil, fmt.Errorf("tag %s has field type %d, want SHORT (3) or LONG (4): file is corrupt", name, e.typ)
	}
	if e.count == 0 {
		return nil, fmt.Errorf("tag %s has no value: file is corrupt", name)
	}
	n := int64(e.count) * size
	p := e.at
	if n > 4 {
		p = int64(t.bo.Uint32(t.b[e.at:]))
	}
	if p+n > int64(len(t.b)) {
		return nil, fmt.Errorf("file is truncated: tag %s needs bytes %d to %d of %d", name, p, p+n, len(t.b))
	}
	// n <= len(b), so this allocation is bounded by the input.
	v := make([]uint32, e.count)
	for i := range v {
		if size == 2 {
			v[i] = uint32(t.bo.Uint16(t.b[p+2*int64(i):]))
		} else {
			v[i] = t.bo.Uint32(t.b[p+4*int64(i):])
		}
	}
	return v, nil
}

// scalar returns the first value of tag, or def if it is absent.
func (t *tiffFile) scalar(tag uint16, def uint32) (uint32, error) {
	v, err := t.values(tag)
	if err != nil || v == nil {
		return def, err
	}
	return v[0], nil
}

// decodeTIFF is DecodeTIFF with errors that do not name their source.
func decodeTIFF(b []byte) (*sim.Field, error) {
	if len(b) < 8 {
		return nil, fmt.Errorf("file is truncated: %d bytes is less than a TIFF header", len(b))
	}
	t := &tiffFile{b: b}
	switch string(b[:2]) {
	case "II":
		t.bo = binary.LittleEndian
	case "MM":
		t.bo = binary.BigEndian
	default:
		return nil, errors.New("not a TIFF file: it does not start with II or MM")
	}
	switch v := t.bo.Uint16(b[2:]); v {
	case 42:
	case 43:
		return nil, errors.New("BigTIFF is not supported: " + tiffRemedy)
	default:
		return nil, fmt.Errorf("not a TIFF file: version %d, want 42", v)
	}
	off := int64(t.bo.Uint32(b[4:]))
	if off < 8 || off+2 > int64(len(b)) {
		return nil, fmt.Errorf("file is truncated or corrupt: image directory at byte %d of %d", off, len(b))
	}
	n := int64(t.bo.Uint16(b[off:]))
	if off+2+12*n > int64(len(b)) {
		return nil, fmt.Errorf("file is truncated: image directory of %d entries at byte %d runs past the end (%d bytes)", n, off, len(b))
	}
	t.ifd = make(map[uint16]tiffEntry, n)
	for i := range n {
		p := off + 2 + 12*i
		tag := t.bo.Uint16(b[p:])
		if _, dup := t.ifd[tag]; !dup {
			t.ifd[tag] = tiffEntry{typ: t.bo.Uint16(b[p+2:]), count: t.bo.Uint32(b[p+4:]), at: p + 8}
		}
	}

	w, err := t.scalar(tagImageWidth, 0)
	if err != nil {
		return nil, err
	}
	h, err := t.scalar(tagImageLength, 0)
	if err != nil {
		return nil, err
	}
	if w < 1 || h < 1 || w > MaxSide || h > MaxSide {
		return nil, fmt.Errorf("image is %d×%d; width and height must each be in 1..%d", w, h, MaxSide)
	}
	for _, tag := range []uint16{tagTileWidth, tagTileLength, tagTileOffsets, tagTileByteCounts} {
		if _, ok := t.ifd[tag]; ok {
			return nil, errors.New("tiled layout is not supported: " + tiffRemedy + " in strips")
		}
	}
	spp, err := t.scalar(tagSamplesPerPixel, 1)
	if err != nil {
		return nil, err
	}
	if spp != 1 {
		return nil, fmt.Errorf("%d samples per pixel (colour or alpha) is not supported, only 1: %s", spp, tiffRemedy)
	}
	comp, err := t.scalar(tagCompression, 1)
	if err != nil {
		return nil, err
	}
	if comp != 1 {
		return nil, fmt.Errorf("compression %d (%s) is not supported: %s", comp, compressionName(comp), tiffRemedy)
	}
	pred, err := t.scalar(tagPredictor, 1)
	if err != nil {
		return nil, err
	}
	if pred != 1 {
		return nil, fmt.Errorf("predictor %d is not supported: %s", pred, tiffRemedy)
	}
	bps, err := t.scalar(tagBitsPerSample, 1)
	if err != nil {
		return nil, err
	}
	sf, err := t.scalar(tagSampleFormat, 1)
	if err != nil {
		return nil, err
	}
	if !((bps == 32 && sf == 3) || ((bps == 16 || bps == 8) && sf == 1)) {
		return nil, fmt.Errorf("%d-bit %s samples are not supported, only 32-bit float and 8- or 16-bit unsigned: %s",
			bps, sampleFormatName(sf), tiffRemedy)
	}
	if pm, err := t.scalar(tagPhotometric, 1); err != nil {
		return nil, err
	} else if pm != 1 {
		return nil, fmt.Errorf("photometric interpretation %d is not supported, only 1 (BlackIsZero): %s", pm, tiffRemedy)
	}

	rps, err := t.scalar(tagRowsPerStrip, math.MaxUint32)
	if err != nil {
		return nil, err
	}
	if rps == 0 {
		return nil, errors.New("RowsPerStrip is 0: file is corrupt")
	}
	rps = min(rps, h)
	strips := (h + rps - 1) / rps
	offs, err := t.values(tagStripOffsets)
	if err != nil {
		return nil, err
	}
	if len(offs) != int(strips) {
		return nil, fmt.Errorf("%d strip offsets for %d rows at %d rows per strip, want %d: file is corrupt", len(offs), h, rps, strips)
	}
	counts, err := t.values(tagStripByteCounts)
	if err != nil {
		return nil, err
	}
	if counts != nil && len(counts) != int(strips) {
		return nil, fmt.Errorf("%d strip byte counts, want %d: file is corrupt", len(counts), strips)
	}
	bytesPer := int64(bps / 8)
	if need := int64(w) * int64(h) * bytesPer; need > int64(len(b)) {
		return nil, fmt.Errorf("file is truncated: %d×%d pixels of %d bits need %d bytes, the file has %d", w, h, bps, need, len(b))
	}

	W, H, RPS := int(w), int(h), int(rps)
	data := make([]float32, W*H)
	rowBytes := int64(W) * bytesPer
	for i, o := range offs {
		rows := min(RPS, H-i*RPS)
		n := int64(rows) * rowBytes
		if counts != nil && int64(counts[i]) < n {
			return nil, fmt.Errorf("strip %d holds %d bytes, want %d: file is corrupt", i, counts[i], n)
		}
		if int64(o)+n > int64(len(b)) {
			return nil, fmt.Errorf("file is truncated: strip %d needs bytes %d to %d of %d", i, o, int64(o)+n, len(b))
		}
		src := b[o : int64(o)+n]
		dst := data[i*RPS*W : (i*RPS+rows)*W]
		switch bps {
		case 32:
			for j := range dst {
				dst[j] = math.Float32frombits(t.bo.Uint32(src[4*j:]))
			}
		case 16:
			for j := range dst {
				dst[j] = float32(t.bo.Uint16(src[2*j:]))
			}
		case 8:
			for j := range dst {
				dst[j] = float32(src[j])
			}
		}
	}
	return &sim.Field{W: W, H: H, Data: data, Cell: t.pixelScale()}, nil
}

// GeoKeys (OGC 19-008r4) that tell whether ModelPixelScale is in metres.
const (
	geoKeyModelType       = 1024 // GTModelTypeGeoKey: 1 projected, 2 geographic
	geoKeyProjLinearUnits = 3076 // ProjLinearUnitsGeoKey: 9001 metre
	modelTypeProjected    = 1
	linearUnitMetre       = 9001
)

// pixelScale returns the GeoTIFF cell size in metres (ModelPixelScale X
// when it equals Y and is positive and finite), or 0 when the file has
// none or gives it in other units. The scale is taken as metres when the
// GeoKeys name no model (Orogen's own files) or a projected one in metres
// (a DEM GDAL wrote in UTM, say); a geographic model (degrees) or other
// linear units (feet) give 0, and the caller asks for the cell size.
func (t *tiffFile) pixelScale() float64 {
	e, ok := t.ifd[tagModelPixelScale]
	if !ok || e.typ != typeDouble || e.count < 2 {
		return 0
	}
	keys, err := t.values(tagGeoKeyDirectory)
	if err != nil || len(keys) < 4 {
		return 0
	}
	geo := map[uint32]uint32{} // the keys whose value is in the directory
	for i := 0; i < int(keys[3]) && 4+4*i+3 < len(keys); i++ {
		k := keys[4+4*i:]
		if k[1] == 0 && k[2] == 1 {
			geo[k[0]] = k[3]
		} else {
			geo[k[0]] = math.MaxUint32 // stored elsewhere: not a unit code
		}
	}
	if m, ok := geo[geoKeyModelType]; ok {
		if m != modelTypeProjected || geo[geoKeyProjLinearUnits] != linearUnitMetre {
			return 0
		}
	}
	p := int64(t.bo.Uint32(t.b[e.at:]))
	if p < 0 || p+16 > int64(len(t.b)) {
		return 0
	}
	sx := math.Float64frombits(t.bo.Uint64(t.b[p:]))
	sy := math.Float64frombits(t.bo.Uint64(t.b[p+8:]))
	if sx != sy || !(sx > 0) || math.IsInf(sx, 0) {
		return 0
	}
	return sx
}

// compressionName names a TIFF compression scheme.
func compressionName(c uint32) string {
	switch c {
	case 2, 3, 4:
		return "CCITT"
	case 5:
		return "LZW"
	case 6, 7:
		return "JPEG"
	case 8, 32946:
		return "Deflate"
	case 32773:
		return "PackBits"
	case 34925:
		return "LZMA"
	case 50000:
		return "Zstandard"
	case 50001:
		return "WebP"
	}
	return "unknown"
}

// sampleFormatName names a TIFF SampleFormat value.
func sampleFormatName(sf uint32) string {
	switch sf {
	case 1:
		return "unsigned integer"
	case 2:
		return "signed integer"
	case 3:
		return "float"
	}
	return fmt.Sprintf("sample format %d", sf)
}
