package session

import (
	"testing"

	"orogen/app/scene"
)

// BenchmarkConstraintFrame is the UI thread's per-frame work that
// elevation constraints add at 512²: the session's Sync (which checks the
// constraints against the solver's) and the Constraints panel's list of
// target, current height and error, with a pin and a 64-vertex curve.
// Compare BenchmarkSyncNoConstraints, the same frame without them.
func BenchmarkConstraintFrame(b *testing.B) {
	s := benchSession(b, true)
	b.ResetTimer()
	for b.Loop() {
		s.Sync()
		if len(s.Constraints()) != 2 {
			b.Fatal("want 2 constraints")
		}
	}
}

func BenchmarkSyncNoConstraints(b *testing.B) {
	s := benchSession(b, false)
	b.ResetTimer()
	for b.Loop() {
		s.Sync()
		_ = s.Constraints()
	}
}

func benchSession(b testing.TB, constraints bool) *Session {
	b.Helper()
	b.Setenv("OROGEN_CONFIG_DIR", b.TempDir())
	d, err := LoadScene("", 512)
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(d, "", Options{Paused: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	if !constraints {
		return s
	}
	sc := s.Doc().Scene()
	c := sc.DomainM / 512
	if err := s.AddConstraint(scene.NewPoint(256*c, 256*c, 1500)); err != nil {
		b.Fatal(err)
	}
	var curve [][]float64
	for k := range 64 {
		curve = append(curve, []float64{(100 + 4*float64(k)) * c, (300 + float64(k%7)) * c, 1700})
	}
	if err := s.AddConstraint(scene.Constraint{Curve: curve}); err != nil {
		b.Fatal(err)
	}
	s.Sync()
	return s
}

// TestConstraintBenchFixture checks what the benchmarks measure: the
// frame's constraints are a point and a curve, and a drag's height reaches
// the document as the drag benchmark sets it.
func TestConstraintBenchFixture(t *testing.T) {
	s := benchSession(t, true)
	st := s.Constraints()
	if len(st) != 2 || st[0].Kind != "point" || st[1].Kind != "curve" {
		t.Fatalf("constraints %+v; want a point and a curve", st)
	}
	c := s.Doc().Scene().Constraints[1].Clone()
	c.Curve[3][2] = 1723
	if err := s.SetConstraint(1, c.Clone(), "drag"); err != nil {
		t.Fatal(err)
	}
	s.Sync()
	if got := s.Doc().Scene().Constraints[1].Curve[3][2]; got != 1723 {
		t.Errorf("the dragged vertex stands at %g m; want 1723", got)
	}
}

// BenchmarkConstraintHeightDrag is a frame of a height drag on the map at
// 512²: the vertex's new height (one merged undo entry), then Sync, which
// rasterizes the constraints again, carries the factors over and sends
// the engine the new uplift.
func BenchmarkConstraintHeightDrag(b *testing.B) {
	s := benchSession(b, true)
	c := s.Doc().Scene().Constraints[1].Clone()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c.Curve[3][2] = 1700 + float64(i%50)
		if err := s.SetConstraint(1, c.Clone(), "drag"); err != nil {
			b.Fatal(err)
		}
		s.Sync()
	}
}
