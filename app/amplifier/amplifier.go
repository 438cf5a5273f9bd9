package amplifier

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"orogen/sim/amplify"
	"orogen/sim/engine"
)

// amplifyWindow is sim/amplify's Window through the prepared amplifier
// of the last snapshot; the package's tests swap it for fakes that block,
// fail or count.
var amplifyWindow = preparedWindow

// prepared is sim/amplify's preparation of the last snapshot and options
// amplified: the work over the whole coarse grid (control heights, river
// segments; about 0.6 s at 1024²), which every window of that snapshot
// shares, so moving the window over a settled terrain costs only the
// window's cells.
var prepared struct {
	sync.Mutex
	snap *engine.Snapshot
	opt  amplify.Options
	amp  *amplify.Amplifier
}

// preparedWindow is amplify.Window, reusing the preparation while the
// snapshot (the same pointer: snapshots are never modified) and options
// stay the same.
func preparedWindow(ctx context.Context, s *engine.Snapshot, o amplify.Options, x0, y0, w, h int) (*amplify.Result, error) {
	prepared.Lock()
	amp := prepared.amp
	if amp == nil || prepared.snap != s || prepared.opt != o {
		amp = nil
	}
	prepared.Unlock()
	if amp == nil {
		a, err := amplify.New(ctx, s, o)
		if err != nil {
			return nil, err
		}
		prepared.Lock()
		prepared.snap, prepared.opt, prepared.amp = s, o, a
		prepared.Unlock()
		amp = a
	}
	return amp.Window(ctx, x0, y0, w, h)
}

// Request is a window of a snapshot to amplify.
type Request struct {
	Snap *engine.Snapshot // read-only, shared
	// X0, Y0, W, H is the window in coarse cells: [X0, X0+W) × [Y0, Y0+H).
	X0, Y0, W, H int
	Opt          amplify.Options
}

// Fine is the number of fine cells along the window's sides.
func (r Request) Fine() (w, h int) { return r.Opt.Factor * r.W, r.Opt.Factor * r.H }

// Preview is a finished request: the amplified window, or why there is
// none. A Preview and everything it points to are never modified once
// published.
type Preview struct {
	Req Request
	Seq uint64 // the request's number (Request's result)
	// Res is sim/amplify's result and Fine the same window as a snapshot
	// for the views (see the package doc); both nil when Err is set.
	Res  *amplify.Result
	Fine *engine.Snapshot
	// TintMinM, TintMaxM are the coarse snapshot's lowest and highest
	// heights: the fine picture tinted over them matches the map around.
	TintMinM, TintMaxM float64
	Err                error
	Took               time.Duration // amplification and routing, wall time
}

// Status describes the preview for people: "amplified 128² → 512² in
// 0.42 s", or the error.
func (p *Preview) Status() string {
	if p.Err != nil {
		return "amplify failed: " + p.Err.Error()
	}
	fw, fh := p.Req.Fine()
	return fmt.Sprintf("amplified %s → %s in %.2f s", sizeStr(p.Req.W, p.Req.H), sizeStr(fw, fh), p.Took.Seconds())
}

// sizeStr writes a w×h size, "128²" when square.
func sizeStr(w, h int) string {
	if w == h {
		return fmt.Sprintf("%d²", w)
	}
	return fmt.Sprintf("%d×%d", w, h)
}

// State is what the amplifier's goroutine is doing.
type State struct {
	Seq  uint64 // the newest request's number (0: none yet)
	Busy bool   // a request is waiting or being amplified
	// Working is the request being amplified (zero when none).
	Working Request
	// Cancelled counts the amplifications a newer request cancelled.
	Cancelled int
}

// Amplifier runs requests; see the package documentation.
type Amplifier struct {
	mu        sync.Mutex
	pending   *job
	working   *job
	cancel    context.CancelFunc // the working job's
	seq       uint64
	cancelled int

	base    context.Context // cancelled by Close
	stop    context.CancelFunc
	wake    chan struct{}
	latest  atomic.Pointer[Preview]
	notify  chan *Preview // capacity 1, newest wins
	done    chan struct{}
	closing sync.Once
}

type job struct {
	req Request
	seq uint64
}

