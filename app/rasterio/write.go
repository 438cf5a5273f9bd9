package rasterio

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"orogen/app/safefile"
	"orogen/sim"
)

// writeExts lists the extensions Write accepts, for error messages.
const writeExts = ".png, .r16, .raw, .tif, .tiff, .obj"

// Write saves f to path in the format chosen by the extension (see the
// package doc), and for rasters also the sidecar SidecarPath(path):
//
//   - .png: 16-bit grayscale, values mapped linearly from the field's
//     [min, max] to [0, 65535] (a constant field maps to 0).
//   - .r16: the same values as raw little-endian uint16.
//   - .tif, .tiff: uncompressed 32-bit float TIFF in metres.
//   - .obj: a mesh with one vertex "v x y z" per cell, y up: x = col·Cell,
//     z = row·Cell, y = height in metres; "vt u v" per vertex (u east, v = 1
//     on the north row); two triangles per quad, counter-clockwise seen from
//     +y, faces "f a/a b/b c/c". No sidecar.
//
// Files are written atomically (see the package doc). Write refuses, before
// writing anything, a field with NaN or infinite values, a side above
// MaxSide, a cell size that is not positive and finite, and an unknown
// extension. It panics if f is nil or len(f.Data) != f.W·f.H.
func Write(path string, f *sim.Field) error { return WriteWith(path, f, Options{}) }

// Options are the extras of WriteWith.
type Options struct {
	// VRT writes, for a .r16 or .raw file, a GDAL virtual raster
	// PATH.vrt beside it (see VRTPath) that opens the raw file in GIS
	// tools with its size, pixel size and metres.
	VRT bool
	// Range, if set, is the [lo, hi] that 16-bit formats map to 0..65535
	// instead of the field's own extremes (tiles of one export share it).
	// It must hold every value of the field.
	Range *[2]float32
	// Kind, Engine and Tile go into the sidecar (see Meta).
	Kind   string
	Engine *EngineMeta
	Tile   *TileMeta
	// SouthUp writes a .r16 or .raw file's rows from the south edge
	// north, as Unity's RAW import expects (Meta.SouthUp).
	SouthUp bool
	// Set, if not nil, stages the files in it instead of saving them at
	// once: they reach their final names when the set is committed (a
	// run's or a build's outputs, saved as one).
	Set *safefile.Set
}

