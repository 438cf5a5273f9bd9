package export

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"orogen/app/rasterio"
	"orogen/app/safefile"
	"orogen/sim"
)

// Spec says how one field is exported: for which target, at which size,
// in how many tiles.
type Spec struct {
	Target *Target // nil: generic
	// W and H are the export's size in pixels; 0 keeps the source's. W
	// alone is the side of an engine's square, or for generic the longer
	// side, the other following the grid's shape.
	W, H int
	// Cols and Rows split the export into tiles that share their edge
	// column and row; 0 or 1 is one file.
	Cols, Rows int
	VRT        bool   // a GDAL .vrt beside every .r16 or .raw file
	Kind       string // what the sidecar says the raster holds
	// Heightmap writes the target's import scales in the sidecar.
	Heightmap bool
	// Range is the [lo, hi] the 16-bit formats map to 0..65535; nil: the
	// source's own extremes (resampling stays within them).
	Range *[2]float32
}

// ParseTiles parses "RxC" (rows × columns, like "2x4"); "" is one tile.
func ParseTiles(s string) (rows, cols int, err error) {
	if s == "" {
		return 1, 1, nil
	}
	rs, cs, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(s), "×", "x"), "x")
	rows, err1 := strconv.Atoi(strings.TrimSpace(rs))
	cols, err2 := strconv.Atoi(strings.TrimSpace(cs))
	if !ok || err1 != nil || err2 != nil || rows < 1 || cols < 1 || rows > 64 || cols > 64 {
		return 0, 0, fmt.Errorf("export: tiles %q: want RxC, rows × columns from 1 to 64 (like 2x2)", s)
	}
	return rows, cols, nil
}

// TilePath returns the name of tile (col, row) of path:
// NAME_x{col}_y{row}.ext, as Unreal's World Partition import expects.
func TilePath(path string, col, row int) string {
	ext := filepath.Ext(path)
	return fmt.Sprintf("%s_x%d_y%d%s", strings.TrimSuffix(path, ext), col, row, ext)
}

// Plan is a checked Spec for one source size: the export size, the tile
// size, and what to write.
type Plan struct {
	Spec
	TileW, TileH int
	// Cancel, if set, is asked before each tile; an error stops the
	// export with it (tiles written stay).
	Cancel func() error
	// Set, if not nil, stages every file in it (rasterio.Options.Set):
	// they reach their final names when the set is committed.
	Set *safefile.Set
}

// Check returns the plan of exporting a srcW×srcH field to path by spec,
// or an error naming what the target or the tiling refuses.
func (s Spec) Check(path string, srcW, srcH int) (*Plan, error) {
	return s.check(path, srcW, srcH, true)
}

