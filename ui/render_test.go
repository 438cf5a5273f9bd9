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
		if d, _, ok := r.pollList(); ok {
			if d.Triangles() == 0 {
				t.Fatal("a projected draw list without triangles")
			}
			got3D++
			r.recycleList(d)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestRendererAmplified: a job with the Amplify preview's fine window
// makes its 2D picture at the fine size and the 3D mesh from it, whether
// or not a newer job that asks for no new fine picture replaced it
// before it started (the renderer's goroutine decides the timing).
func TestRendererAmplified(t *testing.T) {
	snap := func(n int) *engine.Snapshot {
		e, err := grid.New(grid.Config{W: n, H: n, Cell: 100, Up: simtest.Uniform(n, n, 5e-4), InitNoise: 1, Seed: 1,
			Params: engine.DefaultParams()})
		if err != nil {
			t.Fatal(err)
		}
		e.Step()
		return e.Snapshot()
	}
	coarse, fine := snap(32), snap(80)
	r := newRenderer()
	defer r.close()
	cam := viewer.FitCamera(fine, 1, 200, 35)
	j := renderJob{snap: coarse, opts: viewer.DefaultOptions(), pic: true, pic3D: true, opts3: viewer.DefaultOptions3D(),
		cam: cam, w3: 64, h3: 48, snap3: fine, amp: fine, ampOpts: viewer.DefaultOptions(), picAmp: true}
	first, second := j, j
	second.picAmp = false
	r.submit(&first)
	r.submit(&second)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatal("no picture of the amplified window within 20 s")
		}
		if img, of, ok := r.pollAmp(); ok {
			if b := img.Bounds(); b.Dx() != 80 || b.Dy() != 80 || of != fine {
				t.Fatalf("fine picture %v of %p; want 80×80 of the fine snapshot", b, of)
			}
			break
		}
		time.Sleep(time.Millisecond)
	}
	for !r.idle() {
		if img, ok := r.poll(); ok {
			r.recycle(img)
		}
		if img, _, ok := r.poll3D(); ok {
			r.recycle(img)
		}
		if time.Now().After(deadline) {
			t.Fatal("the renderer did not finish within 20 s")
		}
		time.Sleep(time.Millisecond)
	}
	if r.meshOf.snap != fine {
		t.Error("the 3D mesh was not built from the amplified window")
	}
}
