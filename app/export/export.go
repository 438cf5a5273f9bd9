// Package export turns a snapshot into files for game engines and GIS:
// heightmaps and masks at an engine's sizes (Target, resampled with the
// Catmull-Rom filter of resample.go), in tiles that share their edges
// (Plan), splat maps and flow maps (splat.go), all through app/rasterio's
// writers, so each file gets its sidecar and saves are atomic.
//
// Masks (the Export masks dialog's Masks and Mask): drainage area in m²;
// rivers 1 where the drainage area reaches the threshold and 0 elsewhere;
// water depth in metres (0 where dry: below DryDepthM); slope in degrees, the steepest
// descent to the cell's receiver (0 at outlets and lake bottoms); uplift
// in m/yr. 16-bit formats map each file's own [min, max] to [0, 65535],
// as the sidecar records.
//
// Profile masks, splat rules and flow maps read Inputs (InputsOf): height,
// height_frac, slope (of the gradient), curvature, flow (normalized
// drainage), water, sediment and rock, the last two nil when the
// simulation has none. An export reads the snapshot and its inputs only;
// it never changes them. Plans write one tile at a time, and every pixel
// is computed the same way whatever the tiling and GOMAXPROCS, so the
// bytes are too.
package export

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"orogen/app/rasterio"
	"orogen/sim/engine"
)

// DryDepthM is the water depth below which the water mask is 0, metres.
const DryDepthM = 1e-3

// Names are the masks Masks writes, in order, without extension.
var Names = []string{"drainage", "rivers", "water", "slope", "uplift"}

// Masks writes the masks of s into dir as NAME+ext (".png", ".r16" or
// ".tif"), rivers where the drainage area is at least thresholdM2. The
// uplift mask is skipped when s has none. It returns the files written.
func Masks(dir, ext string, s *engine.Snapshot, thresholdM2 float64) ([]string, error) {
	return MasksNamed(dir, "", ext, s, thresholdM2)
}

// MasksNamed is Masks with the files named PREFIX-NAME+ext (the Export
// masks dialog's base name), or NAME+ext for an empty prefix.
func MasksNamed(dir, prefix, ext string, s *engine.Snapshot, thresholdM2 float64) ([]string, error) {
	ext = strings.ToLower(ext)
	if ext != ".png" && ext != ".r16" && ext != ".tif" {
		return nil, fmt.Errorf("export: mask format %q: want .png, .r16 or .tif", ext)
	}
	if !(thresholdM2 > 0) || math.IsInf(thresholdM2, 0) {
		return nil, fmt.Errorf("export: river threshold %g m²: want a finite positive area", thresholdM2)
	}
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("export: masks folder: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("export: %s is not a folder", dir)
	}
	var out []string
	for _, name := range Names {
		data := Mask(name, s, thresholdM2)
		if data == nil {
			continue
		}
		file := name + ext
		if prefix != "" {
			file = prefix + "-" + file
		}
		p := filepath.Join(dir, file)
		if err := rasterio.Write(p, s.Field(data)); err != nil {
			return out, err
		}
		out = append(out, p)
	}
	return out, nil
}

// Mask computes one named mask of s (nil for uplift when s has none, or an
// unknown name).
func Mask(name string, s *engine.Snapshot, thresholdM2 float64) []float32 {
	n := s.W * s.H
	switch name {
	case "drainage":
		return append([]float32(nil), s.Area...)
	case "rivers":
		r := make([]float32, n)
		for i, a := range s.Area {
			if float64(a) >= thresholdM2 {
				r[i] = 1
			}
		}
		return r
	case "water":
		// Depths below DryDepthM are a numerical film, not water: left
		// in, a 16-bit file stretched to its own maximum (nanometres on a
		// dry terrain) showed them as white puddles.
		w := make([]float32, len(s.Water))
		for i, d := range s.Water {
			if d >= DryDepthM {
				w[i] = d
			}
		}
		return w
	case "slope":
		return slope(s)
	case "uplift":
		if s.Uplift == nil {
			return nil
		}
		return append([]float32(nil), s.Uplift...)
	}
	return nil
}

// slope is the angle of steepest descent from each cell to its receiver,
// degrees.
func slope(s *engine.Snapshot) []float32 {
	out := make([]float32, s.W*s.H)
	for i, r := range s.Receivers {
		j := int(r)
		if j == i || j < 0 || j >= len(out) {
			continue
		}
		dx := float64(i%s.W - j%s.W)
		dy := float64(i/s.W - j/s.W)
		d := math.Hypot(dx, dy) * s.Cell
		dh := float64(s.Height[i] - s.Height[j])
		if dh > 0 && d > 0 {
			out[i] = float32(math.Atan(dh/d) * 180 / math.Pi)
		}
	}
	return out
}