// check is Check; with dir false the output folder is not checked.
func (s Spec) check(path string, srcW, srcH int, dir bool) (*Plan, error) {
	t := s.Target
	if t == nil {
		t = Targets["generic"]
	}
	p := &Plan{Spec: s}
	p.Target = t
	if p.W == 0 && p.H == 0 {
		if t.Sizes != nil {
			return nil, fmt.Errorf("export: %s needs a size: one of %s", t.Name, joinInts(t.Sizes))
		}
		p.W, p.H = srcW, srcH
	}
	if p.H == 0 {
		// Engines take squares (their X and Y scales then differ on a
		// rectangular grid); generic keeps the grid's shape, W the
		// longer side, so the cells stay square.
		p.H = p.W
		if t.Sizes == nil && srcW != srcH && srcW > 1 && srcH > 1 {
			long, short := max(srcW, srcH), min(srcW, srcH)
			other := int(math.Round(float64(p.W-1)*float64(short-1)/float64(long-1))) + 1
			if srcW > srcH {
				p.H = other
			} else {
				p.W, p.H = other, p.W
			}
		}
	}
	if t.Sizes != nil && p.W != p.H {
		return nil, fmt.Errorf("export: %s takes square heightmaps, not %d×%d", t.Name, p.W, p.H)
	}
	ext := strings.ToLower(filepath.Ext(path))
	if s.Kind == "" || s.Heightmap {
		if err := t.CheckFormat(ext); err != nil {
			return nil, err
		}
	} else if !rasterio.KnownExt(path) {
		return nil, rasterio.CheckPath(path)
	}
	if (strings.HasPrefix(s.Kind, "splat") || s.Kind == "flow") && ext != ".png" {
		return nil, fmt.Errorf("export: %s: %s maps are 8-bit RGBA .png files", path, s.Kind)
	}
	if ext == ".obj" {
		return nil, fmt.Errorf("export: %s: meshes are not resampled or tiled: export .obj at the simulation's size", path)
	}
	if p.Cols < 1 {
		p.Cols = 1
	}
	if p.Rows < 1 {
		p.Rows = 1
	}
	if (p.W-1)%p.Cols != 0 || (p.H-1)%p.Rows != 0 {
		return nil, fmt.Errorf("export: %d×%d does not split into %dx%d tiles sharing their edges: size-1 must divide by the tile count (%d÷%d, %d÷%d)",
			p.W, p.H, p.Rows, p.Cols, p.W-1, p.Cols, p.H-1, p.Rows)
	}
	p.TileW, p.TileH = (p.W-1)/p.Cols+1, (p.H-1)/p.Rows+1
	side := p.W
	if p.Cols > 1 || p.Rows > 1 {
		side = p.TileW // each tile is a landscape of its own
		if p.TileW != p.TileH {
			if t.Sizes != nil {
				return nil, fmt.Errorf("export: %s tiles must be square, not %d×%d", t.Name, p.TileW, p.TileH)
			}
		}
	}
	if err := t.CheckSize(side); err != nil {
		if side != p.W {
			return nil, fmt.Errorf("%w (each of the %dx%d tiles of %d×%d is %d×%d)", err, p.Rows, p.Cols, p.W, p.H, p.TileW, p.TileH)
		}
		return nil, err
	}
	if t.Sizes == nil {
		if err := t.CheckSize(p.H); err != nil {
			return nil, err
		}
	}
	if dir {
		if err := rasterio.CheckPath(path); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Files returns the names the plan writes for path (the tiles, or path),
// without sidecars.
func (p *Plan) Files(path string) []string {
	if p.Cols == 1 && p.Rows == 1 {
		return []string{path}
	}
	var out []string
	for row := range p.Rows {
		for col := range p.Cols {
			out = append(out, TilePath(path, col, row))
		}
	}
	return out
}

// Write exports src to path by the plan, one tile at a time (at most one
// tile's pixels in memory besides src), each with its sidecar. It returns
// the files written (rasters, in order) and, for a heightmap, the engine's
// import settings (also in every sidecar). A failure leaves no partial
// file under a final name (rasterio.WriteWith); tiles already written
// stay and are listed.
func (p *Plan) Write(path string, src *sim.Field) ([]string, *rasterio.EngineMeta, error) {
	r := NewResampler(src, p.W, p.H)
	lo, hi := src.MinMax()
	rng := [2]float32{lo, hi}
	if p.Range != nil {
		rng = *p.Range
	}
	var em *rasterio.EngineMeta
	if p.Heightmap {
		em = p.Target.Scales(float64(rng[0]), float64(rng[1]), r.CellX, r.CellY)
	}
	written, err := p.eachTile(path, func(name string, x0, y0 int, tile *rasterio.TileMeta) error {
		f := r.Window(x0, y0, p.TileW, p.TileH)
		o := rasterio.Options{VRT: p.VRT && rasterio.IsRaw(path), Range: &rng, Kind: p.Kind, Engine: em, Tile: tile,
			SouthUp: p.Target.SouthUp && p.Heightmap && rasterio.IsRaw(path), Set: p.Set}
		return rasterio.WriteWith(name, f, o)
	})
	return written, em, err
}
