package flow

import (
	"math"
	"slices"
	"testing"
)

// TestRandomize: on a plane tilted 30° off the x axis, D8 sends every
// cell east; the randomized hillslope routing sends cells to several
// downhill neighbours, in proportions that follow the slope weights (the
// mean receiver direction is the gradient's, within a few degrees), every
// receiver downhill, channels (area >= channel) untouched, and a second
// call on the same heights keeps every choice.
func TestRandomize(t *testing.T) {
	const w, h = 64, 64
	hs := make([]float32, w*h)
	a := 30 * math.Pi / 180
	for y := range h {
		for x := range w {
			hs[y*w+x] = float32(1000 - 10*(math.Cos(a)*float64(x)+math.Sin(a)*float64(y)))
		}
	}
	edges := Edges{North: Outlet, South: Outlet, East: Outlet, West: Outlet}
	g := NewGraph(w, h, 10, edges, 0)
	g.Route(hs)
	d8 := slices.Clone(g.Rec)
	area := make([]float64, w*h)
	area[20*w+20] = 1e9 // a channel cell
	g.Randomize(hs, area, 1e6, 7)
	var sx, sy float64
	dirs := map[int32]int{}
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			r := g.Rec[i]
			if !(hs[r] < hs[i]) {
				t.Fatalf("cell %d: receiver %d not downhill", i, r)
			}
			dx, dy := float64(int(r)%w-x), float64(int(r)/w-y)
			dirs[r-int32(i)]++
			l := math.Hypot(dx, dy)
			sx, sy = sx+dx/l, sy+dy/l
		}
	}
	if g.Rec[20*w+20] != d8[20*w+20] {
		t.Errorf("the channel cell changed receiver")
	}
	if len(dirs) < 3 {
		t.Errorf("receivers in %d directions; want several", len(dirs))
	}
	if got := math.Atan2(sy, sx) * 180 / math.Pi; math.Abs(got-30) > 5 {
		t.Errorf("mean receiver direction %.1f°; want the gradient's 30°", got)
	}
	first := slices.Clone(g.Rec)
	g.Route(hs)
	g.Randomize(hs, area, 1e6, 7)
	if !slices.Equal(first, g.Rec) {
		t.Errorf("a second call changed receivers on the same heights")
	}
}
