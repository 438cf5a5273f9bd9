package rasterio

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"

	"orogen/sim"
)

// encodePNG writes f as a 16-bit grayscale PNG, values mapped from [lo, hi]
// (see writePNG).
func encodePNG(w io.Writer, f *sim.Field, lo, hi float32) error {
	return writePNGRows(w, f.W, f.H, 0, 16, func(y int, dst []byte) {
		for x, v := range f.Data[y*f.W : (y+1)*f.W] {
			binary.BigEndian.PutUint16(dst[2*x:], quantize(v, lo, hi))
		}
	})
}

// DecodePNG decodes a PNG of any colour model to values in [0, 1], row-major
// from the top row. Gray images give pixel/255 (1- to 8-bit, as Go widens
// them to 8 bits) or pixel/65535 (16-bit); other colour models are converted
// to luminance with color.Gray16Model, alpha compositing over black, and
// divided by 65535. bits is the file's bit depth per sample (1, 2, 4, 8 or
// 16). Images above MaxSide per side are refused, and the compressed image
// data is inflated and measured before any pixel is allocated.
func DecodePNG(r io.Reader) (w, h int, data []float32, bits int, err error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return 0, 0, nil, 0, fmt.Errorf("rasterio: png: %w", err)
	}
	w, h, data, scale, bits, err := decodePNG(b)
	if err != nil {
		return 0, 0, nil, 0, fmt.Errorf("rasterio: png: %w", err)
	}
	normalize(data, scale)
	return w, h, data, bits, nil
}

// decodePNG is DecodePNG on bytes, with errors that do not name their
// source, that returns pixels unscaled: data holds integers 0..scale, with
// scale 255 or 65535, exactly.
func decodePNG(b []byte) (w, h int, data []float32, scale float64, bits int, err error) {
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return 0, 0, nil, 0, 0, pngError(err)
	}
	w, h = cfg.Width, cfg.Height
	if w < 1 || h < 1 || w > MaxSide || h > MaxSide {
		return 0, 0, nil, 0, 0, fmt.Errorf("image is %d×%d; the limit is %d per side", w, h, MaxSide)
	}
	// DecodeConfig has read the signature and a 13-byte IHDR chunk, so its
	// bit depth and colour type sit at bytes 24 and 25.
	bits = int(b[24])
	channels := map[byte]int{0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[b[25]]
	need := (int64(w)*int64(h)*int64(bits*channels) + 7) / 8
	if err := checkIDAT(b, need); err != nil {
		return 0, 0, nil, 0, 0, err
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, 0, nil, 0, 0, pngError(err)
	}
	data = make([]float32, w*h)
	switch m := img.(type) {
	case *image.Gray:
		for y := 0; y < h; y++ {
			for x, p := range m.Pix[y*m.Stride : y*m.Stride+w] {
				data[y*w+x] = float32(p)
			}
		}
		return w, h, data, 255, bits, nil
	case *image.Gray16:
		for y := 0; y < h; y++ {
			row := m.Pix[y*m.Stride : y*m.Stride+2*w]
			for x := range w {
				data[y*w+x] = float32(binary.BigEndian.Uint16(row[2*x:]))
			}
		}
	default:
		r := img.Bounds()
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				g := color.Gray16Model.Convert(img.At(r.Min.X+x, r.Min.Y+y)).(color.Gray16)
				data[y*w+x] = float32(g.Y)
			}
		}
	}
	return w, h, data, 65535, bits, nil
}

// checkIDAT inflates the image data of the PNG b and fails unless it holds
// at least need bytes. It runs before png.Decode, which allocates the whole
// image as soon as it has read the header.
func checkIDAT(b []byte, need int64) error {
	var parts []io.Reader
	for p := 8; p+8 <= len(b); {
		n := int64(binary.BigEndian.Uint32(b[p:]))
		typ := b[p+4 : p+8]
		if n > int64(len(b)-p-12) {
			return fmt.Errorf("file is truncated: chunk %q needs %d bytes, %d left", typ, n+12, len(b)-p)
		}
		if string(typ) == "IDAT" {
			parts = append(parts, bytes.NewReader(b[p+8:p+8+int(n)]))
		}
		p += 12 + int(n)
		if string(typ) == "IEND" {
			break
		}
	}
	if len(parts) == 0 {
		return errors.New("file is truncated or corrupt: no image data (IDAT chunk)")
	}
	zr, err := zlib.NewReader(io.MultiReader(parts...))
	if err != nil {
		return fmt.Errorf("image data is corrupt: %w", err)
	}
	got, err := io.Copy(io.Discard, io.LimitReader(zr, need))
	if got < need {
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("image data is corrupt: %w", err)
		}
		return fmt.Errorf("file is truncated: image data holds %d of at least %d bytes", got, need)
	}
	return nil
}

// pngError rewords an error of image/png.
func pngError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Errorf("file is truncated: %w", err)
	}
	return fmt.Errorf("not a readable PNG: %w", err)
}
