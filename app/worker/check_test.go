package worker

import (
	"testing"

	"orogen/sim/engine"
)

// TestCheckSnapshotCatchesMixing makes sure the consistency check of
// TestSnapshotsConsistent has teeth: snapshots stitched from two steps
// fail it.
func TestCheckSnapshotCatchesMixing(t *testing.T) {
	e, err := gridEngine(lakeConfig(t, 48))
	if err != nil {
		t.Fatal(err)
	}
	e.Step()
	a := e.Snapshot()
	e.Step()
	b := e.Snapshot()
	for _, s := range []*engine.Snapshot{a, b} {
		if err := checkSnapshot(s); err != nil {
			t.Fatalf("a real snapshot fails the check: %v", err)
		}
	}
	for _, tc := range []struct {
		name string
		mix  func(s *engine.Snapshot)
	}{
		{"receivers of the next step", func(s *engine.Snapshot) { s.Receivers = b.Receivers }},
		{"area of the next step", func(s *engine.Snapshot) { s.Area = b.Area }},
		{"heights of the next step", func(s *engine.Snapshot) { s.Height = b.Height }},
		{"stats of the next step", func(s *engine.Snapshot) { s.Stats = b.Stats }},
	} {
		s := *a
		tc.mix(&s)
		if err := checkSnapshot(&s); err == nil {
			t.Errorf("%s: the check passes a mixed snapshot; want an error", tc.name)
		} else {
			t.Logf("%s: %v", tc.name, err)
		}
	}
}
