package session

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"orogen/app/amplifier"
)

// amplified syncs the session each few milliseconds until the preview
// shows its newest request, and returns it (a minute at most: a stuck
// preview fails instead of hanging).
func amplified(t *testing.T, s *Session) *amplifier.Preview {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	s.Sync() // the newest frame asks for its preview
	for !s.AmplifyCurrent() {
		if time.Now().After(deadline) {
			t.Fatalf("no preview within a minute; status %q", s.AmplifyStatus())
		}
		<-tick.C
		s.Sync()
	}
	return s.AmplifyPreview()
}

// The window request: bad factors and sizes refused with the settings
// kept, windows moved and shrunk onto the grid, off cancels.
func TestAmplifySettings(t *testing.T) {
	s, _, log := open(t, 64)
	if v := s.Amplify(); v.On || v.Factor != DefaultAmplifyFactor || v.Size != DefaultAmplifySize {
		t.Fatalf("new session's preview %+v; want off, %d cells at %d×", v, DefaultAmplifySize, DefaultAmplifyFactor)
	}
	for _, bad := range []AmplifyView{{On: true, Size: 16, Factor: 3}, {On: true, Size: 2, Factor: 4}, {On: true, Size: 16}} {
		if err := s.SetAmplify(bad); err == nil {
			t.Errorf("SetAmplify(%+v): no error", bad)
		}
	}
	if s.Amplify().On || s.AmplifyStatus() != "off" {
		t.Fatalf("after refused settings: %+v, status %q; want off", s.Amplify(), s.AmplifyStatus())
	}
	if err := s.SetAmplify(AmplifyView{On: true, X: 60, Y: -5, Size: 100, Factor: 8}); err != nil {
		t.Fatal(err)
	}
	if v := s.Amplify(); v != (AmplifyView{On: true, X: 0, Y: 0, Size: 64, Factor: 8}) {
		t.Errorf("window 100 cells at (60, -5) on a 64² grid: %+v; want the whole grid", v)
	}
	if v := clampWindow(AmplifyView{X: 400, Size: 300, Factor: 8}, 512, 512); v.Size != MaxAmplifyFine/8 || v.X != 512-v.Size {
		t.Errorf("window 300 cells at 8× on a 512² grid: %+v; want %d cells (%d fine), inside the grid", v, MaxAmplifyFine/8, MaxAmplifyFine)
	}
	if err := s.SetAmplify(AmplifyView{On: true, X: 60, Y: 50, Size: 16, Factor: 4}); err != nil {
		t.Fatal(err)
	}
	if v := s.Amplify(); v.X != 48 || v.Y != 48 || v.Size != 16 {
		t.Errorf("window 16 cells at (60, 50) on a 64² grid: %+v; want it moved to (48, 48)", v)
	}
	if err := s.SetAmplify(AmplifyView{Size: 16, Factor: 4}); err != nil {
		t.Fatal(err)
	}
	if s.AmplifyPreview() != nil || s.AmplifyBusy() || s.AmplifyStatus() != "off" {
		t.Errorf("off: preview %v, busy %v, status %q", s.AmplifyPreview(), s.AmplifyBusy(), s.AmplifyStatus())
	}
	if !slices.ContainsFunc(*log, func(l string) bool { return strings.Contains(l, "amplify preview off") }) {
		t.Error("turning the preview off was not logged")
	}
}

