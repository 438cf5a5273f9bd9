package scene

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"orogen/app/rasterio"
	"orogen/sim"
	"orogen/uplifttree"
)

// UpliftField returns the scene's uplift on a w×h grid of cell metres,
// in m/yr: the image named on the command line (cliUplift) if any, else the
// scene's image or tree. Images of 8 or 16 bits and .r16 are normalized
// and scaled by umax; float TIFFs are m/yr as stored; trees give
// dimensionless values scaled by umax. It returns nil when the scene has no
// uplift.
func (sc *Scene) UpliftField(cliUplift string, w, h int, cell, umax float64) (*sim.Field, error) {
	upPath := cliUplift
	if upPath == "" {
		upPath = sc.Uplift.Image
	}
	var f *sim.Field
	switch {
	case upPath != "":
		img, err := loadUplift(sc, upPath, cliUplift != "")
		if err != nil {
			return nil, err
		}
		f = img.Resample(w, h)
		f.Cell = cell
		ext := strings.ToLower(filepath.Ext(upPath))
		if ext == ".tif" || ext == ".tiff" {
			return f, nil
		}
	case sc.Uplift.Tree != nil:
		layers := uplifttree.LayerMap{}
		for name, file := range sc.Uplift.Layers {
			l, err := loadUplift(sc, file, false)
			if err != nil {
				return nil, fmt.Errorf("uplift layer %q: %w", name, err)
			}
			layers[name] = l
		}
		f = sim.NewField(w, h, cell)
		sc.Uplift.Tree.Rasterize(f, uplifttree.Domain(f), layers)
	default:
		return nil, nil
	}
	for i := range f.Data {
		f.Data[i] *= float32(umax)
	}
	return f, nil
}

// loadUplift reads a normalized uplift image named by the command line or
// the scene (which may be embedded).
func loadUplift(sc *Scene, name string, fromCLI bool) (*sim.Field, error) {
	if fromCLI {
		f, err := rasterio.ReadNormalized(name)
		if err != nil {
			return nil, fmt.Errorf("uplift: %w", err)
		}
		return f, nil
	}
	f, path, err := sc.ReadImage(name)
	if err != nil && path != "" {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("scene %s: uplift %s: no such file (moved, or the scene came from another machine): put the file there, fix \"uplift\": {\"image\"} in the scene, or give --uplift FILE", sc.Name, path)
		}
		return nil, fmt.Errorf("scene %s: uplift: %w", sc.Name, err)
	}
	return f, err
}

// ReadImage reads the image file the scene names (an uplift image or
// layer), normalized to [0, 1] (rasterio.ReadNormalized), from the disk
// beside the scene or, for an embedded preset, from its embedded PNG. path
// is the file on disk ("" for an embedded one); a missing file's error
// wraps fs.ErrNotExist, for the caller to say where it was looked for.
func (sc *Scene) ReadImage(name string) (f *sim.Field, path string, err error) {
	if path = sc.Path(name); path != "" {
		f, err = rasterio.ReadNormalized(path)
		return f, path, err
	}
	r, err := sc.Open(name)
	if err != nil {
		return nil, "", err
	}
	defer r.Close()
	w, h, data, _, err := rasterio.DecodePNG(r)
	if err != nil {
		return nil, "", fmt.Errorf("scene %s: uplift %s: %w", sc.Name, name, err)
	}
	return &sim.Field{W: w, H: h, Data: data, Cell: 1}, "", nil
}
