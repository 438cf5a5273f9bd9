// Package picture makes the app's view pictures off the UI thread: the
// 2D relief of a snapshot, the Amplify preview's fine window, and the 3D
// view (the mesh, projected in back-to-front order, filled by viewer's
// rasterizer or handed back as a draw list for the GPU to fill). It holds
// no ImGui or Ebitengine state, so its goroutine is tested under the race
// detector without the UI's C++ (make race).
package picture

import (
	"image"
	"sync"
	"time"

	"orogen/sim/engine"
	"orogen/viewer"
)

// Job is what the Viewport wants drawn: the 2D relief of a snapshot
// with its options (and optionally the document's current uplift in place
// of the snapshot's, so an overlay shows strokes the engine has not seen
// yet), and the 3D view of it for a camera and a picture size.
type Job struct {
	Snap   *engine.Snapshot
	Uplift []float32 // a copy owned by the job, or nil
	Opts   viewer.Options
	Pic    bool // make the 2D picture
	Pic3D  bool // make the 3D picture
	Opts3  viewer.Options3D
	Cam    viewer.Camera
	W3, H3 int
	GPU    bool // hand back the projected draw list instead of filling it
	// Shader: the draw list is coloured by the shaders (ui/gpuview.go),
	// so the mesh is built for its geometry only.
	Shader bool
	// Snap3, when set, is what the 3D view shows instead of Snap (the
	// Amplify preview's fine window); the uplift is not replaced in it.
	Snap3 *engine.Snapshot
	// Amp, when set with PicAmp, is the Amplify preview's fine window,
	// drawn as a 2D picture of its own with AmpOpts.
	Amp     *engine.Snapshot
	AmpOpts viewer.Options
	PicAmp  bool
}

// Renderer makes the Viewport's pictures on its own goroutine, so that
// Update and Draw never spend the milliseconds a large map takes: the 2D
// relief, and the 3D view, whose mesh it rebuilds only when the snapshot
// or the 3D options change, projects in back-to-front order and fills with
// viewer's rasterizer (Mesa's software OpenGL takes ~150 ms for the half
// million triangles of a 512² mesh; this takes ~25 ms, off the UI thread).
// The UI submits jobs (the newest replaces any not started) and polls for
// pictures without waiting; pictures go back with Recycle once uploaded.
type Renderer struct {
	mu       sync.Mutex
	pending  *Job
	busy     bool // the goroutine is drawing a job
	ready    *image.RGBA
	ready3D  *image.RGBA
	camOf3D  viewer.Camera    // the camera ready3D was drawn for
	readyAmp *image.RGBA      // the Amplify preview's 2D picture
	ampOf    *engine.Snapshot // the fine snapshot readyAmp was drawn from
	spare    []*image.RGBA
	lastMs   float64
	meshMs   float64
	projMs   float64
	wake     chan struct{}
	quit     chan struct{}
	done     sync.WaitGroup
	mesh     *viewer.Mesh3D // owned by the goroutine
	meshOf   meshKey        // what mesh was built from
	list     viewer.DrawList
	readyDL  *viewer.DrawList // a projected draw list for the UI to draw
	dlSnap   *engine.Snapshot // the snapshot readyDL shows
	spareDL  []*viewer.DrawList
}

func New() *Renderer {
	r := &Renderer{wake: make(chan struct{}, 1), quit: make(chan struct{})}
	r.done.Add(1)
	go r.loop()
	return r
}

