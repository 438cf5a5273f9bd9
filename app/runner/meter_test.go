package runner

import (
	"math"
	"testing"
	"time"
)

// TestMeter feeds the rate meter made-up step times.
func TestMeter(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	var m meter
	if got := m.perSec(); got != 0 {
		t.Fatalf("before any step: %g steps/s; want 0", got)
	}
	// 10 ms steps for 3 s: 100 steps/s over the last second.
	m.begin(at(0))
	for k := 1; k <= 300; k++ {
		m.begin(at(10*k - 10)) // no-op inside a streak
		m.add(at(10 * k))
	}
	if got := m.perSec(); math.Abs(got-100) > 1e-9 {
		t.Fatalf("10 ms steps: %g steps/s; want 100", got)
	}
	if live := len(m.ends) - m.head; live > 102 {
		t.Fatalf("%d step times kept; want about one second's worth (<= 102)", live)
	}
	// Then 50 ms steps: after a second, 20 steps/s.
	for k := 1; k <= 20; k++ {
		m.add(at(3000 + 50*k))
	}
	if got := m.perSec(); math.Abs(got-20) > 1e-9 {
		t.Fatalf("50 ms steps: %g steps/s; want 20", got)
	}
	// Steps longer than the window: the rate of the last one.
	for k := 1; k <= 3; k++ {
		m.add(at(4000 + 2500*k))
	}
	if got := m.perSec(); math.Abs(got-0.4) > 1e-9 {
		t.Fatalf("2.5 s steps: %g steps/s; want 0.4", got)
	}
	// A pause, then one 40 ms step: counted from the new start.
	m.stop()
	m.begin(at(20000))
	m.add(at(20040))
	if got := m.perSec(); math.Abs(got-25) > 1e-9 {
		t.Fatalf("first step after a pause: %g steps/s; want 25", got)
	}
}
