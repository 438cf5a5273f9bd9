package brushes

import (
	"fmt"
	"image"
)

// TileSize is the side in pixels of the square tiles that undo records
// keep: tile (tx, ty) covers pixels [tx·TileSize, (tx+1)·TileSize) ×
// [ty·TileSize, (ty+1)·TileSize), clipped to the layer.
const TileSize = 1 << tileShift

const (
	tileShift = 6
	tileMask  = TileSize - 1
)

// tile is a saved copy of one tile of a layer.
type tile struct {
	x0, y0, w, h int // pixel rectangle in the layer
	data         []float32
}

// saveTile copies tile (tx, ty) of f's data (w×h pixels in all).
func saveTile(data []float32, w, h, tx, ty int) tile {
	t := tile{x0: tx << tileShift, y0: ty << tileShift}
	t.w = min(TileSize, w-t.x0)
	t.h = min(TileSize, h-t.y0)
	t.data = make([]float32, t.w*t.h)
	for y := range t.h {
		i := (t.y0+y)*w + t.x0
		copy(t.data[y*t.w:(y+1)*t.w], data[i:i+t.w])
	}
	return t
}

// swap exchanges the tile's saved pixels with the layer's.
func (t *tile) swap(data []float32, w int) {
	for y := range t.h {
		i := (t.y0+y)*w + t.x0
		a := data[i : i+t.w]
		b := t.data[y*t.w : (y+1)*t.w]
		for j := range a {
			a[j], b[j] = b[j], a[j]
		}
	}
}

// An Edit is the undo record of one stroke: a copy of every tile the stroke
// touched. While the edit is done the copies hold the tiles as they were
// before the stroke; Undo swaps them with the layer's pixels, so they then
// hold the tiles as they were after the stroke, and Redo swaps back. Both
// restore exact bytes, and the record's memory is proportional to the area
// the stroke touched.
//
// Edits of one layer must be undone in the reverse order of their strokes
// and redone in the order of the strokes, as an undo stack does: undoing a
// stroke puts back whole tiles, which would also put back older pixels of
// any later stroke that touched them.
type Edit struct {
	layer  *Layer
	w, h   int
	tiles  []tile
	bounds image.Rectangle
	undone bool
}

// Undo restores the layer's pixels to what they were before the stroke and
// returns the rectangle of pixels that changed (the stroke's dirty
// rectangle). It panics if the edit is already undone.
func (e *Edit) Undo() image.Rectangle {
	if e.undone {
		panic("brushes: Undo of an edit that is already undone")
	}
	e.swap()
	e.undone = true
	return e.bounds
}

// Redo puts back the stroke's pixels after an Undo and returns the rectangle
// of pixels that changed. It panics unless the edit is undone.
func (e *Edit) Redo() image.Rectangle {
	if !e.undone {
		panic("brushes: Redo of an edit that is not undone")
	}
	e.swap()
	e.undone = false
	return e.bounds
}

func (e *Edit) swap() {
	f := e.layer.Field
	if f == nil || f.W != e.w || f.H != e.h || len(f.Data) != e.w*e.h {
		panic(fmt.Sprintf("brushes: undo record of a %d×%d layer applied to another field", e.w, e.h))
	}
	for i := range e.tiles {
		e.tiles[i].swap(f.Data, e.w)
	}
}

// Bounds returns the stroke's dirty rectangle: the union of its stamps,
// clipped to the layer. It is empty when the stroke changed nothing.
func (e *Edit) Bounds() image.Rectangle { return e.bounds }

// Undone reports whether the edit is undone.
func (e *Edit) Undone() bool { return e.undone }

// Tiles returns how many tiles the record holds.
func (e *Edit) Tiles() int { return len(e.tiles) }

// Bytes returns the memory the record's pixel copies take.
func (e *Edit) Bytes() int {
	n := 0
	for i := range e.tiles {
		n += 4 * len(e.tiles[i].data)
	}
	return n
}
