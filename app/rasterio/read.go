package rasterio

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"strings"

	"orogen/app/safefile"
	"orogen/sim"
)

// readExts lists the extensions the readers accept, for error messages.
const readExts = ".png, .r16, .raw, .tif, .tiff"

// ReadHeights reads initial heights in metres (the --init file).
//
//   - .png and .r16 need their sidecar (SidecarPath): values map back as
//     Min + v·(Max-Min), v in [0, 1], and Cell is the sidecar's cell size.
//     A PNG of any bit depth or colour model is read as DecodePNG reads it.
//   - .tif and .tiff: values are metres as stored (integer TIFFs too). If a
//     sidecar sits beside the file, Cell comes from it and its width and
//     height must match; otherwise Cell is the GeoTIFF pixel size when it
//     is in metres (Orogen's own files, a projected system in metres), or
//     0 and the caller decides.
//
// NaN or infinite heights are an error.
func ReadHeights(path string) (*sim.Field, error) {
	ext, err := readExt(path, "heights")
	if err != nil {
		return nil, err
	}
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	var f *sim.Field
	switch ext {
	case ".png", ".r16":
		m, err := readSidecar(path)
		if err != nil {
			return nil, err
		}
		if m == nil {
			return nil, fmt.Errorf("rasterio: %s: sidecar %s is missing (nor is there a %s from an older release): a %s file needs it to map 16-bit values back to metres; export again with it, or use a float .tif",
				path, SidecarPath(path), filepath.Base(LegacySidecarPath(path)), ext)
		}
		scale := 65535.0
		if ext == ".png" {
			f, scale, err = readPNG(path, b)
		} else {
			f, err = readR16(path, b, m)
		}
		if err != nil {
			return nil, err
		}
		if err := matchSidecar(path, f, m); err != nil {
			return nil, err
		}
		if !(math.Abs(m.Min) <= MaxValue && math.Abs(m.Max) <= MaxValue) {
			return nil, fmt.Errorf("rasterio: %s: values %g to %g: each must be within ±%g: fix min_m and max_m in the sidecar of %s", m.src, m.Min, m.Max, float64(MaxValue), path)
		}
		span := m.Max - m.Min
		for i, v := range f.Data {
			f.Data[i] = float32(m.Min + float64(v)/scale*span)
		}
	case ".tif", ".tiff":
		if f, err = readTIFF(path, b); err != nil {
			return nil, err
		}
		m, err := readSidecar(path)
		if err != nil {
			return nil, err
		}
		if err := matchSidecar(path, f, m); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// ReadNormalized reads an uplift map (the --uplift file).
//
//   - .png: 8-bit or 16-bit gray gives pixel/255 or pixel/65535 in [0, 1];
//     other colour models are converted to luminance (color.Gray16Model,
//     alpha over black) and divided by 65535.
//   - .r16: value/65535. The size comes from the sidecar or, without one,
//     from a byte length of 2·n², read as n×n.
//   - .tif and .tiff: values as stored, unscaled: TIFF uplift is taken in
//     m/yr. NaN or infinite values are an error.
//
// A sidecar, if there is one, does not change the values, but its width and
// height must match the file and Cell comes from it; without one Cell is 0.
func ReadNormalized(path string) (*sim.Field, error) {
	ext, err := readExt(path, "an uplift map")
	if err != nil {
		return nil, err
	}
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	m, err := readSidecar(path)
	if err != nil {
		return nil, err
	}
	var f *sim.Field
	switch ext {
	case ".png":
		var scale float64
		if f, scale, err = readPNG(path, b); err == nil {
			normalize(f.Data, scale)
		}
	case ".r16":
		if m == nil {
			n := int(math.Round(math.Sqrt(float64(len(b) / 2))))
			if n < 1 || n > MaxSide || 2*n*n != len(b) {
				return nil, fmt.Errorf("rasterio: %s: no sidecar %s, and %d bytes is not a square image (2·n² bytes): write the sidecar with the width and height",
					path, SidecarPath(path), len(b))
			}
			f, err = readR16(path, b, &Meta{Width: n, Height: n})
		} else {
			f, err = readR16(path, b, m)
		}
		if err == nil {
			normalize(f.Data, 65535)
		}
	case ".tif", ".tiff":
		f, err = readTIFF(path, b)
	}
	if err != nil {
		return nil, err
	}
	if err := matchSidecar(path, f, m); err != nil {
		return nil, err
	}
	return f, nil
}

// readExt returns the lower-case extension of path, or an error if the
// readers do not know it; what says what the file was meant to hold.
func readExt(path, what string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".r16", ".tif", ".tiff":
		return ext, nil
	case ".raw":
		return ".r16", nil // Unity's RAW: the same little-endian uint16
	default:
		return "", fmt.Errorf("rasterio: %s: unknown extension %q for %s: use one of %s", path, ext, what, readExts)
	}
}

// readFile reads path, naming it in the error.
func readFile(path string) ([]byte, error) {
	b, err := safefile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("rasterio: %s: %w", path, unwrapPath(err))
	}
	return b, nil
}