// submit queues j, replacing a job that has not started.
func (r *Renderer) Submit(j *Job) {
	r.mu.Lock()
	if p := r.pending; p != nil {
		// The newer job replaces one not started yet, but must not drop
		// the pictures that one asked for: a 3D request overtaken by 2D
		// ones would otherwise starve while snapshots stream in faster
		// than the renderer draws.
		j.Pic = j.Pic || p.Pic
		// Jobs carry the preview's newest fine snapshot while it is on.
		if p.PicAmp && j.Amp != nil {
			j.PicAmp = true
		}
		if p.Pic3D && !j.Pic3D && j.W3 > 0 && j.H3 > 0 {
			j.Pic3D = true
		}
	}
	r.pending = j
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// poll returns the newest finished 2D picture, if any.
func (r *Renderer) Poll() (*image.RGBA, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	img := r.ready
	r.ready = nil
	return img, img != nil
}

// pollAmp returns the newest finished picture of the Amplify preview and
// the fine snapshot it shows, if any.
func (r *Renderer) PollAmp() (*image.RGBA, *engine.Snapshot, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	img := r.readyAmp
	r.readyAmp = nil
	return img, r.ampOf, img != nil
}

// poll3D returns the newest finished 3D picture and its camera, if any.
func (r *Renderer) Poll3D() (*image.RGBA, viewer.Camera, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	img := r.ready3D
	r.ready3D = nil
	return img, r.camOf3D, img != nil
}

// pollList returns the newest projected draw list (GPU drawing) and the
// snapshot it shows, if any; the caller gives it back with recycleList
// once drawn.
func (r *Renderer) PollList() (*viewer.DrawList, *engine.Snapshot, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.readyDL
	r.readyDL = nil
	return d, r.dlSnap, d != nil
}

func (r *Renderer) RecycleList(d *viewer.DrawList) {
	r.mu.Lock()
	if len(r.spareDL) < 2 {
		r.spareDL = append(r.spareDL, d)
	}
	r.mu.Unlock()
}

// recycle gives a picture back once uploaded.
func (r *Renderer) Recycle(img *image.RGBA) {
	if img == nil {
		return
	}
	r.mu.Lock()
	if len(r.spare) < 4 {
		r.spare = append(r.spare, img)
	}
	r.mu.Unlock()
}

// timings returns the wall time of the last 2D picture, 3D mesh build and
// 3D projection plus fill, in ms.
func (r *Renderer) Timings() (pic, mesh, proj float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastMs, r.meshMs, r.projMs
}

func (r *Renderer) Close() {
	close(r.quit)
	r.done.Wait()
}

// take returns a spare picture of size w×h, or a new one.
func (r *Renderer) take(w, h int) *image.RGBA {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, img := range r.spare {
		if b := img.Bounds(); b.Dx() == w && b.Dy() == h {
			r.spare = append(r.spare[:i], r.spare[i+1:]...)
			return img
		}
	}
	return image.NewRGBA(image.Rect(0, 0, w, h))
}

func (r *Renderer) loop() {
	defer r.done.Done()
	for {
		select {
		case <-r.quit:
			return
		case <-r.wake:
		}
		r.mu.Lock()
		j := r.pending
		r.pending = nil
		r.busy = j != nil
		r.mu.Unlock()
		if j == nil {
			continue
		}
		s := j.Snap
		if j.Uplift != nil {
			c := *s
			c.Uplift = j.Uplift
			s = &c
		}
		if j.Pic {
			t0 := time.Now()
			o := j.Opts
			if s.Arcs != nil {
				o.Rivers = false // the arc layer draws them at screen resolution
			}
			img := viewer.Relief(r.take(s.W, s.H), s, o)
			ms := float64(time.Since(t0).Microseconds()) / 1000
			r.mu.Lock()
			if r.ready != nil && len(r.spare) < 4 {
				r.spare = append(r.spare, r.ready)
			}
			r.ready, r.lastMs = img, ms
			r.mu.Unlock()
		}
		if j.PicAmp && j.Amp != nil {
			img := viewer.Relief(r.take(j.Amp.W, j.Amp.H), j.Amp, j.AmpOpts)
			r.mu.Lock()
			if r.readyAmp != nil && len(r.spare) < 4 {
				r.spare = append(r.spare, r.readyAmp)
			}
			r.readyAmp, r.ampOf = img, j.Amp
			r.mu.Unlock()
		}
		if j.Pic3D && j.W3 > 1 && j.H3 > 1 {
			s3 := s
			if j.Snap3 != nil {
				s3 = j.Snap3
			}
			r.draw3D(j, s3)
		}
		r.mu.Lock()
		r.busy = false
		r.mu.Unlock()
	}
}

// idle reports whether the renderer has no job queued or in progress and
// no finished picture waiting for the UI to take.
func (r *Renderer) Idle() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pending == nil && !r.busy && r.ready == nil && r.ready3D == nil && r.readyDL == nil && r.readyAmp == nil
}

// draw3D rebuilds the mesh when the snapshot or the options changed, then
// projects and fills the 3D picture for the job's camera.
func (r *Renderer) draw3D(j *Job, s *engine.Snapshot) {
	var meshMs float64
	if k := meshKeyOf(j); r.mesh == nil || k != r.meshOf {
		t0 := time.Now()
		o := j.Opts3
		if j.Shader {
			o = GeometryOnly(o)
		}
		r.mesh = viewer.BuildMesh3D(r.mesh, s, o)
		r.meshOf = k
		meshMs = float64(time.Since(t0).Microseconds()) / 1000
	}
	t0 := time.Now()
	if j.GPU {
		r.mu.Lock()
		var d *viewer.DrawList
		if n := len(r.spareDL); n > 0 {
			d, r.spareDL = r.spareDL[n-1], r.spareDL[:n-1]
		} else {
			d = new(viewer.DrawList)
		}
		r.mu.Unlock()
		r.mesh.Project(d, j.Cam, j.W3, j.H3)
		projMs := float64(time.Since(t0).Microseconds()) / 1000
		r.mu.Lock()
		if r.readyDL != nil && len(r.spareDL) < 2 {
			r.spareDL = append(r.spareDL, r.readyDL)
		}
		r.readyDL, r.dlSnap, r.projMs = d, s, projMs
		if meshMs > 0 {
			r.meshMs = meshMs
		}
		r.mu.Unlock()
		return
	}
	img := r.take(j.W3, j.H3)
	viewer.FillSky(img, j.Cam)
	r.mesh.Project(&r.list, j.Cam, j.W3, j.H3)
	viewer.RasterizeDrawList(img, &r.list)
	projMs := float64(time.Since(t0).Microseconds()) / 1000
	r.mu.Lock()
	if r.ready3D != nil && len(r.spare) < 4 {
		r.spare = append(r.spare, r.ready3D)
	}
	r.ready3D, r.camOf3D, r.projMs = img, j.Cam, projMs
	if meshMs > 0 {
		r.meshMs = meshMs
	}
	r.mu.Unlock()
}

// meshKey is what a 3D mesh is built from: the snapshot, the options and
// the uplift slice (the UI hands a new slice for a new uplift, so its
// first element's address and its length tell them apart).
type meshKey struct {
	snap   *engine.Snapshot
	opts   viewer.Options3D
	uplift *float32
	n      int
}

func meshKeyOf(j *Job) meshKey {
	if j.Snap3 != nil {
		return meshKey{snap: j.Snap3, opts: j.Opts3}
	}
	k := meshKey{snap: j.Snap, opts: j.Opts3, n: len(j.Uplift)}
	if len(j.Uplift) > 0 {
		k.uplift = &j.Uplift[0]
	}
	return k
}

// GeometryOnly returns the options of a mesh whose colours nobody reads
// (the shaders colour it): no rivers, uplift tint or cast shadows to
// compute, the geometry (exaggeration, lakes at their level, size,
// wireframe) kept.
func GeometryOnly(o viewer.Options3D) viewer.Options3D {
	o.Rivers, o.UpliftAlpha, o.Shadows, o.Color = false, 0, false, viewer.ColorHeight
	return o
}
