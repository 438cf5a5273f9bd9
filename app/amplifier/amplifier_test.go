package amplifier

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"orogen/sim/amplify"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/simtest"
)

// coarse is a routed test terrain: a cone with rough detail, its
// receivers and drainage area from sim/flow.
func coarse(w, h int) *engine.Snapshot {
	const cell = 100
	hs := simtest.Cone(w, h, cell, 800, 0.05)
	for i, v := range simtest.Rough(w, h, 20, 7) {
		hs[i] += v
	}
	e := flow.Edges{North: flow.Outlet, South: flow.Outlet, East: flow.Outlet, West: flow.Outlet}
	g := flow.NewGraph(w, h, cell, e, 0)
	g.Update(hs)
	a64 := g.Accumulate(nil, cell*cell)
	s := &engine.Snapshot{W: w, H: h, Cell: cell, Step: 9, Height: hs, Receivers: slices.Clone(g.Rec), Area: make([]float32, w*h),
		Uplift: simtest.Uniform(w, h, 1e-3)}
	for i, v := range a64 {
		s.Area[i] = float32(v)
	}
	s.Param.Edges = e
	return s
}

// fakeWindow stands for sim/amplify in these tests: the coarse heights
// repeated over the fine cells, with a small seeded ripple.
func fakeWindow(_ context.Context, s *engine.Snapshot, o amplify.Options, x0, y0, w, h int) (*amplify.Result, error) {
	k := o.Factor
	r := &amplify.Result{W: k * w, H: k * h, Cell: s.Cell / float64(k)}
	r.Height = make([]float32, r.W*r.H)
	for y := range r.H {
		for x := range r.W {
			v := s.Height[(y0+y/k)*s.W+x0+x/k]
			r.Height[y*r.W+x] = v + float32(math.Sin(float64(x*7+y*3)+float64(o.Seed)))
		}
	}
	r.Water = make([]float32, len(r.Height))
	return r, nil
}

// swap replaces amplify.Window for one test.
func swap(t *testing.T, f func(context.Context, *engine.Snapshot, amplify.Options, int, int, int, int) (*amplify.Result, error)) {
	t.Helper()
	old := amplifyWindow
	amplifyWindow = f
	t.Cleanup(func() { amplifyWindow = old })
}

// next waits for the next published preview (the test's deadline bounds
// it: a stuck amplifier fails instead of hanging).
func next(t *testing.T, a *Amplifier) *Preview {
	t.Helper()
	select {
	case p := <-a.Published():
		return p
	case <-time.After(time.Minute):
		t.Fatal("no preview published within a minute")
		return nil
	}
}

// A request is amplified and published with a fine snapshot the views
// can draw: Factor times the window, drainage routed, the coarse inflow
// kept (the area at the window's outlets is its own area plus what flows
// in: conservation, to float32 rounding).
func TestPublishes(t *testing.T) {
	swap(t, fakeWindow)
	s := coarse(64, 48)
	a := New()
	defer a.Close()
	req := Request{Snap: s, X0: 10, Y0: 8, W: 20, H: 16, Opt: amplify.Options{Factor: 4, Seed: 3}}
	seq := a.Request(req)
	p := next(t, a)
	if p.Seq != seq || p.Err != nil || a.Latest() != p {
		t.Fatalf("preview seq %d err %v; want seq %d, no error, and Latest", p.Seq, p.Err, seq)
	}
	f := p.Fine
	if f.W != 80 || f.H != 64 || f.Cell != 25 || len(f.Area) != 80*64 || len(f.Receivers) != 80*64 || len(f.Uplift) != 80*64 {
		t.Fatalf("fine snapshot %d×%d cell %g (area %d, receivers %d); want 80×64 at 25 m", f.W, f.H, f.Cell, len(f.Area), len(f.Receivers))
	}
	var in float64
	for y := 7; y <= 24; y++ {
		for x := 9; x <= 30; x++ {
			inside := x >= 10 && x < 30 && y >= 8 && y < 24
			if r := int(s.Receivers[y*s.W+x]); !inside && r%s.W >= 10 && r%s.W < 30 && r/s.W >= 8 && r/s.W < 24 {
				in += float64(s.Area[y*s.W+x])
			}
		}
	}
	if in == 0 {
		t.Fatal("the test terrain lets no river into the window: choose another")
	}
	var out float64
	for i, r := range f.Receivers {
		if int(r) == i {
			out += float64(f.Area[i])
		}
	}
	want := 80*64*25*25 + in
	// float32 areas summed over a few hundred outlets: 1e-5 relative.
	if math.Abs(out-want) > 1e-5*want {
		t.Errorf("area at the window's outlets %.6g m²; want its own %.6g plus the inflow %.6g = %.6g", out, 80*64*25*25.0, in, want)
	}
	if !strings.HasPrefix(p.Status(), "amplified 20×16 → 80×64 in ") {
		t.Errorf("status %q", p.Status())
	}
}

