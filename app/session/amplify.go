package session

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"orogen/app/amplifier"
	"orogen/app/doc"
	"orogen/app/worker"
	"orogen/sim/amplify"
	"orogen/sim/engine"
)

// AmplifyView is the Amplify preview's settings: a square window of the
// map, in coarse cells, shown amplified Factor times (package sim/amplify
// on the app/amplifier goroutine).
type AmplifyView struct {
	On     bool
	X, Y   int // the window's top-left cell
	Size   int // its side, cells
	Factor int // 2, 4 or 8
}

// Limits of the Amplify preview's window.
const (
	DefaultAmplifySize   = 128
	DefaultAmplifyFactor = 4
	MinAmplifySize       = 4
	// MaxAmplifyFine bounds the fine cells along the window's side, so a
	// preview stays a preview: at most 1024² fine cells, whose rasters,
	// routing and picture take about 100 MB while it is made.
	MaxAmplifyFine = 1024
)

// The keys of the project's view (project.View.Extra) that keep the
// preview's window and factor; whether it is on is not kept.
const (
	extraAmplifyWindow = "amplify_window" // "X Y SIZE"
	extraAmplifyFactor = "amplify_factor"
)

// amplifyState is the session's side of the preview: its settings, the
// goroutine while it is on, and what was last asked of it.
type amplifyState struct {
	view     AmplifyView
	am       *amplifier.Amplifier // nil while off
	sent     amplifyKey           // the last request's settings
	sentSnap *engine.Snapshot     // and snapshot (nil: none since on)
	settled  bool                 // the newest frame was settled at the last Sync
	from     uint64               // previews before this request number belong to an older document
	logged   uint64               // the request whose error was last logged
	// after is the worker's command number of the last Reset (a new
	// document, or the terrain restarted): the frames before it show the
	// terrain replaced, which the preview must not amplify.
	after uint64
}

type amplifyKey struct {
	x, y, size, factor int
	seed               uint64
}

// ValidFactor reports whether f is an amplification factor the preview
// offers.
func ValidFactor(f int) bool { return f == 2 || f == 4 || f == 8 }

// Amplify returns the preview's settings (the window clamped to the grid).
func (s *Session) Amplify() AmplifyView {
	return s.amp.view
}

// SetAmplify changes the preview's settings: on or off, the window (moved
// and shrunk to fit the grid) and the factor. It refuses a factor other
// than 2, 4 or 8 and a window smaller than MinAmplifySize cells, naming
// them; the settings are then unchanged. Turning it off cancels the
// amplification under way. The next Sync asks for the new window.
func (s *Session) SetAmplify(v AmplifyView) error {
	if !ValidFactor(v.Factor) {
		return fmt.Errorf("amplify factor %d: must be 2, 4 or 8", v.Factor)
	}
	if v.Size < MinAmplifySize {
		return fmt.Errorf("amplify window of %d cells: must be at least %d cells on a side", v.Size, MinAmplifySize)
	}
	sn := s.wk.Frame().Snap
	v = clampWindow(v, sn.W, sn.H)
	old := s.amp.view
	s.amp.view = v
	switch {
	case v.On && s.amp.am == nil:
		s.amp.am = amplifier.New()
		s.amp.sentSnap, s.amp.from = nil, 0
		s.logf(Info, "amplify preview on: cells %d, %d to %d, %d at %d×", v.X, v.Y, v.X+v.Size-1, v.Y+v.Size-1, v.Factor)
	case !v.On && s.amp.am != nil:
		s.amp.am.Close()
		s.amp.am, s.amp.sentSnap = nil, nil
		s.logf(Info, "amplify preview off")
	case v.On && v != old:
		s.logf(Info, "amplify window: cells %d, %d to %d, %d at %d×", v.X, v.Y, v.X+v.Size-1, v.Y+v.Size-1, v.Factor)
	}
	s.syncAmplify(s.wk.Frame())
	return nil
}

// clampWindow fits v's window in a w×h grid: at most MaxAmplifyFine fine
// cells on a side, at most the grid, its corner moved onto the grid.
func clampWindow(v AmplifyView, w, h int) AmplifyView {
	v.Size = min(v.Size, MaxAmplifyFine/v.Factor, w, h)
	v.X = max(0, min(v.X, w-v.Size))
	v.Y = max(0, min(v.Y, h-v.Size))
	return v
}

