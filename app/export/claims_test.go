package export

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPathNamesAFile: an output path of "." or "sub/" would write a
// hidden ".png"; it is refused (issue 31.7).
func TestPathNamesAFile(t *testing.T) {
	for _, p := range []string{".", "sub/", "sub/.", ".hidden"} {
		o := Output{Kind: "heightmap", Format: "png", Path: p}
		if err := o.validate(); err == nil || !strings.Contains(err.Error(), "names no file") {
			t.Errorf("path %q: %v; want it refused", p, err)
		}
	}
}

// TestClaims: one file claimed by two outputs is an error naming both;
// the same output may claim a file twice; paths are compared clean.
func TestClaims(t *testing.T) {
	var c Claims
	dir := t.TempDir()
	if err := c.Claim("--out a.tif", RasterFiles(filepath.Join(dir, "a.tif"), false)...); err != nil {
		t.Fatal(err)
	}
	err := c.Claim("--report a.tif.json", filepath.Join(dir, "x", "..", "a.tif.json"))
	if err == nil || !strings.Contains(err.Error(), "--out a.tif and --report a.tif.json both write") {
		t.Errorf("got %v", err)
	}
	if got := RasterFiles("h.r16", true); len(got) != 3 || got[2] != "h.r16.vrt" {
		t.Errorf("RasterFiles(h.r16, vrt) = %v", got)
	}
	if got := RasterFiles("m.obj", false); len(got) != 1 {
		t.Errorf("RasterFiles(m.obj) = %v", got)
	}
}
