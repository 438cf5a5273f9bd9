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
	// EncodingRGBA8 is an 8-bit RGBA PNG (splat and flow maps): each
	// channel q stands for Min + q/255·(Max-Min).
	EncodingRGBA8 = "rgba8-png"
)

// Meta is the sidecar JSON written beside every raster export NAME.ext as
// NAME.ext.json. Min and Max are the extremes of the field in metres: a
// 16-bit value q stands for Min + q/65535·(Max-Min). The optional parts
// say what the file is (Kind), how a game engine should scale it (Engine)
// and where a tile sits (Tile); readers ignore them.
type Meta struct {
	Width    int     `json:"width"`
	Height   int     `json:"height"`
	CellSize float64 `json:"cell_size_m"`
	Min      float64 `json:"min_m"`
	Max      float64 `json:"max_m"`
	Encoding string  `json:"encoding"`
	// Kind is what the raster holds ("heightmap", "mask:slope",
	// "splat", "flow"); "" for plain exports.
	Kind   string      `json:"kind,omitempty"`
	Engine *EngineMeta `json:"engine,omitempty"`
	Tile   *TileMeta   `json:"tile,omitempty"`
	// SouthUp says the file's rows run from the south edge north (Unity's
	// RAW heightmaps); readers turn them back north-up.
	SouthUp bool `json:"south_up,omitempty"`

	src string // the file it was read from, for messages
}

// EngineMeta is how a game engine's import settings map the file back to
// the terrain's metres (see app/export's targets).
type EngineMeta struct {
	Target string `json:"target"`
	// ScaleX, ScaleY and ScaleZ are the engine's import scales in its own
	// units (Unreal: the landscape actor's scale, cm; Unity: the terrain
	// size, m); OffsetZ the height of the actor or terrain, same units.
	ScaleX  float64 `json:"scale_x"`
	ScaleY  float64 `json:"scale_y"`
	ScaleZ  float64 `json:"scale_z"`
	OffsetZ float64 `json:"offset_z"`
	Units   string  `json:"units"`
	// Note says in words which settings these are.
	Note string `json:"note,omitempty"`
}

// TileMeta places a tile in the grid of tiles of one export: Col and Row
// from the north-west tile, X0 and Y0 its first pixel in the whole export.
// Neighbouring tiles share their edge row or column.
type TileMeta struct {
	Col   int    `json:"col"`
	Row   int    `json:"row"`
	Cols  int    `json:"cols"`
	Rows  int    `json:"rows"`
	X0    int    `json:"x0"`
	Y0    int    `json:"y0"`
	Total [2]int `json:"total"`
}

// origin returns the model coordinates of the tile's north-west corner
// in a whole export of cells of size cell whose south-west corner is the
// origin (as the GeoTIFFs and VRTs have it).
func (t *TileMeta) origin(cell float64) (x, y float64) {
	return float64(t.X0) * cell, float64(t.Total[1]-t.Y0) * cell
}

// SidecarPath returns the sidecar of the raster at path: the whole name
// with ".json" appended ("out/h.png" → "out/h.png.json"), so exports of
// one name in several formats never share a sidecar.
func SidecarPath(path string) string { return path + ".json" }

// LegacySidecarPath is where releases before the export profiles wrote the
// sidecar: the extension replaced ("out/h.png" → "out/h.json"). Readers
// fall back to it when SidecarPath does not exist.
func LegacySidecarPath(path string) string {
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
	case EncodingPNG16, EncodingR16, EncodingTIFF, EncodingRGBA8:
		return nil
	}
	return fmt.Errorf("encoding %q is not one of %q, %q, %q, %q", m.Encoding, EncodingPNG16, EncodingR16, EncodingTIFF, EncodingRGBA8)
}

// encode returns the sidecar as indented JSON with a final newline.
func (m *Meta) encode() []byte {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		panic("rasterio: " + err.Error()) // a struct of ints, floats and a string always marshals
	}
	return append(b, '\n')
}
