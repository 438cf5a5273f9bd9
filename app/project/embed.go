package project

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"orogen/app/rasterio"
	"orogen/app/scene"
	"orogen/sim"
	"orogen/uplifttree"
)

// Layer names that Embed gives an uplift image's tree.
const (
	BaseLayer  = "base"  // the image, normalized and resampled to the grid
	PaintLayer = "paint" // zeros, to paint on
)

// FromScene returns a self-contained project of sc with the default view:
// sc is validated, copied, and embedded as Embed does (reading the images
// it names, on disk or in the presets).
func FromScene(sc *scene.Scene) (*Project, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	return (&Project{Scene: sc, View: DefaultView()}).Embed()
}

// SelfContained reports whether p's scene names no uplift files: no
// uplift image and no layer files.
func (p *Project) SelfContained() bool {
	return p.Scene == nil || (p.Scene.Uplift.Image == "" && len(p.Scene.Uplift.Layers) == 0)
}

// Embed returns p in tree form with every uplift file it names read into
// Layers. An uplift image becomes the tree
//
//	Sum{ Raster "base" over World(sc), Raster "paint" over World(sc) }
//
// with the image resampled bilinearly to the grid as layer "base" (a .tif
// holds m/yr and is divided by umax; PNG and R16 are normalized already)
// and zeros as layer "paint". A tree's layer files are read the same way
// (a .tif unscaled, as the run command reads them) into layers of their
// names. Initial heights stay a file name (made absolute when the scene
// knows its directory). A self-contained p is returned as a shallow copy;
// otherwise the result has its own scene and shares p's unchanged layers.
// An error names the file that could not be read or the layer name that
// clashes.
func (p *Project) Embed() (*Project, error) {
	q := &Project{Scene: p.Scene, Layers: p.Layers, View: p.View, Export: p.Export, Terrain: p.Terrain}
	if p.SelfContained() {
		return q, nil
	}
	sc := p.Scene
	c := CloneScene(sc)
	layers := maps.Clone(p.Layers)
	if layers == nil {
		layers = map[string]*sim.Field{}
	}
	add := func(name string, f *sim.Field) error {
		if _, dup := layers[name]; dup {
			return fmt.Errorf("layer %q comes both from a file and from the project's layers: rename one", name)
		}
		layers[name] = f
		return nil
	}
	world := World(sc)
	if sc.Uplift.Image != "" {
		if sc.Uplift.Tree != nil {
			return nil, fmt.Errorf("scene: uplift has both an image and a tree: keep one")
		}
		f, err := readLayer(sc, sc.Uplift.Image, true)
		if err != nil {
			return nil, err
		}
		if err := add(BaseLayer, f); err != nil {
			return nil, err
		}
		if err := add(PaintLayer, sim.NewField(sc.Width, sc.Height, Cell(sc))); err != nil {
			return nil, err
		}
		t := uplifttree.New()
		for _, name := range []string{BaseLayer, PaintLayer} {
			if _, err := t.Add(t.Root(), -1, &uplifttree.Raster{Layer: name, Rect: world, Value: 1}); err != nil {
				return nil, fmt.Errorf("internal: %w", err)
			}
		}
		c.Uplift.Image = ""
		c.Uplift.Tree = t
	}
	for _, name := range slices.Sorted(maps.Keys(sc.Uplift.Layers)) {
		if err := checkLayerName(name); err != nil {
			return nil, fmt.Errorf("scene: uplift.layers: %w", err)
		}
		f, err := readLayer(sc, sc.Uplift.Layers[name], false)
		if err != nil {
			return nil, fmt.Errorf("uplift layer %q: %w", name, err)
		}
		if err := add(name, f); err != nil {
			return nil, err
		}
	}
	c.Uplift.Layers = nil
	if c.Init != nil && c.Init.Image != "" {
		if path := sc.Path(c.Init.Image); path != "" {
			if abs, err := filepath.Abs(path); err == nil {
				c.Init.Image = abs
			}
		}
	}
	q.Scene, q.Layers = c, layers
	return q, nil
}

// MissingFileError is a file a project names that is not there: moved, or
// written on another machine. Load it again with the file's new place in
// LoadRelinked's relink map.
type MissingFileError struct {
	Path string // the file the project names, absolute
	Key  string // where the project names it
}

func (e *MissingFileError) Error() string {
	return fmt.Sprintf("uplift image %s: no such file (moved, or the file came from another machine): relink it (the app asks where it is now), put the image there, or fix %s to name where it is now", e.Path, e.Key)
}

// readLayer reads the uplift file name of sc (on disk or in the presets)
// as a layer of sc's grid: normalized, resampled bilinearly to the grid.
// With mPerYr, a float TIFF, which holds m/yr, is divided by umax.
func readLayer(sc *scene.Scene, name string, mPerYr bool) (*sim.Field, error) {
	umax := 0.0
	if mPerYr {
		umax = sc.Uplift.UmaxMPerYr
	}
	f, path, err := sc.ReadImage(name)
	if err != nil {
		if path != "" && errors.Is(err, fs.ErrNotExist) {
			key := `"uplift": {"image"}`
			if !mPerYr {
				key = `"uplift": {"layers"}`
			}
			return nil, &MissingFileError{Path: path, Key: key}
		}
		return nil, err
	}
	if path == "" {
		mPerYr = false // an embedded PNG: normalized values
	}
	return finish(f, name, sc.Width, sc.Height, Cell(sc), umax, mPerYr)
}

// ReadImage reads an uplift map (16- or 8-bit PNG, R16, or float TIFF; see
// rasterio.ReadNormalized) as a layer of a w×h grid of cell metres:
// normalized, resampled bilinearly to the grid. A TIFF holds m/yr and is
// divided by umax, which must not be 0 then.
func ReadImage(path string, w, h int, cell, umax float64) (*sim.Field, error) {
	return readImage(path, w, h, cell, umax, true)
}

func readImage(path string, w, h int, cell, umax float64, mPerYr bool) (*sim.Field, error) {
	f, err := rasterio.ReadNormalized(path)
	if err != nil {
		return nil, err
	}
	return finish(f, path, w, h, cell, umax, mPerYr)
}

// finish resamples f, read from file name, to w×h and, for a TIFF in m/yr,
// divides it by umax.
func finish(f *sim.Field, name string, w, h int, cell, umax float64, mPerYr bool) (*sim.Field, error) {
	f = f.Resample(w, h)
	f.Cell = cell
	if ext := strings.ToLower(filepath.Ext(name)); mPerYr && (ext == ".tif" || ext == ".tiff") {
		if umax == 0 {
			return nil, fmt.Errorf("uplift %s holds m/yr but umax_m_per_yr is 0: set umax to the uplift of a layer value of 1", name)
		}
		for i, v := range f.Data {
			f.Data[i] = float32(float64(v) / umax)
		}
	}
	if i := sim.FirstNonFinite(f.Data); i >= 0 {
		return nil, fmt.Errorf("uplift %s: cell (%d, %d) is %v once normalized: umax %g is too small for it", name, i%f.W, i/f.W, f.Data[i], umax)
	}
	return f, nil
}