// WriteWith is Write with options; every file it writes (raster, sidecar,
// VRT) is staged and renamed together.
func WriteWith(path string, f *sim.Field, o Options) error {
	checkField(f)
	ext := strings.ToLower(filepath.Ext(path))
	var (
		enc      func(io.Writer, *sim.Field, float32, float32) error
		encoding string
	)
	switch ext {
	case ".png":
		enc, encoding = encodePNG, EncodingPNG16
	case ".r16", ".raw":
		enc, encoding = encodeR16, EncodingR16
	case ".tif", ".tiff":
		enc, encoding = encodeTIFF, EncodingTIFF
	case ".obj":
		enc = encodeOBJ
	default:
		return fmt.Errorf("rasterio: %s: unknown extension %q: use one of %s", path, ext, writeExts)
	}
	if n := countNonFinite(f.Data); n > 0 {
		return fmt.Errorf("rasterio: %s: field has %d NaN or infinite values of %d; nothing written", path, n, len(f.Data))
	}
	if f.W > MaxSide || f.H > MaxSide {
		return fmt.Errorf("rasterio: %s: field is %d×%d; the limit is %d per side", path, f.W, f.H, MaxSide)
	}
	if !(f.Cell > 0) || math.IsInf(f.Cell, 0) {
		return fmt.Errorf("rasterio: %s: cell size %g m must be positive and finite: set the field's Cell", path, f.Cell)
	}
	if encoding == EncodingTIFF {
		if _, _, _, size := tiffLayout(f.W, f.H); size > math.MaxUint32 {
			return fmt.Errorf("rasterio: %s: a %d×%d float TIFF needs %d bytes, over the format's 4 GiB: export .png or .r16", path, f.W, f.H, size)
		}
	}
	lo, hi := f.MinMax()
	if o.Range != nil {
		if !(o.Range[0] <= lo && hi <= o.Range[1]) {
			return fmt.Errorf("rasterio: %s: values span [%g, %g], outside the range [%g, %g] asked for", path, lo, hi, o.Range[0], o.Range[1])
		}
		lo, hi = o.Range[0], o.Range[1]
	}
	if o.VRT && encoding != EncodingR16 {
		return fmt.Errorf("rasterio: %s: a .vrt is written only beside .r16 or .raw files", path)
	}
	if o.SouthUp {
		if encoding != EncodingR16 {
			return fmt.Errorf("rasterio: %s: only .r16 and .raw files are written south-up", path)
		}
		f = flipRows(f)
	}
	if encoding == EncodingTIFF && o.Tile != nil {
		ox, oy := o.Tile.origin(f.Cell)
		enc = func(w io.Writer, f *sim.Field, _, _ float32) error { return encodeTIFFAt(w, f, ox, oy) }
	}
	files := []safefile.File{{Path: path, Fill: func(w io.Writer) error { return enc(w, f, lo, hi) }}}
	if encoding != "" {
		m := Meta{Width: f.W, Height: f.H, CellSize: f.Cell, Min: float64(lo), Max: float64(hi), Encoding: encoding,
			Kind: o.Kind, Engine: o.Engine, Tile: o.Tile, SouthUp: o.SouthUp}
		files = append(files, safefile.File{Path: SidecarPath(path), Fill: func(w io.Writer) error {
			_, err := w.Write(m.encode())
			return err
		}})
		if o.VRT {
			files = append(files, safefile.File{Path: VRTPath(path), Fill: func(w io.Writer) error {
				_, err := w.Write(vrt(filepath.Base(path), &m))
				return err
			}})
		}
	}
	if err := safefile.WriteIn(o.Set, files...); err != nil {
		return fmt.Errorf("rasterio: %w", err)
	}
	return nil
}

// CheckPath reports, before any work is done, whether Write could save to
// path: the extension must be one Write knows and the directory must exist.
func CheckPath(path string) error {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".r16", ".raw", ".tif", ".tiff", ".obj":
	default:
		return fmt.Errorf("rasterio: %s: unknown extension %q: use one of %s", path, ext, writeExts)
	}
	return safefile.CheckDir(path)
}

// flipRows returns a copy of f with its rows in reverse order.
func flipRows(f *sim.Field) *sim.Field {
	g := &sim.Field{W: f.W, H: f.H, Cell: f.Cell, Data: make([]float32, len(f.Data))}
	for y := range f.H {
		copy(g.Data[(f.H-1-y)*f.W:(f.H-y)*f.W], f.Data[y*f.W:(y+1)*f.W])
	}
	return g
}

// KnownExt reports whether Write knows the extension of path.
func KnownExt(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".r16", ".raw", ".tif", ".tiff", ".obj":
		return true
	}
	return false
}

// checkField panics on a field no caller should hold.
func checkField(f *sim.Field) {
	if f == nil {
		panic("rasterio: nil field")
	}
	if f.W <= 0 || f.H <= 0 || len(f.Data) != f.W*f.H {
		panic(fmt.Sprintf("rasterio: field is %d×%d but holds %d values", f.W, f.H, len(f.Data)))
	}
}

// countNonFinite returns how many values are NaN or ±Inf.
func countNonFinite(data []float32) int {
	n := 0
	for _, v := range data {
		if v != v || math.IsInf(float64(v), 0) {
			n++
		}
	}
	return n
}

// quantize maps v from [lo, hi] to 0..65535, rounding to nearest; a constant
// range (lo == hi) maps to 0.
func quantize(v, lo, hi float32) uint16 {
	if !(hi > lo) {
		return 0
	}
	q := math.Round((float64(v) - float64(lo)) / (float64(hi) - float64(lo)) * 65535)
	return uint16(min(max(q, 0), 65535))
}

// unwrapPath drops the *PathError wrapper whose path the caller's message
// already names.
func unwrapPath(err error) error { return safefile.Cause(err) }
