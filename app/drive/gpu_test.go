package drive_test

import (
	"testing"

	"orogen/app/compute"
	"orogen/app/drive"
	"orogen/app/engines"
	"orogen/sim/constrain"
	"orogen/sim/engine"
)

// TestConstraintsSteerGPU: the grid engine on the GPU is Constrainable,
// and the driver's constraint solver steers it as it steers the CPU
// engine: a point constraint is met within ConstraintTol of the relief
// once the terrain has settled.
func TestConstraintsSteerGPU(t *testing.T) {
	const n = 48
	s := spec(t, n)
	s.Device = compute.GPU
	d, err := drive.New(s, drive.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if dev, why := engines.DeviceOf(d.Engine()); dev == "cpu" {
		t.Skip(why)
	}
	cs := []constrain.Constraint{{Points: []constrain.Point{{X: 24.5 * s.Cell, Y: 24.5 * s.Cell, H: 600}}}}
	if err := d.Apply(drive.SetConstraints{C: cs}); err != nil {
		t.Fatal(err)
	}
	for k := 0; !d.Settled(); k++ {
		if k == 3000 {
			t.Fatalf("not settled after 3 000 steps; errors %v m", d.ConstraintErrors())
		}
		step(t, d, 1)
	}
	lo, hi, _ := engine.HeightFigures(d.Engine().Heights())
	if e := d.ConstraintErrors()[0]; e > drive.ConstraintTol*(hi-lo) || d.Adjustments() == 0 {
		t.Fatalf("settled after %d adjustments with the point off by %.1f m of a %.0f m relief", d.Adjustments(), e, hi-lo)
	}
	t.Logf("settled at step %d after %d adjustments, the point off by %.2f m", d.Engine().Stats().Step, d.Adjustments(), d.ConstraintErrors()[0])
}
