package ui

import (
	"image"
	"testing"
)

// TestAround: the backdrop's rectangles cover every pixel of the screen
// outside the holes once, and none inside them, for holes apart,
// touching, overlapping, past the screen's edge and empty.
func TestAround(t *testing.T) {
	r := image.Rect(0, 0, 40, 30)
	cases := [][]image.Rectangle{
		nil,
		{{}},
		{image.Rect(5, 5, 15, 20)},
		{image.Rect(5, 5, 15, 20), image.Rect(20, 8, 35, 25)},  // split: side by side
		{image.Rect(5, 5, 15, 20), image.Rect(15, 2, 30, 20)},  // touching
		{image.Rect(5, 5, 25, 20), image.Rect(10, 10, 35, 28)}, // overlapping
		{image.Rect(-5, -5, 10, 50), image.Rect(30, 0, 60, 30)},
		{image.Rect(0, 0, 40, 30)},
	}
	for ci, holes := range cases {
		n := make([]int, r.Dx()*r.Dy())
		for _, q := range around(r, holes) {
			if q.Empty() || !q.In(r) {
				t.Errorf("case %d: rectangle %v empty or off the screen %v", ci, q, r)
			}
			for y := q.Min.Y; y < q.Max.Y; y++ {
				for x := q.Min.X; x < q.Max.X; x++ {
					n[y*r.Dx()+x]++
				}
			}
		}
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				in := false
				for _, h := range holes {
					in = in || image.Pt(x, y).In(h)
				}
				if want := map[bool]int{false: 1, true: 0}[in]; n[y*r.Dx()+x] != want {
					t.Fatalf("case %d: pixel %d,%d filled %d times; want %d (in a hole: %v)", ci, x, y, n[y*r.Dx()+x], want, in)
				}
			}
		}
	}
}

// TestInside: the rectangle a picture covers lies a pixel in from the
// edges of the drawn quad, whatever the fractions.
func TestInside(t *testing.T) {
	for _, c := range []struct {
		x0, y0, x1, y1 float64
		want           image.Rectangle
	}{
		{10, 20, 110, 220, image.Rect(11, 21, 109, 219)},
		{10.2, 20.7, 109.9, 219.1, image.Rect(12, 22, 108, 218)},
		{10, 10, 12, 12, image.Rectangle{}},
	} {
		if got := inside(c.x0, c.y0, c.x1, c.y1); got != c.want {
			t.Errorf("inside(%v, %v, %v, %v) = %v; want %v", c.x0, c.y0, c.x1, c.y1, got, c.want)
		}
	}
}
