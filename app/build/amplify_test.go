package build

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"orogen/app/doc"
	"orogen/app/export"
	"orogen/app/rasterio"
	"orogen/app/run"
	"orogen/sim"
	"orogen/sim/amplify"
)

// An output larger than the grid is made from the amplified terrain, not
// resampled: a generic 128-wide heightmap from the 32×24 cone is
// sim/amplify's ×4 terrain (same seed, same options) resampled corner to
// corner to the export's 128×95, bit for bit, and it differs from the
// grid resampled to that size (it has detail); the report says ×4 for it
// and for a mask of that size, and 0 for an output of the grid's size.
// ampFactor picks the smallest factor reaching the size.
func TestBuildAmplifies(t *testing.T) {
	p := cone(t, 40)
	p.Export = &export.Profile{Outputs: []export.Output{
		{Kind: "heightmap", Format: "tif", Size: 128, Path: "fine"},
		{Kind: "mask", Mask: "slope", Format: "tif", Size: 128, Path: "slope"},
		{Kind: "heightmap", Format: "tif", Path: "grid"},
	}}
	dir := t.TempDir()
	rep, err := Build(context.Background(), p, Options{OutDir: dir, Name: "cone"})
	if err != nil {
		t.Fatal(err)
	}
	if got := []int{rep.Outputs[0].Amplified, rep.Outputs[1].Amplified, rep.Outputs[2].Amplified}; got[0] != 4 || got[1] != 4 || got[2] != 0 {
		t.Errorf("amplified factors %v; want [4 4 0]", got)
	}
	fine, err := rasterio.ReadHeights(filepath.Join(dir, "fine.tif"))
	if err != nil {
		t.Fatal(err)
	}
	grid, err := rasterio.ReadHeights(filepath.Join(dir, "grid.tif"))
	if err != nil {
		t.Fatal(err)
	}
	if fine.W != 128 || fine.H != 95 || grid.W != 32 {
		t.Fatalf("sizes %d×%d and %d; want 128×95 and 32", fine.W, fine.H, grid.W)
	}
	// The same as sim/amplify on the same simulation.
	d, err := doc.New(p)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := d.Scene().EngineSpec(d.Uplift().Clone(), nil)
	if err != nil {
		t.Fatal(err)
	}
	job, err := run.NewJob(d.Scene(), spec, run.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := job.Snapshot()
	o := amplify.DefaultOptions(4)
	o.Seed = p.Scene.Seed
	r, err := amplify.Amplify(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	want := export.Resample(&sim.Field{W: r.W, H: r.H, Cell: r.Cell, Data: r.Height}, fine.W, fine.H)
	// The writers flush subnormal heights to 0 (sim.Flush): the drainage
	// pass's +ε steps up from a 0 m plain start at 1e-45 m.
	for i, v := range want.Data {
		if v = sim.Flush(v); fine.Data[i] != v {
			t.Fatalf("fine cell %d: %g in the build, %g from sim/amplify resampled", i, fine.Data[i], v)
		}
	}
	// Not the grid resampled: the detail and the beds are metres deep
	// (measured: 47 m RMS on the cone's 1.6 km cells; asserted: over
	// 0.5 m, far above float32 rounding).
	plain := export.Resample(grid, fine.W, fine.H)
	var ss float64
	for i, v := range plain.Data {
		d := float64(fine.Data[i] - v)
		ss += d * d
	}
	rms := math.Sqrt(ss / float64(len(plain.Data)))
	if rms < 0.5 {
		t.Errorf("the amplified heightmap is within %.3g m RMS of the grid resampled: no detail", rms)
	}
	t.Logf("amplified vs resampled: %.3g m RMS", rms)
	for _, c := range []struct{ side, n, want int }{{32, 32, 0}, {0, 32, 0}, {33, 32, 2}, {64, 32, 2}, {65, 32, 4}, {128, 32, 4}, {129, 32, 8}, {1000, 32, 8}} {
		if got := ampFactor(c.side, c.n); got != c.want {
			t.Errorf("ampFactor(%d, %d) = %d; want %d", c.side, c.n, got, c.want)
		}
	}
}