// New starts an amplifier.
func New() *Amplifier {
	base, stop := context.WithCancel(context.Background())
	a := &Amplifier{base: base, stop: stop, wake: make(chan struct{}, 1), notify: make(chan *Preview, 1), done: make(chan struct{})}
	go a.loop()
	return a
}

// Request queues r and returns its number. A request not started yet is
// replaced; one being amplified is cancelled. It never blocks.
func (a *Amplifier) Request(r Request) uint64 {
	if r.Snap == nil {
		panic("amplifier: request without a snapshot")
	}
	a.mu.Lock()
	a.seq++
	a.pending = &job{req: r, seq: a.seq}
	if a.cancel != nil {
		a.cancel()
		a.cancel = nil
		a.cancelled++
	}
	seq := a.seq
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
	return seq
}

// Latest returns the newest published preview, nil before the first.
func (a *Amplifier) Latest() *Preview { return a.latest.Load() }

// Published delivers each new preview (newest wins when nobody reads).
func (a *Amplifier) Published() <-chan *Preview { return a.notify }

// State returns what the goroutine is doing now.
func (a *Amplifier) State() State {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := State{Seq: a.seq, Busy: a.pending != nil || a.working != nil, Cancelled: a.cancelled}
	if a.working != nil {
		s.Working = a.working.req
	}
	return s
}

// Close cancels the amplification under way, stops the goroutine and
// waits for it.
func (a *Amplifier) Close() {
	a.closing.Do(a.stop)
	<-a.done
}

func (a *Amplifier) loop() {
	defer close(a.done)
	for {
		select {
		case <-a.base.Done():
			return
		case <-a.wake:
		}
		a.mu.Lock()
		j := a.pending
		a.pending = nil
		if j == nil {
			a.mu.Unlock()
			continue
		}
		ctx, cancel := context.WithCancel(a.base)
		a.working, a.cancel = j, cancel
		a.mu.Unlock()

		p := run(ctx, j)

		a.mu.Lock()
		newest := a.seq == j.seq
		a.working = nil
		a.cancel = nil
		a.mu.Unlock()
		cancel()
		if !newest || a.base.Err() != nil {
			continue // superseded (cancelled, or finished too late): never shown
		}
		a.latest.Store(p)
		select {
		case <-a.notify:
		default:
		}
		a.notify <- p
	}
}

// run amplifies j's window and builds what the views draw.
func run(ctx context.Context, j *job) *Preview {
	t0 := time.Now()
	r := j.req
	p := &Preview{Req: r, Seq: j.seq}
	p.TintMinM, p.TintMaxM = heightRange(r.Snap.Height)
	res, err := amplify1(ctx, r)
	if err == nil {
		p.Fine, err = fineSnapshot(ctx, r, res)
	}
	if err != nil {
		p.Err = err
	} else {
		p.Res = res
	}
	p.Took = time.Since(t0)
	return p
}

// amplify1 calls sim/amplify on the request and checks what it returns:
// a panic inside is an error here, never a crash of the app.
func amplify1(ctx context.Context, r Request) (res *amplify.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			res, err = nil, fmt.Errorf("amplify: internal error: %v", v)
		}
	}()
	res, err = amplifyWindow(ctx, r.Snap, r.Opt, r.X0, r.Y0, r.W, r.H)
	if err != nil {
		return nil, err
	}
	if res == nil {
		return nil, errors.New("amplify: no result")
	}
	fw, fh := r.Fine()
	n := fw * fh
	if res.W != fw || res.H != fh || len(res.Height) != n {
		return nil, fmt.Errorf("amplify: result %d×%d with %d heights; want %d×%d", res.W, res.H, len(res.Height), fw, fh)
	}
	if (res.Water != nil && len(res.Water) != n) || (res.River != nil && len(res.River) != n) || (res.Rock != nil && len(res.Rock) != n) {
		return nil, errors.New("amplify: result masks do not match its size")
	}
	if !(res.Cell > 0) {
		return nil, fmt.Errorf("amplify: result cell size %g m", res.Cell)
	}
	return res, nil
}

func heightRange(h []float32) (lo, hi float64) {
	if len(h) == 0 {
		return 0, 0
	}
	l, u := h[0], h[0]
	for _, v := range h[1:] {
		l, u = min(l, v), max(u, v)
	}
	return float64(l), float64(u)
}
