// Package analyst measures the drainage of the running engine's terrain
// live (package sim/analysis) for the app's Analysis panel, on a goroutine
// of its own.
//
// Ownership. The app offers snapshots with Offer from its frame (never
// blocking: a pending offer is replaced by a newer one, the newest wins);
// the analyst's goroutine alone runs the analysis and publishes each
// result as an immutable *Live through an atomic pointer, which Latest
// reads from any goroutine. Between two analyses the goroutine rests long
// enough that it uses at most share of one core (the engine keeps the
// rest), counting an analysis's wall time on every core since the routing
// inside is parallel: on 2 cores at 1024², about 0.2 s an analysis, the
// panel is refreshed every 8 s at the default 5 %; at 256² several times
// a second.
package analyst

import (
	"hash/fnv"
	"image"
	"image/color"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"orogen/sim"
	"orogen/sim/analysis"
	"orogen/sim/engine"
	"orogen/sim/talus"
)

// DefaultShare is the largest share of one core the analyst uses.
const DefaultShare = 0.05

// maxPoints bounds the scatter points a Live hands to the plots, so
// drawing them stays cheap at any grid size: ImGui's draw lists index
// their vertices with 16 bits, and a plotted point takes 4 of them.
const maxPoints = 3000

// Live is the analysis of one snapshot.
type Live struct {
	Snap   *engine.Snapshot
	Result *analysis.Result // nil when Err is set
	Err    error            // why the terrain could not be measured (flat, no rivers yet)
	Took   time.Duration

	// Points to plot, at most maxPoints of the river cells (every k-th):
	// Hack's area (km²) and length (km); slope–area's area (m²) and slope
	// where the slope is positive.
	HackA, HackL   []float64
	SlopeA, SlopeS []float64
	// Basins is one pixel per cell, coloured by the outlet the cell drains
	// to for basins of at least the river threshold, transparent elsewhere.
	Basins *image.RGBA
}

// Analyst runs the analyses; see the package documentation.
type Analyst struct {
	share   float64
	offers  chan *engine.Snapshot // capacity 1: the pending offer
	latest  atomic.Pointer[Live]
	notify  chan *Live // capacity 1, newest wins: for tests and waiters
	quit    chan struct{}
	done    chan struct{}
	closing sync.Once
	last    *engine.Snapshot // the last snapshot offered (Offer's goroutine)
}

// New starts an analyst that uses at most share of one core (0: DefaultShare).
func New(share float64) *Analyst {
	if share <= 0 || share > 1 {
		share = DefaultShare
	}
	a := &Analyst{
		share: share, offers: make(chan *engine.Snapshot, 1), notify: make(chan *Live, 1),
		quit: make(chan struct{}), done: make(chan struct{}),
	}
	go a.loop()
	return a
}

// Offer hands s to the analyst unless it was the last snapshot offered; an
// offer still pending is replaced. It never blocks. Offer is called from
// one goroutine (the app's frame).
func (a *Analyst) Offer(s *engine.Snapshot) {
	if s == nil || s == a.last {
		return
	}
	a.last = s
	for {
		select {
		case a.offers <- s:
			return
		default:
		}
		select { // replace the pending offer
		case <-a.offers:
		default:
		}
	}
}

// Latest returns the newest analysis, nil before the first.
func (a *Analyst) Latest() *Live { return a.latest.Load() }

// Published delivers each new analysis (newest wins when nobody reads).
func (a *Analyst) Published() <-chan *Live { return a.notify }

// Close stops the goroutine and waits for it.
func (a *Analyst) Close() {
	a.closing.Do(func() { close(a.quit) })
	<-a.done
}

func (a *Analyst) loop() {
	defer close(a.done)
	for {
		var s *engine.Snapshot
		select {
		case <-a.quit:
			return
		case s = <-a.offers:
		}
		l := Measure(s)
		a.latest.Store(l)
		select {
		case <-a.notify:
		default:
		}
		a.notify <- l
		// Rest so that this analysis is at most share of one core's
		// time. The routing inside runs on every core, so its CPU time
		// is counted as its wall time on all of them (an upper bound).
		cpu := float64(l.Took) * float64(runtime.GOMAXPROCS(0))
		rest := time.Duration(cpu * (1 - a.share) / a.share)
		t := time.NewTimer(rest)
		select {
		case <-a.quit:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// Measure analyses snapshot s: its heights routed with its edges, rivers
// from analysis.DefaultMinArea cells, the threshold spike at its constant
// talus angle (else at the slope histogram's mode).
func Measure(s *engine.Snapshot) *Live {
	t0 := time.Now()
	l := &Live{Snap: s}
	f := &sim.Field{W: s.W, H: s.H, Cell: s.Cell, Data: s.Height}
	talusDeg := 0.0
	if s.Param.Talus.Mode == talus.ModeConstant {
		talusDeg = s.Param.Talus.AngleDeg
	}
	r, err := analysis.Analyze(f, analysis.Options{Edges: s.Param.Edges, Talus: talusDeg})
	if err != nil {
		l.Err = err
		l.Took = time.Since(t0)
		return l
	}
	l.Result = r
	riv := r.Rivers
	step := max(1, len(riv.Cell)/maxPoints)
	for k := 0; k < len(riv.Cell); k += step {
		l.HackA = append(l.HackA, riv.AreaKm[k])
		l.HackL = append(l.HackL, riv.LenKm[k])
		if riv.Slope[k] > 0 {
			l.SlopeA = append(l.SlopeA, riv.AreaKm[k]*1e6)
			l.SlopeS = append(l.SlopeS, riv.Slope[k])
		}
	}
	l.Basins = basins(r)
	r.PrepareProfiles() // here, not in the frame that picks a river
	l.Took = time.Since(t0)
	return l
}

// basins paints every cell whose basin drains at least the river threshold
// in its outlet's colour (a hash of the outlet's index: neighbouring
// basins differ, and a basin keeps its colour while its outlet stays).
func basins(r *analysis.Result) *image.RGBA {
	out := r.Outlets()
	img := image.NewRGBA(image.Rect(0, 0, r.Width, r.Height))
	minArea := r.MinArea * r.Cell * r.Cell
	for i, o := range out {
		if r.Area[o] < minArea {
			continue
		}
		c := outletColour(o)
		j := 4 * i
		img.Pix[j], img.Pix[j+1], img.Pix[j+2], img.Pix[j+3] = c.R, c.G, c.B, c.A
	}
	return img
}

// outletColour is a bright, translucent colour from the outlet's index,
// premultiplied by its alpha as image.RGBA holds it.
func outletColour(o int32) color.RGBA {
	h := fnv.New32a()
	h.Write([]byte{byte(o), byte(o >> 8), byte(o >> 16), byte(o >> 24)})
	v := h.Sum32()
	const alpha = 150
	ch := func(x uint32) uint8 { return uint8((60 + x%196) * alpha / 255) }
	return color.RGBA{ch(v), ch(v >> 8), ch(v >> 16), alpha}
}
