package brushes

import (
	"image"
	"strings"
	"testing"
)

// TestUndoRedo paints a stroke across tile borders of a layer whose size is
// not a multiple of the tile, then undoes and redoes it twice: each state
// comes back bit for bit.
func TestUndoRedo(t *testing.T) {
	for _, periodic := range []bool{false, true} {
		for k := range numKinds {
			l := randomLayer(300, 200, 31)
			l.Periodic = periodic
			for i := range l.Field.Data {
				l.Field.Data[i] += 0.5 // paint over the base, for Erase
			}
			pre := append([]float32(nil), l.Field.Data...)
			b := Brush{Kind: k, Falloff: FalloffSmooth, Radius: 23, Strength: 0.9, Value: 3, Spacing: 0.25, Seed: 5}
			s, err := Begin(l, b, 10, 10)
			if err != nil {
				t.Fatal(err)
			}
			s.To(290, 190) // crosses tiles and, when periodic, the borders
			s.To(100, 150)
			e, _ := s.End()
			post := append([]float32(nil), l.Field.Data...)
			if sameBits(pre, post) {
				t.Fatalf("%v: the stroke changed nothing", k)
			}
			for i := range 2 {
				if r := e.Undo(); r != e.Bounds() || !sameBits(l.Field.Data, pre) || !e.Undone() {
					t.Fatalf("%v (periodic %v): undo %d did not restore the bytes before the stroke", k, periodic, i)
				}
				if r := e.Redo(); r != e.Bounds() || !sameBits(l.Field.Data, post) || e.Undone() {
					t.Fatalf("%v (periodic %v): redo %d did not restore the bytes after the stroke", k, periodic, i)
				}
			}
		}
	}
}

// TestUndoStack undoes three overlapping strokes in reverse order and redoes
// them in order, checking every state.
func TestUndoStack(t *testing.T) {
	l := randomLayer(150, 130, 32)
	states := [][]float32{append([]float32(nil), l.Field.Data...)}
	var edits []*Edit
	for i, k := range []Kind{Raise, Smooth, Noise} {
		b := Default(k)
		b.Radius = 20
		s, _ := Begin(l, b, float64(20+30*i), 30)
		s.To(float64(100-20*i), 110)
		e, _ := s.End()
		edits = append(edits, e)
		states = append(states, append([]float32(nil), l.Field.Data...))
	}
	for i := len(edits) - 1; i >= 0; i-- {
		edits[i].Undo()
		if !sameBits(l.Field.Data, states[i]) {
			t.Fatalf("undo of stroke %d: got other bytes than before it", i)
		}
	}
	for i, e := range edits {
		e.Redo()
		if !sameBits(l.Field.Data, states[i+1]) {
			t.Fatalf("redo of stroke %d: got other bytes than after it", i)
		}
	}
}

// TestUndoMemory checks that a record holds the tiles its stamps touched
// and no others.
func TestUndoMemory(t *testing.T) {
	l := randomLayer(1024, 1024, 1)
	b := Brush{Kind: Raise, Falloff: FalloffSmooth, Radius: 10, Strength: 0.5, Spacing: 0.25}
	// Within one tile.
	e := stampOnce(t, l, b, 100, 100)
	if e.Tiles() != 1 || e.Bytes() != 4*TileSize*TileSize {
		t.Errorf("a stamp inside one tile: got %d tiles, %d bytes; want 1 tile of %d bytes", e.Tiles(), e.Bytes(), 4*TileSize*TileSize)
	}
	// A stamp over a tile corner touches four.
	if e := stampOnce(t, l, b, 128, 192); e.Tiles() != 4 {
		t.Errorf("a stamp over a tile corner: got %d tiles; want 4", e.Tiles())
	}
	// A horizontal stroke 1000 pixels long along row 300 touches the
	// tiles of rows 4 (256..319) and, with radius 10 reaching row 290,
	// no other row: 16 tiles, not the layer's 256.
	s, _ := Begin(l, b, 10, 300)
	s.To(1010, 300)
	e, _ = s.End()
	if e.Tiles() != 16 {
		t.Errorf("a 1000-pixel stroke along row 300: got %d tiles; want 16", e.Tiles())
	}
	// Tiles at the layer's edge hold only their pixels in the layer.
	// Tile (1, 1) of a 100×70 layer is 36×6 pixels.
	l = randomLayer(100, 70, 1)
	b.Radius = 4
	e = stampOnce(t, l, b, 99, 69)
	if want := 4 * 36 * 6; e.Tiles() != 1 || e.Bytes() != want {
		t.Errorf("a stamp in the corner of a 100×70 layer: got %d tiles, %d bytes; want 1 tile of %d bytes", e.Tiles(), e.Bytes(), want)
	}
	if want := image.Rect(95, 65, 100, 70); e.Bounds() != want {
		t.Errorf("a stamp of radius 4 at (99, 69): got bounds %v; want %v", e.Bounds(), want)
	}
}

func TestUndoPanics(t *testing.T) {
	mustPanic := func(name, want string, f func()) {
		t.Helper()
		defer func() {
			r := recover()
			if s, ok := r.(string); !ok || !strings.Contains(s, want) {
				t.Errorf("%s: got panic %v; want one with %q", name, r, want)
			}
		}()
		f()
	}
	l := randomLayer(32, 32, 1)
	e := stampOnce(t, l, Default(Raise), 5, 5)
	mustPanic("Redo before Undo", "not undone", func() { e.Redo() })
	e.Undo()
	mustPanic("Undo twice", "already undone", func() { e.Undo() })
	l.Field = randomLayer(16, 16, 1).Field
	mustPanic("Redo on another field", "applied to another field", func() { e.Redo() })
}