// readSidecar returns the sidecar of path (SidecarPath, or else
// LegacySidecarPath), or nil if there is none.
func readSidecar(path string) (*Meta, error) {
	sp := SidecarPath(path)
	b, err := safefile.ReadFile(sp)
	if errors.Is(err, fs.ErrNotExist) {
		sp = LegacySidecarPath(path)
		b, err = safefile.ReadFile(sp)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("rasterio: %s: %w", sp, unwrapPath(err))
	}
	m, err := decodeMeta(b)
	if err != nil {
		return nil, fmt.Errorf("rasterio: %s: %w: fix the sidecar of %s or delete it", sp, err, path)
	}
	m.src = sp
	return m, nil
}

// MaxValue bounds the values a sidecar may map 16-bit values to (heights
// in metres, drainage areas in m², ...): far inside float32, whose
// infinities a larger one would make.
const MaxValue = 1e30

// matchSidecar checks that m, if not nil, has f's size and a cell size in
// [0.001, 1e6] m, and copies its cell size into f.
func matchSidecar(path string, f *sim.Field, m *Meta) error {
	if m == nil {
		return nil
	}
	if m.Width != f.W || m.Height != f.H {
		return fmt.Errorf("rasterio: %s: image is %d×%d, sidecar %s says %d×%d: wrong file or wrong sidecar",
			path, f.W, f.H, m.src, m.Width, m.Height)
	}
	if !(m.CellSize >= 1e-3 && m.CellSize <= 1e6) {
		return fmt.Errorf("rasterio: %s: cell size %g m: must be in [0.001, 1e6] m: fix cell_size_m in the sidecar of %s", m.src, m.CellSize, path)
	}
	f.Cell = m.CellSize
	if m.SouthUp {
		*f = *flipRows(f) // back to north-up, as every field is
	}
	return nil
}

// readPNG decodes the PNG in b to pixel values 0..scale.
func readPNG(path string, b []byte) (f *sim.Field, scale float64, err error) {
	w, h, data, scale, _, err := decodePNG(b)
	if err != nil {
		return nil, 0, fmt.Errorf("rasterio: %s: %w", path, err)
	}
	return &sim.Field{W: w, H: h, Data: data}, scale, nil
}

// normalize divides every value by scale.
func normalize(dst []float32, scale float64) {
	for i, v := range dst {
		dst[i] = float32(float64(v) / scale)
	}
}

// readR16 decodes the R16 data in b, m.Width×m.Height, to values 0..65535.
func readR16(path string, b []byte, m *Meta) (*sim.Field, error) {
	if want := 2 * m.Width * m.Height; len(b) != want {
		return nil, fmt.Errorf("rasterio: %s: file has %d bytes, sidecar says %d×%d (%d bytes): wrong file or wrong sidecar",
			path, len(b), m.Width, m.Height, want)
	}
	data, err := decodeR16(b, m.Width, m.Height)
	if err != nil {
		return nil, fmt.Errorf("rasterio: %s: %w", path, err)
	}
	return &sim.Field{W: m.Width, H: m.Height, Data: data}, nil
}

// readTIFF decodes the TIFF in b and refuses NaN or infinite values.
func readTIFF(path string, b []byte) (*sim.Field, error) {
	f, err := decodeTIFF(b)
	if err != nil {
		return nil, fmt.Errorf("rasterio: %s: %w", path, err)
	}
	if n := countNonFinite(f.Data); n > 0 {
		return nil, fmt.Errorf("rasterio: %s: %d of %d values are NaN or infinite (no-data cells?): fill them before import", path, n, len(f.Data))
	}
	return f, nil
}
