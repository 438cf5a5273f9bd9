package engines

import (
	"strings"
	"testing"

	"orogen/app/compute"
	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
	"orogen/sim/grid"
)

// TestGridMovesToCPU: the grid engine built for the GPU runs there, and a
// change the GPU engine does not run (the lakes' water budget) moves it
// to the CPU at once with one line saying why, its heights, steps and
// time carried over. It gives its scratch back (engine.Releaser) on
// either device and steps on after.
func TestGridMovesToCPU(t *testing.T) {
	const n = 32
	s := Spec{Kind: grid.Kind, W: n, H: n, Cell: 100, Up: enginetest.Dome(n, n, 1e-3), InitNoise: 1, Seed: 3,
		Params: engine.DefaultParams(), Device: compute.GPU}
	e, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	if dev, why := DeviceOf(e); dev == "cpu" {
		t.Skip(why)
	}
	for range 3 {
		e.Step()
	}
	if _, ok := e.(engine.Releaser); !ok {
		t.Fatal("the GPU grid engine gives no scratch back (engine.Releaser)")
	}
	engine.Release(e)
	e.Step()
	before := append([]float32(nil), e.Heights()...)
	p := e.Params()
	p.Rain = 0.5
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	dev, why := DeviceOf(e)
	if dev != "cpu" || !strings.Contains(why, "water budget") || !strings.Contains(why, "continuing on the CPU") {
		t.Fatalf("after rain: device %q, %q; want the CPU and why", dev, why)
	}
	for i, h := range e.Heights() {
		if h != before[i] {
			t.Fatalf("cell %d: %g m on the CPU; want the GPU's %g m", i, h, before[i])
		}
	}
	engine.Release(e)
	st := e.Step()
	if st.Step != 5 || st.Time != 5*p.Dt || e.Snapshot().Step != 5 {
		t.Errorf("after the move: step %d, %g yr, snapshot step %d; want 5, %g yr, 5", st.Step, st.Time, e.Snapshot().Step, 5*p.Dt)
	}
	if _, ok := e.(engine.Watered); !ok || e.(engine.Watered).Water() == nil {
		t.Error("the CPU engine runs no water budget after the move")
	}
}
