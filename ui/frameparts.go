package ui

import (
	"cmp"
	"runtime/metrics"
	"slices"
	"time"

	"orogen/sim/engine"
)

// frameParts says where one frame's time went, for the script report's
// longest frames: Ebitengine calls Update, then Draw, then presents the
// screen (its command queue flushed to the driver, the buffers swapped,
// vsync waited); the frame runs from one Update's start to the next's.
type frameParts struct {
	Ms       float64 `json:"ms"`        // the whole frame
	UpdateMs float64 `json:"update_ms"` // Update: input, ImGui's frame, the snapshot's sync, the script
	DrawMs   float64 `json:"draw_ms"`   // Draw: the map, the 3D view and ImGui queued (0: no Draw, a catch-up tick)
	OtherMs  float64 `json:"other_ms"`  // the rest: Ebitengine's flush to the driver, the swap, vsync
	// The Go runtime over the frame (runtime/metrics, estimates): the
	// garbage collector's stop-the-world pauses and the mark assists the
	// allocating goroutines paid, CPU ms over all threads.
	GCPauseMs  float64 `json:"gc_pause_cpu_ms"`
	GCAssistMs float64 `json:"gc_assist_cpu_ms"`
	GCCycles   uint64  `json:"gc_cycles"`
	Uploads    int     `json:"field_uploads"` // field texture writes (a band counts)
	Passes     int     `json:"surface_passes"`
	NewSnap    bool    `json:"new_snapshot"` // the frame synced a snapshot it had not shown
}

// frameTracer measures each frame's parts and keeps the longest of each
// second beside fpsMeter's figures.
type frameTracer struct {
	cur      frameParts
	start    time.Time
	drawT0   time.Time
	samples  []metrics.Sample
	last     [3]float64
	worst    frameParts   // the longest frame of the second under way
	longest  []frameParts // the longest frame of each second, as fpsMeter.longest
	uploads0 int
	passes0  int
	snap     *engine.Snapshot // the last snapshot a frame synced
}

var frameMetrics = []string{
	"/cpu/classes/gc/pause:cpu-seconds",
	"/cpu/classes/gc/mark/assist:cpu-seconds",
	"/gc/cycles/total:gc-cycles",
}

func (t *frameTracer) read() [3]float64 {
	if t.samples == nil {
		t.samples = make([]metrics.Sample, len(frameMetrics))
		for i, n := range frameMetrics {
			t.samples[i].Name = n
		}
	}
	metrics.Read(t.samples)
	var v [3]float64
	for i, s := range t.samples {
		switch s.Value.Kind() {
		case metrics.KindFloat64:
			v[i] = s.Value.Float64()
		case metrics.KindUint64:
			v[i] = float64(s.Value.Uint64())
		}
	}
	return v
}

// updateStarted closes the frame before (its parts go to the second's
// record, closed when fpsMeter closes the second: closed) and opens the
// next; uploads and passes are the views' running counts.
func (t *frameTracer) updateStarted(now time.Time, uploads, passes int, closed bool) {
	v := t.read()
	if !t.start.IsZero() {
		c := &t.cur
		c.Ms = now.Sub(t.start).Seconds() * 1e3
		c.OtherMs = max(c.Ms-c.UpdateMs-c.DrawMs, 0)
		c.GCPauseMs = (v[0] - t.last[0]) * 1e3
		c.GCAssistMs = (v[1] - t.last[1]) * 1e3
		c.GCCycles = uint64(v[2] - t.last[2])
		c.Uploads, c.Passes = uploads-t.uploads0, passes-t.passes0
		if c.Ms > t.worst.Ms {
			t.worst = *c
		}
	}
	if closed {
		t.longest = append(t.longest, t.worst)
		t.worst = frameParts{}
	}
	t.cur, t.start, t.last = frameParts{}, now, v
	t.uploads0, t.passes0 = uploads, passes
}

func (t *frameTracer) updateDone(now time.Time) {
	t.cur.UpdateMs += now.Sub(t.start).Seconds() * 1e3
}

func (t *frameTracer) drawStarted(now time.Time) { t.drawT0 = now }

func (t *frameTracer) drawDone(now time.Time) {
	t.cur.DrawMs += now.Sub(t.drawT0).Seconds() * 1e3
}

// sawSnapshot marks the frame as one that synced s, if it is new.
func (t *frameTracer) sawSnapshot(s *engine.Snapshot) {
	if s != t.snap {
		t.snap, t.cur.NewSnap = s, true
	}
}

// longestFrames returns the n longest of fs, longest first.
func longestFrames(fs []frameParts, n int) []frameParts {
	out := slices.Clone(fs)
	slices.SortStableFunc(out, func(a, b frameParts) int { return cmp.Compare(b.Ms, a.Ms) })
	return out[:min(n, len(out))]
}
