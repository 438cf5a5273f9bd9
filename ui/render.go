package ui

import (
	"image"
	"sync"
	"time"

	"orogen/sim/grid"
	"orogen/viewer"
)

// renderJob is one picture to make: a snapshot with the view options, and
// optionally the document's current uplift in place of the snapshot's (while
// painting, the overlay shows the stroke before the engine has seen it).
type renderJob struct {
	snap   *grid.Snapshot
	uplift []float32 // a copy owned by the job, or nil
	opts   viewer.Options
}

// renderer turns snapshots into relief pictures on its own goroutine, so
// that Update and Draw never spend the 5–20 ms a large map takes. The UI
// submits jobs (the newest replaces any not started) and polls for pictures
// without waiting; pictures go back with recycle once uploaded.
type renderer struct {
	mu      sync.Mutex
	pending *renderJob
	ready   *image.RGBA
	spare   []*image.RGBA
	lastMs  float64
	wake    chan struct{}
	quit    chan struct{}
	done    sync.WaitGroup
}

func newRenderer() *renderer {
	r := &renderer{wake: make(chan struct{}, 1), quit: make(chan struct{})}
	r.done.Add(1)
	go r.loop()
	return r
}

// submit queues j, replacing a job that has not started.
func (r *renderer) submit(j *renderJob) {
	r.mu.Lock()
	r.pending = j
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// poll returns the newest finished picture, if any. The caller gives it
// back with recycle.
func (r *renderer) poll() (*image.RGBA, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	img := r.ready
	r.ready = nil
	return img, img != nil
}

func (r *renderer) recycle(img *image.RGBA) {
	r.mu.Lock()
	if len(r.spare) < 2 {
		r.spare = append(r.spare, img)
	}
	r.mu.Unlock()
}

// renderMs is the wall time of the last picture.
func (r *renderer) renderMs() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastMs
}

func (r *renderer) close() {
	close(r.quit)
	r.done.Wait()
}

func (r *renderer) loop() {
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
		var dst *image.RGBA
		if n := len(r.spare); n > 0 {
			dst = r.spare[n-1]
			r.spare = r.spare[:n-1]
		}
		r.mu.Unlock()
		if j == nil {
			continue
		}
		t0 := time.Now()
		s := j.snap
		if j.uplift != nil {
			c := *s
			c.Uplift = j.uplift
			s = &c
		}
		img := viewer.Relief(dst, s, j.opts)
		ms := float64(time.Since(t0).Microseconds()) / 1000
		r.mu.Lock()
		if r.ready != nil && len(r.spare) < 2 {
			r.spare = append(r.spare, r.ready)
		}
		r.ready = img
		r.lastMs = ms
		r.mu.Unlock()
	}
}
