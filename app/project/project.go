package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"orogen/app/export"
	"orogen/app/jsondoc"
	"orogen/app/safefile"
	"orogen/app/scene"
	"orogen/sim"
	"orogen/uplifttree"
)

// Version is the project format version this package reads and writes.
const Version = 1

// format is the project file: its errors start "project: ".
var format = jsondoc.Format{Name: "project", Version: Version,
	NoVersion: fmt.Sprintf("is this an Orogen project? (add \"version\": %d)", Version)}

// Ext is the extension of project files.
const Ext = ".orogen.json"

// Project is a project: the scene (grid, domain, engine, seed, parameters,
// umax and the Uplift Tree), the layers the tree's Raster nodes read, and
// the view settings.
type Project struct {
	Scene *scene.Scene
	// Layers are the painted and imported layers by name: normalized
	// uplift, each Scene.Width×Scene.Height cells.
	Layers map[string]*sim.Field
	View   View
	// Export is the export profile that `orogen build` and File → Build
	// write (nil: none). It is optional and needs no new format version:
	// older releases refuse a project holding one (unknown key), and read
	// every other.
	Export *export.Profile
	// Terrain, if not nil, holds the heights, metres, the engine starts
	// from (Scene.Width×Scene.Height cells): a kept hydraulic pass or
	// imported heights. It takes the place of the scene's initial heights
	// image. Optional, like Export: older releases refuse a project
	// holding one.
	Terrain *sim.Field
}

// TerrainName is the name the project's terrain (Project.Terrain) goes by
// in error messages.
const TerrainName = "terrain"

// fileJSON is the file's top level.
type fileJSON struct {
	Version int                  `json:"version"`
	Scene   json.RawMessage      `json:"scene"`
	Layers  map[string]layerJSON `json:"layers,omitempty"`
	View    json.RawMessage      `json:"view,omitempty"`
	Export  json.RawMessage      `json:"export,omitempty"`
	Terrain *layerJSON           `json:"terrain,omitempty"`
}

// Load reads the project file at path (see Parse).
func Load(path string) (*Project, error) { return LoadRelinked(path, nil) }

// LoadRelinked is Load with files the project names read from elsewhere:
// relink maps a file's absolute path, as a MissingFileError names it, to
// where it is now. The files are read and embedded, so the project saved
// afterwards no longer names them.
func LoadRelinked(path string, relink map[string]string) (*Project, error) {
	b, err := safefile.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("project %s: no such file", path)
		}
		return nil, fmt.Errorf("project %s: %w", path, safefile.Cause(err))
	}
	p, err := parse(b, filepath.Dir(path), relink)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// Parse reads a project strictly: unknown keys, a missing or unknown
// version, trailing text, a scene that does not validate, a layer of the
// wrong size or holding NaN or infinite values, a Raster node reading a
// layer the project does not hold, and bad view settings are errors that
// name the problem. dir is the directory relative file names are resolved
// against (the project file's); uplift images the scene names are read
// and embedded (see Embed), so the result is self-contained.
func Parse(b []byte, dir string) (*Project, error) { return parse(b, dir, nil) }

func parse(b []byte, dir string, relink map[string]string) (*Project, error) {
	var f fileJSON
	if err := format.Decode(b, &f); err != nil {
		return nil, err
	}
	if len(f.Scene) == 0 || string(f.Scene) == "null" {
		return nil, errors.New("project: no \"scene\": a project needs one")
	}
	sc, err := scene.Parse(f.Scene)
	if err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	if err := sc.Validate(); err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	resolve(sc, dir)
	if r, ok := relink[sc.Uplift.Image]; ok {
		sc.Uplift.Image = r
	}
	for k, v := range sc.Uplift.Layers {
		if r, ok := relink[v]; ok {
			sc.Uplift.Layers[k] = r
		}
	}
	p := &Project{Scene: sc, Layers: map[string]*sim.Field{}, View: DefaultView()}
	cell := Cell(sc)
	for _, name := range slices.Sorted(maps.Keys(f.Layers)) {
		l, err := decodeLayer(name, f.Layers[name], sc.Width, sc.Height, cell)
		if err != nil {
			return nil, fmt.Errorf("project: %w", err)
		}
		p.Layers[name] = l
	}
	if len(f.View) > 0 && string(f.View) != "null" {
		if err := jsondoc.Strict(f.View, &p.View); err != nil {
			return nil, fmt.Errorf("project: view: %w", err)
		}
	}
	if err := p.View.Validate(); err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	if len(f.Export) > 0 && string(f.Export) != "null" {
		if p.Export, err = export.ParseProfile(f.Export); err != nil {
			return nil, fmt.Errorf("project: %w", err)
		}
	}
	if f.Terrain != nil {
		if p.Terrain, err = decodeLayer(TerrainName, *f.Terrain, sc.Width, sc.Height, cell); err != nil {
			return nil, fmt.Errorf("project: %w", err)
		}
	}
	q, err := p.Embed()
	if err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	if err := q.Validate(); err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	if t := q.Scene.Uplift.Tree; t != nil {
		for _, name := range t.LayerNames() {
			if _, ok := q.Layers[name]; !ok {
				return nil, fmt.Errorf("project: the tree reads layer %q, which \"layers\" does not hold: add it or fix the raster node's \"layer\"", name)
			}
		}
	}
	return q, nil
}

