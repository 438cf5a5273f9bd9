package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"

	"orogen/app/rasterio"
	"orogen/app/safefile"
	"orogen/sim/engine"
	"orogen/sim/geology"
)

// RockLegend is the sidecar of a rock mask (--out-rock): what each 8-bit
// index of the PNG stands for, so a game engine can use the mask as a
// material map. Width, Height and CellM are the mask's (the export size's
// with --export-size or --target, where CellM is the exported pixel's
// size, corner to corner like app/export's).
//
// With a geology the layers are its expanded stack and Geology is the
// model. Without one, Roudier's engine erodes its own strata
// (roudier.Strata, Roudier et al. 1993's alternating hard and soft
// layers): the layers are the strata's, and RepeatM says that they repeat
// every RepeatM metres up and down (each layer's BottomM and TopM are its
// bounds in the period from the strata's base).
type RockLegend struct {
	Width   int           `json:"width"`
	Height  int           `json:"height"`
	CellM   float64       `json:"cell_m"`
	Layers  []RockLayer   `json:"layers"`
	Geology *geology.Spec `json:"geology,omitempty"`
	RepeatM float64       `json:"repeat_m,omitempty"`
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

// StrataLegend lists the layers of an engine's own strata
// (engine.Stratified: Roudier's) and the alluvium: layer k's bounds are
// those of its first period above the strata's base.
func StrataLegend(layers []engine.Stratum) []RockLayer {
	var out []RockLayer
	for k, l := range layers {
		b, t := l.Bottom, l.Top
		out = append(out, RockLayer{Index: k, Name: l.Rock.Name, Rock: l.Rock.Name, Color: geology.FormatColor(l.Rock.Color),
			Kd: l.Rock.Kd, Kf: l.Rock.Kf, Ke: l.Rock.Ke, BottomM: &b, TopM: &t})
	}
	a := geology.Alluvium
	return append(out, RockLayer{Index: len(layers), Name: a.Name, Rock: a.Name, Color: geology.FormatColor(a.Color), Kd: a.Kd, Kf: a.Kf, Ke: a.Ke})
}

var errNoSediment = errors.New("--out-sediment needs deposition: set params.deposition_g > 0 in the scene (the grid engine), or give a geology or --engine roudier")

var errNoGeology = errors.New("--out-rock and --out-alluvium need a geology (or Roudier's engine, which erodes its own strata): give --geology FILE.json, a scene with a geology section or --engine roudier")

// exposedRock returns the rock mask of s, an index of the legend's layers
// per cell: the snapshot's exposed layers with a geology, else, on
// Roudier's engine, the layers of its strata (roudier.Engine.ExposedStrata).
func (j *Job) exposedRock(s *engine.Snapshot) ([]uint8, RockLegend, error) {
	if s.Geology != nil && s.Rock != nil {
		spec := s.Geology.Spec()
		return s.Rock, RockLegend{Layers: Legend(s.Geology), Geology: &spec}, nil
	}
	if e, ok := j.Engine.(engine.Stratified); ok {
		if idx, layers, repeat := e.OwnStrata(); idx != nil {
			return idx, RockLegend{Layers: StrataLegend(layers), RepeatM: repeat}, nil
		}
		return nil, RockLegend{}, errors.New("--out-rock: the engine erodes a lithology that is neither a geology nor strata of at most 255 layers: it has no layer index")
	}
	return nil, RockLegend{}, errNoGeology
}

// NearestIndices resamples a w×h grid of category indices to ow×oh by
// nearest neighbour, corner to corner like app/export's resampler (output
// pixel o samples cell round(o·(w−1)/(ow−1))): indices are categories, so
// they are picked, never blended. At the same size it returns src.
func NearestIndices(src []uint8, w, h, ow, oh int) []uint8 {
	if ow == w && oh == h {
		return src
	}
	pick := func(o, n, on int) int {
		if on <= 1 {
			return 0
		}
		return int(math.Round(float64(o) * float64(n-1) / float64(on-1)))
	}
	xs := make([]int, ow)
	for x := range xs {
		xs[x] = pick(x, w, ow)
	}
	out := make([]uint8, ow*oh)
	for y := range oh {
		row := src[pick(y, h, oh)*w:]
		for x, sx := range xs {
			out[y*ow+x] = row[sx]
		}
	}
	return out
}

// writeRock saves the exposed layer index per cell as an 8-bit grey PNG
// at path, at the export size when the run exports (nearest neighbour,
// NearestIndices), and its legend as the sidecar (NAME.json), atomically
// together.
func (j *Job) writeRock(path string, s *engine.Snapshot) error {
	idx, leg, err := j.exposedRock(s)
	if err != nil {
		return err
	}
	return j.writeRockIndex(path, idx, leg, s.W, s.H, s.Cell)
}

// writeRockIndex writes layer indices idx (sw×sh cells of cell metres)
// and their legend as writeRock does.
func (j *Job) writeRockIndex(path string, idx []uint8, leg RockLegend, sw, sh int, sc float64) error {
	w, h, cell := sw, sh, sc
	if p := j.rockPlan; p != nil && (p.W != w || p.H != h) {
		w, h = p.W, p.H
		if w > 1 && sw > 1 {
			cell = sc * float64(sw-1) / float64(w-1)
		}
		idx = NearestIndices(idx, sw, sh, w, h)
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	copy(img.Pix, idx)
	leg.Width, leg.Height, leg.CellM = w, h, cell
	b, err := json.MarshalIndent(leg, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteIn(j.set,
		safefile.File{Path: path, Fill: func(w io.Writer) error { return png.Encode(w, img) }},
		safefile.File{Path: rasterio.SidecarPath(path), Fill: func(w io.Writer) error {
			_, err := w.Write(append(b, '\n'))
			return err
		}},
	)
}

// ReadGeology reads a geology JSON file (package geology's Spec), checked.
func ReadGeology(path string) (*geology.Spec, error) {
	b, err := safefile.ReadFile(path)
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
