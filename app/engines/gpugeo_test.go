package engines

import (
	"strings"
	"testing"

	"orogen/app/compute"
	"orogen/sim/engine"
	"orogen/sim/engine/enginetest"
	"orogen/sim/geology"
	"orogen/sim/grid"
)

// TestGridGeologyOnGPU: a grid engine built for the GPU with a geology
// runs it there (splgpu's geology.go), its snapshots carrying the model,
// the exposed rock and the alluvium; a geology laid later stays there
// too, with deposition and with rain; parameters the GPU engine does not
// run with a geology (deposition and n ≠ 1 together) move it to the CPU,
// saying why, with the geology and the alluvium.
func TestGridGeologyOnGPU(t *testing.T) {
	const n = 32
	m, err := geology.Spec{Base: -200, Stack: []geology.Group{{Repeat: 20, Layers: []geology.Layer{
		{Thickness: 30, Rock: "Clay"}, {Thickness: 20, Rock: "Quartzite"}}}}}.Compile()
	if err != nil {
		t.Fatal(err)
	}
	s := Spec{Kind: grid.Kind, W: n, H: n, Cell: 100, Up: enginetest.Dome(n, n, 1e-3), InitNoise: 1, Seed: 3,
		Params: engine.DefaultParams(), Device: compute.GPU, Geology: m}
	e, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	if dev, why := DeviceOf(e); dev == "cpu" {
		if strings.Contains(why, "geology") {
			t.Fatalf("a geology fell back to the CPU: %s", why)
		}
		t.Skip(why)
	}
	for range 3 {
		e.Step()
	}
	sn := e.Snapshot()
	if sn.Geology != m || len(sn.Rock) != n*n || len(sn.Alluvium) != n*n {
		t.Fatalf("snapshot: geology %v, %d rocks, %d alluvium; want the model and %d of each", sn.Geology != nil, len(sn.Rock), len(sn.Alluvium), n*n)
	}
	geo := e.(engine.MapGeologic)
	geo.SetGeology(nil)
	if geo.Geology() != nil {
		t.Fatal("SetGeology(nil) kept the geology")
	}
	if err := geo.SetGeologyMap(m.Map(n, n, 100)); err != nil {
		t.Fatal(err)
	}
	if dev, why := DeviceOf(e); dev == "cpu" || geo.Geology() != m {
		t.Fatalf("after SetGeologyMap: device %q (%s), geology %v", dev, why, geo.Geology() != nil)
	}
	if err := geo.SetGeologyMap(m.Map(n-1, n, 100)); err == nil {
		t.Fatal("a map of another grid was accepted")
	}
	e.Step()
	p := e.Params()
	p.G = 1
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	if dev, why := DeviceOf(e); dev == "cpu" {
		t.Fatalf("with deposition: on the CPU (%s)", why)
	}
	e.Step()
	if len(e.Snapshot().Alluvium) != n*n {
		t.Fatal("with deposition: no alluvium in the snapshot")
	}
	// Rain stays on the GPU with a geology (the water budget on the
	// host); deposition with n ≠ 1 and a geology together move it.
	p.Rain = 0.5
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	if dev, why := DeviceOf(e); dev == "cpu" {
		t.Fatalf("with rain: on the CPU (%s)", why)
	}
	al := e.Snapshot().Alluvium
	p.N = 1.5
	if err := e.SetParams(p); err != nil {
		t.Fatal(err)
	}
	dev, why := DeviceOf(e)
	if dev != "cpu" || !strings.Contains(why, "n ≠ 1") || geo.Geology() != m {
		t.Fatalf("with deposition and n = 1.5: device %q, %q, geology %v; want the CPU, why, and the geology", dev, why, geo.Geology() != nil)
	}
	var sum float64
	for i, v := range e.Snapshot().Alluvium {
		if v != al[i] {
			t.Fatalf("cell %d: alluvium %g m on the CPU; want the GPU's %g m", i, v, al[i])
		}
		sum += float64(v)
	}
	if sum == 0 {
		t.Error("no alluvium to carry over: the test shows nothing")
	}
	if st := e.Step(); st.Step != 6 {
		t.Errorf("after the move: step %d; want 6", st.Step)
	}
}
