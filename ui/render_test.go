package ui

import (
	"testing"
	"time"

	"orogen/sim/engine"
	"orogen/sim/grid"
	"orogen/sim/simtest"
	"orogen/viewer"
)

// TestRendererStreams submits jobs while polling, as Update does, and
// checks that 2D and 3D pictures come back for the newest jobs; under
// -race it checks the handing over of pictures between goroutines.
func TestRendererStreams(t *testing.T) {
	const n = 48
	e, err := grid.New(grid.Config{W: n, H: n, Cell: 100, Up: simtest.Uniform(n, n, 5e-4), InitNoise: 1, Seed: 1,
		Params: engine.DefaultParams()})
	if err != nil {
		t.Fatal(err)
	}
	r := newRenderer()
	defer r.close()
	opts3 := viewer.DefaultOptions3D()
	var got2D, got3D int
	var last *engine.Snapshot
	deadline := time.Now().Add(20 * time.Second)
	for step := 0; step < 20 || got2D == 0 || got3D == 0; step++ {
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s: %d 2D and %d 3D pictures; want some of each", got2D, got3D)
		}
		if step < 20 {
			e.Step()
			last = e.Snapshot()
			cam := viewer.FitCamera(last, 1, 200, 35).Orbit(float64(step), 0)
			r.submit(&renderJob{snap: last, opts: viewer.DefaultOptions(), pic: true, pic3D: true,
				opts3: opts3, cam: cam, w3: 64, h3: 48, gpu: step%2 == 0})
		}
		if img, ok := r.poll(); ok {
			if b := img.Bounds(); b.Dx() != n || b.Dy() != n {
				t.Fatalf("2D picture %v; want %d×%d", b, n, n)
			}
			got2D++
			r.recycle(img)
		}
		if img, _, ok := r.poll3D(); ok {
			if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 48 {
				t.Fatalf("3D picture %v; want 64×48", b)
			}
			got3D++
			r.recycle(img)
		}
		if d, ok := r.pollList(); ok {
			if d.Triangles() == 0 {
				t.Fatal("a projected draw list without triangles")
			}
			got3D++
			r.recycleList(d)
		}
		time.Sleep(time.Millisecond)
	}
}