// AmplifyPreview returns the newest amplified window of the current
// document, nil when there is none yet or the preview is off. It may
// show an older settled terrain or window than the current ones (see
// AmplifyStatus), or hold an error.
func (s *Session) AmplifyPreview() *amplifier.Preview {
	if s.amp.am == nil {
		return nil
	}
	p := s.amp.am.Latest()
	if p == nil || p.Seq < s.amp.from {
		return nil
	}
	return p
}

// AmplifyBusy reports whether the preview has a request waiting or being
// amplified.
func (s *Session) AmplifyBusy() bool {
	return s.amp.am != nil && s.amp.am.State().Busy
}

// AmplifyCurrent reports whether the preview shows the newest request:
// nothing waiting, nothing being amplified, and the terrain settled (a
// script waits for it).
func (s *Session) AmplifyCurrent() bool {
	if s.amp.am == nil || !s.amp.settled {
		return false
	}
	st := s.amp.am.State()
	p := s.amp.am.Latest()
	return !st.Busy && p != nil && p.Seq == st.Seq && p.Seq >= s.amp.from
}

// AmplifyStatus describes the preview for its panel: "amplifying 128² →
// 512²…", "amplified 128² → 512² in 0.41 s", "waiting for the engine to
// settle", or the error.
func (s *Session) AmplifyStatus() string {
	if s.amp.am == nil {
		return "off"
	}
	st := s.amp.am.State()
	if st.Busy {
		w, h := st.Working.W, st.Working.H
		if w == 0 { // waiting to start: the newest settings
			w, h = s.amp.view.Size, s.amp.view.Size
		}
		f := max(st.Working.Opt.Factor, 1)
		if st.Working.W == 0 {
			f = s.amp.view.Factor
		}
		return fmt.Sprintf("amplifying %s → %s…", sq(w, h), sq(f*w, f*h))
	}
	p := s.AmplifyPreview()
	if s.det.run != nil && p != nil {
		return p.Status() + " (the stream-power terrain: the detail pass is not amplified)"
	}
	if !s.amp.settled {
		if p == nil {
			return "waiting for the engine to settle"
		}
		return fmt.Sprintf("waiting for the engine to settle (showing step %d)", p.Req.Snap.Step)
	}
	if p == nil {
		return "waiting"
	}
	return p.Status()
}

func sq(w, h int) string {
	if w == h {
		return fmt.Sprintf("%d²", w)
	}
	return fmt.Sprintf("%d×%d", w, h)
}

// settled reports whether f's terrain stands still: settled (or stalled,
// which never settles), or paused with no steps left.
func settled(f *worker.Frame) bool {
	return f.Err == nil && f.StepsLeft == 0 && (f.Converged || f.Stalled || !f.Running)
}

// syncAmplify asks the preview's goroutine for the newest settled terrain
// under the window, when the window or factor changed or that terrain
// changed since the last request (Sync calls it every frame).
func (s *Session) syncAmplify(f *worker.Frame) {
	st := &s.amp
	if st.am == nil {
		return
	}
	if p := s.AmplifyPreview(); p != nil && p.Err != nil && p.Seq != st.logged {
		st.logged = p.Seq
		s.logf(Error, "amplify preview: %v", p.Err)
	}
	sn := f.Snap
	st.view = clampWindow(st.view, sn.W, sn.H) // the grid may have changed
	st.settled = settled(f) && f.Seq >= st.after
	if !st.settled {
		return
	}
	v := st.view
	k := amplifyKey{x: v.X, y: v.Y, size: v.Size, factor: v.Factor, seed: s.doc.Scene().Seed}
	if k == st.sent && st.sentSnap != nil && (sn == st.sentSnap || !windowChanged(st.sentSnap, sn, v)) {
		return
	}
	if st.sentSnap != nil && sn != st.sentSnap && !changedIn(st.sentSnap, sn, 0, 0, sn.W, sn.H) {
		// Only the window moved: the terrain the goroutine has prepared
		// (its work over the whole map) still stands for this one.
		sn = st.sentSnap
	}
	o := amplify.DefaultOptions(v.Factor)
	o.Seed = k.seed
	st.am.Request(amplifier.Request{Snap: sn, X0: v.X, Y0: v.Y, W: v.Size, H: v.Size, Opt: o})
	st.sent, st.sentSnap = k, sn
}