// A newer request cancels the amplification under way: the superseded one
// sees its context cancelled and is never published; the newest is.
func TestSupersededCancelled(t *testing.T) {
	started := make(chan uint64, 4)
	sawCancel := make(chan struct{}, 4)
	swap(t, func(ctx context.Context, s *engine.Snapshot, o amplify.Options, x0, y0, w, h int) (*amplify.Result, error) {
		started <- o.Seed
		if o.Seed == 1 { // the first request works until cancelled
			<-ctx.Done()
			sawCancel <- struct{}{}
			return nil, ctx.Err()
		}
		return fakeWindow(ctx, s, o, x0, y0, w, h)
	})
	s := coarse(32, 32)
	a := New()
	defer a.Close()
	req := Request{Snap: s, X0: 4, Y0: 4, W: 8, H: 8, Opt: amplify.Options{Factor: 2, Seed: 1}}
	a.Request(req)
	if got := <-started; got != 1 {
		t.Fatalf("started seed %d; want 1", got)
	}
	if st := a.State(); !st.Busy || st.Working.Opt.Seed != 1 {
		t.Fatalf("state %+v; want busy on the first request", st)
	}
	req.Opt.Seed = 2
	seq := a.Request(req)
	<-sawCancel
	p := next(t, a)
	if p.Seq != seq || p.Err != nil || p.Req.Opt.Seed != 2 {
		t.Fatalf("published seq %d (seed %d, err %v); want the newest, seq %d", p.Seq, p.Req.Opt.Seed, p.Err, seq)
	}
	if st := a.State(); st.Cancelled != 1 || st.Busy {
		t.Errorf("state %+v; want one cancelled, idle", st)
	}
	select {
	case p := <-a.Published():
		t.Errorf("a second preview (seq %d) published; want only the newest", p.Seq)
	default:
	}
}

// Requests made faster than they are amplified: only the last is
// published.
func TestNewestWins(t *testing.T) {
	release := make(chan struct{})
	swap(t, func(ctx context.Context, s *engine.Snapshot, o amplify.Options, x0, y0, w, h int) (*amplify.Result, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return fakeWindow(ctx, s, o, x0, y0, w, h)
	})
	s := coarse(32, 32)
	a := New()
	defer a.Close()
	var last uint64
	for x := range 10 {
		last = a.Request(Request{Snap: s, X0: x, Y0: 2, W: 8, H: 8, Opt: amplify.Options{Factor: 2}})
	}
	close(release)
	p := next(t, a)
	if p.Seq != last || p.Req.X0 != 9 {
		t.Fatalf("published seq %d at x0 %d; want the last request, seq %d at x0 9", p.Seq, p.Req.X0, last)
	}
}

// What sim/amplify gets wrong (an error, a panic, a result of the wrong
// size) is a preview with an error, never a crash.
func TestErrorsPublished(t *testing.T) {
	s := coarse(32, 32)
	req := Request{Snap: s, X0: 4, Y0: 4, W: 8, H: 8, Opt: amplify.Options{Factor: 2}}
	for _, c := range []struct {
		name string
		f    func(context.Context, *engine.Snapshot, amplify.Options, int, int, int, int) (*amplify.Result, error)
		want string
	}{
		{"error", func(context.Context, *engine.Snapshot, amplify.Options, int, int, int, int) (*amplify.Result, error) {
			return nil, errors.New("amplify: window off the grid")
		}, "window off the grid"},
		{"panic", func(context.Context, *engine.Snapshot, amplify.Options, int, int, int, int) (*amplify.Result, error) {
			panic("index out of range")
		}, "internal error: index out of range"},
		{"size", func(context.Context, *engine.Snapshot, amplify.Options, int, int, int, int) (*amplify.Result, error) {
			return &amplify.Result{W: 3, H: 3, Cell: 1, Height: make([]float32, 9)}, nil
		}, "want 16×16"},
		{"nil", func(context.Context, *engine.Snapshot, amplify.Options, int, int, int, int) (*amplify.Result, error) {
			return nil, nil
		}, "no result"},
	} {
		t.Run(c.name, func(t *testing.T) {
			swap(t, c.f)
			a := New()
			defer a.Close()
			a.Request(req)
			p := next(t, a)
			if p.Err == nil || p.Fine != nil || !strings.Contains(p.Status(), c.want) {
				t.Fatalf("preview err %v, status %q; want an error with %q", p.Err, p.Status(), c.want)
			}
		})
	}
}

// The same request gives the same fine snapshot whatever GOMAXPROCS (the
// routing inside is parallel).
func TestDeterministic(t *testing.T) {
	swap(t, fakeWindow)
	s := coarse(96, 96)
	req := Request{Snap: s, X0: 20, Y0: 30, W: 40, H: 40, Opt: amplify.Options{Factor: 4, Seed: 5}}
	var got []*engine.Snapshot
	for _, procs := range []int{1, 2, 4} {
		old := runtime.GOMAXPROCS(procs)
		a := New()
		a.Request(req)
		p := next(t, a)
		a.Close()
		runtime.GOMAXPROCS(old)
		if p.Err != nil {
			t.Fatal(p.Err)
		}
		got = append(got, p.Fine)
	}
	for i, f := range got[1:] {
		if !slices.Equal(f.Area, got[0].Area) || !slices.Equal(f.Receivers, got[0].Receivers) || !slices.Equal(f.Height, got[0].Height) {
			t.Errorf("Mismatch concurrent: fine snapshot %d differs from GOMAXPROCS 1's", i+1)
		}
	}
}

// Close cancels the amplification under way and returns.
func TestCloseCancels(t *testing.T) {
	started := make(chan struct{}, 1)
	swap(t, func(ctx context.Context, _ *engine.Snapshot, _ amplify.Options, _, _, _, _ int) (*amplify.Result, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	a := New()
	a.Request(Request{Snap: coarse(16, 16), W: 4, H: 4, Opt: amplify.Options{Factor: 2}})
	<-started
	a.Close() // returns only if the context was cancelled
	if a.Latest() != nil {
		t.Error("a cancelled amplification was published")
	}
}
