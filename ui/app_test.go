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

// TestStepTime: the status line shows the simulated time while every step
// was the user's dt, and no time once settling lengthened steps (the sum
// of 4096-fold steps read 84 Gyr).
func TestStepTime(t *testing.T) {
	for _, c := range []struct {
		yr, dt    float64
		steps     int
		converged bool
		want      string
	}{
		{2.5e7, 2.5e5, 100, false, "25 Myr"},
		{3e9, 2.5e5, 100, false, "settling on longer steps"},
		{8.4e10, 2.5e5, 124, true, "steady state"},
		{1.2e9, 1e7, 120, true, "1.2 Gyr"},
		{500, 100, 5, false, "500 yr"},
	} {
		if got := stepTime(c.yr, c.steps, c.dt, c.converged); got != c.want {
			t.Errorf("stepTime(%g yr, %d steps of %g) = %q; want %q", c.yr, c.steps, c.dt, got, c.want)
		}
	}
}
