package project

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"unicode"
	"unicode/utf8"

	"orogen/sim"
)

// Encoding is how a layer's values are written: float32 little-endian, row
// after row, zlib, base64 (standard alphabet, padded).
const Encoding = "float32le-zlib-base64"

// maxLayerName is the longest layer name, in bytes (as the Uplift Tree's).
const maxLayerName = 128

// layerJSON is a layer as written in the file.
type layerJSON struct {
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Encoding string `json:"encoding"`
	Data     string `json:"data"`
}

// checkLayerName returns an error unless name is a name the Uplift Tree
// accepts for a layer: 1 to 128 bytes of printable UTF-8.
func checkLayerName(name string) error {
	if name == "" || len(name) > maxLayerName || !utf8.ValidString(name) {
		return fmt.Errorf("layer name %q: must be 1 to %d bytes of UTF-8", clip(name), maxLayerName)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("layer name %q: must hold printable characters only", name)
		}
	}
	return nil
}

// checkLayer returns an error unless f is a usable w×h layer of finite
// values.
func checkLayer(name string, f *sim.Field, w, h int) error {
	if f == nil {
		return fmt.Errorf("layer %q: missing (nil)", name)
	}
	if f.W != w || f.H != h || len(f.Data) != f.W*f.H {
		return fmt.Errorf("layer %q is %d×%d with %d values: layers must match the grid, %d×%d", name, f.W, f.H, len(f.Data), w, h)
	}
	if i := sim.FirstNonFinite(f.Data); i >= 0 {
		return fmt.Errorf("layer %q: cell (%d, %d) is %v: layers hold finite uplift", name, i%w, i/w, f.Data[i])
	}
	return nil
}

// encodeLayer returns f in the file's form.
func encodeLayer(f *sim.Field) (layerJSON, error) {
	raw := make([]byte, 4*len(f.Data))
	for i, v := range f.Data {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	var z bytes.Buffer
	zw, err := zlib.NewWriterLevel(&z, zlib.BestSpeed)
	if err != nil {
		return layerJSON{}, err
	}
	if _, err := zw.Write(raw); err != nil {
		return layerJSON{}, err
	}
	if err := zw.Close(); err != nil {
		return layerJSON{}, err
	}
	return layerJSON{Width: f.W, Height: f.H, Encoding: Encoding, Data: base64.StdEncoding.EncodeToString(z.Bytes())}, nil
}

// decodeLayer reads a layer that must be w×h cells of cell metres. Memory
// grows with the data actually present, never with the sizes claimed.
func decodeLayer(name string, l layerJSON, w, h int, cell float64) (*sim.Field, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("layer %q: %s", name, fmt.Sprintf(format, args...))
	}
	if err := checkLayerName(name); err != nil {
		return nil, err
	}
	if l.Encoding != Encoding {
		return nil, bad("encoding %q: this Orogen reads %q", clip(l.Encoding), Encoding)
	}
	if l.Width != w || l.Height != h {
		return nil, bad("%d×%d: layers must match the grid, %d×%d", l.Width, l.Height, w, h)
	}
	if l.Data == "" {
		return nil, bad("no \"data\"")
	}
	z, err := base64.StdEncoding.Strict().DecodeString(l.Data)
	if err != nil {
		return nil, bad("data is not base64: %v", err)
	}
	br := bytes.NewReader(z)
	zr, err := zlib.NewReader(br)
	if err != nil {
		return nil, bad("data is not zlib: %v", err)
	}
	need := int64(4) * int64(w) * int64(h)
	raw, err := io.ReadAll(io.LimitReader(zr, need+1))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, bad("data is truncated: want %d×%d float32 values", w, h)
		}
		return nil, bad("data is corrupt: %v", err)
	}
	if int64(len(raw)) != need {
		return nil, bad("data holds %d bytes: want %d (%d×%d float32 values)", len(raw), need, w, h)
	}
	if br.Len() != 0 {
		return nil, bad("%d stray bytes after the compressed data", br.Len())
	}
	f := &sim.Field{W: w, H: h, Cell: cell, Data: make([]float32, w*h)}
	for i := range f.Data {
		f.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	if err := checkLayer(name, f, w, h); err != nil {
		return nil, err
	}
	return f, nil
}
