package analyst

import (
	"strconv"
	"testing"
	"time"

	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/simtest"
)

func snapshot(step int, seed uint64) *engine.Snapshot {
	w, h := 80, 60
	s := &engine.Snapshot{W: w, H: h, Cell: 50, Step: step, Height: simtest.Rough(w, h, 300, seed)}
	s.Param.Edges = flow.Edges{North: flow.Natural, South: flow.Natural, East: flow.Natural, West: flow.Natural}
	return s
}

// Offers are analysed on the analyst's goroutine and published; the newest
// offer wins over a pending one; Latest is what was published.
func TestAnalystPublishes(t *testing.T) {
	a := New(0.5) // rest as long as it works: quick in a test
	defer a.Close()
	s1 := snapshot(1, 1)
	a.Offer(s1)
	a.Offer(s1) // the same snapshot again: ignored
	l := waitFor(t, a, s1)
	if l.Err != nil || l.Result == nil || l.Result.Hack == nil || len(l.HackA) == 0 || len(l.HackA) != len(l.HackL) {
		t.Fatalf("live %+v", l)
	}
	if b := l.Basins.Bounds(); b.Dx() != 80 || b.Dy() != 60 {
		t.Fatalf("basins %v; want one pixel per cell", b)
	}
	painted := 0
	for k := 3; k < len(l.Basins.Pix); k += 4 {
		if l.Basins.Pix[k] > 0 {
			painted++
		}
	}
	if painted == 0 {
		t.Error("no basin painted")
	}
	if a.Latest() != l {
		t.Error("Latest is not the published analysis")
	}
	// Offers while it works or rests: the last one is analysed at the end.
	var last *engine.Snapshot
	for k := 2; k < 12; k++ {
		last = snapshot(k, uint64(k))
		a.Offer(last)
	}
	waitFor(t, a, last)
}

// A flat terrain (an engine before its first step) is an error the panel
// shows, not a crash.
func TestAnalystFlat(t *testing.T) {
	s := snapshot(0, 1)
	for i := range s.Height {
		s.Height[i] = 0
	}
	if l := Measure(s); l.Err == nil || l.Result != nil {
		t.Fatalf("flat terrain: %+v; want an error", l)
	}
}

// waitFor reads published analyses until that of s (the test's deadline
// bounds it: a stuck analyst fails rather than hangs).
func waitFor(t *testing.T, a *Analyst, s *engine.Snapshot) *Live {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case l := <-a.Published():
			if l.Snap == s {
				return l
			}
		case <-timeout:
			t.Fatalf("no analysis of step %d published", s.Step)
		}
	}
}

// BenchmarkMeasure is the analyst's work per analysis (analysis, scatter
// points, basin picture, profile preparation) on a stream-power-like
// terrain; the analyst rests 19 times as long after each.
func BenchmarkMeasure(b *testing.B) {
	for _, n := range []int{256, 512, 1024} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			s := &engine.Snapshot{W: n, H: n, Cell: 30, Height: simtest.Rough(n, n, 500, 2)}
			s.Param.Edges = flow.Edges{North: flow.Natural, South: flow.Natural, East: flow.Natural, West: flow.Natural}
			b.ResetTimer()
			b.ReportAllocs()
			for range b.N {
				if l := Measure(s); l.Err != nil {
					b.Fatal(l.Err)
				}
			}
		})
	}
}
