package export

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"orogen/app/rasterio"
)

// Claims records which output writes each file of a run or a build, so
// that two outputs on one file (--out a.tif --out-water a.tif, a report
// named like a sidecar, a mask named like a heightmap's tile) are refused
// before anything runs instead of one silently replacing the other.
type Claims struct {
	by    map[string]string // file key → the output that writes it
	files []string          // as claimed, in order
}

// Files returns the files claimed, in the order they were.
func (c *Claims) Files() []string { return c.files }

// Claim records that output what (a flag and its path, "--out a.tif", or
// "output 3 (h.png)") writes files, or returns an error naming both
// outputs and the file they share.
func (c *Claims) Claim(what string, files ...string) error {
	if c.by == nil {
		c.by = map[string]string{}
	}
	for _, f := range files {
		k := fileKey(f)
		if prev, ok := c.by[k]; ok && prev != what {
			return fmt.Errorf("%s and %s both write %s: give each output its own name", prev, what, f)
		}
		if _, ok := c.by[k]; !ok {
			c.files = append(c.files, f)
		}
		c.by[k] = what
	}
	return nil
}

// fileKey is the name two paths of one file share: absolute and clean,
// and case-folded where the usual file systems fold case (Windows, macOS).
func fileKey(path string) string {
	k, err := filepath.Abs(path)
	if err != nil {
		k = filepath.Clean(path)
	}
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		k = strings.ToLower(k)
	}
	return k
}

// RasterFiles returns every file a raster output to path writes: the
// raster (.obj meshes have nothing else), its sidecar, and its VRT when
// vrt is set and it is raw.
func RasterFiles(path string, vrt bool) []string {
	if strings.EqualFold(filepath.Ext(path), ".obj") {
		return []string{path}
	}
	files := []string{path, rasterio.SidecarPath(path)}
	if vrt && rasterio.IsRaw(path) {
		files = append(files, rasterio.VRTPath(path))
	}
	return files
}

// AllFiles returns every file the plan writes for path: each tile (or
// path) with its sidecar and, for raw files with VRT set, its VRT.
func (p *Plan) AllFiles(path string) []string {
	var out []string
	for _, f := range p.Files(path) {
		out = append(out, RasterFiles(f, p.VRT)...)
	}
	return out
}
