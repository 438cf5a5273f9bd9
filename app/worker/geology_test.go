package worker

import (
	"math"
	"orogen/sim/graph"
	"orogen/sim/grid"
	"orogen/sim/roudier"
	"slices"
	"testing"

	"orogen/app/runner"
	"orogen/sim/engine"
	"orogen/sim/geology"
)

// foldedRock returns layered rock folded along azimuth az, its slip leaning
// (the costly deformation to undo cell by cell).
func foldedRock(t *testing.T, az float64) *geology.Model {
	t.Helper()
	m, err := geology.Spec{Base: -500,
		Stack: []geology.Group{{Repeat: 10, Layers: []geology.Layer{
			{Name: "clay", Thickness: 120, Rock: geology.Clay.Name},
			{Name: "quartzite", Thickness: 50, Rock: geology.Quartzite.Name}}}},
		Deformations: []geology.Deformation{{Kind: geology.Fold, Azimuth: az, Wavelength: 3000, Amplitude: 300}}}.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// samplesOf is the node count the tests give engine k: 500 on the stream
// graph, none on the grid engines.
func samplesOf(k engine.Kind) int {
	if k == graph.Kind {
		return 500
	}
	return 0
}

// holdLaying makes every map the workers lay wait for a value on the
// returned channel, and reports each model as its laying starts.
func holdLaying(t *testing.T) (release chan struct{}, started chan *geology.Model) {
	release, started = make(chan struct{}), make(chan *geology.Model, 16)
	orig := layMap
	layMap = func(m *geology.Model, w, h int, cell float64) *geology.Map {
		started <- m
		<-release
		return orig(m, w, h, cell)
	}
	t.Cleanup(func() { layMap = orig })
	return release, started
}

// TestGeologyOffTheEngine: a new geology is laid on the grid while the
// engine goes on stepping on the old rock (laying is held until the engine
// has stepped three more times: a laying on the engine's goroutine would
// deadlock here), then takes effect; of the models sent while one is being
// laid only the newest is laid; a Step or Sync sent after them waits until
// the newest has taken effect.
func TestGeologyOffTheEngine(t *testing.T) {
	for _, k := range []engine.Kind{grid.Kind, roudier.Kind, graph.Kind} {
		t.Run(k.String(), func(t *testing.T) {
			release, started := holdLaying(t)
			frames := make(chan *Frame, 1024)
			cfg := withKind(sceneConfig(t, 64), k, samplesOf(k))
			w, _ := startHooked(t, cfg, runner.Options{MinInterval: -1}, func(f *Frame) {
				select {
				case frames <- f:
				default:
				}
			})
			m1, m2, m3 := foldedRock(t, 10), foldedRock(t, 50), foldedRock(t, 80)
			w.Send(SetGeology{M: m1})
			if got := <-started; got != m1 {
				t.Fatal("the first model laid is not the one sent")
			}
			// m2 and m3 arrive while m1 is being laid: m3 replaces m2.
			w.Send(SetGeology{M: m2})
			w.Send(SetGeology{M: m3})
			// The engine steps on while m1 is held.
			var base = -1
			for f := range frames {
				if f.Snap.Geology != nil {
					t.Fatalf("step %d shows a geology before it was laid", f.Snap.Step)
				}
				if base < 0 {
					base = f.Snap.Step
				}
				if f.Snap.Step >= base+3 {
					break
				}
			}
			close(release)
			// The Sync waits for m3: the frame shows it.
			f := syncFrame(t, w, runner.Pause{})
			if f.Snap.Geology != m3 {
				t.Fatalf("after the Sync the snapshot's geology is %p; want the newest, %p", f.Snap.Geology, m3)
			}
			close(started)
			var laid []*geology.Model
			for m := range started {
				laid = append(laid, m)
			}
			if !slices.Equal(laid, []*geology.Model{m3}) {
				t.Errorf("laid after the first: %d models (m2 laid: %v); want m3 alone", len(laid), slices.Contains(laid, m2))
			}
		})
	}
}

// TestGeologyStepsDeterministic: SetGeology followed by Step{n} gives, bit
// for bit, the terrain of an engine built with the geology and stepped n
// times: the steps wait for the laying. Setting nil on the way (laying
// dropped) and a Reset (the laying of the old engine dropped) leave no
// trace.
func TestGeologyStepsDeterministic(t *testing.T) {
	const n = 6
	for _, k := range []engine.Kind{grid.Kind, roudier.Kind, graph.Kind} {
		t.Run(k.String(), func(t *testing.T) {
			m := foldedRock(t, 30)
			ref := withKind(sceneConfig(t, 48), k, samplesOf(k))
			ref.Geology = m
			want := syncFrame(t, start(t, ref, runner.Options{Paused: true}), runner.Step{N: n}).Snap

			cfg := withKind(sceneConfig(t, 48), k, samplesOf(k))
			w := start(t, cfg, runner.Options{Paused: true})
			// A model dropped by nil, then the one kept.
			w.Send(SetGeology{M: foldedRock(t, 70)}, SetGeology{M: nil}, runner.Sync{Done: make(chan uint64, 1)})
			got := syncFrame(t, w, SetGeology{M: m}, runner.Step{N: n}).Snap
			if got.Geology != m || got.Step != n {
				t.Fatalf("step %d with geology %p; want step %d with %p", got.Step, got.Geology, n, m)
			}
			for i := range want.Height {
				if math.Float32bits(got.Height[i]) != math.Float32bits(want.Height[i]) {
					t.Fatalf("cell %d: height %g; want %g (the engine built with the geology)", i, got.Height[i], want.Height[i])
				}
			}
			// A Reset while a model is laid: the new engine keeps its own
			// (none), the old laying is dropped.
			cfg2 := withKind(sceneConfig(t, 48), k, samplesOf(k))
			f := syncFrame(t, w, SetGeology{M: foldedRock(t, 5)}, Reset{Spec: cfg2}, runner.Step{N: 1})
			if f.Snap.Geology != nil {
				t.Fatal("a model laid for the engine before a Reset took effect on the new one")
			}
		})
	}
}

// leaningFold is foldedRock with the fold's slip leaning 40°: each cell's
// undoing iterates, the costliest map to lay.
func leaningFold(b *testing.B, az float64) *geology.Model {
	m, err := geology.Spec{Base: -500,
		Stack: []geology.Group{{Repeat: 10, Layers: []geology.Layer{
			{Name: "clay", Thickness: 120, Rock: geology.Clay.Name},
			{Name: "quartzite", Thickness: 50, Rock: geology.Quartzite.Name}}}},
		Deformations: []geology.Deformation{{Kind: geology.Fold, Azimuth: az, Wavelength: 15000, Amplitude: 200, Lean: 40}}}.Compile()
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkSetGeology1024 times what a new geology costs the engine's
// goroutine at 1024² with a leaning fold: "engine" is the worker's Apply
// plus the Land that installs the laid map (the laying itself, on its own
// goroutine, is left out of the timer), "at-once" is the engine's own
// SetGeology, which the worker did on the engine's goroutine before.
func BenchmarkSetGeology1024(b *testing.B) {
	cfg := sceneConfig(b, 1024)
	b.Run("engine", func(b *testing.B) {
		d, err := newDriver(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		for i := range b.N {
			m := leaningFold(b, float64(i%90))
			b.StartTimer()
			if _, err := d.Apply(SetGeology{M: m}); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			got := <-d.geo.done // wait for the laying, untimed
			d.geo.done <- got
			b.StartTimer()
			if !d.Land() {
				b.Fatal("the laid map did not land")
			}
			b.StopTimer()
		}
	})
	b.Run("at-once", func(b *testing.B) {
		e, err := gridEngine(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		for i := range b.N {
			m := leaningFold(b, float64(i%90))
			b.StartTimer()
			e.SetGeology(m)
			b.StopTimer()
		}
	})
}
