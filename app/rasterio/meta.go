package rasterio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
)

// MaxSide is the largest width or height, in cells, that this package
// writes or reads.
const MaxSide = 32768

// Encodings recorded in Meta.Encoding.
const (
	EncodingPNG16 = "png16"        // 16-bit grayscale PNG, mapped from [Min, Max]
	EncodingR16   = "r16"          // raw little-endian uint16, mapped from [Min, Max]
	EncodingTIFF  = "float32-tiff" // 32-bit float TIFF in metres
)

// Meta is the sidecar JSON written beside every raster export NAME.ext as
// NAME.json. Min and Max are the extremes of the field in metres: a 16-bit
// value q stands for Min + q/65535·(Max-Min).
type Meta struct {
	Width    int     `json:"width"`
	Height   int     `json:"height"`
	CellSize float64 `json:"cell_size_m"`
	Min      float64 `json:"min_m"`
	Max      float64 `json:"max_m"`
	Encoding string  `json:"encoding"`
}

// SidecarPath returns the sidecar of the raster at path: the same name with
// the extension replaced by .json ("out/h.png" → "out/h.json").
func SidecarPath(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".json"
}

// DecodeMeta parses a sidecar strictly: unknown fields, trailing data, a
// width or height outside 1..MaxSide, a cell size that is not positive and
// finite, non-finite extremes, Min > Max or an unknown encoding are errors.
func DecodeMeta(b []byte) (*Meta, error) {
	m, err := decodeMeta(b)
	if err != nil {
		return nil, fmt.Errorf("rasterio: sidecar: %w", err)
	}
	return m, nil
}

// decodeMeta is DecodeMeta with errors that do not name their source.
func decodeMeta(b []byte) (*Meta, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	var m Meta
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("not valid sidecar JSON: %w", err)
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("not valid sidecar JSON: data after the object")
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// check reports the first rule that m breaks.
func (m *Meta) check() error {
	switch {
	case m.Width < 1 || m.Width > MaxSide || m.Height < 1 || m.Height > MaxSide:
		return fmt.Errorf("width %d and height %d must each be in 1..%d", m.Width, m.Height, MaxSide)
	case !(m.CellSize > 0) || math.IsInf(m.CellSize, 0):
		return fmt.Errorf("cell_size_m %g must be positive and finite", m.CellSize)
	case math.IsNaN(m.Min) || math.IsInf(m.Min, 0) || math.IsNaN(m.Max) || math.IsInf(m.Max, 0):
		return fmt.Errorf("min_m %g and max_m %g must be finite", m.Min, m.Max)
	case m.Min > m.Max:
		return fmt.Errorf("min_m %g is above max_m %g", m.Min, m.Max)
	}
	switch m.Encoding {
	case EncodingPNG16, EncodingR16, EncodingTIFF:
		return nil
	}
	return fmt.Errorf("encoding %q is not one of %q, %q, %q", m.Encoding, EncodingPNG16, EncodingR16, EncodingTIFF)
}

// encode returns the sidecar as indented JSON with a final newline.
func (m *Meta) encode() []byte {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic("rasterio: " + err.Error()) // a struct of ints, floats and a string always marshals
	}
	return append(b, '\n')
}