// resolve makes the relative file names of sc absolute, against dir.
func resolve(sc *scene.Scene, dir string) {
	if dir == "" {
		return
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	fix := func(name string) string {
		if name == "" || filepath.IsAbs(name) {
			return name
		}
		return filepath.Join(dir, name)
	}
	sc.Uplift.Image = fix(sc.Uplift.Image)
	for k, v := range sc.Uplift.Layers {
		sc.Uplift.Layers[k] = fix(v)
	}
	if sc.Init != nil {
		sc.Init.Image = fix(sc.Init.Image)
	}
}

// Validate returns an error naming the first problem that would make
// Marshal fail or Parse refuse the result: a missing or invalid scene, a
// bad layer name, a layer of the wrong size or with NaN or infinite
// values, bad view settings.
func (p *Project) Validate() error {
	if p.Scene == nil {
		return errors.New("project: no scene")
	}
	if err := p.Scene.Validate(); err != nil {
		return fmt.Errorf("project: %w", err)
	}
	for _, name := range slices.Sorted(maps.Keys(p.Layers)) {
		if err := checkLayerName(name); err != nil {
			return fmt.Errorf("project: %w", err)
		}
		if err := checkLayer(name, p.Layers[name], p.Scene.Width, p.Scene.Height); err != nil {
			return fmt.Errorf("project: %w", err)
		}
	}
	if err := p.View.Validate(); err != nil {
		return fmt.Errorf("project: %w", err)
	}
	if p.Export != nil {
		if err := p.Export.Validate(); err != nil {
			return fmt.Errorf("project: %w", err)
		}
	}
	if p.Terrain != nil {
		if err := checkLayer(TerrainName, p.Terrain, p.Scene.Width, p.Scene.Height); err != nil {
			return fmt.Errorf("project: %w", err)
		}
	}
	return nil
}

// Marshal returns the project file of p, with file names as they are in
// p.Scene (absolute after Parse). A project that is not self-contained is
// embedded first (see Embed), which reads the images it names; p itself is
// not changed.
func (p *Project) Marshal() ([]byte, error) { return p.marshal("") }

// Save writes the project file of p to path atomically: a failed save
// leaves any previous file untouched. Initial heights inside path's
// directory tree are written relative to it.
func (p *Project) Save(path string) error {
	dir := filepath.Dir(path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	b, err := p.marshal(dir)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return safefile.WriteBytes(path, b)
}

// marshal writes p, making file names inside dir (if not "") relative.
func (p *Project) marshal(dir string) ([]byte, error) {
	q, err := p.Embed()
	if err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	if err := q.Validate(); err != nil {
		return nil, err
	}
	sc := *q.Scene
	if sc.Init != nil {
		in := *sc.Init
		in.Image = relative(dir, q.Scene.Path(in.Image), in.Image)
		sc.Init = &in
	}
	sb, err := scene.Marshal(&sc)
	if err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	vb, err := json.Marshal(q.View)
	if err != nil {
		return nil, fmt.Errorf("project: view: %w", err)
	}
	f := fileJSON{Version: Version, Scene: sb, View: vb, Layers: map[string]layerJSON{}}
	if q.Export != nil {
		if f.Export, err = json.Marshal(q.Export); err != nil {
			return nil, fmt.Errorf("project: export profile: %w", err)
		}
	}
	for name, l := range q.Layers {
		if f.Layers[name], err = encodeLayer(l); err != nil {
			return nil, fmt.Errorf("project: layer %q: %w", name, err)
		}
	}
	if q.Terrain != nil {
		t, err := encodeLayer(q.Terrain)
		if err != nil {
			return nil, fmt.Errorf("project: terrain: %w", err)
		}
		f.Terrain = &t
	}
	b, err := json.MarshalIndent(&f, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("project: %w", err)
	}
	return append(b, '\n'), nil
}

// relative returns file (the path of name on disk, "" if it has none)
// relative to dir when it lies inside dir's tree, else absolute; name
// itself when there is nothing better.
func relative(dir, file, name string) string {
	if file == "" {
		return name
	}
	if abs, err := filepath.Abs(file); err == nil {
		file = abs
	}
	if dir == "" {
		return file
	}
	r, err := filepath.Rel(dir, file)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return file
	}
	return filepath.ToSlash(r)
}

// Clone returns a copy of p that shares nothing with it that either may
// change: the scene and its tree, the layers and the view are copied.
func (p *Project) Clone() *Project {
	c := &Project{View: p.View.clone(), Export: p.Export.Clone()}
	if p.Terrain != nil {
		c.Terrain = p.Terrain.Clone()
	}
	if p.Scene != nil {
		c.Scene = CloneScene(p.Scene)
	}
	if p.Layers != nil {
		c.Layers = make(map[string]*sim.Field, len(p.Layers))
		for k, l := range p.Layers {
			if l != nil {
				l = l.Clone()
			}
			c.Layers[k] = l
		}
	}
	return c
}

// CloneScene returns a copy of sc whose tree (cloned), layer files and
// initial heights are its own; it still resolves file names as sc does.
func CloneScene(sc *scene.Scene) *scene.Scene {
	c := *sc
	if sc.Uplift.Tree != nil {
		c.Uplift.Tree = sc.Uplift.Tree.Clone()
	}
	c.Uplift.Layers = maps.Clone(sc.Uplift.Layers)
	if sc.Init != nil {
		in := *sc.Init
		c.Init = &in
	}
	if sc.Geology != nil {
		g := sc.Geology.Clone()
		c.Geology = &g
	}
	return &c
}

// Cell returns the cell size of sc's grid, metres: domain_m over the longer
// side.
func Cell(sc *scene.Scene) float64 {
	return sc.DomainM / float64(max(sc.Width, sc.Height))
}

// World returns the world rectangle sc's grid covers, metres, origin at the
// north-west corner: where the tree is rasterized, and the rectangle of a
// Raster node that lays a layer over the whole grid.
func World(sc *scene.Scene) uplifttree.Rect {
	c := Cell(sc)
	return uplifttree.Rect{X0: 0, Y0: 0, X1: float64(sc.Width) * c, Y1: float64(sc.Height) * c}
}
