package rasterio

import (
	"encoding/binary"
	"fmt"
	"io"

	"orogen/sim"
)

// encodeR16 writes f as raw little-endian uint16, values mapped from [lo, hi].
func encodeR16(w io.Writer, f *sim.Field, lo, hi float32) error {
	buf := make([]byte, 0, 2*f.W)
	for y := 0; y < f.H; y++ {
		buf = buf[:0]
		for _, v := range f.Data[y*f.W : (y+1)*f.W] {
			buf = binary.LittleEndian.AppendUint16(buf, quantize(v, lo, hi))
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// DecodeR16 decodes raw little-endian uint16 samples of a w×h raster,
// row-major from the top row, to values 0..65535. b must hold exactly 2·w·h
// bytes and w and h must be in 1..MaxSide.
func DecodeR16(b []byte, w, h int) ([]float32, error) {
	data, err := decodeR16(b, w, h)
	if err != nil {
		return nil, fmt.Errorf("rasterio: r16: %w", err)
	}
	return data, nil
}

// decodeR16 is DecodeR16 with errors that do not name their source.
func decodeR16(b []byte, w, h int) ([]float32, error) {
	if w < 1 || h < 1 || w > MaxSide || h > MaxSide {
		return nil, fmt.Errorf("size %d×%d: width and height must each be in 1..%d", w, h, MaxSide)
	}
	if want := 2 * w * h; len(b) != want {
		return nil, fmt.Errorf("data has %d bytes, want %d for %d×%d", len(b), want, w, h)
	}
	data := make([]float32, w*h)
	for i := range data {
		data[i] = float32(binary.LittleEndian.Uint16(b[2*i:]))
	}
	return data, nil
}
