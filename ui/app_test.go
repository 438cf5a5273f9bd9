package ui

import (
	"testing"

	"orogen/app/prefs"
)

// TestKeepWindowSize: a closed window's 0×0 never reaches the settings
// (it made every start warn "window size out of range"); a real size does,
// and the settings then pass their own check.
func TestKeepWindowSize(t *testing.T) {
	p := prefs.Default()
	keepWindowSize(&p, 0, 0)
	if d := prefs.Default(); p.WindowW != d.WindowW || p.WindowH != d.WindowH {
		t.Fatalf("after 0×0: %d×%d; want the defaults kept", p.WindowW, p.WindowH)
	}
	keepWindowSize(&p, 1280, 800)
	if p.WindowW != 1280 || p.WindowH != 800 {
		t.Fatalf("after 1280×800: %d×%d", p.WindowW, p.WindowH)
	}
}
