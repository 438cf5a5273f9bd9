package rasterio

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"strings"

	"orogen/app/safefile"
)

// WriteRGBA writes img as an 8-bit RGBA PNG (splat weights, flow
// directions) with its sidecar: encoding EncodingRGBA8, Min and Max the
// values 0 and 255 stand for, cell the pixel size in metres. The PNG has
// no colour management: the channels are data, not colours. It is atomic
// like Write.
func WriteRGBA(path string, img *image.NRGBA, cell, lo, hi float64, o Options) error {
	if ext := strings.ToLower(filepath.Ext(path)); ext != ".png" {
		return fmt.Errorf("rasterio: %s: RGBA maps are written as .png, not %q", path, ext)
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	m := Meta{Width: w, Height: h, CellSize: cell, Min: lo, Max: hi, Encoding: EncodingRGBA8, Kind: o.Kind, Tile: o.Tile}
	if err := m.check(); err != nil {
		return fmt.Errorf("rasterio: %s: %w", path, err)
	}
	err := safefile.WriteIn(o.Set,
		safefile.File{Path: path, Fill: func(w io.Writer) error {
			return writePNGRows(w, img.Rect.Dx(), img.Rect.Dy(), 6, 8, func(y int, dst []byte) {
				copy(dst, img.Pix[y*img.Stride:])
			})
		}},
		safefile.File{Path: SidecarPath(path), Fill: func(w io.Writer) error {
			_, err := w.Write(m.encode())
			return err
		}})
	if err != nil {
		return fmt.Errorf("rasterio: %w", err)
	}
	return nil
}

// ReadRGBA reads an 8-bit RGBA PNG written by WriteRGBA (any PNG is
// converted to non-premultiplied RGBA) and its sidecar, if any.
func ReadRGBA(path string) (*image.NRGBA, *Meta, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	if _, _, _, _, _, err := decodePNG(b); err != nil {
		return nil, nil, fmt.Errorf("rasterio: %s: %w", path, err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, nil, fmt.Errorf("rasterio: %s: %w", path, pngError(err))
	}
	n, ok := img.(*image.NRGBA)
	if !ok {
		r := img.Bounds()
		n = image.NewNRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
		for y := range r.Dy() {
			for x := range r.Dx() {
				n.Set(x, y, img.At(r.Min.X+x, r.Min.Y+y))
			}
		}
	}
	m, err := readSidecar(path)
	if err != nil {
		return nil, nil, err
	}
	return n, m, nil
}