// windowChanged reports whether the heights under window v moved between
// snapshots a and b by more than a hundredth of a metre or 1e-4 of the
// window's relief, whichever is larger: a settled engine that keeps
// stepping changes its terrain by less, and is not amplified again for it.
func windowChanged(a, b *engine.Snapshot, v AmplifyView) bool {
	return changedIn(a, b, v.X, v.Y, v.Size, v.Size)
}

// changedIn is windowChanged on the cells [x0, x0+w) × [y0, y0+h).
func changedIn(a, b *engine.Snapshot, x0, y0, w, h int) bool {
	if a.W != b.W || a.H != b.H || a.Kind != b.Kind {
		return true
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	var d float64
	for y := y0; y < y0+h; y++ {
		for x := x0; x < x0+w; x++ {
			i := y*a.W + x
			ha := float64(a.Height[i])
			lo, hi = min(lo, ha), max(hi, ha)
			d = max(d, math.Abs(float64(b.Height[i])-ha))
		}
	}
	return d > max(0.01, 1e-4*(hi-lo))
}

// forgetAmplify hides the previews of the document being replaced (a new
// or opened document) and takes its saved window and factor.
func (s *Session) forgetAmplify(d *doc.Doc) {
	st := &s.amp
	if st.am != nil {
		st.from = st.am.State().Seq + 1
		st.sentSnap = nil
	}
	v, err := AmplifyViewOf(d.View().Extra)
	if err != nil {
		s.logf(Warn, "amplify preview: %v (using the defaults)", err)
	}
	v.On = st.view.On
	st.view = v
}

// closeAmplify stops the preview's goroutine.
func (s *Session) closeAmplify() {
	if s.amp.am != nil {
		s.amp.am.Close()
		s.amp.am = nil
	}
}

// AmplifyViewOf reads the preview's window and factor from a project's
// view (project.View.Extra); missing keys take the defaults, and so do
// bad ones, named in the error.
func AmplifyViewOf(extra map[string]string) (AmplifyView, error) {
	v := AmplifyView{Size: DefaultAmplifySize, Factor: DefaultAmplifyFactor}
	var bad []string
	if w, ok := extra[extraAmplifyWindow]; ok {
		f := strings.Fields(w)
		var n [3]int
		okAll := len(f) == 3
		for i := 0; okAll && i < 3; i++ {
			var err error
			n[i], err = strconv.Atoi(f[i])
			okAll = err == nil && n[i] >= 0
		}
		if okAll && n[2] >= MinAmplifySize {
			v.X, v.Y, v.Size = n[0], n[1], n[2]
		} else {
			bad = append(bad, fmt.Sprintf("%s %q: want X Y SIZE, whole cells, SIZE at least %d", extraAmplifyWindow, w, MinAmplifySize))
		}
	}
	if fs, ok := extra[extraAmplifyFactor]; ok {
		if f, err := strconv.Atoi(fs); err == nil && ValidFactor(f) {
			v.Factor = f
		} else {
			bad = append(bad, fmt.Sprintf("%s %q: want 2, 4 or 8", extraAmplifyFactor, fs))
		}
	}
	if bad != nil {
		return v, fmt.Errorf("view.extra: %s", strings.Join(bad, "; "))
	}
	return v, nil
}

// storeAmplify writes the preview's window and factor into the project's
// view (before a save).
func (s *Session) storeAmplify() error {
	v := s.doc.View()
	if v.Extra == nil {
		v.Extra = map[string]string{}
	}
	a := s.amp.view
	v.Extra[extraAmplifyWindow] = fmt.Sprintf("%d %d %d", a.X, a.Y, a.Size)
	v.Extra[extraAmplifyFactor] = strconv.Itoa(a.Factor)
	return s.doc.SetView(v)
}
