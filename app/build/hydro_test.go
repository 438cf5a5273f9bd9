package build

import (
	"strings"
	"testing"

	"orogen/app/compute"
	"orogen/app/export"
)

// TestHydroPassChecked: a profile's hydraulic pass on more amplified
// cells than its device takes (the CPU 4096², a GPU 8192²) is refused by
// Check, before the simulation, naming the output; a GPU takes what the
// CPU does not.
func TestHydroPassChecked(t *testing.T) {
	p := cone(t, 2)
	p.Scene.Width, p.Scene.Height = 600, 600                                    // Check reads only the size
	h := export.Output{Kind: "heightmap", Format: "tif", Size: 4800, Path: "h"} // ×8: 4800²
	gpu := compute.GPU
	for _, c := range []struct {
		steps int
		dev   *compute.Device
		size  int
		want  string
	}{
		{20, nil, 4800, "output 1 (h): the hydraulic pass (hydro_steps) on 4800×4800 amplified cells"},
		{20, &gpu, 4800, ""},
		{20, &gpu, 9000, "on 9000×9000 amplified cells"}, // ×8 past 1024: 9000² for a GPU
		{0, nil, 4800, ""},
	} {
		h.Size = c.size
		if c.size > 4800 {
			p.Scene.Width, p.Scene.Height = 1125, 1125
		}
		p.Export = &export.Profile{Outputs: []export.Output{h}, HydroSteps: c.steps}
		err := Check(p, Options{OutDir: t.TempDir(), Name: "c", Device: c.dev})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%d steps on %d² (device %v): %v; want %q", c.steps, c.size, c.dev, err, c.want)
		}
	}
}
