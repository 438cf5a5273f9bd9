package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/rasterio"
	"orogen/app/scene/scenetest"
)

// orogen blend end to end: the heightmap of the mode asked, the side by
// side table, and clear errors.
func TestBlendCLI(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "b.tif")
	var stdout, stderr bytes.Buffer
	// The classic physics: both terrains settle in tens of steps at 64².
	def, cone := scenetest.File(t, "default"), scenetest.File(t, "cone")
	if code := Main([]string{"blend", def, cone, "--gradient", "0.4,0.6", "--size", "64", "--mode", "elevation", "--out", out, "--report", filepath.Join(dir, "r.json")}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "pits before routing") || !strings.Contains(stdout.String(), "elevation") {
		t.Errorf("stdout %q; want the side-by-side table", stdout.String())
	}
	if f, err := rasterio.ReadHeights(out); err != nil || f.W != 64 {
		t.Errorf("output: %v, %v; want a 64² heightmap", f, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"blend", "default", "cone", "--gradient", "0.4,0.6", "--out", out, "--mode", "height"}, "--mode"},
		{[]string{"blend", "default", "cone", "--gradient", "0.4,0.6"}, "--out is required"},
		{[]string{"blend", "default", "cone", "--gradient", "0.4,x", "--out", out}, "not a number"},
		{[]string{"blend", "default", "--gradient", "0.4,0.6", "--out", out}, "2 arg"},
		{[]string{"blend", "default", "cone", "--out", out}, "--mask FILE or --gradient"},
	} {
		stderr.Reset()
		if code := Main(c.args, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, %q; want an error naming %q", c.args, code, stderr.String(), c.want)
		}
	}
}