// The preview amplifies the settled terrain under the window: the result
// is delivered for the newest request (a window moved before the first
// was done replaces it), at Factor times its size, with what the views
// draw; an error of sim/amplify would be shown in the status (the
// amplifier's tests make errors and panics happen).
func TestAmplifyPreview(t *testing.T) {
	s, _, _ := open(t, 64)
	steps(t, s, 40) // paused: the terrain stands still
	if err := s.SetAmplify(AmplifyView{On: true, X: 4, Y: 4, Size: 16, Factor: 4}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetAmplify(AmplifyView{On: true, X: 20, Y: 24, Size: 24, Factor: 4}); err != nil {
		t.Fatal(err)
	}
	p := amplified(t, s)
	if p.Req.X0 != 20 || p.Req.Y0 != 24 || p.Req.W != 24 || p.Req.Opt.Factor != 4 {
		t.Fatalf("preview of %+v; want the newest window, 24 cells at (20, 24), 4×", p.Req)
	}
	if p.Err != nil {
		if !strings.Contains(s.AmplifyStatus(), p.Err.Error()) {
			t.Errorf("status %q; want the error %q", s.AmplifyStatus(), p.Err)
		}
		t.Fatalf("amplify failed: %v", p.Err)
	}
	if p.Req.Snap != s.Frame().Snap {
		t.Errorf("preview of step %d; want the settled frame's, step %d", p.Req.Snap.Step, s.Frame().Snap.Step)
	}
	f := p.Fine
	if f.W != 96 || f.H != 96 || f.Cell != s.Frame().Snap.Cell/4 || len(f.Area) != 96*96 {
		t.Fatalf("fine snapshot %d×%d, cell %g m; want 96×96 at a quarter of %g m", f.W, f.H, f.Cell, s.Frame().Snap.Cell)
	}
	if st := s.AmplifyStatus(); !strings.HasPrefix(st, "amplified 24² → 96² in ") {
		t.Errorf("status %q", st)
	}
	// The terrain has not changed: no new request, the same preview.
	s.Sync()
	if s.AmplifyBusy() || s.AmplifyPreview() != p {
		t.Error("an unchanged settled terrain was amplified again")
	}
	// A new erodibility and steps on it change the terrain: amplified
	// again once they show.
	if err := s.SetParam("k", 2e-6); err != nil {
		t.Fatal(err)
	}
	steps(t, s, 5)
	q := amplified(t, s)
	if q == p || q.Req.Snap != s.Frame().Snap {
		t.Errorf("after 5 more steps the preview is of step %d; want step %d", q.Req.Snap.Step, s.Frame().Snap.Step)
	}
}

// The same terrain, window, factor and seed show the same fine terrain,
// whatever GOMAXPROCS.
func TestAmplifyDeterministic(t *testing.T) {
	s, _, _ := open(t, 64)
	steps(t, s, 30)
	v := AmplifyView{On: true, X: 10, Y: 12, Size: 20, Factor: 2}
	if err := s.SetAmplify(v); err != nil {
		t.Fatal(err)
	}
	p := amplified(t, s)
	if p.Err != nil {
		t.Fatal(p.Err)
	}
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	v.On = false
	if err := s.SetAmplify(v); err != nil {
		t.Fatal(err)
	}
	v.On = true
	if err := s.SetAmplify(v); err != nil {
		t.Fatal(err)
	}
	q := amplified(t, s)
	if q == p || q.Err != nil {
		t.Fatalf("second preview %v (err %v); want a new one", q == p, q.Err)
	}
	a, b := p.Fine, q.Fine
	if !slices.Equal(a.Height, b.Height) || !slices.Equal(a.Area, b.Area) || !slices.Equal(a.Water, b.Water) || !slices.Equal(a.Receivers, b.Receivers) {
		t.Error("Mismatch concurrent: the same window amplified at GOMAXPROCS 1 differs")
	}
}

// The window and factor are kept in the project's view; on or off is not.
func TestAmplifySaved(t *testing.T) {
	s, _, _ := open(t, 64)
	if err := s.SetAmplify(AmplifyView{On: true, X: 7, Y: 9, Size: 20, Factor: 8}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p"+ProjectExt)
	if err := s.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	if err := s.SetAmplify(AmplifyView{Size: 32, Factor: 2}); err != nil {
		t.Fatal(err)
	}
	if err := s.Open(path); err != nil {
		t.Fatal(err)
	}
	if v := s.Amplify(); v != (AmplifyView{X: 7, Y: 9, Size: 20, Factor: 8}) {
		t.Errorf("reopened: %+v; want the saved window 20 cells at (7, 9), 8×, off as it was", v)
	}
	for _, c := range []struct {
		extra map[string]string
		want  AmplifyView
		err   string
	}{
		{nil, AmplifyView{Size: DefaultAmplifySize, Factor: DefaultAmplifyFactor}, ""},
		{map[string]string{"amplify_window": "1 2 3"}, AmplifyView{Size: DefaultAmplifySize, Factor: DefaultAmplifyFactor}, "SIZE at least 4"},
		{map[string]string{"amplify_window": "1 -2 30", "amplify_factor": "5"}, AmplifyView{Size: DefaultAmplifySize, Factor: DefaultAmplifyFactor}, "want 2, 4 or 8"},
		{map[string]string{"amplify_window": "5 6 40", "amplify_factor": "2"}, AmplifyView{X: 5, Y: 6, Size: 40, Factor: 2}, ""},
	} {
		v, err := AmplifyViewOf(c.extra)
		if v != c.want || (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("AmplifyViewOf(%v) = %+v, %v; want %+v, error with %q", c.extra, v, err, c.want, c.err)
		}
	}
}

// FuzzAmplifyViewOf: whatever a project's view holds, the preview's
// settings read from it are usable (a valid factor, a window of at least
// MinAmplifySize cells at a corner on or past the grid's origin), never a
// panic; good values read back as they were written.
func FuzzAmplifyViewOf(f *testing.F) {
	f.Add("5 6 40", "2")
	f.Add("1 2 3", "5")
	f.Add("-1 0 9999999999999999999", "")
	f.Add("", "８")
	f.Fuzz(func(t *testing.T, window, factor string) {
		v, err := AmplifyViewOf(map[string]string{extraAmplifyWindow: window, extraAmplifyFactor: factor})
		if !ValidFactor(v.Factor) || v.Size < MinAmplifySize || v.X < 0 || v.Y < 0 || v.On {
			t.Fatalf("AmplifyViewOf(%q, %q) = %+v; want usable settings", window, factor, v)
		}
		if err == nil {
			var w struct{ x, y, size int }
			if _, e := fmt.Sscanf(window, "%d %d %d", &w.x, &w.y, &w.size); e == nil && (w.x != v.X || w.y != v.Y || w.size != v.Size) {
				t.Fatalf("AmplifyViewOf(%q) = %+v; want the window as written", window, v)
			}
		}
	})
}

// A new document is amplified from its own frames: the worker's last
// frame of the old one, still published until the new engine's first, is
// not amplified.
func TestAmplifyNewDocument(t *testing.T) {
	s, _, _ := open(t, 64)
	steps(t, s, 30)
	if err := s.SetAmplify(AmplifyView{On: true, X: 8, Y: 8, Size: 16, Factor: 2}); err != nil {
		t.Fatal(err)
	}
	old := amplified(t, s)
	stale := s.Frame()
	d, err := LoadScene("", 64)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.setDoc(d, ""); err != nil {
		t.Fatal(err)
	}
	if p := s.AmplifyPreview(); p != nil {
		t.Errorf("the old document's preview (step %d) is still offered", p.Req.Snap.Step)
	}
	// The old document's last frame, as Sync may see it before the worker
	// has taken the new one: not amplified.
	s.syncAmplify(stale)
	if s.AmplifyBusy() || s.amp.sentSnap != nil {
		t.Error("the old document's last frame was amplified for the new one")
	}
	p := amplified(t, s)
	if p == old || p.Req.Snap == old.Req.Snap || p.Req.Snap != s.Frame().Snap || p.Req.Snap.Step != 0 {
		t.Errorf("new document's preview of step %d; want its own flat start, step 0", p.Req.Snap.Step)
	}
	if !s.Amplify().On {
		t.Error("the preview turned off with the new document")
	}
}
