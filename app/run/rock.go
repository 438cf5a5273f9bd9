package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"

	"orogen/app/rasterio"
	"orogen/app/safefile"
	"orogen/sim/engine"
	"orogen/sim/geology"
)

// RockLegend is the sidecar of a rock mask (--out-rock): what each 8-bit
// index of the PNG stands for, so a game engine can use the mask as a
// material map.
type RockLegend struct {
	Width   int          `json:"width"`
	Height  int          `json:"height"`
	CellM   float64      `json:"cell_m"`
	Layers  []RockLayer  `json:"layers"`
	Geology geology.Spec `json:"geology"`
}

// RockLayer is one index of a rock mask: a layer of the expanded stack
// (0 the bottom one) or, last, the alluvium.
type RockLayer struct {
	Index int     `json:"index"`
	Name  string  `json:"name"`
	Rock  string  `json:"rock"`
	Color string  `json:"color"`
	Kd    float64 `json:"kd"`
	Kf    float64 `json:"kf"`
	Ke    float64 `json:"ke"`
	// BottomM and TopM are the layer's bounds in the undeformed stack,
	// metres (none for the alluvium).
	BottomM *float64 `json:"bottom_m,omitempty"`
	TopM    *float64 `json:"top_m,omitempty"`
}

// Legend lists m's layers and the alluvium.
func Legend(m *geology.Model) []RockLayer {
	var out []RockLayer
	for i := 0; i <= m.NumLayers(); i++ {
		l, r := m.Layer(i)
		rl := RockLayer{Index: i, Name: l.Name, Rock: r.Name, Color: geology.FormatColor(r.Color), Kd: r.Kd, Kf: r.Kf, Ke: r.Ke}
		if i < m.NumLayers() {
			b, t := m.Bounds(i)
			rl.BottomM, rl.TopM = &b, &t
		}
		out = append(out, rl)
	}
	return out
}

var errNoGeology = errors.New("--out-rock and --out-alluvium need a geology: give --geology FILE.json or a scene with a geology section")

// writeRock saves the exposed layer index per cell as an 8-bit grey PNG
// at path and its legend as the sidecar (NAME.json), atomically together.
func writeRock(path string, s *engine.Snapshot) error {
	if s.Geology == nil || s.Rock == nil {
		return errNoGeology
	}
	img := image.NewGray(image.Rect(0, 0, s.W, s.H))
	copy(img.Pix, s.Rock)
	leg := RockLegend{Width: s.W, Height: s.H, CellM: s.Cell, Layers: Legend(s.Geology), Geology: s.Geology.Spec()}
	b, err := json.MarshalIndent(leg, "", "  ")
	if err != nil {
		return err
	}
	return safefile.Write(
		safefile.File{Path: path, Fill: func(w io.Writer) error { return png.Encode(w, img) }},
		safefile.File{Path: rasterio.SidecarPath(path), Fill: func(w io.Writer) error {
			_, err := w.Write(append(b, '\n'))
			return err
		}},
	)
}

// ReadGeology reads a geology JSON file (package geology's Spec), checked.
func ReadGeology(path string) (*geology.Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--geology: %w", err)
	}
	var s geology.Spec
	if err := geology.DecodeSpec(b, &s); err != nil {
		return nil, fmt.Errorf("--geology %s: %w", path, err)
	}
	if _, err := s.Compile(); err != nil {
		return nil, fmt.Errorf("--geology %s: %w", path, err)
	}
	return &s, nil
}
