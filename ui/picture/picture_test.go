package picture

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
	r := New()
	defer r.Close()
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
			r.Submit(&Job{Snap: last, Opts: viewer.DefaultOptions(), Pic: true, Pic3D: true,
				Opts3: opts3, Cam: cam, W3: 64, H3: 48, GPU: step%2 == 0})
		}
		if img, ok := r.Poll(); ok {
			if b := img.Bounds(); b.Dx() != n || b.Dy() != n {
				t.Fatalf("2D picture %v; want %d×%d", b, n, n)
			}
			got2D++
			r.Recycle(img)
		}
		if img, _, ok := r.Poll3D(); ok {
			if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 48 {
				t.Fatalf("3D picture %v; want 64×48", b)
			}
			got3D++
			r.Recycle(img)
		}
		if d, _, ok := r.PollList(); ok {
			if d.Triangles() == 0 {
				t.Fatal("a projected draw list without triangles")
			}
			got3D++
			r.RecycleList(d)
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
	r := New()
	defer r.Close()
	cam := viewer.FitCamera(fine, 1, 200, 35)
	j := Job{Snap: coarse, Opts: viewer.DefaultOptions(), Pic: true, Pic3D: true, Opts3: viewer.DefaultOptions3D(),
		Cam: cam, W3: 64, H3: 48, Snap3: fine, Amp: fine, AmpOpts: viewer.DefaultOptions(), PicAmp: true}
	first, second := j, j
	second.PicAmp = false
	r.Submit(&first)
	r.Submit(&second)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if time.Now().After(deadline) {
			t.Fatal("no picture of the amplified window within 20 s")
		}
		if img, of, ok := r.PollAmp(); ok {
			if b := img.Bounds(); b.Dx() != 80 || b.Dy() != 80 || of != fine {
				t.Fatalf("fine picture %v of %p; want 80×80 of the fine snapshot", b, of)
			}
			break
		}
		time.Sleep(time.Millisecond)
	}
	for !r.Idle() {
		if img, ok := r.Poll(); ok {
			r.Recycle(img)
		}
		if img, _, ok := r.Poll3D(); ok {
			r.Recycle(img)
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
