package uplifttree

import (
	"image"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"orogen/sim"
)

// TestEvalMatchesRasterize checks that Eval at a cell centre gives the bits
// Rasterize stores (after the float32 conversion), on random trees of every
// node type: the pruning by boxes never changes a value, whether the span
// is a tile or a single point.
func TestEvalMatchesRasterize(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	layers := testLayers()
	for k := range 6 {
		tr := randTree(t, r, 120)
		tr.SetLayers(layers)
		const n = 48
		f := raster(tr, n, nil)
		c := world / n
		for j := range n {
			for i := range n {
				got := f.Data[j*n+i]
				want := float32(tr.Eval((float64(i)+0.5)*c, (float64(j)+0.5)*c))
				if math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("tree %d, cell (%d, %d): Rasterize gave %v; Eval gives %v", k, i, j, got, want)
				}
			}
		}
	}
}

// TestRasterizeConcurrency rasterizes with 1 and with 4 workers and demands
// identical bytes.
func TestRasterizeConcurrency(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	tr := randTree(t, r, 200)
	layers := testLayers()
	prev := runtime.GOMAXPROCS(1)
	serial := raster(tr, 100, layers)
	runtime.GOMAXPROCS(4)
	conc := raster(tr, 100, layers)
	runtime.GOMAXPROCS(prev)
	if i := firstDiff(serial, conc); i >= 0 {
		t.Fatalf("Mismatch concurrent at cell %d: got %v; want %v", i, conc.Data[i], serial.Data[i])
	}
}

// TestRasterizeRect re-rasterizes odd rectangles (not aligned to tiles) of
// a zeroed field and compares with the full raster.
func TestRasterizeRect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	tr := randTree(t, r, 150)
	layers := testLayers()
	full := raster(tr, 90, layers)
	for range 20 {
		x0, y0 := r.IntN(90), r.IntN(90)
		rect := image.Rect(x0, y0, x0+1+r.IntN(60), y0+1+r.IntN(60))
		part := sim.NewField(90, 90, full.Cell)
		tr.RasterizeRect(part, Domain(part), rect, layers)
		for j := range 90 {
			for i := range 90 {
				got, want := part.Data[j*90+i], float32(0)
				if (image.Point{i, j}).In(rect) {
					want = full.Data[j*90+i]
				}
				if math.Float32bits(got) != math.Float32bits(want) {
					t.Fatalf("rect %v, cell (%d, %d): got %v; want %v", rect, i, j, got, want)
				}
			}
		}
	}
}

// TestCellRect checks the cells found for world rectangles.
func TestCellRect(t *testing.T) {
	f := sim.NewField(100, 50, 10) // 1000 × 500 m
	d := Domain(f)
	cases := []struct {
		r    Rect
		want image.Rectangle
	}{
		{Rect{100, 100, 200, 150}, image.Rect(9, 9, 21, 16)},
		{Rect{-50, -50, 5, 5}, image.Rect(0, 0, 2, 2)},
		{Everywhere, image.Rect(0, 0, 100, 50)},
		{Empty, image.Rectangle{}},
		{Rect{2000, 0, 3000, 10}, image.Rectangle{}},
		{Rect{math.NaN(), 0, 1, 1}, image.Rect(0, 0, 100, 50)},
	}
	for _, c := range cases {
		if got := CellRect(f, d, c.r); got != c.want {
			t.Errorf("CellRect(%v) = %v; want %v", c.r, got, c.want)
		}
	}
	// Every cell whose centre lies in the rectangle is included.
	r := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		q := Rect{rnd(r, -100, 1100), rnd(r, -100, 600), 0, 0}
		q.X1, q.Y1 = q.X0+rnd(r, 0, 300), q.Y0+rnd(r, 0, 300)
		c := CellRect(f, d, q)
		for j := range 50 {
			for i := range 100 {
				p := Point{(float64(i) + 0.5) * 10, (float64(j) + 0.5) * 10}
				if q.Contains(p) && !(image.Point{i, j}).In(c) {
					t.Fatalf("CellRect(%v) = %v misses cell (%d, %d)", q, c, i, j)
				}
			}
		}
	}
}

// TestConcurrentReads runs Eval, Pick, Rasterize and Marshal from several
// goroutines on a tree whose compiled form is stale (after an Undo), as
// the package documentation allows; run it with -race.
func TestConcurrentReads(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	tr := randTree(t, r, 60)
	tr.SetLayers(testLayers())
	e, _ := randEdit(t, r, tr)
	if err := e.Undo(tr); err != nil {
		t.Fatal(err)
	}
	want := raster(tr.Clone(), 32, testLayers())
	done := make(chan *sim.Field)
	for g := range 4 {
		go func() {
			for k := range 20 {
				x, y := float64(g*1000+k*100), float64(k*400)
				tr.Eval(x, y)
				tr.Pick(x, y)
			}
			Marshal(tr)
			done <- raster(tr, 32, nil)
		}()
	}
	for range 4 {
		if i := firstDiff(<-done, want); i >= 0 {
			t.Errorf("concurrent raster differs at cell %d", i)
		}
	}
}
