package engines

import (
	"strings"
	"testing"

	"orogen/app/compute"
	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
	"orogen/sim/grid"
	"orogen/sim/talus"
)

// TestGridMovesToCPU: the grid engine built for the GPU runs there, the
// lakes' water budget with it (rain, a rain map), and a change the GPU
// engine does not run (a talus angle by height) moves it to the CPU at
// once with one line saying why, its heights, steps and time carried
// over, and its rain map (the budget runs on there with Rain 0). It
// gives its scratch back (engine.Releaser) on either device and steps on
// after.
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
	p := e.Params()
	p.Rain = 0.5
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	e.Step()
	if dev, why := DeviceOf(e); dev == "cpu" || e.(engine.Watered).Water() == nil {
		t.Fatalf("with rain: device %q (%q), water budget %v; want the GPU's", dev, why, e.(engine.Watered).Water())
	}
	rain := make([]float32, n*n)
	for i := range rain {
		rain[i] = 0.25
	}
	p.Rain = 0
	if err := e.SetRainMap(rain); err != nil {
		t.Fatal(err)
	}
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	before := append([]float32(nil), e.Heights()...)
	p.Talus = talus.Model{Mode: talus.ModeHeight, LowDeg: 20, HighDeg: 40, HeightM: 100, BlendM: 20}
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	dev, why := DeviceOf(e)
	if dev != "cpu" || !strings.Contains(why, "talus") || !strings.Contains(why, "continuing on the CPU") {
		t.Fatalf("after a talus angle by height: device %q, %q; want the CPU and why", dev, why)
	}
	for i, h := range e.Heights() {
		if h != before[i] {
			t.Fatalf("cell %d: %g m on the CPU; want the GPU's %g m", i, h, before[i])
		}
	}
	engine.Release(e)
	st := e.Step()
	if st.Step != 6 || st.Time != 6*p.Dt || e.Snapshot().Step != 6 {
		t.Errorf("after the move: step %d, %g yr, snapshot step %d; want 6, %g yr, 6", st.Step, st.Time, e.Snapshot().Step, 6*p.Dt)
	}
	if e.(engine.Watered).Water() == nil {
		t.Error("the CPU engine runs no water budget after the move: the rain map was lost")
	}
}
